"""The match page's analysis section: ``{% load analysis_tags %}{% analysis_summary match %}``
(matches imports no analysis: its template loads this tag)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from accounts.requests import context_user

from .. import selectors

register = template.Library()

#: The rows of the summary table: (our label, gnubg's section, gnubg's label; "{total}"
#: and "{rate}" are gnubg's units, by match or session).
ROWS = (
    (gettext_lazy("Chequer play"), None, None),
    (gettext_lazy("Unforced moves"), "Chequerplay statistics", "Unforced moves"),
    (gettext_lazy("Moves marked doubtful (?!)"), "Chequerplay statistics", "Moves marked doubtful"),
    (gettext_lazy("Moves marked bad (?)"), "Chequerplay statistics", "Moves marked bad"),
    (gettext_lazy("Moves marked very bad (??)"), "Chequerplay statistics", "Moves marked very bad"),
    (gettext_lazy("Error total {total}"), "Chequerplay statistics", "Error total {total}"),
    (gettext_lazy("Error rate {rate}"), "Chequerplay statistics", "Error rate {rate}"),
    (gettext_lazy("Chequer play rating"), "Chequerplay statistics", "Chequerplay rating"),
    (gettext_lazy("Cube decisions"), None, None),
    (
        gettext_lazy("Close or actual cube decisions"),
        "Cube statistics",
        "Close or actual cube decisions",
    ),
    (gettext_lazy("Doubles"), "Cube statistics", "Doubles"),
    (gettext_lazy("Takes"), "Cube statistics", "Takes"),
    (gettext_lazy("Drops"), "Cube statistics", "Passes"),
    (gettext_lazy("Error total {total}"), "Cube statistics", "Error total {total}"),
    (gettext_lazy("Error rate {rate}"), "Cube statistics", "Error rate {rate}"),
    (gettext_lazy("Cube decision rating"), "Cube statistics", "Cube decision rating"),
    (gettext_lazy("Overall"), None, None),
    (gettext_lazy("Error total {total}"), "Overall statistics", "Error total {total}"),
    (gettext_lazy("Error rate {rate}"), "Overall statistics", "Error rate {rate}"),
    (gettext_lazy("Snowie error rate"), "Overall statistics", "Snowie error rate"),
    (gettext_lazy("Overall rating"), "Overall statistics", "Overall rating"),
    (gettext_lazy("Luck"), None, None),
    (gettext_lazy("Rolls marked very lucky"), "Luck statistics", "Rolls marked very lucky"),
    (gettext_lazy("Rolls marked lucky"), "Luck statistics", "Rolls marked lucky"),
    (gettext_lazy("Rolls marked unlucky"), "Luck statistics", "Rolls marked unlucky"),
    (gettext_lazy("Rolls marked very unlucky"), "Luck statistics", "Rolls marked very unlucky"),
    (gettext_lazy("Luck total {total}"), "Luck statistics", "Luck total {total}"),
    (gettext_lazy("Luck rate {rate}"), "Luck statistics", "Luck rate {rate}"),
    (gettext_lazy("Luck rating"), "Luck statistics", "Luck rating"),
    (gettext_lazy("Actual result"), "Overall statistics", "Actual result"),
    (gettext_lazy("Luck adjusted result"), "Overall statistics", "Luck adjusted result"),
)


#: gnubg's names of its ratings (``gnubg_bridge.analysis.ERROR_RATINGS`` and
#: ``LUCK_RATINGS``), in the reader's language; the page keeps gnubg's own in a tooltip.
RATINGS = {
    "Awful!": pgettext_lazy("gnubg rating", "Awful!"),
    "Beginner": pgettext_lazy("gnubg rating", "Beginner"),
    "Casual player": pgettext_lazy("gnubg rating", "Casual player"),
    "Intermediate": pgettext_lazy("gnubg rating", "Intermediate"),
    "Advanced": pgettext_lazy("gnubg rating", "Advanced"),
    "Expert": pgettext_lazy("gnubg rating", "Expert"),
    "World class": pgettext_lazy("gnubg rating", "World class"),
    "Supernatural": pgettext_lazy("gnubg rating", "Supernatural"),
    "Go to bed": pgettext_lazy("gnubg luck rating", "Go to bed"),
    "Bad dice, man!": pgettext_lazy("gnubg luck rating", "Bad dice, man!"),
    "None": pgettext_lazy("gnubg luck rating", "None"),
    "Good dice, man!": pgettext_lazy("gnubg luck rating", "Good dice, man!"),
    "Go to Las Vegas": pgettext_lazy("gnubg luck rating", "Go to Las Vegas"),
    "n/a": pgettext_lazy("gnubg rating", "n/a"),
}
#: The rows whose figures are ratings (by gnubg's label).
RATING_ROWS = {"Chequerplay rating", "Cube decision rating", "Overall rating", "Luck rating"}


def _cell(key: str, text: str) -> dict[str, str]:
    """A figure as the table shows it: ``text``, and gnubg's own words in ``title`` when
    the page says them otherwise.

    A rating is a label, in the reader's language. gnubg prints its Snowie error rate
    with a match-winning-chance part that is always "(+0.000%)" (the rate has none):
    the page shows the rate alone, gnubg's digits."""
    if key in RATING_ROWS and text in RATINGS:
        shown = str(RATINGS[text])
        return {"text": shown, "title": f"GNU Backgammon: {text}" if shown != text else ""}
    if key == "Snowie error rate":
        return {"text": text.split("(")[0].strip(), "title": ""}
    return {"text": text, "title": ""}


def progress_text(state: dict[str, Any]) -> str:
    """ "Analysing game 3 of 7", or what stands for the state."""
    status = state["status"]
    if status == "running" and state["games_total"]:
        return _("Analysing game %(number)s of %(count)s") % {
            "number": min(state["games_done"] + 1, state["games_total"]),
            "count": state["games_total"],
        }
    if status in ("queued", "running"):
        return _("Queued for analysis")
    if status == "done":
        return _("Analysed")
    if status == "failed":
        return _("The analysis failed")
    return ""


def summary_rows(match_length: int, players: list[Any]) -> list[dict[str, Any]]:
    """The table's rows: a heading, or a label with White's and Black's figure (each a
    ``{"text", "title"}``)."""
    money = match_length == 0
    total = _("EMG (points)") if money else _("EMG (MWC)")
    rate = _("mEMG (points)") if money else _("mEMG (MWC)")
    gnubg_total = "EMG (Points)" if money else "EMG (MWC)"
    gnubg_rate = "mEMG (Points)" if money else "mEMG (MWC)"
    rows: list[dict[str, Any]] = []
    for label, section, key in ROWS:
        text = str(label).format(total=total, rate=rate)
        if section is None or key is None:
            rows.append({"heading": text})
            continue
        gnubg_key = key.format(total=gnubg_total, rate=gnubg_rate)
        texts = [str(p.texts.get(section, {}).get(gnubg_key, "")).strip() for p in players]
        if any(texts):
            rows.append({"label": text, "cells": [_cell(key, t) for t in texts]})
    rows.append(
        {
            "label": _("PR"),
            "cells": [_cell("PR", "" if p.pr is None else f"{p.pr:.2f}") for p in players],
        }
    )
    return rows


@register.inclusion_tag("analysis/_summary.html", takes_context=True)
def analysis_summary(context: template.Context, match: Any) -> dict[str, Any]:
    user = context_user(context)
    data = selectors.summary_context(match, user)
    analysis = data["analysis"]
    state = selectors.progress(analysis)
    return {
        **data,
        "csrf_token": context.get("csrf_token"),
        "state": state,
        "progress_text": progress_text(state),
        "rows": summary_rows(match.length, data["players"]) if data["players"] else [],
    }

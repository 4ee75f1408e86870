"""The game page's chouette panel (issue 16), ``{% load chouette_tags %}`` in
``templates/matches/game_detail.html``, and the dashboard's chouette decisions awaited
(``templates/matches/dashboard.html``): matches imports no chouettes, its templates
load these tags.

For a chouette's board, ``{% chouette_view game as chouette %}`` gives what the panel
shows the viewer: whose decision is awaited (the viewer's own in the second person, and
the game page's banner for a player of the chouette), the line-up with each member's
stake, the buttons the viewer may use now with the question each vote or answer asks
before it is sent (what it costs, as an ordinary game's take and drop say it), the
team's suggestions and chat (to the team only, never to the box), the table chat, and
the cube side's record (who proposed, agreed, took, dropped) with the captains who
played. For any other game it is None, without a query.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django import template

from matches.models import Game

from .. import selectors, texts
from ..models import ChouetteGame, Message, Seat, Suggestion
from ..selectors import Action, Panel

register = template.Library()


@dataclass
class ChouetteView:
    panel: Panel
    game: ChouetteGame
    board: Game
    lines: list[dict[str, Any]]
    #: Whom the game waits for, but the viewer (``you`` tells them).
    awaited: list[str]
    actions: tuple[Action, ...]
    decisions: list[str]
    captains: list[str]
    suggestions: list[Suggestion] = field(default_factory=list)
    team_messages: list[Message] = field(default_factory=list)
    table_messages: list[Message] = field(default_factory=list)
    #: The viewer reads the team's side (a team member of this game, or a moderator who
    #: holds no seat at the chouette).
    team_view: bool = False
    may_talk: bool = False
    may_talk_team: bool = False
    message_max_length: int = Message.MAX_LENGTH
    #: What the open page polls and compares (:func:`chouettes.selectors.board_stamp`).
    stamp: str = ""
    #: The viewer's own decision off the board, in the second person, with its deadline.
    you: str = ""
    #: The game page's banner for a player of the chouette ("": the board's own).
    banner: str = ""
    #: Each cube decision's question before it is sent, with its cost, by form action.
    confirm: dict[str, str] = field(default_factory=dict)


@register.simple_tag(takes_context=True)
def chouette_view(context: template.Context, game: Game) -> ChouetteView | None:
    if not game.match.chouette:
        return None
    chouette_game = (
        ChouetteGame.objects.select_related("chouette").filter(match_id=game.match_id).first()
    )
    if chouette_game is None:
        return None
    request = context.get("request")
    user = getattr(request, "user", None)
    chouette = chouette_game.chouette
    panel = selectors.panel(chouette, user, chouette_game)
    board = panel.board or game
    names = {line.seat.player_id: line.seat.player.public_name for line in panel.lines}
    readable = list(selectors.messages_for(chouette, user))
    team_view = selectors.team_view(chouette_game, user)
    seated = any(
        line.seat.player_id == getattr(user, "pk", None) and line.seat.status == Seat.Status.SEATED
        for line in panel.lines
    )
    live = chouette_game.settled_at is None and not board.is_finished
    viewer_id = user.pk if user is not None and user.is_authenticated else None
    return ChouetteView(
        panel=panel,
        game=chouette_game,
        board=board,
        lines=[
            {"line": line, "player": line.seat.player, "role": texts.ROLE_NAMES[line.role]()}
            for line in panel.lines
        ],
        awaited=texts.awaited_texts(panel, viewer_id),
        actions=panel.actions,
        decisions=[texts.decision_text(d, names) for d in selectors.decisions_of(chouette_game)],
        captains=texts.captain_texts(chouette_game, names),
        suggestions=list(selectors.suggestions_for(chouette_game, board, user))
        if team_view
        else [],
        team_messages=[m for m in readable if m.team and m.game_id == chouette_game.pk],
        table_messages=[m for m in readable if not m.team],
        team_view=team_view,
        may_talk=seated,
        may_talk_team=seated and live and selectors.in_team(chouette_game, user),
        stamp=selectors.board_stamp(chouette_game, game),
        you=texts.your_decision_text(panel, viewer_id, board_deadline=False),
        banner=texts.banner_text(panel, viewer_id),
        confirm=texts.confirm_texts(panel, viewer_id),
    )


@register.simple_tag(takes_context=True)
def chouette_decisions_awaited(context: template.Context) -> list[Seat]:
    """The signed-in player's seats whose vote or answer is awaited (none for a visitor)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return []
    return list(selectors.seats_awaited(user))

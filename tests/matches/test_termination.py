"""How a game ends is defined once, in the engine; the model takes its choices from it."""

from __future__ import annotations

from django.utils import translation

from gammon import Termination
from matches.models import TERMINATION_LABELS, Game


def test_the_stored_choices_are_the_engines_terminations() -> None:
    choices = Game._meta.get_field("termination").choices
    assert [value for value, _label in choices] == [t.value for t in Termination]


def test_every_termination_has_a_translated_label() -> None:
    assert set(TERMINATION_LABELS) == set(Termination)
    game = Game(termination=Termination.TIMEOUT)
    with translation.override("es"):
        assert game.get_termination_display() == "Tiempo agotado"

"""How the season's clients journal an action without a ply, and how verify judges it.

The 2-minute season failed once on its own client: a chat message whose first attempt
went unanswered (web1 killed) and whose retry was answered 201 was journaled as refused,
and verify then found it stored."""

import pytest

from deploy.cluster.players import outcome_of
from deploy.cluster.verify import once_as_journaled


@pytest.mark.parametrize(
    ("status", "outcome"),
    [
        (201, "ack"),
        (200, "ack"),
        (409, "refused"),
        (429, "refused"),
        (-201, "unknown"),
        (-409, "unknown"),
        (0, "unknown"),
    ],
)
def test_an_answer_after_an_unanswered_attempt_is_unknown(status: int, outcome: str) -> None:
    assert outcome_of(status) == outcome


@pytest.mark.parametrize(
    ("outcome", "stored", "held"),
    [
        ("ack", 1, True),
        ("ack", 0, False),
        ("ack", 2, False),
        ("refused", 0, True),
        ("refused", 1, False),
        ("unknown", 0, True),
        ("unknown", 1, True),
        ("unknown", 2, False),
    ],
)
def test_each_outcome_is_stored_as_often_as_it_says(outcome: str, stored: int, held: bool) -> None:
    assert once_as_journaled(outcome, stored) is held

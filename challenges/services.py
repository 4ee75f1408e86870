"""Challenges: offer a match, accept it (the match starts), decline or withdraw it,
and let old ones expire.

Each change sends a signal of :mod:`challenges.signals`; the players' notices listen.
A player's open challenges are limited (``LIMIT_OPEN_CHALLENGES``, and
``LIMIT_TO_ONE_PLAYER`` to one opponent), and so are the challenges they send an hour
(``LIMIT_INVITATIONS_PER_HOUR``, with the chouette invitations: each may e-mail
someone); see :mod:`backgammon.limits`.
"""

from __future__ import annotations

import math
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Min, QuerySet
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, InvalidAction, LimitReached, NotFound
from backgammon.limits import rate_check, wait_text_lazy
from gammon import Variant
from matches import record
from matches.models import MAX_CUBE_LIMIT, Match, Resignation
from matches.timecontrol import LIVE_DEFAULT

from .models import Challenge
from .signals import challenge_accepted, challenge_created, challenge_declined, rating_asked

CHALLENGE_VALIDITY = timedelta(days=14)
#: An open seek of live play waits this long in the lobby: "play now" means now.
LIVE_SEEK_VALIDITY = timedelta(minutes=30)
#: The highest bound of a rating range.
MAX_RATING_BOUND = 4000


@transaction.atomic
def challenge_create(
    *,
    challenger: User,
    now: datetime,
    opponent: User | None = None,
    variant: str = Variant.STANDARD.value,
    length: int = 5,
    days_per_move: int = 3,
    time_bank_days: int = 0,
    cube_limit: int | None = 64,
    jacoby: bool = False,
    automatic_doubles: bool = False,
    rated: bool = True,
    resignation: str = Resignation.OFFER.value,
    live_delay: int | None = None,
    live_reserve: int | None = None,
    timeout_loses_match: bool = False,
    rating_min: int | None = None,
    rating_max: int | None = None,
    bots_may_accept: bool = True,
    message: str = "",
    validity: timedelta = CHALLENGE_VALIDITY,
) -> Challenge:
    """Offer a match to ``opponent``, or to anyone when ``opponent`` is None.

    ``resignation``: how its games are resigned (``matches.models.Resignation``): by an
    offer the opponent answers (the standard), or at once, priced by the site's first
    rule (``immediate``).

    ``live_delay`` (seconds a turn) and ``live_reserve`` (seconds a player, 90 without
    it): a live clock instead of ``days_per_move`` (issue 28); an open one is a seek of
    the lobby, valid ``LIVE_SEEK_VALIDITY``. ``timeout_loses_match``: a claimed time-out
    loses the match rather than the game as a gammon (matches longer than one point).
    ``rating_min``, ``rating_max``: only a player rated within may accept (either may be
    left out). ``bots_may_accept``: a seek nobody takes within ``settings.BOT_SEEK_WAIT``
    seconds may be taken by a bot (``bots``, which hears ``challenge_created``)."""
    if opponent is not None and opponent.pk == challenger.pk:
        raise InvalidAction(_("You cannot challenge yourself."), code="self_challenge")
    if variant not in {v.value for v in Variant}:
        raise InvalidAction(_("Unknown variant."), code="variant")
    if length != 0 and not (1 <= length <= 25):
        raise InvalidAction(_("A match is 1 to 25 points long, or 0 for money."), code="length")
    if not 1 <= days_per_move <= 30:
        raise InvalidAction(_("Days per move must be from 1 to 30."), code="days_per_move")
    if not 0 <= time_bank_days <= 365:
        raise InvalidAction(_("The time bank must be from 0 to 365 days."), code="time_bank")
    if cube_limit is not None and (cube_limit < 1 or cube_limit & (cube_limit - 1)):
        raise InvalidAction(_("The cube limit must be a power of two."), code="cube_limit")
    if cube_limit is not None and cube_limit > MAX_CUBE_LIMIT:
        raise InvalidAction(
            _("The cube limit is at most %(max)s."), code="cube_limit", max=MAX_CUBE_LIMIT
        )
    if cube_limit is None and length != 0:
        raise InvalidAction(_("Only money sessions may play without a cube limit."), code="cube")
    if length != 0 and (jacoby or automatic_doubles):
        raise InvalidAction(
            _("Jacoby and automatic doubles are options of money sessions."), code="money_only"
        )
    if resignation not in Resignation.values:
        raise InvalidAction(_("Unknown way of resigning."), code="resignation")
    if live_delay is not None:
        live_reserve = LIVE_DEFAULT[1] if live_reserve is None else live_reserve
        if not 1 <= live_delay <= 600:
            raise InvalidAction(
                _("The delay of a live clock must be from 1 to 600 seconds."), code="live_delay"
            )
        if not 0 <= live_reserve <= 3600:
            raise InvalidAction(
                _("The reserve of a live clock must be from 0 to 3600 seconds."),
                code="live_reserve",
            )
        validity = min(validity, LIVE_SEEK_VALIDITY)
    elif live_reserve is not None:
        raise InvalidAction(
            _("A reserve goes with a live clock's delay per turn."), code="live_delay"
        )
    timeout_loses_match = bool(timeout_loses_match and live_delay is not None and length > 1)
    for bound in (rating_min, rating_max):
        if bound is not None and not 0 <= bound <= MAX_RATING_BOUND:
            raise InvalidAction(
                _("A rating range is from 0 to %(max)s."), code="rating_range", max=MAX_RATING_BOUND
            )
    if rating_min is not None and rating_max is not None and rating_min > rating_max:
        raise InvalidAction(
            _("The lowest rating of the range is above its highest."), code="rating_range"
        )
    if "\x00" in message:  # PostgreSQL cannot store it: refused here, not as a DataError
        raise InvalidAction(_("The message may not contain NUL characters."), code="message")
    challenge = Challenge(
        challenger=challenger,
        opponent=opponent,
        variant=variant,
        length=length,
        days_per_move=days_per_move,
        time_bank_days=time_bank_days,
        cube_limit=cube_limit,
        jacoby=jacoby,
        automatic_doubles=automatic_doubles,
        rated=rated,
        resignation=resignation,
        live_delay=live_delay,
        live_reserve=live_reserve,
        timeout_loses_match=timeout_loses_match,
        rating_min=rating_min,
        rating_max=rating_max,
        bots_may_accept=bots_may_accept,
        message=message[:200],
        created_at=now,
        expires_at=now + validity,
    )
    try:
        challenge.full_clean(exclude=["match"])
    except ValidationError as error:  # a model rule the checks above do not name yet
        raise InvalidAction(error.messages[0], code="invalid_challenge") from error
    _check_limits(challenger, opponent, now)
    challenge.save()
    challenge_created.send(sender=Challenge, challenge=challenge, now=now)
    return challenge


def _check_limits(challenger: User, opponent: User | None, now: datetime) -> None:
    """Refuse a challenge past the challenger's limits (429, nothing made): their open
    challenges, those to ``opponent``, and the challenges and invitations sent this hour.

    The counts are exact: read here with the challenger's row locked, so that two
    challenges sent at once are counted one after the other (the limit on matches
    against the computer, checked when the bot accepts, counts under the same lock). A
    refusal says when the first of them lapses, the one time known to free a place. The
    rate comes last, so that a challenge refused for anything else spends none of it.
    """
    list(User.objects.select_for_update().filter(pk=challenger.pk).values_list("pk"))
    open_ = Challenge.objects.filter(
        challenger=challenger, status=Challenge.Status.OPEN, expires_at__gt=now
    )
    count, first_lapse = _count_and_first_lapse(open_)
    if count >= settings.LIMIT_OPEN_CHALLENGES:
        wait = _seconds_until(first_lapse, now)
        raise LimitReached(
            _(
                "You have %(limit)s open challenges, the most a player may have: withdraw "
                "one, or try again in %(wait)s, when the first of them lapses."
            ),
            code="too_many_open_challenges",
            retry_after=wait,
            limit=settings.LIMIT_OPEN_CHALLENGES,
            wait=wait_text_lazy(wait),
        )
    if opponent is not None:
        count, first_lapse = _count_and_first_lapse(open_.filter(opponent=opponent))
        if count >= settings.LIMIT_TO_ONE_PLAYER:
            wait = _seconds_until(first_lapse, now)
            raise LimitReached(
                _(
                    "You have %(limit)s open challenges to %(name)s, the most to one player: "
                    "withdraw one, or try again in %(wait)s, when the first of them lapses."
                ),
                code="too_many_challenges_to_player",
                retry_after=wait,
                limit=settings.LIMIT_TO_ONE_PLAYER,
                name=opponent.public_name,
                wait=wait_text_lazy(wait),
            )
    rate_check("invitations", challenger.pk)


def _count_and_first_lapse(challenges: QuerySet[Challenge]) -> tuple[int, datetime | None]:
    row = challenges.aggregate(count=Count("pk"), first=Min("expires_at"))
    return int(row["count"]), row["first"]


def _seconds_until(moment: datetime | None, now: datetime) -> int:
    if moment is None:
        return 1
    return max(1, math.ceil((moment - now).total_seconds()))


@transaction.atomic
def challenge_rematch(*, match_id: int, user: User, now: datetime) -> Challenge:
    """Offer the other player of a finished match a new one with the same options.

    Only its two players may, once it is over; a rematch already offered and still open
    is not offered twice (a second click would otherwise send a second challenge).
    """
    try:
        match = Match.objects.select_related("white", "black").get(pk=match_id)
    except Match.DoesNotExist:
        raise NotFound(_("No such match.")) from None
    if user.pk not in (match.white_id, match.black_id):
        raise Forbidden(_("Only the players of a match can ask for a rematch."))
    if match.status != Match.Status.FINISHED:
        raise Conflict(
            _("This match is still in play: a rematch is offered once it is over."),
            code="match_in_play",
        )
    opponent = match.black if user.pk == match.white_id else match.white
    assert isinstance(opponent, User)
    if not opponent.is_active:
        raise InvalidAction(_("This player can no longer be challenged."), code="opponent")
    options: dict[str, Any] = {
        "variant": match.variant,
        "length": match.length,
        "days_per_move": match.days_per_move,
        "time_bank_days": match.time_bank_days,
        "cube_limit": match.cube_limit,
        "jacoby": match.jacoby,
        "automatic_doubles": match.automatic_doubles,
        "rated": match.rated,
        "resignation": match.resignation,
        "live_delay": match.live_delay,
        "live_reserve": match.live_reserve,
        "timeout_loses_match": match.timeout_loses_match,
    }
    pending = Challenge.objects.filter(
        challenger=user,
        opponent=opponent,
        status=Challenge.Status.OPEN,
        expires_at__gt=now,
        **options,
    )
    if pending.exists():
        raise Conflict(
            _("You have already offered %(name)s this rematch."),
            code="rematch_pending",
            name=opponent.public_name,
        )
    return challenge_create(challenger=user, now=now, opponent=opponent, **options)


def _locked_open_challenge(challenge_id: int, now: datetime) -> Challenge:
    try:
        challenge = Challenge.objects.select_for_update().get(pk=challenge_id)
    except Challenge.DoesNotExist:
        raise NotFound(_("No such challenge.")) from None
    if challenge.status != Challenge.Status.OPEN or challenge.expires_at <= now:
        raise Conflict(_("This challenge is no longer open."), code="challenge_closed")
    return challenge


def rating_of(user: User) -> float | None:
    """``user``'s rating as the app that keeps ratings answers ``rating_asked`` (``stats``,
    above this app); None when no app keeps them."""
    answers = [
        r for _receiver, r in rating_asked.send(sender=Challenge, user=user) if r is not None
    ]
    return float(answers[0]) if answers else None


def rating_within(challenge: Challenge, rating: float | None) -> bool:
    """Whether a player rated ``rating`` may accept ``challenge`` by its rating range (a
    range with no bound, or no rating known, holds nobody back)."""
    low, high = challenge.rating_min, challenge.rating_max
    if rating is None:
        return True
    return (low is None or rating >= low) and (high is None or rating <= high)


def _check_rating_range(challenge: Challenge, user: User) -> None:
    """Refuse a player rated outside the seek's range (403 ``rating_range``)."""
    low, high = challenge.rating_min, challenge.rating_max
    if low is None and high is None:
        return
    rating = rating_of(user)
    if not rating_within(challenge, rating):
        assert rating is not None
        raise Forbidden(
            _("This seek is for players rated %(low)s to %(high)s; your rating is %(rating)s."),
            code="rating_range",
            low=low if low is not None else 0,
            high=high if high is not None else MAX_RATING_BOUND,
            rating=round(rating),
        )


def _bank(challenge: Challenge) -> timedelta:
    """Each player's time at the start: a live clock's reserve, or the days of the bank."""
    if challenge.live_delay is not None:
        return timedelta(seconds=challenge.live_reserve or 0)
    return timedelta(days=challenge.time_bank_days)


@transaction.atomic
def challenge_accept(*, challenge_id: int, user: User, now: datetime) -> Match:
    """Accept: the match starts with colours drawn at random and the first opening roll."""
    challenge = _locked_open_challenge(challenge_id, now)
    if user.pk == challenge.challenger_id:
        raise InvalidAction(_("You cannot accept your own challenge."), code="own_challenge")
    if challenge.opponent_id is not None and challenge.opponent_id != user.pk:
        raise Forbidden(_("This challenge was made to another player."))
    _check_rating_range(challenge, user)
    players = [challenge.challenger, user]
    if secrets.randbelow(2):
        players.reverse()
    match = Match.objects.create(
        white=players[0],
        black=players[1],
        variant=challenge.variant,
        length=challenge.length,
        days_per_move=challenge.days_per_move,
        time_bank_days=challenge.time_bank_days,
        cube_limit=challenge.cube_limit,
        jacoby=challenge.jacoby,
        automatic_doubles=challenge.automatic_doubles,
        rated=challenge.rated,
        resignation=challenge.resignation,
        live_delay=challenge.live_delay,
        live_reserve=challenge.live_reserve,
        timeout_loses_match=challenge.timeout_loses_match,
        bank_white=_bank(challenge),
        bank_black=_bank(challenge),
        created_at=now,
    )
    challenge.status = Challenge.Status.ACCEPTED
    challenge.opponent = user
    challenge.responded_at = now
    challenge.match = match
    challenge.save(update_fields=["status", "opponent", "responded_at", "match"])
    game = record.start_game(match, number=1, state=record.state_of(match), now=now)
    challenge_accepted.send(sender=Challenge, challenge=challenge, game=game, now=now)
    return match


@transaction.atomic
def challenge_decline(*, challenge_id: int, user: User, now: datetime) -> Challenge:
    challenge = _locked_open_challenge(challenge_id, now)
    if challenge.opponent_id != user.pk:
        raise Forbidden(_("Only the challenged player can decline."))
    challenge.status = Challenge.Status.DECLINED
    challenge.responded_at = now
    challenge.save(update_fields=["status", "responded_at"])
    challenge_declined.send(sender=Challenge, challenge=challenge, now=now)
    return challenge


@transaction.atomic
def challenge_withdraw(*, challenge_id: int, user: User, now: datetime) -> Challenge:
    challenge = _locked_open_challenge(challenge_id, now)
    if challenge.challenger_id != user.pk:
        raise Forbidden(_("Only the challenger can withdraw a challenge."))
    challenge.status = Challenge.Status.WITHDRAWN
    challenge.responded_at = now
    challenge.save(update_fields=["status", "responded_at"])
    return challenge


def challenges_expire(*, now: datetime) -> int:
    """Open challenges (and invitations) past their validity expire: one UPDATE."""
    return Challenge.objects.filter(status=Challenge.Status.OPEN, expires_at__lte=now).update(
        status=Challenge.Status.EXPIRED, responded_at=now
    )

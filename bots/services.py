"""The bots' accounts, their answers to challenges, and their turns.

A bot plays exactly as a person does: each action is one call of the service a person's
request calls (:mod:`matches.turns`: roll, move, double, take, drop;
:mod:`matches.resignations`: an offer to resign and the answer to one;
:func:`matches.endings.game_resign`), with the ply the bot looked at as
``expected_ply``. gnubg thinks *outside* any transaction (no row is locked while it
runs); the service then refuses a turn that moved on meanwhile, and the bot does
nothing. So a duplicate task, or one for a turn already played, changes nothing.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from accounts.models import BOT_USERNAME_PREFIX, User
from backgammon.errors import Conflict, InvalidAction, LimitReached, ServiceError
from challenges import services as challenge_services
from challenges.models import Challenge
from gammon import Color, Variant
from gnubg_bridge import decisions, process
from gnubg_bridge.decisions import (
    CubeDecision,
    CubeQuestion,
    PlayQuestion,
    ResignEquities,
    ResignEquitiesQuestion,
    ResignQuestion,
)
from matches import endings, record, resignations, selectors, timecontrol, turns
from matches.bots import TurnArgs
from matches.models import Game, Match

from .models import Bot
from .selectors import list_position

log = logging.getLogger(__name__)

#: A bot's turn is at most a roll and a move (or a double, a resignation): a bound on the
#: loop that plays on while the bot stays on turn.
MAX_ACTIONS = 4


def bots_available() -> bool:
    """Whether the bots play: gnubg is installed here, or on the workers of the ``bots``
    queue elsewhere (``GNUBG_REMOTE``)."""
    return settings.GNUBG_REMOTE or process.available()


#: Each level's bot's name (its ``display_name``), written out so that the site's catalogue
#: has it: every page shows a bot's name in the reader's language
#: (``accounts.models.User.public_name``).
BOT_NAMES = {
    "beginner": gettext_noop("GNU Backgammon (Beginner)"),
    "casual": gettext_noop("GNU Backgammon (Casual play)"),
    "intermediate": gettext_noop("GNU Backgammon (Intermediate)"),
    "advanced": gettext_noop("GNU Backgammon (Advanced)"),
    "expert": gettext_noop("GNU Backgammon (Expert)"),
    "world_class": gettext_noop("GNU Backgammon (World class)"),
}


def bot_username(level: str) -> str:
    return BOT_USERNAME_PREFIX + level.replace("_", "-")


def bots_create() -> list[Bot]:
    """Create (or bring up to date) one bot account for each of gnubg's levels. Idempotent.

    A bot cannot sign in (no usable password, no e-mail address) and gets no e-mail. A
    person who already has a bot's username keeps their account: that level gets no bot.
    """
    bots = []
    for level in decisions.LEVELS.values():
        username = bot_username(level.name)
        if User.objects.filter(username__iexact=username, is_bot=False).exists():
            log.warning("no %s bot: a person is called %s", level.name, username)
            continue
        user, _created = User.objects.update_or_create(
            username=username,
            defaults={
                "display_name": BOT_NAMES.get(level.name, f"GNU Backgammon ({level.title})"),
                "is_bot": True,
                "email": "",
                "notify": User.Notify.NONE,
            },
        )
        if user.has_usable_password():
            user.set_unusable_password()
            user.save(update_fields=["password"])
        bot, _created = Bot.objects.update_or_create(user=user, defaults={"level": level.name})
        bots.append(bot)
    return bots


def bot_of(user: User) -> Bot | None:
    if not user.is_bot:
        return None
    return Bot.objects.filter(user=user).first()


def bot_matches_rated() -> bool:
    """The site setting ``BOT_MATCHES_RATED``: whether a match against a bot is rated."""
    return bool(getattr(settings, "BOT_MATCHES_RATED", False))


def _refusal(bot: Bot | None, challenge: Challenge) -> InvalidAction | None:
    """Why the bot cannot play ``challenge``, or None when it can."""
    if bot is None:
        return InvalidAction(_("This computer player is retired."), code="bot_refuses")
    if not bots_available():
        return InvalidAction(
            _("The computer players are unavailable: GNU Backgammon is not installed here."),
            code="bots_unavailable",
        )
    if not decisions.supports(Variant(challenge.variant), challenge.length):
        return InvalidAction(
            _("GNU Backgammon does not play %(variant)s."),
            code="bot_refuses",
            variant=challenge.get_variant_display(),
        )
    return None


def bot_answer_challenge(*, challenge: Challenge, now: datetime) -> None:
    """A challenge to a bot is answered at once, in the transaction that made it.

    The bot accepts one it can play; one it cannot (gnubg missing, a variant gnubg does
    not play, the challenger already playing ``LIMIT_BOT_MATCHES`` matches against the
    computer) is refused with the reason, and the challenge is not made. A match against
    a bot is rated only where the site says so (``BOT_MATCHES_RATED``).
    """
    opponent = challenge.opponent
    if opponent is None or not opponent.is_bot:
        return
    refusal = _refusal(bot_of(opponent), challenge)
    if refusal is not None:
        raise refusal
    _check_bot_matches(challenge.challenger)
    if challenge.rated and not bot_matches_rated():
        challenge.rated = False
        challenge.save(update_fields=["rated"])
    challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=now)
    challenge.refresh_from_db()  # the caller's challenge shows its answer and its match


def _bot_matches_full(person: User) -> bool:
    """Whether ``person`` plays ``LIMIT_BOT_MATCHES`` matches against the computer already."""
    in_play = Match.objects.filter(status=Match.Status.PLAYING).filter(
        Q(white=person, black__is_bot=True) | Q(black=person, white__is_bot=True)
    )
    return in_play.count() >= settings.LIMIT_BOT_MATCHES


def _check_bot_matches(person: User) -> None:
    """Refuse one more match against the computer past ``LIMIT_BOT_MATCHES`` in play (429).

    Every bot turn costs gnubg time that the other players' bots wait for: thirty bot
    matches played fast by one client took 96 s of gnubg in two minutes. No time to
    retry is given: a place is free when the player finishes or resigns a match.
    """
    if _bot_matches_full(person):
        raise LimitReached(
            _(
                "You are playing %(limit)s matches against the computer, the most at once: "
                "finish or resign one first."
            ),
            code="too_many_bot_matches",
            limit=settings.LIMIT_BOT_MATCHES,
        )


def bot_opponent_id(game_id: int) -> int | None:
    """The person the bot plays in game ``game_id`` (None: no such game, or no bot in it);
    the bots' tasks play one turn per person at a time (:mod:`bots.tasks`)."""
    row = (
        Match.objects.filter(games__pk=game_id)
        .values_list("white_id", "white__is_bot", "black_id", "black__is_bot")
        .first()
    )
    if row is None:
        return None
    white, white_is_bot, black, black_is_bot = row
    if white_is_bot == black_is_bot:
        return None
    return int(black if white_is_bot else white)


def bot_on_turn(game: Game) -> Bot | None:
    """The bot that must act in ``game`` now, if it is a bot's turn in a live game."""
    if game.state == Game.State.FINISHED:
        return None
    return bot_of(game.match.player(game.turn_color))


def bot_play_turn(*, game_id: int, ply: int, now: datetime) -> int:
    """Play the bot's turn in ``game_id`` if the game still stands at ``ply``.

    Plays on while the bot stays on turn (its roll, then its move) and returns how many
    actions it took: 0 for a stale or duplicate call. Raises ``GnubgError`` when gnubg
    fails (the task retries), having changed nothing for that action.
    """
    acted = 0
    for _action in range(MAX_ACTIONS):
        game = Game.objects.select_related("match__white", "match__black").get(pk=game_id)
        bot = bot_on_turn(game)
        if bot is None or game.ply != ply:
            return acted
        try:
            game = _act(game, bot, now)
        except Conflict:  # another delivery played this turn first
            log.info("bot %s: game %s moved on from ply %s", bot.level, game_id, ply)
            return acted
        acted += 1
        ply = game.ply
    return acted


def _act(game: Game, bot: Bot, now: datetime) -> Game:
    """One action of ``bot``, decided by gnubg, made through a person's service."""
    level = bot.gnubg_level
    state = record.state_of(game.match, game)
    position = game.position()
    common = TurnArgs(game_id=game.pk, player=bot.user, expected_ply=game.ply, now=now)
    if game.state == Game.State.DOUBLED:
        (cube,) = decisions.decide([CubeQuestion(position.mirror(), state)], level)
        assert isinstance(cube, CubeDecision)
        return turns.game_take(**common) if cube.take else turns.game_drop(**common)
    if game.state == Game.State.RESIGNING:
        # Weighed from the offerer's side, as gnubg weighs an offer made to it.
        (view,) = decisions.decide([ResignEquitiesQuestion(position.mirror(), state)], level)
        assert isinstance(view, ResignEquities)
        accept = view.accepts(game.resign_offer)
        return resignations.game_answer_resignation(accept=accept, **common)
    resign_question = (
        ResignEquitiesQuestion(position, state)
        if selectors.resigns_by_offer(game.match)
        else ResignQuestion(position, state)
    )
    if game.state == Game.State.ROLLING:
        resign, cube = decisions.decide([resign_question, CubeQuestion(position, state)], level)
        resigned = _resign(game, resign, common)
        if resigned is not None:
            return resigned
        if isinstance(cube, CubeDecision) and cube.double and state.can_double(game.turn_color):
            return turns.game_double(**common)
        return turns.game_roll(**common)
    dice = game.dice or (0, 0)
    resign, play = decisions.decide([resign_question, PlayQuestion(position, dice, state)], level)
    resigned = _resign(game, resign, common)
    if resigned is not None:
        return resigned
    return turns.game_play_move(play_text=str(play), **common)


def _resign(game: Game, answer: decisions.Answer, common: TurnArgs) -> Game | None:
    """The bot's resignation, if gnubg's ``answer`` says it resigns (None: it plays on).

    At once where the match resigns that way; else the offer gnubg sees as the loss to
    come, or the nearest open one (the smallest that gives as much, or the biggest open:
    a gammon the match's end makes a single game's worth). Declined, the bot plays on: it
    offers nothing bigger than what it saw as the loss.
    """
    if answer is True:
        return endings.game_resign(**common)
    if not isinstance(answer, ResignEquities) or not answer.offer():
        return None
    color = game.turn_color
    every = record.state_of(game.match, game).resignation_offers(color, game.position())
    if not every:
        return None
    wanted = answer.offer()
    chosen = next((o for o in every if o.level >= wanted), every[-1])
    if chosen not in selectors.game_resignation_offers(game, color):
        return None  # declined this turn already
    return resignations.game_offer_resignation(level=chosen.level, **common)


def bot_answer_draw(*, game_id: int, now: datetime) -> bool:
    """A bot declines a draw offered to it (gnubg weighs no draws), then plays on if its
    turn is due: the decline moved the record on, past the ply its turn's task holds.

    Returns whether it declined one (False: no offer to the bot is pending any more).
    """
    game = Game.objects.select_related("match__white", "match__black").get(pk=game_id)
    match = game.match
    if match.draw_offered_by is None or game.state == Game.State.FINISHED:
        return False
    bot = bot_of(match.player(Color(match.draw_offered_by).other))
    if bot is None:
        return False
    try:
        game = endings.match_answer_draw(
            game_id=game_id, player=bot.user, expected_ply=None, now=now, accept=False
        )
    except ServiceError:  # answered meanwhile, or the game ended
        return False
    if bot_on_turn(game) == bot:
        bot_play_turn(game_id=game_id, ply=game.ply, now=now)
    return True


def bot_games_waiting() -> list[tuple[int, int]]:
    """``(game id, ply)`` of every live game where a bot is on turn: the sweeper's list,
    for a turn whose task was lost (the broker was down when it was queued)."""
    on_turn = Q(turn=0, match__white__is_bot=True) | Q(turn=1, match__black__is_bot=True)
    rows = Game.objects.exclude(state=Game.State.FINISHED).filter(on_turn)
    return list(rows.values_list("pk", "ply"))


# --------------------------------------------------------------------------- seeks

#: Seconds added to a task's countdown: the broker's clock and the database's may differ
#: a little, and a task that comes early does nothing (the sweeper would be a minute late).
MARGIN = 1
#: Among the bots whose ratings are equally near the seeker's (all of them while bot
#: matches are unrated: they keep the starting rating), a seek goes to the bot of the
#: level nearest this one, rather than always to the weakest.
SEEK_LEVEL = "intermediate"


def seek_wait() -> timedelta:
    """How long a seek waits for a person before a bot may take it (``BOT_SEEK_WAIT``)."""
    return timedelta(seconds=settings.BOT_SEEK_WAIT)


def seek_for_bots(challenge: Challenge) -> bool:
    """Whether ``challenge`` is an open live seek whose seeker lets a bot take it once the
    wait is over; everything else is judged then, by :func:`bot_take_seek`."""
    return (
        challenge.status == Challenge.Status.OPEN
        and challenge.opponent_id is None
        and challenge.live_delay is not None
        and challenge.bots_may_accept
        and not challenge.challenger.is_bot
    )


@transaction.atomic
def bot_take_seek(*, challenge_id: int, now: datetime) -> Match | None:
    """A bot takes the seek ``challenge_id`` that no person took within the wait, and the
    match starts (the bot's first turn is queued by ``challenge_accepted``, as for any
    match). Returns the match, or None when no bot may take it, which is no error:

    the seek is gone (accepted, withdrawn, lapsed) or younger than :func:`seek_wait` (a
    task run early: without a broker tasks run at once, whatever their countdown); its
    seeker said no; gnubg is missing or does not play its variant; the seeker plays
    ``LIMIT_BOT_MATCHES`` matches against the computer already (the seeker is refused
    nothing: the seek stays for a person); no bot is rated within its range.

    The seek's row is locked first, so that a person accepting it at the same moment
    either took it first (the seek is no longer open here) or waits for this transaction
    and is told it is taken. Then the seeker's, as ``challenge_create`` locks it, so that
    the bot matches are counted exactly; ``FOR NO KEY UPDATE``, which the foreign-key
    checks of a match being created for the seeker do not wait for (with ``FOR UPDATE``
    a person's accept, committing, and this service deadlocked). Duplicate tasks change
    nothing.
    """
    challenge = (
        Challenge.objects.select_for_update(of=("self",))
        .select_related("challenger")
        .filter(pk=challenge_id)
        .first()
    )
    if challenge is None or not seek_for_bots(challenge):
        return None
    seeker = User.objects.select_for_update(no_key=True).get(pk=challenge.challenger_id)
    if challenge.expires_at <= now or now - challenge.created_at < seek_wait():
        return None
    if _bot_matches_full(seeker):
        log.info("seek %s: %s plays the most bot matches already", challenge_id, seeker)
        return None
    bot = _seek_bot(challenge)
    if bot is None:
        return None
    try:
        with transaction.atomic():
            if challenge.rated and not bot_matches_rated():
                challenge.rated = False
                challenge.save(update_fields=["rated"])
            return challenge_services.challenge_accept(
                challenge_id=challenge.pk, user=bot.user, now=now
            )
    except ServiceError as error:  # the seek changed under us: nothing is taken
        log.info("seek %s: %s could not take it (%s)", challenge_id, bot.level, error.code)
        return None


def _seek_bot(challenge: Challenge) -> Bot | None:
    """The bot to take ``challenge``: among those that can play it and are rated within
    its range, the one rated nearest the seeker (ties: :data:`SEEK_LEVEL`'s neighbours)."""
    bots = [
        bot
        for bot in Bot.objects.select_related("user").filter(user__is_active=True)
        if _refusal(bot, challenge) is None
    ]
    if not bots:
        return None
    seeker = challenge_services.rating_of(challenge.challenger)
    middle = list_position(SEEK_LEVEL)
    ranked = []
    for bot in bots:
        rating = challenge_services.rating_of(bot.user)
        if not challenge_services.rating_within(challenge, rating):
            continue
        distance = abs(rating - seeker) if rating is not None and seeker is not None else 0.0
        position = list_position(bot.level)
        ranked.append((distance, abs(position - middle), position, bot))
    if not ranked:
        return None
    return min(ranked, key=lambda row: row[:3])[3]


def bot_seeks_waiting(now: datetime) -> list[int]:
    """Ids of the open seeks a bot may take now (their wait is over): the sweeper's list,
    for a seek whose task was lost. Empty while the bots cannot play."""
    if not bots_available():
        return []
    rows = Challenge.objects.filter(
        status=Challenge.Status.OPEN,
        expires_at__gt=now,
        opponent__isnull=True,
        live_delay__isnull=False,
        bots_may_accept=True,
        created_at__lte=now - seek_wait(),
        challenger__is_bot=False,
    )
    return list(rows.order_by("created_at").values_list("pk", flat=True))


# --------------------------------------------------------------------------- fallen clocks


def bot_claim_due_in(game: Game, now: datetime) -> float | None:
    """Seconds from ``now`` until the bot may claim the win in ``game`` on time (a
    :data:`MARGIN` after the flag falls): None unless it is a person's turn on a live
    clock against a bot. Read from the game in memory, without a query."""
    match = game.match
    if not match.is_live or game.is_finished:
        return None
    if match.player(game.turn_color).is_bot or not match.player(game.turn_color.other).is_bot:
        return None
    left = endings.live_time_left(game, now)
    if left is None:
        return None
    return left.total_seconds() + MARGIN


def bot_claim_time(*, game_id: int, ply: int, now: datetime) -> Game | None:
    """The bot claims the win in ``game_id`` when the person on turn there has let their
    live clock fall (:func:`matches.endings.game_claim_time`, as a person claims: a gammon,
    or the match by ``timeout_loses_match``). Returns the game, or None when there is
    nothing to claim: the game is over, the bot is on turn, time is left.

    ``ply`` is the ply at which the person's turn began. The person may have rolled since
    (a roll moves the ply on, not the clock), so a later ply still claims: whichever turn
    the person is in, it is their clock that is read. The claim is made at the ply read
    here; a move made meanwhile refuses it (a ``ServiceError``), and nothing is claimed.
    """
    game = Game.objects.select_related("match__white", "match__black").filter(pk=game_id).first()
    if game is None or game.ply < ply or game.is_finished:
        return None
    match = game.match
    if match.player(game.turn_color).is_bot:
        return None
    bot = bot_of(match.player(game.turn_color.other))
    left = endings.live_time_left(game, now)
    if bot is None or left is None or left > timecontrol.ZERO:
        return None
    try:
        return endings.game_claim_time(
            game_id=game_id, player=bot.user, expected_ply=game.ply, now=now
        )
    except ServiceError as error:  # the person acted first
        log.info("bot %s: no claim in game %s (%s)", bot.level, game_id, error.code)
        return None


def bot_claims_due(now: datetime) -> list[tuple[int, int]]:
    """``(game id, ply)`` of every live game against a bot where the person on turn has
    let their clock fall by ``now``: the sweeper's list, for a claim whose task was lost.
    The candidates are read in one query and their flags worked out here (a delay in
    seconds plus a reserve per colour is no portable SQL)."""
    persons_turn = Q(turn=0, match__white__is_bot=False, match__black__is_bot=True) | Q(
        turn=1, match__white__is_bot=True, match__black__is_bot=False
    )
    rows = (
        Game.objects.exclude(state=Game.State.FINISHED)
        .filter(persons_turn, match__live_delay__isnull=False, turn_started_at__isnull=False)
        .values_list(
            "pk",
            "ply",
            "turn",
            "turn_started_at",
            "match__live_delay",
            "match__bank_white",
            "match__bank_black",
        )
    )
    due = []
    for game_id, ply, turn, started, delay, bank_white, bank_black in rows:
        if started is None or delay is None:  # (filtered out above)
            continue
        reserve = (bank_white if turn == 0 else bank_black) or timecontrol.ZERO
        flag = timecontrol.live_flag_at(turn_started_at=started, delay=delay, reserve=reserve)
        if flag <= now:
            due.append((game_id, ply))
    return due

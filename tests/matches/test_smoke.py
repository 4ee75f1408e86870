from accounts.models import User
from matches.models import Match
from tests.bot_games import BotGames


def test_bots_play_a_whole_match(
    bot_games: BotGames, player: User, opponent: User, outsider: User
) -> None:
    """The session's bot matches (tests/bot_games.py ``site``) were played to their end."""
    matches = bot_games.load("site", alice=player, bob=opponent, charlie=outsider)
    five = next(m for m in matches if m.length == 5)
    assert five.status == Match.Status.FINISHED
    assert max(five.score) >= 5
    assert all(m.status == Match.Status.FINISHED and max(m.score) >= m.length for m in matches)

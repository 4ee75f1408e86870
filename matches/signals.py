"""Signals that ``matches`` sends and other apps (``stats``, ``notifications``) receive.

They are sent inside the transaction that changed the game, so a receiver's
writes commit or roll back with the game itself.
"""

from django.dispatch import Signal

#: Sent when a game ends. kwargs: ``game`` (the finished Game), ``now``.
game_finished = Signal()

#: Sent when a match ends (won, drawn, or adjudicated). kwargs: ``match``, ``now``.
match_finished = Signal()

#: Sent when a moderator cancels a match in play, as if it had never been played
#: (``Match.result == "cancelled"``; no ``match_finished`` follows). Games of it that
#: had already finished were counted when they ended; receivers take them back.
#: kwargs: ``match``, ``now``.
match_cancelled = Signal()

#: Sent once for a batch of match-play games that the expiry sweep ended on time
#: (``matches.endings.games_time_out_batch``), instead of ``game_finished`` and
#: ``match_finished`` for each: each game ended its match. kwargs: ``games`` (the
#: finished Games, in the order they were ended), ``matches`` (their Matches, same
#: order) and ``now``. Receivers must leave the same rows as the per-game signals would.
games_timed_out = Signal()

#: Sent when a game waits for a player who was not on turn before: the opponent after
#: a move or a double, the doubler after a take (their roll thrown), the first player
#: of a new game. ``game.turn`` and ``game.state`` (``rolling``, ``moving`` or
#: ``doubled``) say who must do what. kwargs: ``game``, ``now``, and ``told`` (True when
#: the change that started the game writes the player's notice of it itself, with its
#: own notices in one ``INSERT``: a tournament's new match).
turn_started = Signal()

#: Sent whenever a game's row and its new record rows are written (``record.write``, the
#: one place they are): any change a viewer of the game would see. kwargs: ``game``.
game_changed = Signal()
#: Sent when a player offers to end the match as a draw. kwargs: ``game``, ``color``
#: (the offering side), ``now``.
draw_offered = Signal()

#: Sent when a player writes in a game's chat. kwargs: ``message`` (the GameMessage),
#: ``recipient`` (the other player), ``now``.
message_posted = Signal()

#: Sent (outside any game change) when a player has just been shown a game's chat by the
#: API's ``GET`` of its messages. kwargs: ``game``, ``user``, ``now``.
messages_shown = Signal()

#: Sent (outside any game change) when one of its players has just been shown a game's
#: page: the board, the record and the chat. kwargs: ``game``, ``user``, ``now``.
game_shown = Signal()

#: Sent when a player's vacations changed (taken, cancelled, or edited by an admin), after
#: the deadlines of their games were moved: a deadline kept elsewhere (a chouette member's
#: vote or answer) moves the same way. kwargs: ``user``, ``before`` (their away intervals
#: before the change, as ``matches.timecontrol.away_intervals`` gives them), ``now``.
vacations_changed = Signal()

# --------------------------------------------------------------------------- questions
# Two signals are questions rather than events: ``matches`` sends them (outside any
# change) to learn what the apps above it know of a match, and each receiver answers with
# its return value (``Signal.send`` returns ``[(receiver, answer), ...]``). They are read
# by ``matches.questions``, which says what an answer holds; no receiver writes anything.

#: What each of ``matches`` belongs to. kwargs: ``matches`` (a list of Match). Each
#: receiver returns ``{match id: matches.questions.Belonging}`` for the matches that are
#: its own (a tournament's pairing, a chouette's board), and may leave the rest out.
match_belongings_asked = Signal()

#: What a chouette's board (``Match.chouette``) waits for, decisions taken off it
#: included, each with where to send it. Sent for such boards only, so an ordinary game
#: asks nothing. kwargs: ``game`` (with its match and players loaded). The receiver whose
#: board it is returns the list of ``matches.selectors.Awaiting`` (replacing the board's
#: own); any other returns None.
board_awaiting_asked = Signal()

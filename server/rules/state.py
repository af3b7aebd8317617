"""The match state: one immutable plain value that says everything the referee knows.

A room keeps the latest state, hands it to :func:`server.rules.apply` with each action,
and may snapshot it after every shot with :func:`encode_state` (MessagePack). Decoding
gives back an equal value, so a match can be resumed or replayed from any snapshot.

Per-player figures (``score``, ``consecutive_fouls``, ``innings_since_warning``) are
pairs in the order of ``players``; :meth:`MatchState.score_of` and friends look them up
by name. Tuples rather than dicts keep the state truly immutable.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from server.rules.errors import INVALID_MATCH, INVALID_STATE, RuleError
from server.rules.settings import Settings

BallInHand = Literal["table", "kitchen"]
FirstAfter = Literal["break", "push_out"]
MatchEnd = Literal["race", "concede", "forfeit"]

FULL_RACK: Final[tuple[int, ...]] = (1, 2, 3, 4, 5, 6, 7, 8, 9)
NINE: Final = 9


class MatchState(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Everything the referee needs to judge the next action.

    ``turn`` is the one player who may act on the table now (shoot, choose), or ``None``
    while the lag is awaited or after the match. ``ball_in_hand`` is where that player
    may place the cue ball (``"kitchen"`` only for a break), or ``None``. ``is_break``:
    the next shot breaks the rack now in play (``rack``, 1-based, broken by
    ``breaker``). ``on_table``: numbered balls on the table, sorted. ``warned``: the
    players on two consecutive fouls, who have had the R13 warning.

    R14 bookkeeping: ``innings_without_progress`` counts innings in a row (both
    players') that ended with no ball pocketed for good; ``inning_had_progress`` is
    whether the inning under way has pocketed one; after the warning
    (``stalemate_warning``), ``innings_since_warning`` counts each player's fruitless
    innings; ``stalemate_proposed_by`` is a proposal waiting for the opponent.

    O3 bookkeeping (the clock itself is the room's): ``extensions_used`` counts each
    player's shot-clock extensions in the rack under way; ``first_after`` says the turn
    now is the first after the break or after a push-out (``"break"``/``"push_out"``),
    the one that may have the longer ``first_shot_clock``. Both have defaults, so a
    state saved before they existed still decodes.
    """

    settings: Settings
    players: tuple[str, str]
    turn: str | None
    ball_in_hand: BallInHand | None
    push_out_allowed: bool
    choice_pending: bool
    is_break: bool
    on_table: tuple[int, ...]
    breaker: str | None
    rack: int
    score: tuple[int, int]
    consecutive_fouls: tuple[int, int]
    warned: tuple[str, ...]
    innings_without_progress: int
    inning_had_progress: bool
    stalemate_warning: bool
    innings_since_warning: tuple[int, int]
    stalemate_proposed_by: str | None
    awaiting_lag: bool
    match_over: bool
    match_winner: str | None
    match_ended_by: MatchEnd | None
    extensions_used: tuple[int, int] = (0, 0)
    first_after: FirstAfter | None = None

    def index(self, player: str) -> int:
        """Position of ``player`` in ``players`` (raises ``ValueError`` for a stranger)."""
        return self.players.index(player)

    def opponent(self, player: str) -> str:
        """The other player."""
        return self.players[1 - self.index(player)]

    def score_of(self, player: str) -> int:
        """Games ``player`` has won in this match."""
        return self.score[self.index(player)]

    def fouls_of(self, player: str) -> int:
        """``player``'s consecutive fouls in the game under way (R13)."""
        return self.consecutive_fouls[self.index(player)]


def lowest_ball(state: MatchState) -> int | None:
    """The lowest-numbered object ball on the table (the ball to hit first, R1/R8)."""
    return state.on_table[0] if state.on_table else None


def new_match(settings: Settings, players: tuple[str, str], breaker: str | None) -> MatchState:
    """The state before the first break of a match.

    ``breaker=None`` leaves the match waiting for a :class:`LagResult` (O6); otherwise
    ``breaker`` (already chosen by the lag winner, R3) breaks the first rack with the
    cue ball in hand in the kitchen (R2).
    """
    if not isinstance(settings, Settings):
        raise RuleError(INVALID_MATCH, "settings must be a Settings value")
    pair = tuple(players) if isinstance(players, (tuple, list)) else ()
    if len(pair) != 2 or not all(isinstance(p, str) and p for p in pair):
        raise RuleError(INVALID_MATCH, "a match needs exactly two players, named by non-empty text")
    if pair[0] == pair[1]:
        raise RuleError(INVALID_MATCH, "the two players must be different")
    if breaker is not None and breaker not in pair:
        raise RuleError(INVALID_MATCH, "the first breaker must be one of the two players")
    return MatchState(
        settings=settings,
        players=(pair[0], pair[1]),
        turn=breaker,
        ball_in_hand="kitchen" if breaker is not None else None,
        push_out_allowed=False,
        choice_pending=False,
        is_break=True,
        on_table=FULL_RACK,
        breaker=breaker,
        rack=1,
        score=(0, 0),
        consecutive_fouls=(0, 0),
        warned=(),
        innings_without_progress=0,
        inning_had_progress=False,
        stalemate_warning=False,
        innings_since_warning=(0, 0),
        stalemate_proposed_by=None,
        awaiting_lag=breaker is None,
        match_over=False,
        match_winner=None,
        match_ended_by=None,
    )


_ENCODER: Final = msgspec.msgpack.Encoder()
_DECODER: Final = msgspec.msgpack.Decoder(MatchState)


def encode_state(state: MatchState) -> bytes:
    """The state as MessagePack bytes (a map of field names), for snapshots and the wire."""
    return _ENCODER.encode(state)


def decode_state(data: bytes) -> MatchState:
    """The state :func:`encode_state` wrote; anything else raises ``RuleError('invalid_state')``."""
    try:
        state = _DECODER.decode(data)
    except RuleError:
        raise
    except (msgspec.DecodeError, TypeError) as exc:
        raise RuleError(INVALID_STATE, f"not a match state: {exc}") from None
    check_state(state)
    return state


def check_state(state: MatchState) -> None:
    """Reject a state whose fields contradict each other (a corrupt or hand-made snapshot)."""
    problem = _state_problem(state)
    if problem is not None:
        raise RuleError(INVALID_STATE, problem)


def _state_problem(s: MatchState) -> str | None:
    players = s.players
    if len(players) != 2 or players[0] == players[1] or not all(players):
        return "players must be two different non-empty names"
    named = (s.turn, s.breaker, s.match_winner, s.stalemate_proposed_by, *s.warned)
    if any(name is not None and name not in players for name in named):
        return "a player named in the state is not one of the two players"
    if list(s.on_table) != sorted(set(s.on_table)) or any(not 1 <= b <= 9 for b in s.on_table):
        return "on_table must be distinct balls 1-9 in ascending order"
    pairs = (s.score, s.consecutive_fouls, s.innings_since_warning, s.extensions_used)
    if any(len(pair) != 2 or min(pair) < 0 for pair in pairs):
        return "per-player figures must be two non-negative numbers"
    if max(s.score) > s.settings.race_to or max(s.consecutive_fouls) > 2 or s.rack < 1:
        return "score, foul count or rack number out of range"
    on_two = tuple(p for p, n in zip(players, s.consecutive_fouls, strict=True) if n == 2)
    if s.warned != on_two:
        return "warned must name exactly the players on two consecutive fouls"
    if s.match_over != (s.match_winner is not None) or s.match_over != (
        s.match_ended_by is not None
    ):
        return "match_over, match_winner and match_ended_by disagree"
    live = not s.match_over and not s.awaiting_lag
    if live != (s.turn is not None):
        return "exactly one player must be to act while the match is live, none otherwise"
    if max(s.extensions_used) > s.settings.extensions:
        return "more extensions used than the settings allow"
    if s.first_after is not None and (not live or s.is_break):
        return "first_after belongs to a live game whose rack has been broken"
    if s.awaiting_lag and (s.breaker is not None or s.rack != 1):
        return "the lag decides the first breaker of the first rack only"
    if live and NINE not in s.on_table:
        # G3/G4: the 9 leaves the table for good only on the shot that wins a game.
        return "the 9 must be on the table while a game is live"
    if live and (s.ball_in_hand == "kitchen") != s.is_break:
        # R2/R4.2: the kitchen is for the break only; after it, ball in hand is anywhere.
        return "ball in hand in the kitchen goes with the break, and only with it"
    if s.choice_pending and (s.is_break or s.push_out_allowed or s.ball_in_hand is not None):
        # R6.4: the choice follows a push-out, which follows a legal break and is played
        # without ball in hand.
        return "a shoot/pass choice cannot be pending with a break, push-out or ball in hand"
    return None

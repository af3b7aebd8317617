"""The game at one table as a pure value: the referee's state plus where the balls are.

A room holds one `Table` and replaces it with the value each step returns, so
everything here is a function of its arguments — no I/O, no clock, no global random
source — and can be tested without sockets:

    table = new_table(settings, seed=7, match=1, breaker="0")
    table = place_cue_ball(table, "0", (0.5, 0.6))
    balls, shot = prepare_shot(table, "0", shot)         # validated, or TableError
    outcome = simulate(balls, shot)                       # physics (a worker process)
    step = complete_shot(table, "0", push_out, outcome.final, outcome.report)

Players are the referee's opaque names; the server names them after their seats, "0"
and "1". Racks come from the room's seed, the match number and the rack number, so a
room's racks can be reproduced.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

import msgspec

from server import physics, rules
from server.rules import MatchState, Outcome, RuleError, Verdict

Point = tuple[float, float]
Balls = tuple[Point | None, ...]

CUE = 0
NINE = 9
PLAYERS = ("0", "1")


class TableError(Exception):
    """A request the table refuses; `code` is a protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Table(msgspec.Struct, frozen=True):
    """Referee state and ball positions (index = ball number; None = not on the table)."""

    state: MatchState
    balls: Balls
    seed: int
    match: int
    #: Racks set up in this match so far (each gets its own seeded order).
    racks: int


class Step(NamedTuple):
    """What one action did to the table."""

    table: Table
    verdict: Verdict


def seat_player(seat: int) -> str:
    return PLAYERS[seat]


def player_seat(player: str | None) -> int | None:
    return None if player is None else PLAYERS.index(player)


def rack_seed(seed: int, match: int, rack_number: int) -> int:
    """The seed of one rack, derived from the room's seed (R2: reproducible racks)."""
    digest = hashlib.sha256(f"rack:{seed}:{match}:{rack_number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _racked(seed: int, match: int, rack_number: int) -> Balls:
    placed = physics.rack(rack_seed(seed, match, rack_number))
    balls: list[Point | None] = [None] * 10
    balls[CUE] = physics.kitchen_spot()
    for ball, pos in placed.items():
        balls[ball] = (float(pos[0]), float(pos[1]))
    return tuple(balls)


def balls_dict(balls: Balls) -> dict[int, Point]:
    return {ball: pos for ball, pos in enumerate(balls) if pos is not None}


def new_table(settings: rules.Settings, seed: int, match: int, breaker: str | None) -> Table:
    """A new match; `breaker` None waits for the lag or the draw (O6)."""
    state = rules.new_match(settings, PLAYERS, breaker)
    return Table(state=state, balls=_racked(seed, match, 1), seed=seed, match=match, racks=1)


def decide_lag(table: Table, winner: str, breaker: str | None = None) -> Step:
    """O6/R3: the lag winner chooses who breaks the first rack (None: the winner)."""
    outcome = _referee(table.state, rules.LagResult(winner=winner, breaker=breaker))
    return _settle(table, outcome, table.balls)


def place_cue_ball(table: Table, by: str, pos: Point) -> Table:
    """R10: put the cue ball at `pos` with ball in hand; TableError if not allowed."""
    state = table.state
    _check_can_act(state, by)
    if state.ball_in_hand is None:
        raise TableError("no_ball_in_hand", "the cue ball can only be placed with ball in hand")
    others = {b: p for b, p in balls_dict(table.balls).items() if b != CUE}
    try:
        physics.check_placement(others, pos, state.ball_in_hand == "kitchen")
    except physics.PlacementError as exc:
        raise TableError("bad_placement", exc.message) from None
    balls = list(table.balls)
    balls[CUE] = (float(pos[0]), float(pos[1]))
    return msgspec.structs.replace(table, balls=tuple(balls))


def prepare_shot(
    table: Table, by: str, shot: physics.Shot, push_out: bool
) -> tuple[dict[int, Point], physics.Shot]:
    """Check that `by` may play `shot` now (O1, O2, R6) and return what to simulate."""
    try:
        physics.validate_shot(shot)
    except physics.ShotError as exc:
        raise TableError("bad_shot", exc.message) from None
    # The referee is pure, so judging an empty report is a dry run of every turn rule
    # (whose turn, a pending choice, push-out allowed, match over, lag awaited).
    _referee(table.state, _empty_shot(by, push_out))
    return balls_dict(table.balls), shot


def _empty_shot(by: str, push_out: bool) -> rules.ShotAction:
    return rules.ShotAction(
        by=by, first=None, rails=(), pocketed=(), off_table=(), push_out=push_out
    )


def complete_shot(
    table: Table,
    by: str,
    push_out: bool,
    final: dict[int, Point | None],
    report: physics.ShotFacts,
) -> Step:
    """Judge a simulated shot and set the balls up for what comes next."""
    action = rules.ShotAction(
        by=by,
        first=report.first,
        rails=tuple(report.rails),
        pocketed=tuple(report.pocketed),
        off_table=tuple(report.off_table),
        push_out=push_out,
    )
    outcome = _referee(table.state, action)
    balls: list[Point | None] = [None] * 10
    for ball, pos in final.items():
        balls[ball] = None if pos is None else (float(pos[0]), float(pos[1]))
    return _settle(table, outcome, tuple(balls))


def apply_action(table: Table, action: rules.Action) -> Step:
    """A referee action that is not a shot (choose, concede, clock, stalemate, forfeit)."""
    return _settle(table, _referee(table.state, action), table.balls)


def _referee(state: MatchState, action: rules.Action) -> Outcome:
    try:
        return rules.apply(state, action)
    except RuleError as exc:
        code = {"awaiting_lag": "not_started"}.get(exc.code, exc.code)
        raise TableError(code, exc.message) from None


def _check_can_act(state: MatchState, by: str) -> None:
    if state.match_over:
        raise TableError("match_over", "the match is over")
    if state.awaiting_lag:
        raise TableError("not_started", "the lag has not decided who breaks yet")
    if state.turn != by:
        raise TableError("not_your_turn", f"it is seat {state.turn}'s turn")


def _settle(table: Table, outcome: Outcome, balls: Balls) -> Step:
    """Put the balls where the new state needs them: a new rack, the 9 spotted (G3), the
    cue ball somewhere legal when it is in hand after leaving the table."""
    state, verdict = outcome.state, outcome.verdict
    if verdict.new_rack:
        racks = table.racks + 1
        new = Table(
            state=state,
            balls=_racked(table.seed, table.match, racks),
            seed=table.seed,
            match=table.match,
            racks=racks,
        )
        return Step(new, verdict)
    placed = list(balls)
    # The referee's on_table is the truth about object balls; physics' final positions
    # say where those that stayed up came to rest.
    for ball in range(1, 10):
        if ball not in state.on_table:
            placed[ball] = None
    for ball in verdict.spotted:
        placed[ball] = None
        placed[ball] = physics.spot_ball(balls_dict(tuple(placed)), ball)
    if placed[CUE] is None or state.ball_in_hand is not None:
        placed[CUE] = _cue_in_hand_spot(tuple(placed), state.ball_in_hand == "kitchen")
    missing = [b for b in state.on_table if placed[b] is None]
    if missing:  # defensive: a referee/physics disagreement must not lose a ball
        for ball in missing:
            placed[ball] = physics.spot_ball(balls_dict(tuple(placed)), ball)
    return Step(msgspec.structs.replace(table, state=state, balls=tuple(placed)), verdict)


def _cue_in_hand_spot(balls: Balls, kitchen: bool) -> Point | None:
    """Where the cue ball waits with ball in hand until the player places it: where it
    stopped if that is a legal spot, else the first free spot on a fixed search grid."""
    others = {b: p for b, p in balls_dict(balls).items() if b != CUE}
    candidates: list[Point] = []
    current = balls[CUE]
    if current is not None:
        candidates.append(current)
    spot = physics.kitchen_spot()
    candidates.append(spot)
    head_x = physics.TABLE.head_string_x
    width = physics.TABLE.width
    length = physics.TABLE.length if not kitchen else head_x
    for i in range(1, 12):
        for j in range(1, 10):
            candidates.append((length * i / 12.0, width * j / 10.0))
    for pos in candidates:
        try:
            physics.check_placement(others, pos, kitchen)
        except physics.PlacementError:
            continue
        return pos
    return None


def lowest(table: Table) -> int | None:
    return rules.lowest_ball(table.state)

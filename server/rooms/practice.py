"""A practice table as a pure state machine: `step(state, action) -> (state, effects)`.

One player, no match: balls put anywhere and taken off, shots played, undone and done
again, the last shot set up again, a shot previewed without being played, drills, and the
position as a link (`server.rooms.practice_layout`). No I/O, no clock, no randomness: the
practice room's actor (`server.rooms.practice_room`) carries out the effects — it
simulates in the physics pool and feeds the result back as `Simulated` — and every
function here can be tested without a socket.

History is one line of positions: every change (a shot, a ball put or removed, a set-up)
pushes the position before it onto `past` and clears `future`; undo and redo walk the
line. Retry puts back the position the last shot was played from, as a change of its own
(so it can be undone too). At most `HISTORY` positions are kept each way.

Rules off is free play: pocketed balls stay down, and after a scratch the cue ball comes
back in hand. Rules on, the referee (`server.rules`) judges each shot on its own, as the
first shot of an inning by player "0" with the balls on the table: a foul gives ball in
hand, a 9 pocketed on a foul is spotted (G3), the 9 pocketed legally wins the rack (the
table says so and stays as it is). Fouls in a row are not counted (R13 needs an opponent)
and there is no push-out (R6 needs one too). A layout without object balls is not judged.

The nine-ball ghost drill (`nine_ghost`) keeps a score against the ghost (`ghost_after`):
the referee judges each of its shots whether or not the table's is on; the 9 on a legal
shot wins the rack, a foul or a shot after the break that pockets nothing loses it, and a
rack once decided counts no more (undo and retry practise on). Setting the drill up again
racks the next rack (each from the seed and the racks played) and keeps the score.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import msgspec

from protocol import errors
from protocol import messages as m
from protocol.practice import Cause, Drill, GhostScore, PracticeView
from server import physics, rules
from server.rooms.practice_layout import (
    BALLS,
    CUE,
    Balls,
    InHand,
    Layout,
    Point,
    PracticeError,
    check_ball,
    decode_layout,
    drill_layout,
    encode_layout,
    on_table,
    racked,
    spot_problem,
)
from server.rooms.shots import SimResult
from server.rooms.views import verdict_view
from server.rules.state import MatchState

__all__ = [
    "HISTORY",
    "Changed",
    "Layout",
    "Load",
    "Played",
    "Practice",
    "PracticeError",
    "Preview",
    "Previewed",
    "Put",
    "Redo",
    "Remove",
    "Retry",
    "SetRules",
    "Shoot",
    "Simulate",
    "Simulated",
    "Undo",
    "ghost_after",
    "new_practice",
    "step",
    "view",
]

#: Positions kept for undo (and for redo).
HISTORY: Final = 200
PLAYER: Final = "0"
#: The drill that keeps a score against the ghost, and its score at the start.
GHOST: Final = "nine_ghost"
FRESH_GHOST: Final = GhostScore(won=0, lost=0, rack="playing")


class Practice(msgspec.Struct, frozen=True):
    """The whole practice table."""

    layout: Layout
    rules: bool
    drill: Drill | None
    seed: int
    past: tuple[Layout, ...] = ()
    future: tuple[Layout, ...] = ()
    #: The position the last shot was played from (what retry sets up again).
    shot_from: Layout | None = None
    shots: int = 0
    #: The ghost drill's score (None: not that drill); see `ghost_after`.
    ghost: GhostScore | None = None


# --- actions ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Put:
    ball: int
    pos: Point


@dataclass(frozen=True)
class Remove:
    ball: int


@dataclass(frozen=True)
class Load:
    """A link's code or a drill (exactly one)."""

    layout: str | None = None
    drill: Drill | None = None


@dataclass(frozen=True)
class SetRules:
    on: bool


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class Redo:
    pass


@dataclass(frozen=True)
class Retry:
    pass


@dataclass(frozen=True)
class Shoot:
    shot: physics.Shot


@dataclass(frozen=True)
class Preview:
    shot: physics.Shot


@dataclass(frozen=True)
class Simulated:
    """The physics' answer to a `Simulate` effect, fed back in."""

    shot: physics.Shot
    preview: bool
    result: SimResult


Action = Put | Remove | Load | SetRules | Undo | Redo | Retry | Shoot | Preview | Simulated

# --- effects ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Changed:
    """The table changed: everyone at it gets the new state."""

    cause: Cause


@dataclass(frozen=True)
class Simulate:
    """Simulate `shot` from `balls` (in the physics pool) and step `Simulated` back in."""

    balls: dict[int, Point]
    shot: physics.Shot
    preview: bool


@dataclass(frozen=True)
class Played:
    """A shot was played: everyone at the table sees it."""

    shot: physics.Shot
    result: SimResult
    verdict: m.VerdictView | None


@dataclass(frozen=True)
class Previewed:
    """What a previewed shot would do, for the one who asked; nothing changed."""

    result: SimResult
    verdict: m.VerdictView | None


Effect = Changed | Simulate | Played | Previewed


# --- the table ---------------------------------------------------------------------------------


def new_practice(
    seed: int, layout: str | None = None, drill: Drill | None = None, rules_on: bool = False
) -> Practice:
    """A practice table: from a link's code, a drill, or a fresh rack to break (from
    `seed`). PracticeError for a bad link (nothing is made)."""
    if layout is not None and drill is not None:
        raise PracticeError(errors.BAD_LAYOUT, "open a practice table from a link or a drill")
    if layout is not None:
        position, linked_rules = decode_layout(layout)
        return Practice(layout=position, rules=rules_on or linked_rules, drill=None, seed=seed)
    if drill is not None:
        ghost = FRESH_GHOST if drill == GHOST else None
        start = drill_layout(drill, seed)
        return Practice(layout=start, rules=rules_on, drill=drill, seed=seed, ghost=ghost)
    return Practice(layout=racked(seed), rules=rules_on, drill=None, seed=seed)


def step(state: Practice, action: Action) -> tuple[Practice, list[Effect]]:
    """What `action` does to the table; PracticeError (state unchanged) if it may not."""
    if isinstance(action, Put):
        return _changed(state, _put(state, action.ball, action.pos), "put")
    if isinstance(action, Remove):
        check_ball(action.ball)
        if state.layout.balls[action.ball] is None:
            raise PracticeError(errors.NOT_ON_TABLE, f"ball {action.ball} is not on the table")
        balls = _with(state.layout.balls, action.ball, None)
        in_hand = None if action.ball == CUE else state.layout.in_hand
        layout = Layout(balls=balls, in_hand=in_hand, is_break=_still_break(state.layout, balls))
        return _changed(state, layout, "remove")
    if isinstance(action, Load):
        return _load(state, action)
    if isinstance(action, SetRules):
        return msgspec.structs.replace(state, rules=action.on), [Changed("rules")]
    if isinstance(action, Undo):
        if not state.past:
            raise PracticeError(errors.NOTHING_TO_UNDO, "nothing to undo")
        new = msgspec.structs.replace(
            state,
            layout=state.past[-1],
            past=state.past[:-1],
            future=(state.layout, *state.future)[:HISTORY],
        )
        return new, [Changed("undo")]
    if isinstance(action, Redo):
        if not state.future:
            raise PracticeError(errors.NOTHING_TO_REDO, "nothing to redo")
        new = msgspec.structs.replace(
            state,
            layout=state.future[0],
            past=(*state.past, state.layout)[-HISTORY:],
            future=state.future[1:],
        )
        return new, [Changed("redo")]
    if isinstance(action, Retry):
        if state.shot_from is None:
            raise PracticeError(errors.NOTHING_TO_RETRY, "no shot has been played yet")
        return _changed(state, state.shot_from, "retry")
    if isinstance(action, Shoot | Preview):
        start = _shot_balls(state, action.shot)
        return state, [Simulate(start, action.shot, isinstance(action, Preview))]
    return _simulated(state, action)


def _changed(state: Practice, layout: Layout, cause: Cause) -> tuple[Practice, list[Effect]]:
    new = msgspec.structs.replace(
        state, layout=layout, past=(*state.past, state.layout)[-HISTORY:], future=()
    )
    return new, [Changed(cause)]


def _with(balls: Balls, ball: int, pos: Point | None) -> Balls:
    out = list(balls)
    out[ball] = pos
    return tuple(out)


def _still_break(before: Layout, balls: Balls) -> bool:
    return before.is_break and all(pos is not None for pos in balls)


def _put(state: Practice, ball: int, pos: Point) -> Layout:
    check_ball(ball)
    layout = state.layout
    others = {b: p for b, p in on_table(layout.balls).items() if b != ball}
    problem = spot_problem(ball, pos, others)
    if problem is not None:
        raise problem
    kitchen = state.rules and layout.in_hand == "kitchen"
    if ball == CUE and kitchen and pos[0] > physics.TABLE.head_string_x:
        raise PracticeError(
            errors.BAD_PLACEMENT,
            f"the cue ball is in hand behind the head string, as for a break or the spot "
            f"shot (x <= {physics.TABLE.head_string_x:.3f}); rules off to put it anywhere",
        )
    balls = _with(layout.balls, ball, (float(pos[0]), float(pos[1])))
    in_hand = layout.in_hand
    if ball == CUE and in_hand is None and layout.balls[CUE] is None:
        in_hand = "table"  # the cue ball back from the tray is a ball in hand
    return Layout(balls=balls, in_hand=in_hand, is_break=_still_break(layout, balls))


def _load(state: Practice, action: Load) -> tuple[Practice, list[Effect]]:
    if (action.layout is None) == (action.drill is None):
        raise PracticeError(errors.BAD_LAYOUT, "load a link's code or a drill, one of them")
    if action.layout is not None:
        layout, linked_rules = decode_layout(action.layout)
        new, effects = _changed(state, layout, "layout")
        rules_on = state.rules or linked_rules
        return msgspec.structs.replace(new, drill=None, rules=rules_on, ghost=None), effects
    assert action.drill is not None
    if action.drill == GHOST and state.ghost is not None:
        return _next_ghost_rack(state)
    ghost = FRESH_GHOST if action.drill == GHOST else None
    new, effects = _changed(state, drill_layout(action.drill, state.seed), "drill")
    return msgspec.structs.replace(new, drill=action.drill, ghost=ghost), effects


def _next_ghost_rack(state: Practice) -> tuple[Practice, list[Effect]]:
    """The ghost drill's next rack (each rack its own, from the seed and the racks played):
    a rack broken and not decided goes to the ghost first."""
    ghost = state.ghost
    assert ghost is not None
    if ghost.rack == "playing" and not state.layout.is_break:
        ghost = GhostScore(won=ghost.won, lost=ghost.lost + 1, rack="lost")
    racks = ghost.won + ghost.lost
    new, effects = _changed(state, drill_layout(GHOST, state.seed + racks), "drill")
    next_rack = GhostScore(won=ghost.won, lost=ghost.lost, rack="playing")
    return msgspec.structs.replace(new, drill=GHOST, ghost=next_rack), effects


def _shot_balls(state: Practice, shot: physics.Shot) -> dict[int, Point]:
    try:
        physics.validate_shot(shot)
    except physics.ShotError as exc:
        raise PracticeError(errors.BAD_SHOT, exc.message) from None
    balls = on_table(state.layout.balls)
    if CUE not in balls:
        raise PracticeError(errors.NO_CUE_BALL, "put the cue ball on the table first")
    head = physics.TABLE.head_string_x
    if state.rules and state.layout.in_hand == "kitchen" and balls[CUE][0] > head:
        raise PracticeError(
            errors.BAD_PLACEMENT,
            f"the cue ball is in hand behind the head string (x <= {head:.3f}), as for a "
            "break or the spot shot: put it there, or turn the referee off",
        )
    return balls


def _simulated(state: Practice, done: Simulated) -> tuple[Practice, list[Effect]]:
    ghost = state.ghost
    # The ghost drill judges its rack whether or not the table's referee is on: the
    # referee's verdict, once, for the table (rules on), the ghost's score and the words.
    judging = ghost is not None and ghost.rack == "playing" and not done.preview
    ruled = _referee(state, done.result) if state.rules or judging else None
    verdict = ruled if state.rules else None
    if done.preview:
        return state, [Previewed(done.result, None if verdict is None else verdict_view(verdict))]
    layout = _after_shot(state, done.result, verdict)
    new = msgspec.structs.replace(
        state,
        layout=layout,
        past=(*state.past, state.layout)[-HISTORY:],
        future=(),
        shot_from=state.layout,
        shots=state.shots + 1,
        ghost=None if ghost is None else ghost_after(state, ghost, done.result, ruled),
    )
    # The drill's shots carry the verdict they were judged by: why the rack was lost.
    shown = None if ruled is None else verdict_view(ruled)
    return new, [Played(done.shot, done.result, shown)]


def ghost_after(
    state: Practice, ghost: GhostScore, result: SimResult, verdict: rules.Verdict | None
) -> GhostScore:
    """The ghost drill's score after a shot from `state`: judged by the referee whether or
    not the table's referee is on. The 9 on a legal shot (the break too) wins the rack; a
    foul, or a shot after the break that pockets no object ball, loses it. A rack already
    decided stays as it is (undo and retry practise on, but count no more). `verdict` is
    the referee's on the shot (`_referee`)."""
    if ghost.rack != "playing":
        return ghost
    if verdict is None:  # no object ball was up: nothing to judge
        return ghost
    if verdict.foul:
        return GhostScore(won=ghost.won, lost=ghost.lost + 1, rack="lost")
    if verdict.game_over and verdict.game_winner == PLAYER:
        return GhostScore(won=ghost.won + 1, lost=ghost.lost, rack="won")
    potted = [b for b in result.pocketed if b != CUE]
    if not state.layout.is_break and not potted:
        return GhostScore(won=ghost.won, lost=ghost.lost + 1, rack="lost")
    return ghost


def _referee(state: Practice, result: SimResult) -> rules.Verdict | None:
    """The referee's verdict on a shot from the table as it is (None: no object ball)."""
    layout = state.layout
    objects = tuple(b for b in range(1, BALLS) if layout.balls[b] is not None)
    if not objects:
        return None
    match = _inning(objects, layout)
    action = rules.ShotAction(
        by=PLAYER,
        first=result.first,
        rails=tuple(result.rails),
        pocketed=tuple(result.pocketed),
        off_table=tuple(result.off_table),
    )
    try:
        return rules.apply(match, action).verdict
    except rules.RuleError:  # pragma: no cover - every inning built here is one to judge
        return None


def _inning(objects: tuple[int, ...], layout: Layout) -> MatchState:
    """The referee's state for one shot of player "0" with these balls up: a new match's
    first state, with the balls and the cue ball's freedom of this layout."""
    is_break = layout.is_break
    in_hand: InHand | None = (
        "kitchen" if is_break else ("table" if layout.in_hand is not None else None)
    )
    first = rules.new_match(rules.Settings(race_to=1), (PLAYER, "1"), PLAYER)
    return msgspec.structs.replace(first, ball_in_hand=in_hand, is_break=is_break, on_table=objects)


def _after_shot(state: Practice, result: SimResult, verdict: rules.Verdict | None) -> Layout:
    """Where the balls stand for the next shot: where they stopped, a foul's
    spotted 9 back on the foot spot, the cue ball back in hand after a scratch or a foul."""
    balls = [result.final.get(ball) for ball in range(BALLS)]
    if verdict is not None:
        for ball in verdict.spotted:
            balls[ball] = None
            balls[ball] = physics.spot_ball(on_table(tuple(balls)), ball)
    scratched = balls[CUE] is None
    foul = verdict is not None and verdict.foul
    if scratched:
        balls[CUE] = _free_spot(tuple(balls))
    placed = tuple(balls)
    in_hand: InHand | None = "table" if (scratched or foul) and placed[CUE] is not None else None
    if state.drill == "nine_ghost" and state.layout.is_break and placed[CUE] is not None:
        in_hand = "table"  # the ghost drill: ball in hand after the break
    return Layout(balls=placed, in_hand=in_hand, is_break=False)


def _free_spot(balls: Balls) -> Point | None:
    """Where a cue ball in hand waits: the head spot's neighbourhood, else a fixed grid."""
    others = {b: p for b, p in on_table(balls).items() if b != CUE}
    width, length = physics.TABLE.width, physics.TABLE.length
    candidates = [physics.kitchen_spot()] + [
        (length * i / 12.0, width * j / 10.0) for i in range(1, 12) for j in range(1, 10)
    ]
    for pos in candidates:
        if spot_problem(CUE, pos, others) is None:
            return pos
    return None


# --- what is sent -------------------------------------------------------------------------------


def view(state: Practice, player: str, spectators: int) -> PracticeView:
    layout = state.layout
    objects = [b for b in range(1, BALLS) if layout.balls[b] is not None]
    return PracticeView(
        balls=list(layout.balls),
        rules=state.rules,
        in_hand=layout.in_hand,
        is_break=layout.is_break,
        lowest=objects[0] if objects else None,
        drill=state.drill,
        layout=encode_layout(layout, state.rules),
        undo=len(state.past),
        redo=len(state.future),
        retry=state.shot_from is not None,
        shots=state.shots,
        player=player,
        spectators=spectators,
        ghost=state.ghost,
    )

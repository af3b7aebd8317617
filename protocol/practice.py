"""The practice table's wire messages, both directions, declared once.

A practice table is one player's table (`protocol/README.md`, "Practice"): any balls put
anywhere, undo and redo, the last shot again, a shot previewed without being played,
drills, and the position as a link. Its messages sit beside the match's
(`protocol/messages.py`, which stays as it was); the codec decodes both unions.

Practice events carry no `seq`: a practice table is not stored and has no replay, and each
`practice_state` carries the whole table, so a client never needs to ask for a resync.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct

from protocol.messages import (
    Angle,
    Ball,
    BallPosition,
    ClientMessage,
    Elevation,
    Position,
    RequestId,
    ServerMessage,
    ShotInput,
    ShotReport,
    Speed,
    Tip,
    VerdictView,
)

#: The drills a practice table sets up (`server/rooms/practice.py` says what each is).
Drill = Literal["three_ball", "nine_ghost", "break", "kick", "spot_shot"]
DRILLS: tuple[Drill, ...] = ("three_ball", "nine_ghost", "break", "kick", "spot_shot")

#: A position as a practice link carries it (`#/practice/<layout>`): URL-safe base64 of a
#: few bytes. Its form is checked where it is decoded, so a malformed link is refused
#: `bad_layout` with the reason, not a schema error.
LayoutCode = Annotated[str, Meta(min_length=1, max_length=200)]

#: What made a practice table's state change (`practice_state.cause`).
Cause = Literal[
    "open", "join", "resync", "put", "remove", "undo", "redo", "retry", "layout", "drill", "rules"
]


# --- client -> server -------------------------------------------------------------------


class Practice(ClientMessage, tag="practice"):
    """Open a practice table for this player alone (reply `joined`, then `practice_state`):
    from a link's `layout`, a `drill`, or (neither) a fresh rack ready to break. `rules`:
    the referee judges every shot."""

    layout: LayoutCode | None = None
    drill: Drill | None = None
    rules: bool = False


class PracticePut(ClientMessage, tag="practice_put"):
    """Put ball `ball` at `pos` (from the tray, or moved on the table)."""

    ball: Ball
    pos: Position


class PracticeRemove(ClientMessage, tag="practice_remove"):
    """Take ball `ball` off the table (back to the tray)."""

    ball: Ball


class PracticeLoad(ClientMessage, tag="practice_load"):
    """Set the table up again: from a link's `layout`, or a `drill` (exactly one)."""

    layout: LayoutCode | None = None
    drill: Drill | None = None


class PracticeRules(ClientMessage, tag="practice_rules"):
    """Rules on (the referee judges each shot) or off (free play)."""

    on: bool


class PracticeUndo(ClientMessage, tag="practice_undo"):
    """Go back one change (a shot, a ball put or removed, a set-up)."""


class PracticeRedo(ClientMessage, tag="practice_redo"):
    """Do again the change `practice_undo` took back."""


class PracticeRetry(ClientMessage, tag="practice_retry"):
    """The balls back where they stood before the last shot, to play it again."""


class PracticePreview(ClientMessage, tag="practice_preview"):
    """Simulate this shot from the table as it is and say what would happen (reply
    `practice_preview`); nothing changes."""

    angle: Angle
    speed: Speed
    tip: Tip = (0.0, 0.0)
    elevation: Elevation = 0.0


PracticeRequest = (
    Practice
    | PracticePut
    | PracticeRemove
    | PracticeLoad
    | PracticeRules
    | PracticeUndo
    | PracticeRedo
    | PracticeRetry
    | PracticePreview
)

#: The practice requests that change the table (sent twice with one id: carried out once).
PRACTICE_CHANGES = (
    Practice,
    PracticePut,
    PracticeRemove,
    PracticeLoad,
    PracticeRules,
    PracticeUndo,
    PracticeRedo,
    PracticeRetry,
)

# --- server -> client -------------------------------------------------------------------


class GhostScore(Struct, frozen=True):
    """The nine-ball ghost drill's score (`nine_ghost`): racks won against the ghost, racks
    lost to it, and how the rack on the table stands. A rack is won by pocketing the 9 on
    a legal shot (on the break too); it goes to the ghost on a foul, or on a shot after
    the break that pockets no object ball, or when a new rack is set up before it is
    decided. Once decided, the rest of the rack (undo and retry included) counts no more."""

    won: Annotated[int, Meta(ge=0)]
    lost: Annotated[int, Meta(ge=0)]
    rack: Literal["playing", "won", "lost"]


class PracticeView(Struct, frozen=True):
    """A practice table: everything needed to draw it and to act."""

    #: Index = ball number; None = in the tray (not on the table).
    balls: list[BallPosition | None]
    #: The referee judges each shot.
    rules: bool
    #: The cue ball is in hand: anywhere ("table"), or behind the head string ("kitchen": a
    #: break, or the spot-shot drill; the referee holds it there when rules are on). With
    #: rules off it is "table" after a scratch.
    in_hand: Literal["table", "kitchen"] | None
    #: The next shot is a break (the rack is full and unbroken).
    is_break: bool
    #: The lowest-numbered object ball on the table (the ball to hit first, rules on).
    lowest: Ball | None
    drill: Drill | None
    #: This position as a link's code (`#/practice/<layout>`).
    layout: str
    #: Changes that `practice_undo` / `practice_redo` can take back or do again.
    undo: Annotated[int, Meta(ge=0)]
    redo: Annotated[int, Meta(ge=0)]
    #: A shot has been played that `practice_retry` can set up again.
    retry: bool
    shots: Annotated[int, Meta(ge=0)]
    #: The player's name.
    player: str
    spectators: Annotated[int, Meta(ge=0)]
    #: The ghost drill's score (None: not that drill).
    ghost: GhostScore | None = None


class PracticeState(ServerMessage, tag="practice_state"):
    """The whole practice table, after every change (and to a spectator who arrives)."""

    room: str
    cause: Cause
    view: PracticeView
    #: The request this answers in part (after its `ok`); None otherwise.
    id: RequestId | None = None


class PracticeShot(ServerMessage, tag="practice_shot"):
    """A practice shot was played: animate `traj` (as `shot_result`'s), then show `view`."""

    room: str
    shot: ShotInput
    traj: bytes
    duration: float
    miscue: bool
    report: ShotReport
    #: The referee's verdict with rules on; None in free play. The ghost drill judges its
    #: rack either way: while that rack is in play its shots carry the verdict it judged
    #: them by (why the rack went to the ghost, or was won).
    verdict: VerdictView | None
    #: Where every ball came to rest (before any ball in hand or spotting); index = ball.
    final: list[BallPosition | None]
    view: PracticeView


class PracticePreviewed(ServerMessage, tag="practice_preview"):
    """Answer to `practice_preview`: what the shot would do. Nothing changed."""

    id: RequestId
    traj: bytes
    duration: float
    miscue: bool
    report: ShotReport
    verdict: VerdictView | None
    final: list[BallPosition | None]


PracticeEvent = PracticeState | PracticeShot | PracticePreviewed

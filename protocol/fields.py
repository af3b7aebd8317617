"""The wire's field types and the room settings, shared by every message in
`protocol.messages` (which re-exports them): ranges, lengths and patterns declared once,
so one decoder checks them wherever they appear.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct

from protocol.text import clean

# --- shared field types -----------------------------------------------------------

RequestId = Annotated[int, Meta(ge=0, le=2**31 - 1, description="client-chosen request id")]
Seq = Annotated[int, Meta(ge=0)]
Seat = Annotated[int, Meta(ge=0, le=1)]
Ball = Annotated[int, Meta(ge=0, le=9)]
EpochMs = Annotated[int, Meta(ge=0)]
#: A display name: 1–24 characters of letters, digits, space, `.`, `_`, `-`; no leading or
#: trailing space (a name chosen now follows `protocol.text.NAME_MIN`–`NAME_MAX`; names
#: chosen before still travel) — once cleaned (`protocol.text.clean_name`: NFKC, no bidi controls or
#: invisible characters), which `Hello` does as it is decoded. The frame may carry more
#: (a name typed decomposed, with marks apart, is longer before NFKC joins them).
Name = Annotated[str, Meta(min_length=1, max_length=64)]
# Patterns end in \Z, not $: Python's $ also matches before one trailing newline.
#: A room name: up to 40 characters, no control characters (C0, DEL, C1).
RoomName = Annotated[str, Meta(max_length=40, pattern=r"^[^\x00-\x1f\x7f-\x9f]*\Z")]
RoomId = Annotated[str, Meta(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+\Z")]
#: An invite code: letters and digits. The server issues 20 characters of a 32-symbol
#: alphabet (100 random bits); 4–32 are accepted so codes of rooms saved by older servers
#: still work.
InviteCode = Annotated[str, Meta(min_length=4, max_length=32, pattern=r"^[A-Z0-9]+\Z")]
Token = Annotated[str, Meta(min_length=1, max_length=256)]
ChatText = Annotated[str, Meta(min_length=1, max_length=200)]
#: A seat invite: the server issues `s` and 20 lowercase hex digits to a room's seated players
#: (`Joined.invite`, `Snapshot.invite`); a share link carries it to a friend (`Sit`).
SeatInvite = Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^[a-z0-9]+\Z")]

#: How a game ended (`GameOver.reason`, `VerdictView.game_end`): the 9 pocketed on a legal
#: shot (G5, R1), three consecutive fouls (R13), a concession (O4), a forfeit (O5), a
#: stalemate re-rack (R14; no winner).
GameEndReason = Literal["nine", "three_fouls", "concede", "forfeit", "stalemate"]
#: How a match ended (`MatchOver.reason`): a player reached the race (R1), or conceded
#: (O4) or forfeited (O5) it.
MatchEndReason = Literal["race", "concede", "forfeit"]
GAME_END_REASONS: tuple[str, ...] = ("nine", "three_fouls", "concede", "forfeit", "stalemate")
MATCH_END_REASONS: tuple[str, ...] = ("race", "concede", "forfeit")
#: Why the lag ended as it did (`LagResult.reason`): `nearer` the winner's ball stopped
#: nearer the head cushion; `fault` only the winner's lag counted (O6); `tie` both stopped
#: at the same distance to a tenth of a millimetre, `both_faults` neither lag counted —
#: either way the players lag again (O6); `draw` the room draws for the break; `late`
#: neither player played the lag in its time, so the room drew for the break (O6).
LagReason = Literal["nearer", "fault", "tie", "both_faults", "draw", "late"]
#: The resolution lag distances are compared at, in metres (0.1 mm).
LAG_RESOLUTION = 0.0001

X = Annotated[float, Meta(ge=0.0, le=2.54)]
Y = Annotated[float, Meta(ge=0.0, le=1.27)]
#: A point on the playing surface, as a client may name one (placements, aim previews).
Position = tuple[X, Y]

#: How far outside the cushion noses a ball's centre may rest, in metres: a ball radius
#: (28.575 mm) plus the deepest pocket shelf (30 mm), rounded up. A ball hanging over a
#: pocket's edge sits past the nose line (the side pockets' facings open outward), so the
#: positions the server reports must allow for it.
BALL_MARGIN = 0.06
BallX = Annotated[float, Meta(ge=-BALL_MARGIN, le=2.54 + BALL_MARGIN)]
BallY = Annotated[float, Meta(ge=-BALL_MARGIN, le=1.27 + BALL_MARGIN)]
#: Where a ball is, as the server reports it (ball lists, resting places, relays): the
#: surface plus `BALL_MARGIN` on every side. Pocketed balls are `None`, never a position.
BallPosition = tuple[BallX, BallY]
#: Degrees, 0 = +x (toward the foot rail), counter-clockwise.
Angle = Annotated[float, Meta(ge=-360.0, le=360.0)]
#: Cue-ball speed just after the strike, m/s (O2).
Speed = Annotated[float, Meta(gt=0.0, le=12.0)]
#: One component of the cue-tip offset from the ball's centre, in ball radii.
TipComponent = Annotated[float, Meta(ge=-1.0, le=1.0)]
#: [side, height]: +side = right english, +height = follow. |tip| > 0.5 miscues.
Tip = tuple[TipComponent, TipComponent]
#: Cue elevation in degrees, 0 = level.
Elevation = Annotated[float, Meta(ge=0.0, lt=90.0)]

BreakOrder = Literal["winner", "alternate", "loser", "trailing"]
FirstBreak = Literal["lag", "draw"]
#: What the client may draw while a player aims: the whole preview (aim line, ghost ball,
#: both balls' departures), the ghost ball alone, or nothing.
AimAid = Literal["full", "ghost", "none"]
Role = Literal["player", "spectator"]


class RoomSettings(Struct, forbid_unknown_fields=True, frozen=True):
    """What a room is played by; chosen at `create`, shown in snapshots and the lobby."""

    name: RoomName = ""
    race_to: Annotated[int, Meta(ge=1, le=21)] = 3
    break_order: BreakOrder = "winner"
    #: Seconds per shot (O3), or None for no shot clock.
    shot_clock: Annotated[int, Meta(ge=5, le=300)] | None = None
    #: Extensions per player per rack; each adds `extension_seconds` once.
    extensions: Annotated[int, Meta(ge=0, le=5)] = 1
    first_break: FirstBreak = "lag"
    #: A private room is not listed in the lobby and is joined with its invite code.
    private: bool = False
    #: O5: what a player who stays away past the grace period forfeits.
    forfeit: Literal["game", "match"] = "game"
    #: R14: innings in a row without a ball pocketed before the automatic stalemate
    #: warning (0 = off).
    stalemate_innings: Annotated[int, Meta(ge=0, le=1000)] = 20
    #: O3: seconds for the first shot after the break or after a push-out (at least
    #: `shot_clock`); None: the `shot_clock`.
    first_shot_clock: Annotated[int, Meta(ge=5, le=600)] | None = None
    #: O3: seconds one extension adds; None: the `shot_clock`.
    extension_seconds: Annotated[int, Meta(ge=5, le=300)] | None = None
    #: O3: seconds before the clock runs out when everyone is warned (0: no warning).
    clock_warning: Annotated[int, Meta(ge=0, le=60)] = 10
    #: What the clients draw while a player aims (every client at the table keeps to it).
    aim_aid: AimAid = "full"
    #: Racks won at the table or conceded move both players' ratings (docs/RATINGS.md);
    #: only players with accounts may sit in a rated room.
    rated: bool = False
    #: The players the seats are kept for, seat 0 then seat 1 (a tournament's match, made
    #: by the server; empty: anyone may sit). A `create` may not set it.
    reserved: Annotated[tuple[Annotated[str, Meta(max_length=64)], ...], Meta(max_length=2)] = ()
    #: The tournament whose match this is (its page: `/tournament/<id>`), made by the
    #: server with `reserved`; None: not a tournament's. A `create` may not set it.
    tournament: (
        Annotated[str, Meta(min_length=1, max_length=32, pattern="^[A-Za-z0-9_-]+$")] | None
    ) = None

    def __post_init__(self) -> None:
        # Shown to strangers in the lobby: no bidi controls or invisible characters.
        msgspec.structs.force_setattr(self, "name", clean(self.name))
        if self.first_shot_clock is not None:
            if self.shot_clock is None:
                raise ValueError("first_shot_clock needs a shot_clock")
            if self.first_shot_clock < self.shot_clock:
                raise ValueError("first_shot_clock must be at least the shot_clock")
        if self.extension_seconds is not None and self.shot_clock is None:
            raise ValueError("extension_seconds needs a shot_clock")

"""Every message on the wire, both directions, declared once.

Frames are MessagePack maps. The field `t` names the message (a tagged union), so one
`msgspec` decoder validates type, every field's type, range and length in a single
pass and hands the server a typed value — or a `ValidationError` naming the path.

Conventions, shared by both directions:

- `id` is a request id the client chooses (0 … 2³¹−1); the reply to that request echoes
  it. Room events carry `seq` instead: a per-room counter that grows by exactly one per
  event, so a client that sees a jump asks for a `resync`.
- Seats are 0 and 1. Balls are 0 (cue ball) to 9. Positions are metres on the table:
  x from the head rail toward the foot rail (0 … 2.54), y across (0 … 1.27). A ball the
  server reports may rest up to `BALL_MARGIN` past the noses (over a pocket's edge).
- Times the server sends (`now`, `deadline`, `grace_until`) are Unix epoch milliseconds
  from the server clock; `now` in `welcome`, `pong` and `snapshot` lets a client
  estimate its offset from it.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct

from protocol.text import clean, clean_name

#: The protocol version a client states in `hello`; a different one is refused.
PROTOCOL_VERSION = 1

#: The largest frame the server accepts from a client (bytes).
MAX_CLIENT_FRAME = 4096

# --- shared field types -----------------------------------------------------------

RequestId = Annotated[int, Meta(ge=0, le=2**31 - 1, description="client-chosen request id")]
Seq = Annotated[int, Meta(ge=0)]
Seat = Annotated[int, Meta(ge=0, le=1)]
Ball = Annotated[int, Meta(ge=0, le=9)]
EpochMs = Annotated[int, Meta(ge=0)]
#: A display name: 1–24 characters of letters, digits, space, `.`, `_`, `-`; no leading or
#: trailing space — once cleaned (`protocol.text.clean_name`: NFKC, no bidi controls or
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
Role = Literal["player", "spectator"]


class RoomSettings(Struct, forbid_unknown_fields=True, frozen=True):
    """What a room is played by; chosen at `create`, shown in snapshots and the lobby."""

    name: RoomName = ""
    race_to: Annotated[int, Meta(ge=1, le=21)] = 3
    break_order: BreakOrder = "winner"
    #: Seconds per shot (O3), or None for no shot clock.
    shot_clock: Annotated[int, Meta(ge=5, le=300)] | None = None
    #: Extensions per player per game; each adds `shot_clock` seconds once.
    extensions: Annotated[int, Meta(ge=0, le=5)] = 1
    first_break: FirstBreak = "lag"
    #: A private room is not listed in the lobby and is joined with its invite code.
    private: bool = False
    #: O5: what a player who stays away past the grace period forfeits.
    forfeit: Literal["game", "match"] = "game"
    #: R14: innings in a row without a ball pocketed before the automatic stalemate
    #: warning (0 = off).
    stalemate_innings: Annotated[int, Meta(ge=0, le=1000)] = 20
    #: The players the seats are kept for, seat 0 then seat 1 (a tournament's match, made
    #: by the server; empty: anyone may sit). A `create` may not set it.
    reserved: Annotated[tuple[Annotated[str, Meta(max_length=64)], ...], Meta(max_length=2)] = ()

    def __post_init__(self) -> None:
        # Shown to strangers in the lobby: no bidi controls or invisible characters.
        msgspec.structs.force_setattr(self, "name", clean(self.name))


# --- client -> server -------------------------------------------------------------


class ClientMessage(Struct, tag_field="t", forbid_unknown_fields=True):
    """Base of every message a client sends."""

    id: RequestId


class Hello(ClientMessage, tag="hello"):
    """First message on every connection. With `token`, resumes an earlier session.

    Every state-changing request sent twice with the same `id` on one connection is
    carried out once (the repeat gets the first answer again). With `keep_ids`, the client
    says it numbers its requests uniquely across the session's connections (it keeps its
    counter over reconnects): a request sent again after a reconnect is then answered from
    the first connection's answer too, on the same server."""

    v: Annotated[int, Meta(ge=0, le=65535)]
    name: Name
    token: Token | None = None
    keep_ids: bool = False

    def __post_init__(self) -> None:
        try:
            self.name = clean_name(self.name)
        except ValueError as exc:
            raise ValueError(f"{exc} - at `$.name`") from None  # as msgspec names a path


class Lobby(ClientMessage, tag="lobby"):
    """Subscribe (`on`) to or unsubscribe from the live list of public rooms."""

    on: bool = True


class Create(ClientMessage, tag="create"):
    """Create a room and take seat 0 in it."""

    settings: RoomSettings = RoomSettings()


class Join(ClientMessage, tag="join"):
    """Join by room id or invite code (a private room needs its code), as player or spectator."""

    room: RoomId | None = None
    code: InviteCode | None = None
    role: Role = "player"


class Quick(ClientMessage, tag="quick"):
    """Wait for (`on`) or stop waiting for a quick match against another waiting player."""

    on: bool = True
    race_to: Annotated[int, Meta(ge=1, le=21)] = 3


class Leave(ClientMessage, tag="leave"):
    """Leave the room. A player who leaves a running match concedes it (O4)."""


class Ready(ClientMessage, tag="ready"):
    """A seated player is ready (or no longer) to start; both ready starts the match."""

    ready: bool = True


class Place(ClientMessage, tag="place"):
    """Place the cue ball with ball in hand (R10); may be repeated until the shot."""

    pos: Position


class Aim(ClientMessage, tag="aim"):
    """Live aim preview from the shooter, ≤ 20 per second; relayed, never changes state.

    No reply unless refused.
    """

    angle: Angle
    speed: Speed
    tip: Tip = (0.0, 0.0)
    elevation: Elevation = 0.0
    #: The cue ball where the shooter is dragging it with ball in hand (not a placement).
    cue: Position | None = None


class Shot(ClientMessage, tag="shot"):
    """Strike the cue ball (O2). `push_out` declares a push-out (R6)."""

    angle: Angle
    speed: Speed
    tip: Tip = (0.0, 0.0)
    elevation: Elevation = 0.0
    push_out: bool = False


class LagShot(ClientMessage, tag="lag"):
    """Play the lag (O6): the ball starts behind the head string on this seat's half of the
    table and is shot toward the foot rail; `angle` is off the straight line, in degrees."""

    speed: Speed
    angle: Annotated[float, Meta(ge=-10.0, le=10.0)] = 0.0
    tip: Tip = (0.0, 0.0)


class Choose(ClientMessage, tag="choose"):
    """After a push-out: shoot from the position left, or pass the shot back (R6.4)."""

    choice: Literal["shoot", "pass"]


class LagChoice(ClientMessage, tag="lag_choice"):
    """The lag (or draw) winner decides who breaks the first game (R3, O6): `break`
    themself, or `give` the break to the opponent."""

    choice: Literal["break", "give"]


class Concede(ClientMessage, tag="concede"):
    """Concede the game or the whole match (O4)."""

    what: Literal["game", "match"] = "game"


class Stalemate(ClientMessage, tag="stalemate"):
    """Propose a stalemate, or accept the opponent's proposal (R14)."""

    action: Literal["propose", "accept"]


class Extend(ClientMessage, tag="extend"):
    """Use one shot-clock extension on the current shot (O3)."""


class Chat(ClientMessage, tag="chat"):
    """Say something to the room (rate-limited)."""

    text: ChatText

    def __post_init__(self) -> None:
        self.text = clean(self.text)
        if not self.text:
            raise ValueError("empty once invisible characters are dropped - at `$.text`")


class Rematch(ClientMessage, tag="rematch"):
    """After the match: ask for a rematch; when both players ask, a new match starts."""


class Resync(ClientMessage, tag="resync"):
    """Ask for a fresh `snapshot` of the room (after a `seq` gap)."""


class Ping(ClientMessage, tag="ping"):
    """Answered with `pong` carrying the server clock."""


AnyClientMessage = (
    Hello
    | Lobby
    | Create
    | Join
    | Quick
    | Leave
    | Ready
    | Place
    | Aim
    | Shot
    | LagShot
    | LagChoice
    | Choose
    | Concede
    | Stalemate
    | Extend
    | Chat
    | Rematch
    | Resync
    | Ping
)

# --- views shared by server messages ------------------------------------------------


class Info(Struct, frozen=True):
    """A room as the lobby lists it."""

    room: str
    name: str
    players: list[str]
    spectators: int
    score: list[int]
    race_to: int
    status: Literal["waiting", "lag", "playing", "finished"]


class SeatView(Struct, frozen=True):
    seat: Seat
    player: str
    name: str
    connected: bool
    ready: bool
    #: While disconnected: when the grace period (O5) ends.
    grace_until: EpochMs | None = None


class ClockView(Struct, frozen=True):
    """The shot clock (O3) of the player to shoot."""

    seconds: int
    #: When the shot must be struck; None while paused (shooter disconnected, shot playing).
    deadline: EpochMs | None
    paused: bool
    #: Extensions left in this game, per seat.
    extensions: list[int]


class TableView(Struct, frozen=True):
    """The referee's state and the balls: everything needed to draw and to act."""

    rack: int
    breaker: Seat
    #: The seat to act (shoot, place, choose), None once the match is over.
    turn: Seat | None
    ball_in_hand: Literal["table", "kitchen"] | None
    push_out_allowed: bool
    choice_pending: bool
    #: Index = ball number; None = pocketed or off the table.
    balls: list[BallPosition | None]
    lowest: Ball | None
    score: list[int]
    #: Consecutive fouls per seat (R13).
    fouls: list[int]
    #: Seats on two consecutive fouls who have been warned (R13).
    warned: list[Seat]
    stalemate_warning: bool
    stalemate_proposed_by: Seat | None
    match_over: bool
    match_winner: Seat | None
    clock: ClockView | None


class ShotInput(Struct, frozen=True):
    angle: float
    speed: float
    tip: tuple[float, float]
    elevation: float
    push_out: bool


class ShotReport(Struct, frozen=True):
    """The physics facts the referee judged (see the referee's shot report)."""

    first: Ball | None
    rails: list[Ball]
    pocketed: list[Ball]
    off_table: list[Ball]


Reason = tuple[str, str]


class VerdictView(Struct, frozen=True):
    """What the referee decided and why.

    `fouls` are rule ids such as `R8`, `G1`, `O3` (several on one shot are still one foul,
    R7). `reasons` gives one `[rule_id, sentence]` per foul, `notes` the other things the
    action set in motion (the 9 spotted, a warning, a game won, a re-rack), worded so a
    client can show "Foul: <sentence> (<rule_id>)".
    """

    foul: bool
    fouls: list[str]
    reasons: list[Reason]
    notes: list[Reason]
    spotted: list[Ball]
    game_over: bool
    game_winner: Seat | None
    #: How the game ended: "nine", "three_fouls", "concede", "forfeit", "stalemate".
    game_end: str | None
    match_over: bool
    match_winner: Seat | None
    new_rack: bool
    #: The seat given the R13 warning by this action.
    warned: Seat | None
    #: The game was re-racked by R14.
    stalemate: bool
    #: This action brought the R14 stalemate warning into force.
    stalemate_warning_given: bool


# --- server -> client: replies --------------------------------------------------------


class ServerMessage(Struct, tag_field="t"):
    """Base of every message the server sends."""


class Welcome(ServerMessage, tag="welcome"):
    """Answer to `hello`. Keep `token` to resume this session after a disconnect."""

    id: RequestId
    v: int
    player: str
    name: str
    token: str
    now: EpochMs
    #: The room the player is seated in, if any; its `snapshot` follows at once.
    room: str | None = None


class Ok(ServerMessage, tag="ok"):
    """A request was accepted (its effects arrive as room events)."""

    id: RequestId


class Joined(ServerMessage, tag="joined"):
    """Answer to `create`, `join` and a matched `quick`; a `snapshot` follows."""

    id: RequestId
    room: str
    role: Role
    seat: Seat | None
    code: str | None


class Error(ServerMessage, tag="error"):
    """A request was refused and nothing changed. `id` is None when the frame had none."""

    id: RequestId | None
    code: str
    msg: str


class Pong(ServerMessage, tag="pong"):
    id: RequestId
    now: EpochMs


class Rooms(ServerMessage, tag="rooms"):
    """The full list of public rooms, sent on `lobby` subscribe."""

    id: RequestId
    rooms: list[Info]


class RoomChanged(ServerMessage, tag="room"):
    """A listed room appeared or changed (lobby subscribers only)."""

    info: Info


class RoomGone(ServerMessage, tag="room_gone"):
    room: str


class Notice(ServerMessage, tag="notice"):
    """News about the room's server, not a room event (no `seq`, nothing changes in the
    room): `moving` when the server running the room stopped or failed and another one is
    taking it over (requests meanwhile are refused `room_moving`), `back` once it runs
    again (after its fresh `snapshot`). Clients that do not know `notice` ignore it."""

    room: str
    kind: Literal["moving", "back"]
    msg: str


# --- server -> client: room events (each with the room's seq) --------------------------


class InFlight(Struct, frozen=True):
    """A shot still being animated when the snapshot was taken: play `traj` from `offset`."""

    result: ShotResult
    offset: float


class RoomView(Struct, frozen=True):
    room: str
    settings: RoomSettings
    #: The invite code; sent to members of a private room only.
    code: str | None
    status: Literal["waiting", "lag", "playing", "finished"]
    seats: list[SeatView | None]
    spectators: int
    #: None until the first break is decided.
    table: TableView | None
    #: Seats that have asked for a rematch.
    rematch: list[Seat]
    #: Seats that have played the lag shot while `status` is "lag".
    lagged: list[Seat]
    inflight: InFlight | None
    #: The lag (or draw) winner who must now choose who breaks (R3, O6); None otherwise.
    lag_choice: Seat | None = None


class Snapshot(ServerMessage, tag="snapshot"):
    """The whole room. Sent on join/resync/reconnect (`seq` = the room's latest) and
    broadcast when seats, readiness or the match itself start or end (`seq` + 1)."""

    room: str
    seq: Seq
    now: EpochMs
    view: RoomView
    #: The `resync` request this snapshot answers; None otherwise.
    id: RequestId | None = None


class ShotResult(ServerMessage, tag="shot_result"):
    """One shot, judged: animate `traj` (see `protocol/TRAJECTORY.md`), then show `table`."""

    room: str
    seq: Seq
    shooter: Seat
    shot: ShotInput
    traj: bytes
    duration: float
    miscue: bool
    report: ShotReport
    verdict: VerdictView
    table: TableView
    #: Where every ball came to rest after the shot (before any spotting); index = ball.
    final: list[BallPosition | None]


class Ruling(ServerMessage, tag="ruling"):
    """A referee decision that is not a shot: a choice, a concession, a stalemate, the
    shot clock running out, a forfeit, an extension."""

    room: str
    seq: Seq
    by: Seat | None
    action: Literal[
        "choose_shoot",
        "choose_pass",
        "concede_game",
        "concede_match",
        "stalemate_propose",
        "stalemate_accept",
        "clock_expired",
        "forfeit",
        "extension",
        "lag_choice",
    ]
    verdict: VerdictView | None
    table: TableView


class Placed(ServerMessage, tag="placed"):
    """The shooter placed the cue ball (R10)."""

    room: str
    seq: Seq
    seat: Seat
    pos: BallPosition


class AimRelay(ServerMessage, tag="aim"):
    """The shooter's live aim (throttled). Ephemeral: no `seq`, may be dropped."""

    room: str
    seat: Seat
    angle: float
    speed: float
    tip: tuple[float, float]
    elevation: float
    cue: BallPosition | None


class ChatRelay(ServerMessage, tag="chat"):
    room: str
    seq: Seq
    #: The sender's seat, or None for a spectator.
    seat: Seat | None
    name: str
    text: str


class Warning(ServerMessage, tag="warning"):
    """Shown to everyone at the table: `three_fouls` (R13, after a second consecutive
    foul), `stalemate` (R14), `clock` (O3, ten seconds left)."""

    room: str
    seq: Seq
    kind: Literal["three_fouls", "stalemate", "clock"]
    seat: Seat | None
    msg: str


class GameOver(ServerMessage, tag="game_over"):
    room: str
    seq: Seq
    rack: int
    winner: Seat | None
    reason: str
    score: list[int]


class MatchOver(ServerMessage, tag="match_over"):
    room: str
    seq: Seq
    winner: Seat | None
    reason: str
    score: list[int]


class Presence(ServerMessage, tag="presence"):
    """A player dropped (the seat is kept until `grace_until`, O5) or came back; the
    spectator count changed."""

    room: str
    seq: Seq
    seat: Seat | None
    connected: bool
    grace_until: EpochMs | None
    spectators: int


class Spectators(ServerMessage, tag="spectators"):
    """How many watch the room now. Ephemeral, like `aim`: no `seq`, never stored, may be
    skipped. Sent at most once a second per room (the newest count wins), so spectators
    coming and going cost the room's members one small frame a second at most."""

    room: str
    count: Annotated[int, Meta(ge=0)]


class LagView(Struct, frozen=True):
    seat: Seat
    traj: bytes
    duration: float
    #: Where the ball stopped, None if it was pocketed or left the table.
    final: BallPosition | None
    #: Distance from the head rail in metres, None for a lag that does not count.
    distance: float | None
    #: Why a lag did not count ("no foot rail", "pocketed", …); empty when it counts.
    fault: str


class LagResult(ServerMessage, tag="lag_result"):
    """Both lag shots (O6) or the draw. `winner` None means lag again. Each trajectory
    holds one ball, numbered 0."""

    room: str
    seq: Seq
    method: FirstBreak
    lags: list[LagView]
    winner: Seat | None
    table: TableView | None


AnyServerMessage = (
    Welcome
    | Ok
    | Joined
    | Error
    | Pong
    | Rooms
    | RoomChanged
    | RoomGone
    | Notice
    | Snapshot
    | ShotResult
    | Ruling
    | Placed
    | AimRelay
    | ChatRelay
    | Warning
    | GameOver
    | MatchOver
    | Presence
    | Spectators
    | LagResult
)

#: Room events: what carries a `seq`.
ROOM_EVENTS = (
    Snapshot,
    ShotResult,
    Ruling,
    Placed,
    ChatRelay,
    Warning,
    GameOver,
    MatchOver,
    Presence,
    LagResult,
)


class Replay(Struct, frozen=True):
    """`GET /replay/<room>`: the room's settings and its stored room events in order
    (MessagePack). Events that are not stored (`spectators`, `aim`, the `snapshot` a
    `ready` toggle sends) take no `seq`, so a replay's `seq` runs on without them; past a
    room's log cap events are not stored either, and the replay says `truncated`."""

    room: str
    settings: RoomSettings
    players: list[str]
    events: list[msgspec.Raw]
    #: The room had events after the last one here: its log was full (`--room-log-max`)
    #: or the replay reached `--replay-max-bytes`.
    truncated: bool = False

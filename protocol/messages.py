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

from protocol.fields import (
    BALL_MARGIN as BALL_MARGIN,
)
from protocol.fields import (
    GAME_END_REASONS as GAME_END_REASONS,
)
from protocol.fields import (
    LAG_RESOLUTION as LAG_RESOLUTION,
)
from protocol.fields import (
    MATCH_END_REASONS as MATCH_END_REASONS,
)
from protocol.fields import (
    AimAid as AimAid,
)
from protocol.fields import (
    Angle as Angle,
)
from protocol.fields import (
    Ball as Ball,
)
from protocol.fields import (
    BallPosition as BallPosition,
)
from protocol.fields import (
    BallX as BallX,
)
from protocol.fields import (
    BallY as BallY,
)
from protocol.fields import (
    BreakOrder as BreakOrder,
)
from protocol.fields import (
    ChatText as ChatText,
)
from protocol.fields import (
    Elevation as Elevation,
)
from protocol.fields import (
    EpochMs as EpochMs,
)
from protocol.fields import (
    FirstBreak as FirstBreak,
)
from protocol.fields import (
    GameEndReason as GameEndReason,
)
from protocol.fields import (
    InviteCode as InviteCode,
)
from protocol.fields import (
    LagReason as LagReason,
)
from protocol.fields import (
    MatchEndReason as MatchEndReason,
)
from protocol.fields import (
    Name as Name,
)
from protocol.fields import (
    Position as Position,
)
from protocol.fields import (
    RequestId as RequestId,
)
from protocol.fields import (
    Role as Role,
)
from protocol.fields import (
    RoomId as RoomId,
)
from protocol.fields import (
    RoomName as RoomName,
)
from protocol.fields import (
    RoomSettings as RoomSettings,
)
from protocol.fields import (
    Seat as Seat,
)
from protocol.fields import (
    SeatInvite as SeatInvite,
)
from protocol.fields import (
    Seq as Seq,
)
from protocol.fields import (
    Speed as Speed,
)
from protocol.fields import (
    Tip as Tip,
)
from protocol.fields import (
    TipComponent as TipComponent,
)
from protocol.fields import (
    Token as Token,
)
from protocol.fields import (
    X as X,
)
from protocol.fields import (
    Y as Y,
)
from protocol.text import clean, clean_name
from protocol.views import (
    ClockView as ClockView,
)
from protocol.views import (
    Info as Info,
)
from protocol.views import (
    Reason as Reason,
)
from protocol.views import (
    SeatView as SeatView,
)
from protocol.views import (
    ShotInput as ShotInput,
)
from protocol.views import (
    ShotReport as ShotReport,
)
from protocol.views import (
    TableView as TableView,
)
from protocol.views import (
    VerdictView as VerdictView,
)

#: The protocol version a client states in `hello`; a different one is refused.
PROTOCOL_VERSION = 1

#: The largest frame the server accepts from a client (bytes).
MAX_CLIENT_FRAME = 4096

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
    #: A rated quick match: paired by rating (accounts only, see docs/RATINGS.md).
    rated: bool = False


class Sit(ClientMessage, tag="sit"):
    """A spectator of the room takes an empty seat (`seat`, else the first free one) while
    the room waits for a player. A private room needs its `code` or a seat `invite`; an
    `invite` given must be the room's. Refused with `seat_taken`, `room_full`,
    `match_started`, `code_required`, `bad_seat_invite`, `already_seated`."""

    seat: Seat | None = None
    code: InviteCode | None = None
    invite: SeatInvite | None = None


#: A computer player's level: 1 (beginner) to 5 (strong) (`server/bot/README.md`).
ComputerLevel = Annotated[int, Meta(ge=1, le=5)]


class Computer(ClientMessage, tag="computer"):
    """Play the computer: a room of your own against a computer player of `level`, seated
    and started at once (answered `joined`). Also the answer to a `computer_offer` while
    waiting for a quick match (the wait ends)."""

    level: ComputerLevel = 1
    race_to: Annotated[int, Meta(ge=1, le=21)] = 3
    #: A rated room (accounts only, see docs/RATINGS.md): each rack moves the person's
    #: rating against the computer's fixed one; the computer's never moves.
    rated: bool = False


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
    #: The shot aimed is a push-out the shooter has chosen (R6): the opponent hears it
    #: before the shot, as a push-out is announced at a real table. The shot's own
    #: `push_out` is what counts.
    push_out: bool = False


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
    """Answered with `pong` carrying the server clock.

    With `expect`, the client promises its next frame within that many seconds (a `ping`
    when it has nothing else to say), until a `ping` without it withdraws the promise (a
    page going into the background, whose timers the browser slows). A connection that
    breaks the promise by far (`Client.SILENCE_FACTOR`) is taken for dropped — a phone
    whose network went away leaves no close behind, and the keepalive takes up to 40 s to
    find out — and is closed: a seated player's grace period begins (O5), their shot clock
    stops, and the others see them away."""

    expect: Annotated[int, Meta(ge=1, le=60)] | None = None


AnyClientMessage = (
    Hello
    | Lobby
    | Create
    | Join
    | Quick
    | Computer
    | Leave
    | Sit
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
    #: The player plays as their account (hello with an account token): `token` is then
    #: a fresh account token, and `name` the account's name.
    account: bool = False


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
    #: A player's seat invite for the room's share link (see `Sit`); None for a spectator.
    invite: str | None = None


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


class ComputerOffer(ServerMessage, tag="computer_offer"):
    """To a player waiting for a quick match that nobody has taken: a computer player of
    `level` would play now. Say `computer` to take it (the wait ends); keep waiting and
    a person may still come."""

    level: int


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
    #: When that choice's time runs out (the winner then breaks); None without a choice.
    lag_choice_until: EpochMs | None = None
    #: The room's match in play or last played, counted from 1 (a rematch is the next);
    #: 0 before the first begins. A rematch numbers its racks from 1 again, so a rack's
    #: replay page names the match from the second on: `/replay/<room>/<match>/<rack>`.
    match: int = 0
    #: While the lag is played under a shot clock: when its time runs out (O6) — a
    #: player who has not lagged by then loses the lag. None otherwise (no shot clock, no
    #: lag), or while it waits for such a player who is away.
    lag_until: EpochMs | None = None


class Snapshot(ServerMessage, tag="snapshot"):
    """The whole room. Sent on join/resync/reconnect (`seq` = the room's latest) and
    broadcast when seats, readiness or the match itself start or end (`seq` + 1)."""

    room: str
    seq: Seq
    now: EpochMs
    view: RoomView
    #: The `resync` request this snapshot answers; None otherwise.
    id: RequestId | None = None
    #: In the snapshot a member gets for itself alone (join, reload, resync): what came
    #: before (see `Recent`); None in a broadcast, or for a room just brought back.
    recent: Recent | None = None
    #: In a seated player's own snapshot: the room's seat invite (see `Sit`).
    invite: str | None = None


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
    #: For `lag_choice`: the winner did not choose in time, and breaks (O6).
    late: bool = False


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
    #: The shooter means a push-out (`Aim.push_out`).
    push_out: bool = False


class ChatRelay(ServerMessage, tag="chat"):
    room: str
    seq: Seq
    #: The sender's seat, or None for a spectator.
    seat: Seat | None
    name: str
    text: str


class Warning(ServerMessage, tag="warning"):
    """Shown to everyone at the table: `three_fouls` (R13, after a second consecutive
    foul), `stalemate` (R14), `clock` (O3, ten seconds left). `three_fouls` and `clock`
    always name the seat they are about; `stalemate` concerns both (None)."""

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
    reason: GameEndReason
    score: list[int]
    #: When the pause between games ends and the next rack's break is expected (its shot
    #: clock starts then); None when the match is over (and from older servers).
    next_rack: EpochMs | None = None


class MatchOver(ServerMessage, tag="match_over"):
    room: str
    seq: Seq
    winner: Seat | None
    reason: MatchEndReason
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
    #: The turn's clock when this changed it: paused while the shooter is away, running
    #: again on their return (None: unchanged, or no shot clock).
    clock: ClockView | None = None


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
    #: The same as a code: `off_table` (pocketed or off the table), `short` (did not reach
    #: the foot rail), `late` (not played in its time: the ball never moved, `traj` is
    #: empty); empty when the lag counts.
    fault_code: Literal["", "off_table", "short", "late"] = ""


class LagResult(ServerMessage, tag="lag_result"):
    """Both lag shots (O6) or the draw. `winner` None means lag again. Each trajectory
    holds one ball, numbered 0."""

    room: str
    seq: Seq
    method: FirstBreak
    lags: list[LagView]
    winner: Seat | None
    table: TableView | None
    #: Why: see `LagReason` (None from a server before the reason was sent).
    reason: LagReason | None = None


#: The room events a late joiner's log shows.
LogEvent = ShotResult | Ruling | LagResult | Warning | GameOver | MatchOver

#: How many log events and chat lines `Recent` carries at most.
RECENT_LOG = 30
RECENT_CHAT = 30
#: How many seatings (`Recent.seating`) it carries at most.
RECENT_SEATING = 8


class Recent(Struct, frozen=True):
    """What a member coming in (a late join, a reload, a resync) missed, so it sees the
    room as those who were there do: the latest log events (`RECENT_LOG`, trajectories
    left out: `traj` is empty), the latest chat (`RECENT_CHAT`), and the last verdict —
    the latest `shot_result` or `ruling` with one (a player with ball in hand sees why).
    `seating` holds the latest broadcast snapshots at which the seats' names or the match
    changed (`RECENT_SEATING`, `inflight` left out): each log line is named after the
    players seated when it was written, not after those seated now."""

    log: list[LogEvent]
    chat: list[ChatRelay]
    verdict: ShotResult | Ruling | None
    seating: list[Snapshot] = []


AnyServerMessage = (
    Welcome
    | Ok
    | Joined
    | Error
    | Pong
    | Rooms
    | RoomChanged
    | RoomGone
    | ComputerOffer
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
    #: Beside `players`, one entry each: a computer player's level, None for a person
    #: (empty from older servers).
    computer: list[int | None] = msgspec.field(default_factory=list)

"""The values a room is made of: its state, the commands and effects of its machine, and
the record the store keeps.

Everything here is an immutable value. The room's state is tagged by its phase, and each
phase carries exactly what it needs, so a room "playing" without a table, or a lag winner
outside the choice of the first breaker, cannot be written down:

| phase      | carries                                  | status on the wire |
|------------|------------------------------------------|--------------------|
| `Waiting`  | nothing (seats fill, players get ready)  | `waiting`          |
| `Lagging`  | the table, the lag shots so far, its time | `lag`             |
| `Choosing` | the table, the lag (or draw) winner      | `lag`              |
| `Playing`  | the table, the shot clock                | `playing`          |
| `Finished` | the table, who asked for a rematch       | `finished`         |

Members (`server.rooms.seams.Member`) appear only as opaque handles: the machine reads a
member's `player` and `name` and compares handles, and never calls anything on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

import msgspec

from protocol import messages as m
from server import physics
from server.players.results import MatchResult, RackResult
from server.rooms.bots import Aiming, BotWake, Think, Thought
from server.rooms.seams import Command, Member
from server.rooms.shots import SimResult
from server.rooms.table import Point, Table

Status = Literal["waiting", "lag", "playing", "finished"]

#: Seconds the lag winner has to choose who breaks when the room has no shot clock (O6).
LAG_CHOICE_SECONDS = 30.0


def lag_choice_seconds(settings: m.RoomSettings) -> float:
    """Time the lag winner has to choose who breaks (O6): the shot clock's, else
    `LAG_CHOICE_SECONDS`."""
    clock = settings.shot_clock
    return float(clock) if clock is not None else LAG_CHOICE_SECONDS


#: Players remembered as having held a seat (`RoomState.seated`).
SEATED_KEPT = 8


# --- phases --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Clock:
    """The shot clock (O3) in wall-clock seconds: running toward `deadline`, or paused
    with `left` seconds (the shooter is away, or the clock waits for the shot to play
    out), or neither (no clock this turn)."""

    deadline: float | None = None
    left: float | None = None
    warned: bool = False


@dataclass(frozen=True)
class Waiting:
    status: Literal["waiting"] = "waiting"


@dataclass(frozen=True)
class Lagging:
    table: Table
    #: Lag shots played, by seat (both in: the lag is simulated).
    shots: tuple[tuple[int, m.LagShot], ...] = ()
    status: Literal["lag"] = "lag"
    #: When the time to play the lag runs out (wall seconds, O6); None: not running — no
    #: shot clock, or it waits for a player who has not lagged and is away, or for a
    #: restored room's players.
    until: float | None = None

    def shot_of(self, seat: int) -> m.LagShot | None:
        return next((shot for index, shot in self.shots if index == seat), None)


@dataclass(frozen=True)
class Choosing:
    """The lag (or draw) winner chooses who breaks the first rack (R3, O6)."""

    table: Table
    winner: int
    status: Literal["lag"] = "lag"
    #: When the winner's time to choose runs out and they break (wall seconds; None: not
    #: known, a room brought back gives the whole time again from its restart).
    until: float | None = None


@dataclass(frozen=True)
class Playing:
    table: Table
    clock: Clock = Clock()
    status: Literal["playing"] = "playing"


@dataclass(frozen=True)
class Finished:
    table: Table
    rematch: frozenset[int] = frozenset()
    status: Literal["finished"] = "finished"
    #: Who sat in each seat when the match ended ("": nobody), so the lobby still names
    #: the winner and the loser once they have left their seats.
    names: tuple[str, str] = ("", "")


Phase = Waiting | Lagging | Choosing | Playing | Finished


# --- the room --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    player: str
    name: str
    #: The member sitting here now (None: away, within the grace period).
    member: Member | None
    ready: bool = False
    grace_until: int | None = None  # epoch ms
    #: The player's rating as the players service last said (None: a guest, or not
    #: known yet): shown next to the name, never used by the room itself.
    rating: int | None = None
    provisional: bool = False
    #: A computer player's level (its `member` a `server.rooms.bots.BotMember`); None: a
    #: person.
    bot: int | None = None


@dataclass(frozen=True)
class Limits:
    """What the process's settings say about every room."""

    grace: float = 60.0
    spectator_cap: int = 200
    aim_interval: float = 0.05
    #: The spectator count is sent at most once per this many seconds (the newest wins).
    crowd_interval: float = 1.0
    #: Events a room's log keeps at most; chat may fill a quarter of them (see `Working`).
    log_max: int = 10_000

    #: Seconds a computer player waits once the last shot has played out before it plays
    #: (0: as soon as it has decided, without waiting for the shot to play out).
    bot_pause: float = 1.5
    #: Seconds between the end of a game and the next break, while everyone sees the
    #: result: the breaker's shot clock starts after them, and a computer breaking waits
    #: for them too (unless it does not pace its shots, `bot_pause` 0).
    rack_pause: float = 6.0
    #: Seconds between two matches of an exhibition of two computers.
    exhibition_gap: float = 8.0

    @property
    def chat_log_max(self) -> int:
        return self.log_max // 4


@dataclass(frozen=True)
class Aim:
    """Aim previews are relayed at most once per `Limits.aim_interval`: the newest waits."""

    pending: m.AimRelay | None = None
    last_sent: float = float("-inf")
    flush_scheduled: bool = False


@dataclass(frozen=True)
class Crowd:
    """The spectator count as the members last heard it (`m.Spectators`), sent at most
    once per `Limits.crowd_interval`: a change within it waits for the `CrowdFlush`."""

    sent: int = 0
    last_sent: float = float("-inf")
    flush_scheduled: bool = False


@dataclass(frozen=True)
class InFlight:
    """The last shot's result while it may still be playing out on screens."""

    result: m.ShotResult
    started: float  # wall seconds


@dataclass(frozen=True)
class PendingShot:
    """A shot handed to the physics pool; its request is answered once it is stored."""

    member: Member
    seat: int
    message: m.Shot
    balls: dict[int, Point]
    shot: physics.Shot


@dataclass(frozen=True)
class PendingLag:
    """The lag shots played are being simulated: both, and the second one's request is
    answered once the lag's result is stored; or, the lag's time run out, the one played
    (`late` is the seat that played none, and no request waits for an answer)."""

    member: Member | None
    request_id: int
    late: int | None = None


@dataclass(frozen=True)
class RackTally:
    """What the rack in play has seen, for its result (`server.players.results`): its
    number and breaker (a seat), fouls by seat, turns at the table by seat (a shot or a
    shoot/pass choice), and whether the 9 fell on the break."""

    rack: int = 0
    breaker: int | None = None
    fouls: tuple[int, int] = (0, 0)
    turns: tuple[int, int] = (0, 0)
    nine_on_break: bool = False


#: Results a room's record keeps, newest last: handed to the players service again when
#: the room is brought back (it counts each once), in case the node stopped before it
#: had handed them over.
REPORTS_KEPT = 4

Result = RackResult | MatchResult


@dataclass(frozen=True)
class History:
    """What a member coming in is told of the past (`m.Recent`): the latest log events
    (trajectories left out), the latest chat lines, the last verdict and the snapshots
    at which who sat (or the match) changed. Kept in memory
    only: a room brought back from its record does not know it (`known` False), and its
    newcomers read the replay instead."""

    log: tuple[m.LogEvent, ...] = ()
    chat: tuple[m.ChatRelay, ...] = ()
    verdict: m.ShotResult | m.Ruling | None = None
    known: bool = True
    #: The snapshots at which the seats' names or the match changed (`m.Recent.seating`).
    seating: tuple[m.Snapshot, ...] = ()

    def heard(self, event: m.ServerMessage) -> History:
        """The history once `event` is sent."""
        if isinstance(event, m.Snapshot):
            return self.seated(event)
        if isinstance(event, m.ChatRelay):
            return replace(self, chat=(*self.chat, event)[-m.RECENT_CHAT :])
        if isinstance(event, m.ShotResult):
            event = msgspec.structs.replace(event, traj=b"")
        elif isinstance(event, m.LagResult):
            lags = [msgspec.structs.replace(lag, traj=b"") for lag in event.lags]
            event = msgspec.structs.replace(event, lags=lags)
        elif not isinstance(event, m.Ruling | m.Warning | m.GameOver | m.MatchOver):
            return self
        log = (*self.log, event)[-m.RECENT_LOG :]
        verdict = self.verdict
        if isinstance(event, m.ShotResult | m.Ruling) and event.verdict is not None:
            verdict = event
        return replace(self, log=log, verdict=verdict)

    def seated(self, snapshot: m.Snapshot) -> History:
        """Kept if it seats other players or names, or starts another match, than the
        last kept."""
        if self.seating:
            last = self.seating[-1].view
            if last.match == snapshot.view.match and _names(last) == _names(snapshot.view):
                return self
        slim = msgspec.structs.replace(snapshot.view, inflight=None)
        kept = msgspec.structs.replace(snapshot, view=slim, recent=None, invite=None)
        return replace(self, seating=(*self.seating, kept)[-m.RECENT_SEATING :])

    def wire(self) -> m.Recent | None:
        if not self.known:
            return None
        return m.Recent(
            log=list(self.log),
            chat=list(self.chat),
            verdict=self.verdict,
            seating=list(self.seating),
        )


def _names(view: m.RoomView) -> list[tuple[str, str] | None]:
    """Who sits where: a player and the name they sit under (another player under the
    same name is another seating)."""
    return [None if seat is None else (seat.player, seat.name) for seat in view.seats]


@dataclass(frozen=True)
class RoomState:
    id: str
    settings: m.RoomSettings
    code: str | None
    seed: int
    limits: Limits = Limits()
    phase: Phase = Waiting()
    seq: int = 0
    match: int = 0
    shots: int = 0
    seats: tuple[Seat | None, Seat | None] = (None, None)
    spectators: tuple[Member, ...] = ()
    inflight: InFlight | None = None
    aim: Aim = Aim()
    pending: PendingShot | PendingLag | None = None
    closed: bool = False
    crowd: Crowd = Crowd()
    #: Events stored in the room's log so far, and how many of them are chat (-1: not
    #: known, a record from before the count was kept; `seq` then stands for it).
    logged: int = 0
    chat_logged: int = 0
    #: Players who have held a seat, newest last (at most `SEATED_KEPT`): a private
    #: room's replay is theirs to read with their session token.
    seated: tuple[str, ...] = ()
    #: The rack in play so far, and the latest results reported (`REPORTS_KEPT`).
    tally: RackTally = RackTally()
    reports: tuple[Result, ...] = ()
    history: History = History()
    #: When the pause between two games ends (`Limits.rack_pause`, wall seconds): the
    #: next rack's break is expected then. Kept in memory only; a room brought back has
    #: its clock paused anyway.
    racking_until: float | None = None
    #: The question a computer player was last asked (`server.rooms.bots.Think`); its
    #: answer is taken only while the room still asks it.
    thinking: Think | None = None
    #: The names the seats are kept under, seat by seat as `settings.reserved` keeps them
    #: (a tournament's match: its entrants' names on the bracket); empty otherwise or for
    #: a room saved before they were kept. Nobody sits under a name like another's of
    #: them (`server.rooms.naming.kept_lookalike`).
    kept_names: tuple[str, ...] = ()

    @property
    def status(self) -> Status:
        return self.phase.status

    @property
    def table(self) -> Table | None:
        return None if isinstance(self.phase, Waiting) else self.phase.table

    def members(self) -> list[Member]:
        """Everyone connected: seated players, then spectators."""
        seated = [s.member for s in self.seats if s is not None and s.member is not None]
        return seated + list(self.spectators)


def new_room(
    room_id: str,
    settings: m.RoomSettings,
    seed: int,
    code: str | None,
    limits: Limits,
    kept_names: tuple[str, ...] = (),
) -> RoomState:
    return RoomState(room_id, settings, code, seed, limits, kept_names=kept_names)


# --- timers ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Grace:
    """A seated player's time to come back (O5)."""

    seat: int


@dataclass(frozen=True)
class ClockWarning:
    """The room's `clock_warning` seconds left on the shot clock."""


@dataclass(frozen=True)
class ClockOut:
    """The shot clock ran out (O3)."""


@dataclass(frozen=True)
class LagOut:
    """The time to play the lag ran out (O6)."""


@dataclass(frozen=True)
class LagChoiceOut:
    """The lag winner did not choose in time: they break (O6)."""


@dataclass(frozen=True)
class AimFlush:
    """The newest aim preview may go out now."""


@dataclass(frozen=True)
class CrowdFlush:
    """The newest spectator count may go out now."""


TimerName = (
    Grace | ClockWarning | ClockOut | LagOut | LagChoiceOut | AimFlush | CrowdFlush | BotWake
)

#: Every timer a room can have running: those an ending room (closed, or stopping) cancels.
ALL_TIMERS: tuple[TimerName, ...] = (
    Grace(0),
    Grace(1),
    ClockWarning(),
    ClockOut(),
    LagOut(),
    LagChoiceOut(),
    AimFlush(),
    CrowdFlush(),
    BotWake(),
)


# --- what the machine is told, besides the members' commands -----------------------------------


@dataclass(frozen=True)
class TimerFired:
    timer: TimerName


@dataclass(frozen=True)
class Simulated:
    """What the physics pool made of the pending shot or lag (in the order asked)."""

    results: tuple[SimResult, ...]


Input = Command | TimerFired | Simulated | Thought | Aiming


# --- what the machine asks for ------------------------------------------------------------------


@dataclass(frozen=True)
class Save:
    """Store the record and append the events to the room's log, before anything of this
    step is sent: if it fails, nothing of the step happened."""

    record: RoomRecord
    events: tuple[m.ServerMessage, ...]


@dataclass(frozen=True)
class Send:
    """A frame for one member alone (a reply, its own snapshot)."""

    to: Member
    message: msgspec.Struct


@dataclass(frozen=True)
class Broadcast:
    """Room events to every member (but `exclude`), in order."""

    events: tuple[m.ServerMessage, ...]
    exclude: Member | None = None


@dataclass(frozen=True)
class Relay:
    """An aim preview to every member but the shooter (not stored, may be skipped)."""

    message: m.AimRelay
    exclude: Member | None


@dataclass(frozen=True)
class Bind:
    member: Member


@dataclass(frozen=True)
class Unbind:
    member: Member


@dataclass(frozen=True)
class CloseMember:
    member: Member
    code: int
    reason: str


@dataclass(frozen=True)
class StartTimer:
    timer: TimerName
    delay: float


@dataclass(frozen=True)
class CancelTimer:
    timer: TimerName


@dataclass(frozen=True)
class SimJob:
    balls: dict[int, Point]
    shot: physics.Shot
    lag: bool = False


@dataclass(frozen=True)
class Simulate:
    """Run these in the physics pool and step the machine with `Simulated` at once."""

    jobs: tuple[SimJob, ...]


@dataclass(frozen=True)
class Report:
    """A rack or a match has ended (the step's `Save` holds it): hand the result to the
    players service. Keyed by (room, match, rack), so a repeat counts once."""

    result: Result


@dataclass(frozen=True)
class SeatTaken:
    player: str


@dataclass(frozen=True)
class SeatFreed:
    player: str


@dataclass(frozen=True)
class Close:
    """The room is empty and ends: keep its log for replays (`retire`) if anything was
    played in it, else delete it."""

    retire: bool


@dataclass(frozen=True)
class Stop:
    """The process is stopping: the room's task ends (its members were closed)."""


Effect = (
    Save
    | Send
    | Broadcast
    | Relay
    | Bind
    | Unbind
    | CloseMember
    | StartTimer
    | CancelTimer
    | Simulate
    | SeatTaken
    | SeatFreed
    | Close
    | Stop
    | Report
    | Think
)


# --- what the store keeps ------------------------------------------------------------------------


class SeatRecord(msgspec.Struct):
    player: str
    name: str
    ready: bool
    #: A computer player's level; None: a person.
    bot: int | None = None


class RoomRecord(msgspec.Struct):
    """Everything needed to bring a room back (after a restart, on another node). Its
    fields and their encoding are those of every earlier version, so rooms saved before
    still load."""

    room: str
    settings: m.RoomSettings
    code: str | None
    seed: int
    seq: int
    status: Status
    seats: list[SeatRecord | None]
    table: Table | None
    match: int
    lag_shots: dict[int, m.LagShot]
    rematch: list[int]
    #: Extensions left per seat in the rack (the table's state counts them; kept so a
    #: record from before it did still restores them).
    extensions: list[int]
    #: Seconds left on the shot clock when the record was written (None: not running).
    clock_left: float | None
    closed: bool = False
    #: The lag (or draw) winner still choosing who breaks (R3, O6); None otherwise.
    lag_winner: int | None = None
    #: Shots and lag shots played in the room's life: a room closed without one is
    #: deleted, a room with one keeps its log for replays (`Store.retire`).
    shots: int = 0
    #: Events in the room's log, and how many are chat (the log's cap); -1: written
    #: before the count was kept (then `seq`, an upper bound, stands for it).
    logged: int = -1
    chat_logged: int = 0
    #: Players who have held a seat, newest last (who may read a private room's replay).
    seated: list[str] = msgspec.field(default_factory=list)
    #: The latest requests of clients of other nodes whose change this record holds: a
    #: node that takes the room over answers them `ok` again for a relay that lost the
    #: answer with the owner (`server.rooms.actor`, `server.cluster.proxy`).
    applied: list[Applied] = msgspec.field(default_factory=list)
    #: The rack in play so far (for its result), and the latest results reported.
    tally: RackTally | None = None
    rack_reports: list[RackResult] = msgspec.field(default_factory=list)
    match_reports: list[MatchResult] = msgspec.field(default_factory=list)
    #: A finished match's players by seat as they sat when it ended (`Finished.names`);
    #: empty in records written before it was kept, and before a match ends.
    ended_names: list[str] = msgspec.field(default_factory=list)
    #: The names the seats are kept under (`RoomState.kept_names`).
    kept_names: list[str] = msgspec.field(default_factory=list)


class Applied(msgspec.Struct, array_like=True, frozen=True):
    """A request whose change a record holds: who sent it (`Relayed.origin`) and its id."""

    origin: str
    request: int


_record_decoder = msgspec.msgpack.Decoder(RoomRecord)


def decode_record(data: bytes) -> RoomRecord:
    return _record_decoder.decode(data)


@dataclass(frozen=True)
class Restored:
    """A room brought back from its record, with the timers it needs running."""

    state: RoomState
    timers: tuple[StartTimer, ...] = field(default=())

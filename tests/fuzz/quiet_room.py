"""The quiet room of a storm: two well-behaved players keep playing real shots while the
storm blows, and every client of it checks each event — every shot lands exactly where the
physics run locally from the same table says, every room event follows the previous one
by one `seq`, and nothing but their own shots, the spectators' comings and goings and chat
appears in it."""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import multiprocessing
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from protocol import messages as m
from tests.fuzz import frames
from tests.fuzz.storm_common import ANSWERS, WAIT, StormReport, decode_leniently, open_ws


def final_of(
    balls: dict[int, tuple[float, float]], angle: float, speed: float
) -> dict[int, tuple[float, float] | None]:
    """Where the physics stops every ball (run in the oracle process)."""
    from server import physics

    return dict(physics.simulate(balls, physics.Shot(angle=angle, speed=speed)).final)


class Watcher:
    """A well-behaved client of the quiet room: checks every event it sees."""

    def __init__(self, name: str, report: StormReport) -> None:
        self.name = name
        self.report = report
        self.ws: ClientConnection | None = None
        self.queue: asyncio.Queue[m.ServerMessage] = asyncio.Queue()
        self.kept: list[m.ServerMessage] = []
        self.reader: asyncio.Task[None] | None = None
        self.seq: int | None = None
        self.next_id = 0
        self.player: str | None = None
        self.table: m.TableView | None = None
        self.status = "waiting"
        #: Snapshots and lag results are only expected while the match is being started.
        self.starting = True
        self.closing = False

    async def open(self, url: str, **kwargs: Any) -> None:
        self.ws = await open_ws(url, **kwargs)
        self.reader = asyncio.get_running_loop().create_task(self._read())
        welcome = await self.request({"t": "hello", "v": m.PROTOCOL_VERSION, "name": self.name})
        assert isinstance(welcome, m.Welcome), welcome
        self.player = welcome.player

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                assert isinstance(raw, bytes)
                message = decode_leniently(raw, self.report, self.name)
                self._check(message)
                await self.queue.put(message)
        except ConnectionClosed:
            if not self.closing:
                self.report.violation(f"quiet room: {self.name} was disconnected")

    def _check(self, message: m.ServerMessage) -> None:
        seq = getattr(message, "seq", None)
        bad = None
        if isinstance(message, m.Snapshot) and (self.seq is None or message.seq == self.seq):
            self.seq = message.seq  # the join or resync snapshot (sent to this client alone)
        elif seq is not None:
            if self.seq is not None and seq != self.seq + 1:
                bad = f"seq {seq} after {self.seq}"
            self.seq = seq
        chosen = isinstance(message, m.Ruling) and message.action == "lag_choice"
        if chosen and self.starting:
            pass  # R3/O6: the draw winner chose who breaks, as the quiet room does
        elif isinstance(message, m.Placed | m.Ruling | m.AimRelay):
            bad = "an action nobody at the table took"
        elif isinstance(message, m.Presence) and message.seat is not None and not self.closing:
            bad = "a player's presence changed"
        elif isinstance(message, m.ChatRelay) and message.seat is not None:
            bad = "a player chatted"
        elif isinstance(message, m.Snapshot | m.LagResult) and not self.starting:
            bad = "a snapshot while no one restarted anything"
        if isinstance(message, m.Snapshot):
            self.status = message.view.status
            if message.view.table is not None:
                self.table = message.view.table
        elif isinstance(message, m.ShotResult | m.LagResult) and message.table is not None:
            self.table = message.table
        elif isinstance(message, m.MatchOver):
            self.status = "finished"
        if bad is not None:
            self.report.violation(f"quiet room: {self.name} saw {bad}: {message!r}"[:400])

    async def request(self, message: dict[str, Any]) -> m.ServerMessage:
        self.next_id += 1
        assert self.ws is not None
        await self.ws.send(frames.pack({**message, "id": self.next_id}))
        return await self.expect(ANSWERS, lambda r: getattr(r, "id", None) == self.next_id)

    async def expect(self, kinds: Any, where: Any = None) -> Any:
        for index, message in enumerate(self.kept):
            if isinstance(message, kinds) and (where is None or where(message)):
                return self.kept.pop(index)
        while True:
            message = await asyncio.wait_for(self.queue.get(), WAIT)
            if isinstance(message, kinds) and (where is None or where(message)):
                return message
            self.kept.append(message)
            if len(self.kept) > 500:
                del self.kept[:250]

    async def close(self) -> None:
        """Close this connection from the client's side, and wait for its reader to end."""
        self.closing = True
        if self.ws is not None:
            await self.ws.close()


class QuietTable:
    """Two players playing real shots, one spectator, all checking what they see."""

    def __init__(self, url: str, report: StormReport, connect_kwargs: dict[str, Any]) -> None:
        self.url = url
        self.report = report
        self.connect_kwargs = connect_kwargs
        self.players = [Watcher("QuietAna", report), Watcher("QuietBen", report)]
        self.spectator = Watcher("QuietEve", report)
        self.room = ""
        self.shots = 0

    @property
    def everyone(self) -> list[Watcher]:
        return [*self.players, self.spectator]

    async def setup(self) -> str:
        for watcher in self.everyone:
            await watcher.open(self.url, **self.connect_kwargs)
        ana, ben = self.players
        created = await ana.request(
            {"t": "create", "settings": {"name": "quiet", "race_to": 2, "first_break": "draw"}}
        )
        assert isinstance(created, m.Joined), created
        self.room = created.room
        joined = await ben.request({"t": "join", "room": self.room})
        assert isinstance(joined, m.Joined), joined
        watching = await self.spectator.request(
            {"t": "join", "room": self.room, "role": "spectator"}
        )
        assert isinstance(watching, m.Joined), watching
        await self._start("ready")
        return self.room

    async def _start(self, action: str) -> None:
        """Both players ready (or ask for a rematch): the draw decides the breaker."""
        for watcher in self.everyone:
            watcher.starting = True
        for player in self.players:
            reply = await player.request({"t": action})
            if not isinstance(reply, m.Ok):
                self.report.violation(f"quiet room: {action} answered {reply!r}")
        draws = [await w.expect(m.LagResult, lambda r: r.winner is not None) for w in self.everyone]
        # R3/O6: the draw winner chooses who breaks; here it always breaks.
        winner = draws[0].winner
        assert isinstance(winner, int)
        chosen = await self.players[winner].request({"t": "lag_choice", "choice": "break"})
        if not isinstance(chosen, m.Ok):
            self.report.violation(f"quiet room: lag_choice answered {chosen!r}")
        for watcher in self.everyone:
            await watcher.expect(m.Snapshot, lambda s: s.view.status == "playing")
        for watcher in self.everyone:
            watcher.starting = False

    async def play(self, stop: asyncio.Event, pause: float = 0.25) -> None:
        # The physics, run here as the oracle, in a process of its own so that it does not
        # hold up this event loop (and the fuzzers on it).
        loop = asyncio.get_running_loop()
        context = multiprocessing.get_context("forkserver")
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as oracle:
            await self._play(stop, pause, lambda *a: loop.run_in_executor(oracle, final_of, *a))

    async def _play(self, stop: asyncio.Event, pause: float, simulate: Any) -> None:
        while not stop.is_set():
            table = self.players[0].table
            if self.players[0].status == "finished" or table is None or table.match_over:
                await self._start("rematch")
                continue
            if table.turn is None:
                self.report.violation(f"quiet room: no turn on {table!r}")
                return
            shooter = self.players[table.turn]
            if table.choice_pending:
                reply = await shooter.request({"t": "choose", "choice": "shoot"})
                self.report.violation(f"quiet room: a push-out choice nobody asked for: {reply}")
                return
            balls = {i: (p[0], p[1]) for i, p in enumerate(table.balls) if p is not None}
            target = table.lowest if table.lowest is not None else 9
            cue, obj = balls[0], balls[target]
            angle = math.degrees(math.atan2(obj[1] - cue[1], obj[0] - cue[0]))
            speed = 2.0 + (self.shots % 5) * 0.8
            expected = simulate(balls, angle, speed)
            reply = await shooter.request({"t": "shot", "angle": angle, "speed": speed})
            if not isinstance(reply, m.Ok):
                self.report.violation(f"quiet room: shot answered {reply!r}")
                return
            results = [await w.expect(m.ShotResult) for w in self.everyone]
            self.shots += 1
            self.report.quiet_shots += 1
            first = results[0]
            if any(r.seq != first.seq for r in results):
                self.report.violation("quiet room: the watchers saw different shot results")
            if first.shooter != table.turn or first.shot.speed != speed:
                self.report.violation(f"quiet room: not our shot: {first.shot!r}")
            final = await expected
            for ball in range(10):
                want, got = final.get(ball), first.final[ball]
                if (want is None) != (got is None) or (
                    want is not None
                    and got is not None
                    and max(abs(want[0] - got[0]), abs(want[1] - got[1])) > 1e-9
                ):
                    self.report.violation(
                        f"quiet room: ball {ball} stopped at {got}, the physics says {want}"
                    )
                    break
            await asyncio.sleep(pause)

    async def check_final_state(self) -> None:
        """A fresh snapshot shows the table exactly as the last event left it."""
        eve = self.spectator
        last_table = eve.table
        reply_seq = eve.seq
        eve.starting = True  # the resync snapshot is a reply, not an event
        assert eve.ws is not None
        eve.next_id += 1
        await eve.ws.send(frames.pack({"t": "resync", "id": eve.next_id}))
        snapshot = await eve.expect(m.Snapshot, lambda s: s.seq == reply_seq)
        if snapshot.view.table != last_table:
            self.report.violation("quiet room: the resync snapshot differs from the events")

    async def close(self) -> None:
        for watcher in self.everyone:
            watcher.closing = True
        for watcher in reversed(self.everyone):
            await watcher.close()

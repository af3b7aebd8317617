"""A storm of random and mutated frames against a live server, with a quiet room watched
while it blows.

Fuzzing connections (`Fuzzer`) send frames from `frames.py` in batches, each batch closed
by a `ping` barrier, and account for every answer:

- a frame the decoder refuses must get exactly one `error` with `bad_frame`/`bad_message`
  (or `rate_limited`, should a rate limit answer first);
- a frame that decodes is a request: it must get its reply (`ok`, `welcome`, `joined`,
  `pong`, `rooms`, or an `error` with a documented code, never `internal`), matched by its
  request id, which the fuzzer keeps unique on its connection;
- eight refused frames in a row must close the connection with 1008, a frame over the
  size limit with 1009 — the fuzzer then reconnects (with its token, so a seated player
  gets the seat back) and goes on; any other close is a violation;
- every frame the server sends must decode with the protocol's server schema.

Some fuzzers sit in rooms of their own (created and started, so shots out of turn, as a
spectator, placements without ball in hand and the like are refused by the real rules);
others watch the quiet room as spectators and try to act on it. The quiet room
(`QuietTable`, in `quiet_room.py`) has two well-behaved players who keep playing real
shots; every shot is checked against the physics run locally from the same table (it must
land exactly where the server says), every room event must follow the previous one by one
`seq`, and nothing but their own shots, the spectators' comings and goings and chat may
appear in it. `storm_common.py` has the accounting every client shares.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import deque
from typing import Any

import msgpack
import msgspec
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidStatus

from protocol import errors
from protocol import messages as m
from tests.fuzz import frames
from tests.fuzz.quiet_room import QuietTable
from tests.fuzz.storm_common import (
    ANY_FRAME_CODES,
    COOLDOWN_REASONS,
    DECODE_CODES,
    DOCUMENTED,
    MAX_BAD_IN_A_ROW,
    REPLY_TYPES,
    TAG_WEIGHTS,
    WAIT,
    Disconnected,
    Expectation,
    Shared,
    StormReport,
    decode_leniently,
    describe,
    open_ws,
)


class Fuzzer:
    """One fuzzing client; it reconnects (with its token) whenever the server closes."""

    def __init__(
        self,
        shared: Shared,
        name: str,
        seed: int,
        valid_share: float,
        oversize: float,
        reseat: bool = False,
    ) -> None:
        self.shared = shared
        self.report = shared.report
        self.name = name
        self.rng = random.Random(seed)
        self.valid_share = valid_share
        self.oversize = oversize
        #: Go back to a table (quick match) whenever the fuzzer finds itself seatless, so
        #: that most of its frames meet a match in progress.
        self.reseat = reseat
        self.ws: ClientConnection | None = None
        #: The address this fuzzer connects from while the rate limits are on.
        self.address: str | None = None
        self.reader: asyncio.Task[None] | None = None
        self.expect: dict[int, Expectation] = {}
        self.used_ids: set[int] = set()
        self.refused_outstanding = 0
        self.leaves_unanswered = 0
        self.bad_run = 0
        self.close_expected: int | None = None
        #: The server closed this connection for rate abuse (allowed with rate limits on).
        self.abuse_closed = False
        #: This client is closing its connection itself (the close is not the server's).
        self.closing = False
        self.recent: deque[bytes | str] = deque(maxlen=12)
        #: What this connection sent and got, lately (for the reproducer of a violation).
        self.history: deque[str] = deque(maxlen=60)
        self.token: str | None = None
        self.player: str | None = None
        self.seat: int | None = None
        self.status = "waiting"
        self.turn: int | None = None
        self.lagged = False

    # --- connection --------------------------------------------------------------------

    async def open(self) -> None:
        kwargs = dict(self.shared.connect_kwargs)
        if not self.shared.rate_limited:
            self.ws = await open_ws(self.shared.url, **kwargs)
        else:
            previous = self.ws
            if previous is not None and previous.close_code == 1008:
                if previous.close_reason in COOLDOWN_REASONS:
                    await self._expect_cooldown(kwargs)
                self.address = None
            self.ws = await self._open_from_a_free_address(kwargs)
        self.report.connections += 1
        self.expect.clear()
        self.refused_outstanding = 0
        self.leaves_unanswered = 0
        self.bad_run = 0
        self.close_expected = None
        self.abuse_closed = False
        self.closing = False
        self.reader = asyncio.get_running_loop().create_task(self._read())
        if self.token is None and self.rng.random() < 0.5:
            await self._before_hello()
        if self.token is None and self.rng.random() < 0.2:
            # A forged token is refused and the connection stays usable.
            reply = await self.request(
                {"t": "hello", "v": m.PROTOCOL_VERSION, "name": self.name, "token": "cF8x.AAAA"}
            )
            self._check(isinstance(reply, m.Error) and reply.code == errors.BAD_TOKEN, reply)
        hello = {"t": "hello", "v": m.PROTOCOL_VERSION, "name": self.name, "token": self.token}
        welcome = await self.request(hello)
        if not isinstance(welcome, m.Welcome):
            raise AssertionError(f"{self.name}: hello answered {welcome!r}")
        self.token, self.player = welcome.token, welcome.player

    async def _before_hello(self) -> None:
        """Frames before `hello`: refused by the decoder or answered `hello_required`."""
        for _ in range(self.rng.randint(1, MAX_BAD_IN_A_ROW - 2)):
            fuzzed = self._next_frame(allow_hello=False, oversize=0.0)
            if fuzzed is not None:
                await self._send(fuzzed, before_hello=True)
        reply = await self.request({"t": "ping"})
        self._check(isinstance(reply, m.Error) and reply.code == errors.HELLO_REQUIRED, reply)

    async def close(self) -> None:
        """Close this connection from the client's side, and wait for its reader to end."""
        self.closing = True
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await self.reader

    def _check(self, ok: bool, what: object) -> None:
        limited = isinstance(what, m.Error) and what.code == errors.RATE_LIMITED
        if not ok and not (limited and self.shared.rate_limited):
            self.report.violation(f"{self.name}: unexpected {what!r}", list(self.recent))

    # --- sending -------------------------------------------------------------------------

    def _fresh_id(self) -> int:
        while True:
            candidate = self.rng.randint(0, frames.MAX_ID)
            if candidate not in self.used_ids:
                self.used_ids.add(candidate)
                return candidate

    async def request(self, message: dict[str, Any]) -> m.ServerMessage:
        """Send a well-formed request and wait for its reply (lockstep)."""
        message = {**message, "id": self._fresh_id()}
        data = frames.pack(message)
        loop = asyncio.get_running_loop()
        expectation = Expectation(
            message["t"],
            1,
            2,
            data,
            first=loop.create_future(),
            behind_leave=self.leaves_unanswered > 0,
        )
        self.expect[message["id"]] = expectation
        if message["t"] == "leave":
            self.leaves_unanswered += 1
        self.bad_run = 0
        assert self.ws is not None
        try:
            await self.ws.send(data)
        except ConnectionClosed:
            # Never sent (the server had closed the connection, for abuse say, and its
            # close frame came in first): nothing is owed for it.
            del self.expect[message["id"]]
            if message["t"] == "leave":
                self.leaves_unanswered -= 1
            assert expectation.first is not None
            if expectation.first.done() and not expectation.first.cancelled():
                expectation.first.exception()  # the reader's Disconnected: read, not logged
            else:
                expectation.first.cancel()
            raise
        assert expectation.first is not None
        return await asyncio.wait_for(expectation.first, WAIT)

    async def barrier(self) -> None:
        reply = await self.request({"t": "ping"})
        self._check(isinstance(reply, m.Pong), reply)

    def _frame_id(self, fuzzed: frames.Fuzzed) -> int | None:
        """The id the server will echo for this frame (None when it cannot read one)."""
        if fuzzed.message is not None:
            return fuzzed.message.id
        if not isinstance(fuzzed.data, bytes):
            return None
        try:
            loose = msgpack.unpackb(fuzzed.data, strict_map_key=False)
        except Exception:
            return None
        if isinstance(loose, dict):
            value = loose.get("id")
            if type(value) is int and 0 <= value <= frames.MAX_ID:
                return value
        return None

    def _next_frame(self, allow_hello: bool, oversize: float) -> frames.Fuzzed | None:
        rng = self.rng
        for _ in range(8):
            if rng.random() < self.valid_share:
                tag = rng.choices(list(TAG_WEIGHTS), list(TAG_WEIGHTS.values()))[0]
                fuzzed = frames.classify(
                    frames.pack(frames.valid_message(rng, self.shared.ctx, tag)), "valid"
                )
            else:
                fuzzed = frames.fuzzed_frame(rng, self.shared.ctx, oversize)
            message = fuzzed.message
            if isinstance(message, m.Hello) and not allow_hello:
                continue
            if isinstance(message, m.Shot | m.LagShot) and self._could_play(message):
                if self.shared.shot_budget <= 0:
                    continue
                self.shared.shot_budget -= 1
            if fuzzed.too_big:
                return fuzzed
            frame_id = self._frame_id(fuzzed)
            if frame_id is not None:
                if frame_id in self.used_ids:
                    continue
                self.used_ids.add(frame_id)
            return fuzzed
        return None

    def _could_play(self, message: m.ClientMessage) -> bool:
        if self.seat is None:
            return False
        if isinstance(message, m.LagShot):
            return self.status == "lag"
        return self.status == "playing" and self.turn == self.seat

    async def _send(self, fuzzed: frames.Fuzzed, before_hello: bool = False) -> None:
        report = self.report
        report.frames += 1
        self.shared.sent += 1
        report.by_origin[fuzzed.origin] += 1
        self.recent.append(fuzzed.data)
        if fuzzed.too_big:
            report.oversize += 1
            self.close_expected = 1009
        elif fuzzed.message is None:
            report.refused += 1
            self.refused_outstanding += 1
            self.bad_run += 1
            if self.bad_run >= MAX_BAD_IN_A_ROW:
                self.close_expected = 1008
        else:
            report.valid += 1
            self.bad_run = 0
            message = fuzzed.message
            tag = type(message).__struct_config__.tag
            low, high = 1, 1
            if before_hello:
                pass  # hello_required
            elif isinstance(message, m.Aim):
                low = 0  # an accepted aim has no reply
            elif isinstance(message, m.Quick) and message.on:
                high = 2  # ok now, joined later when matched
            assert isinstance(tag, str)
            self.expect[message.id] = Expectation(
                tag, low, high, fuzzed.data, behind_leave=self.leaves_unanswered > 0
            )
            if isinstance(message, m.Leave):
                self.leaves_unanswered += 1
        self.history.append(f"> {describe(fuzzed.data)} {fuzzed.message!r}"[:300])
        assert self.ws is not None
        await self.ws.send(fuzzed.data)

    # --- the storm -----------------------------------------------------------------------

    async def run(self, batch: int = 24) -> None:
        if self.ws is None:
            await self.open()
        while self.shared.more():
            for _ in range(batch):
                fuzzed = self._next_frame(allow_hello=True, oversize=self.oversize)
                if fuzzed is None:
                    continue
                try:
                    await self._send(fuzzed)
                except ConnectionClosed:
                    break
                if self.close_expected is not None or not self.shared.more():
                    break
            if await self._closed_for_abuse():
                await self.open()
                continue
            if self.close_expected is not None:
                await self._expected_close()
                await self.open()
                continue
            try:
                await self.barrier()
                if self.reseat and (self.seat is None or self.status == "finished"):
                    if self.seat is not None:
                        await self.request({"t": "leave"})
                        self.seat = None
                    await self.request({"t": "quick", "on": True, "race_to": 9})
            except (ConnectionClosed, TimeoutError, Disconnected) as exc:
                if not await self._closed_for_abuse():
                    self.report.violation(
                        f"{self.name}: no answer to the barrier ping ({type(exc).__name__})",
                        list(self.recent),
                    )
                await self._reset()
        await self.finish()

    async def _open_from_a_free_address(self, kwargs: dict[str, Any]) -> ClientConnection:
        """Connect from this fuzzer's address, or a fresh one when it has none. A 429 for
        the abuse cooldown is allowed once: the server may have closed the last connection
        for abuse without this client reading the close (the server's close of a socket
        with unread frames resets it: 1006 here), and then it is the cooldown's due."""
        for attempt in range(2):
            if self.address is None:
                self.address = self.shared.fresh_address()
            headers = {"X-Forwarded-For": self.address}
            try:
                return await open_ws(self.shared.url, **kwargs, additional_headers=headers)
            except InvalidStatus as exc:
                body = bytes(exc.response.body or b"")
                if attempt or exc.response.status_code != 429 or b"abuse" not in body:
                    raise
                self.report.cooldown_refusals += 1
                self.address = None
        raise AssertionError("unreachable")

    async def _expect_cooldown(self, kwargs: dict[str, Any]) -> None:
        """Closed for abuse: coming straight back from the same address is refused (429)."""
        headers = {"X-Forwarded-For": self.address or ""}
        try:
            ws = await open_ws(self.shared.url, **kwargs, additional_headers=headers)
        except InvalidStatus as exc:
            if exc.response.status_code == 429:
                self.report.cooldown_refusals += 1
            else:
                self.report.violation(
                    f"{self.name}: a reconnect in the abuse cooldown got HTTP "
                    f"{exc.response.status_code}, not 429"
                )
            return
        await ws.close()
        self.report.violation(f"{self.name}: reconnected at once after a close for abuse")

    async def _closed_for_abuse(self) -> bool:
        """With rate limits on: the server closed this connection for rate abuse (what was
        sent after the close is never answered, and that is fine)."""
        if not self.shared.rate_limited or self.reader is None:
            return False
        if not self.reader.done() and self.ws is not None and self.ws.close_code is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self.reader), WAIT)
        return self.abuse_closed

    async def _expected_close(self) -> None:
        expected = self.close_expected
        assert self.reader is not None and self.ws is not None
        try:
            await asyncio.wait_for(asyncio.shield(self.reader), WAIT)
        except TimeoutError:
            self.report.violation(
                f"{self.name}: the server did not close with {expected}", list(self.recent)
            )
            await self.close()
            return
        code = self.ws.close_code
        if self.abuse_closed:
            return  # closed for rate abuse first: the frames behind it were never read
        if code != expected:
            self.report.violation(
                f"{self.name}: closed with {code}, expected {expected}", list(self.recent)
            )
        if self.refused_outstanding and code != 1009:
            # (1009 is decided as the frame header arrives, so frames still queued behind
            # it are answered by the close itself.)
            self.report.violation(
                f"{self.name}: {self.refused_outstanding} refused frames without an error "
                f"before the {code} close",
                list(self.recent),
            )

    async def _reset(self) -> None:
        await self.close()  # its reader done before the next connection's requests
        await self.open()

    async def finish(self) -> None:
        """Wait for the answers still due, then report those that never came."""
        if self.ws is None or self.reader is None or self.reader.done():
            return
        with contextlib.suppress(Exception):
            await self.barrier()
        if await self._closed_for_abuse():
            # Closed for rate abuse (the barrier itself may have been the frame too many):
            # as during the storm, what was sent behind the close is never answered.
            await self.close()
            return
        started = time.monotonic()
        tolerated = self.shared.tolerate_drops_behind_leave
        while time.monotonic() < started + WAIT:
            due = self._unanswered()
            if not due or (
                all(e.behind_leave for _, e in due)
                and tolerated
                and time.monotonic() > started + 2.0
            ):
                break
            await asyncio.sleep(0.05)
        dumped = False
        for request_id, e in self._unanswered():
            if e.behind_leave and self.shared.tolerate_drops_behind_leave:
                self.report.known_drops[e.tag] += 1
                continue
            if not dumped:
                dumped = True
                self.report.histories.append(f"{self.name}:\n" + "\n".join(self.history))
            self.report.violation(
                f"{self.name}: no reply to {e.tag} (id {request_id}): {describe(e.frame)}",
                [e.frame],
            )
        if self.refused_outstanding:
            self.report.violation(
                f"{self.name}: {self.refused_outstanding} refused frames never answered",
                list(self.recent),
            )
        await self.close()

    def _unanswered(self) -> list[tuple[int, Expectation]]:
        return [(i, e) for i, e in self.expect.items() if e.got < e.low]

    # --- reading -------------------------------------------------------------------------

    async def _read(self) -> None:
        assert self.ws is not None
        ws = self.ws
        try:
            async for raw in ws:
                if not isinstance(raw, bytes):
                    self.report.violation(f"{self.name}: a text frame from the server: {raw!r}")
                    continue
                try:
                    message = decode_leniently(raw, self.report, self.name)
                except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                    self.report.violation(f"{self.name}: undecodable server frame: {exc}")
                    continue
                self._on_message(message)
        except ConnectionClosed:
            pass
        for expectation in self.expect.values():
            if expectation.first is not None and not expectation.first.done():
                expectation.first.set_exception(Disconnected(f"{self.name}: connection closed"))
        code = ws.close_code
        self.report.closes[code if code is not None else -1] += 1
        if self.shared.rate_limited and code == 1008 and ws.close_reason == "rate limit exceeded":
            self.abuse_closed = True
            self.report.abuse_closes += 1
            return
        if self.close_expected is None and ws is self.ws and not self.closing:
            # Closed by the server out of the blue, during the storm or while the last
            # answers were awaited (the client's own closes are flagged `closing`).
            self.report.violation(
                f"{self.name}: the server closed the connection ({code})", list(self.recent)
            )

    def _on_message(self, message: m.ServerMessage) -> None:
        report = self.report
        self.history.append(f"< {message!r}"[:200])
        report.replies[type(message).__struct_config__.tag] += 1  # type: ignore[index]
        if isinstance(message, REPLY_TYPES) or (
            isinstance(message, m.Snapshot) and message.id is not None
        ):
            self._on_reply(message)
        self._track(message)

    def _on_reply(self, message: Any) -> None:
        report = self.report
        request_id = message.id
        if isinstance(message, m.Error):
            report.error_codes[message.code] += 1
            if message.code not in DOCUMENTED:
                report.violation(
                    f"{self.name}: error code {message.code!r}: {message.msg}",
                    list(self.recent)[-3:],
                )
        e = self.expect.get(request_id) if request_id is not None else None
        if e is not None and e.got < e.high:
            e.got += 1
            if e.tag == "leave" and e.got == 1:
                self.leaves_unanswered -= 1
            if e.first is not None and not e.first.done():
                e.first.set_result(message)
            return
        refusal = isinstance(message, m.Error) and (
            message.code in DECODE_CODES or message.code in ANY_FRAME_CODES
        )
        if refusal and self.refused_outstanding > 0:
            self.refused_outstanding -= 1
            return
        report.violation(f"{self.name}: unexpected reply {message!r}", list(self.recent)[-4:])

    def _track(self, message: m.ServerMessage) -> None:
        """Follow the fuzzer's own seat and turn, to keep real shots within budget."""
        if isinstance(message, m.Joined):
            self.seat = message.seat
            if message.room not in self.shared.ctx.rooms:
                self.shared.ctx.rooms.append(message.room)
            if message.code and message.code not in self.shared.ctx.codes:
                self.shared.ctx.codes.append(message.code)
        elif isinstance(message, m.Snapshot):
            view = message.view
            self.status = view.status
            self.seat = next(
                (s.seat for s in view.seats if s is not None and s.player == self.player), None
            )
            self.turn = view.table.turn if view.table is not None else None
        elif isinstance(message, m.ShotResult | m.Ruling | m.LagResult):
            if isinstance(message, m.ShotResult):
                self.report.fuzz_shots += 1
            if message.table is not None:
                self.turn = message.table.turn
                if message.table.match_over:
                    self.status = "finished"
                elif isinstance(message, m.LagResult):
                    self.status = "playing"
        elif isinstance(message, m.MatchOver):
            self.status = "finished"
        elif (
            isinstance(message, m.Ok)
            and message.id in self.expect
            and self.expect[message.id].tag == "leave"
        ):
            self.seat = None
            self.status = "waiting"


# --- the whole storm ----------------------------------------------------------------------


async def _seat_pair(first: Fuzzer, second: Fuzzer, private: bool) -> None:
    """Two fuzzers start a real match in a room of their own."""
    created = await first.request(
        {"t": "create", "settings": {"first_break": "draw", "private": private, "race_to": 5}}
    )
    if not isinstance(created, m.Joined):
        first.report.violation(f"create answered {created!r}")
        return
    join = {"t": "join", "code": created.code} if private else {"t": "join", "room": created.room}
    joined = await second.request(join)
    if not isinstance(joined, m.Joined):
        first.report.violation(f"join answered {joined!r}")
        return
    for fuzzer in (first, second):
        await fuzzer.request({"t": "ready"})


async def run_storm(
    url: str,
    total: int,
    connections: int = 10,
    seed: int = 1,
    shot_budget: int = 150,
    connect_kwargs: dict[str, Any] | None = None,
    tolerate_drops_behind_leave: bool = False,
    rate_limited: bool = False,
) -> StormReport:
    """Send `total` fuzzed frames over `connections` fuzzers while the quiet room plays."""
    report = StormReport()
    started = time.perf_counter()
    kwargs = connect_kwargs or {}
    quiet = QuietTable(url, report, kwargs)
    room = await quiet.setup()
    shared = frames.Context(rooms=[room])
    state = Shared(
        url, tolerate_drops_behind_leave, report, shared, total, shot_budget, kwargs, rate_limited
    )
    fuzzers: list[Fuzzer] = []
    for index in range(max(2, connections)):
        chaotic = index < 2
        fuzzers.append(
            Fuzzer(
                state,
                f"fz{index}",
                seed * 1000 + index,
                valid_share=0.15 if chaotic else 0.5,
                oversize=0.003 if chaotic else 0.0005,
            )
        )
    members = fuzzers[2:]
    for fuzzer in members:
        await fuzzer.open()
    # Half the members watch the quiet room (and try to act on it), the rest play in
    # rooms of their own, in pairs.
    watchers, players = members[: len(members) // 2], members[len(members) // 2 :]
    for fuzzer in watchers:
        reply = await fuzzer.request({"t": "join", "room": room, "role": "spectator"})
        if not isinstance(reply, m.Joined):
            report.violation(f"a fuzzer could not watch the quiet room: {reply!r}")
    for index in range(0, len(players) - 1, 2):
        await _seat_pair(players[index], players[index + 1], private=index % 4 == 2)
    for fuzzer in players:
        fuzzer.reseat = True
    stop = asyncio.Event()
    play = asyncio.get_running_loop().create_task(quiet.play(stop))

    async def member(fuzzer: Fuzzer) -> None:
        with contextlib.suppress(Exception):
            await fuzzer.barrier()
        await fuzzer.run()

    try:
        await asyncio.gather(*(f.run() for f in fuzzers[:2]), *(member(f) for f in members))
    finally:
        stop.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(play, WAIT)
        if play.done() and not play.cancelled() and play.exception() is not None:
            report.violation(f"quiet room: the players stopped: {play.exception()!r}")
        await quiet.check_final_state()
        await quiet.close()
    report.duration = time.perf_counter() - started
    return report

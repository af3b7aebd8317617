"""What a storm counts, and what every one of its clients shares: the answers a frame may
get, the report of everything sent, refused and answered, a lenient decoder that counts a
frame the protocol's schema refuses as a violation, and opening a connection (`storm.py`
has the fuzzing clients, `quiet_room.py` the well-behaved table watched meanwhile)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import urlsplit

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from protocol import errors
from protocol import messages as m
from protocol.codec import decode_server
from tests.fuzz import frames

T = TypeVar("T", bound=m.ServerMessage)

DECODE_CODES = frozenset({errors.BAD_FRAME, errors.BAD_MESSAGE})
#: A rate limit may answer any frame before it is even read.
ANY_FRAME_CODES = frozenset({errors.RATE_LIMITED})
DOCUMENTED = frozenset(errors.ERROR_CODES) - {errors.INTERNAL}
MAX_BAD_IN_A_ROW = 8
WAIT = 30.0
REPLY_TYPES = (m.Welcome, m.Ok, m.Joined, m.Error, m.Pong, m.Rooms)
#: Replies plus the snapshot that answers a `resync` (it echoes the request id).
ANSWERS = (*REPLY_TYPES, m.Snapshot)

#: How often each kind of valid request is picked (room actions dominate).
TAG_WEIGHTS: dict[str, float] = {
    "shot": 8,
    "place": 6,
    "aim": 6,
    "lag": 3,
    "choose": 3,
    "lag_choice": 2,
    "concede": 0.5,
    "stalemate": 3,
    "extend": 3,
    "ready": 3,
    "rematch": 3,
    "chat": 2,
    "resync": 2,
    "join": 3,
    "create": 1,
    "leave": 0.5,
    "quick": 1,
    "lobby": 2,
    "ping": 2,
    "hello": 2,
}


def describe(data: bytes | str) -> str:
    """A frame as it can be pasted into a reproducer."""
    if isinstance(data, str):
        return f"text {data[:120]!r}"
    shown = data[:96].hex()
    return f"bin[{len(data)}] {shown}{'…' if len(data) > 96 else ''}"


class Disconnected(Exception):
    """The connection closed while a request was waiting for its reply."""


@dataclass
class Expectation:
    tag: str
    low: int
    high: int
    frame: bytes | str
    got: int = 0
    first: asyncio.Future[m.ServerMessage] | None = None
    #: Sent while this connection's `leave` was still unanswered (see `KNOWN_DROPS`).
    behind_leave: bool = False


@dataclass
class StormReport:
    frames: int = 0
    valid: int = 0
    refused: int = 0
    oversize: int = 0
    by_origin: Counter[str] = field(default_factory=Counter)
    replies: Counter[str] = field(default_factory=Counter)
    error_codes: Counter[str] = field(default_factory=Counter)
    closes: Counter[int] = field(default_factory=Counter)
    connections: int = 0
    #: Connections closed for sending past their rate limit (`Shared.rate_limited`).
    abuse_closes: int = 0
    #: Reconnects from an address closed for abuse, refused (429) during its cooldown.
    cooldown_refusals: int = 0
    quiet_shots: int = 0
    fuzz_shots: int = 0
    duration: float = 0.0
    violations: list[str] = field(default_factory=list)
    server_schema_errors: Counter[str] = field(default_factory=Counter)
    known_drops: Counter[str] = field(default_factory=Counter)
    histories: list[str] = field(default_factory=list)
    suspects: list[bytes | str] = field(default_factory=list)

    def violation(self, text: str, frames_: Iterable[bytes | str] = ()) -> None:
        if len(self.violations) < 200:
            self.violations.append(text)
        for frame in frames_:
            if len(self.suspects) < 50:
                self.suspects.append(frame)

    def summary(self) -> str:
        lines = [
            f"frames sent {self.frames} in {self.duration:.1f} s "
            f"({self.frames / max(self.duration, 1e-9):.0f}/s) over {self.connections} "
            "connections",
            f"  decoded as requests {self.valid}, refused by the decoder {self.refused}, "
            f"over the size limit {self.oversize}",
            f"  kinds {dict(sorted(self.by_origin.items()))}",
            f"  replies {dict(sorted(self.replies.items()))}",
            f"  error codes {dict(sorted(self.error_codes.items()))}",
            f"  closes {dict(sorted(self.closes.items()))}, of them for rate abuse "
            f"{self.abuse_closes}; reconnects refused in the abuse cooldown "
            f"{self.cooldown_refusals}",
            f"  quiet room shots {self.quiet_shots}, shots played in fuzzed rooms "
            f"{self.fuzz_shots}",
            f"  server frames refused by the server schema {dict(self.server_schema_errors)}",
            f"  requests left unanswered behind a leave (known server bug) "
            f"{dict(self.known_drops)}",
            f"  violations {len(self.violations)}",
        ]
        lines += [f"    {v}" for v in self.violations[:20]]
        return "\n".join(lines)


@dataclass
class Shared:
    """What all the fuzzers of one storm share."""

    url: str
    #: Tolerate the known bug where a room that closes drops the requests queued behind
    #: the last member's `leave` (see `test_requests_queued_behind_the_last_leave_are_answered`
    #: in `test_fuzz_live.py`).
    tolerate_drops_behind_leave: bool
    report: StormReport
    ctx: frames.Context
    total: int
    shot_budget: int
    connect_kwargs: dict[str, Any]
    #: The server runs its default rate limits: a fuzzer that keeps sending past them is
    #: closed with 1008 ("rate limit exceeded"), reconnects and goes on. Its address is then
    #: in the abuse cooldown: the fuzzer checks that a reconnect from it is refused (429),
    #: then comes back from a fresh address (`X-Forwarded-For`, believed from loopback when
    #: the server names loopback a trusted proxy), as a bot with many addresses would.
    rate_limited: bool = False
    sent: int = 0
    addresses: int = 0

    def more(self) -> bool:
        return self.sent < self.total

    def fresh_address(self) -> str:
        """A new client address from the benchmarking network (198.18.0.0/15)."""
        self.addresses += 1
        return f"198.18.{self.addresses // 250}.{self.addresses % 250 + 1}"


#: Close reasons after which the server refuses the address for a while (`--abuse-cooldown`).
COOLDOWN_REASONS = ("rate limit exceeded", "too many invalid frames")


_lenient = msgspec.msgpack.Decoder()


def clamp_positions(value: Any) -> Any:
    """Positions brought back within the documented table bounds (see below)."""
    if isinstance(value, dict):
        return {k: clamp_positions(v) for k, v in value.items()}
    if isinstance(value, list):
        if len(value) == 2 and all(isinstance(v, float) for v in value):
            return [min(max(value[0], 0.0), 2.54), min(max(value[1], 0.0), 1.27)]
        return [clamp_positions(v) for v in value]
    return value


def decode_leniently(raw: bytes, report: StormReport, who: str) -> m.ServerMessage:
    """`decode_server`; a frame its schema refuses is a violation, then read anyway (with
    positions clamped to the table) so the client can go on and find more."""
    try:
        return decode_server(raw)
    except msgspec.ValidationError as exc:
        report.server_schema_errors[str(exc)] += 1
        if report.server_schema_errors[str(exc)] == 1:
            report.violation(
                f"{who}: a server frame its own schema refuses: {exc}: {describe(raw)}"
            )
        return msgspec.convert(clamp_positions(_lenient.decode(raw)), m.AnyServerMessage)


def origin_of(url: str) -> Origin:
    """The origin of the page the server itself serves (its Origin check accepts it)."""
    parts = urlsplit(url)
    scheme = "https" if parts.scheme == "wss" else "http"
    return Origin(f"{scheme}://{parts.netloc}")


async def open_ws(url: str, **kwargs: Any) -> ClientConnection:
    kwargs.setdefault("origin", origin_of(url))
    return await connect(
        url,
        compression=None,
        max_size=2**23,
        ping_interval=None,
        open_timeout=WAIT,
        close_timeout=5,
        **kwargs,
    )

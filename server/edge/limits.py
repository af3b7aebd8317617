"""What one connection, or one client address, may cost the server.

Game messages are tiny and a person sends a few a second, so every limit here can be
tight without a real player ever meeting it; bots, broken clients and attackers do.

- `Limits`: the settings (flags and `NINEPOOL_*` variables in `server.ops.config`).
- `TokenBucket`: `capacity` actions at once, refilled at `rate` per second.
- `FrameBudget`: one connection's buckets — every frame, aim previews apart, chat, wrong
  invite guesses — and the strikes that turn persistent abuse into a close (1008).
- `client_address`: the address a connection comes from, through trusted proxies only.
- `origin_allowed`: the Origin allowlist of the WebSocket handshake.
- `AddressBook` and `HandshakeGuard`: per-address state, and the check every upgrade
  request passes before the handshake (403 for a foreign origin; 429 for an address in its
  abuse cooldown, opening connections too fast, or holding too many).
- `serve_options`: the WebSocket-level limits (frame size, timeouts, no compression).
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from protocol.messages import MAX_CLIENT_FRAME

if TYPE_CHECKING:
    from server.ops.metrics import Metrics

log = logging.getLogger(__name__)

Clock = Callable[[], float]
V = TypeVar("V")
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Kinds of limit hit, as counted by `ninepool_limit_hits_total{kind}`.
FRAME_SIZE = "frame_size"  # a frame over --max-frame (closed 1009)
RATE = "rate"  # a frame over the connection's message budget (rate_limited)
AIM_RATE = "aim_rate"  # an aim preview over its own budget (rate_limited)
CHAT_RATE = "chat_rate"  # a chat message over the chat budget (rate_limited)
ABUSE_CLOSE = "abuse_close"  # persistent rate abuse (closed 1008)
BAD_FRAMES_CLOSE = "bad_frames_close"  # eight refused frames in a row (closed 1008)
ORIGIN = "origin"  # a handshake from a foreign Origin (403)
NO_ORIGIN = "no_origin"  # a handshake without Origin while those are refused (403)
ADDRESS_CONNECTIONS = "address_connections"  # too many connections from one address (429)
HELLO_TIMEOUT = "hello_timeout"  # no hello in time (closed 1008)
PING_TIMEOUT = "ping_timeout"  # no pong in time (closed 1011 by websockets)
SILENT = "silent"  # a connection broke its `ping` promise (`expect`): taken for dropped
SEND_LAG = "send_lag"  # a connection fell behind its send buffer (skipped ahead)
LAG_CLOSE = "lag_close"  # a spectator fell behind once too often (closed 1013)
SLOW_CLOSE = "slow_close"  # replies piled up past the hard cap (closed 1008)
INVITE_GUESSES = "invite_guesses"  # a join after too many wrong invite codes (rate_limited)
HANDSHAKE_RATE = "handshake_rate"  # an address opening connections too fast (429)
ABUSE_COOLDOWN = "abuse_cooldown"  # a handshake from an address closed for abuse lately (429)
# Before any request is known (server/edge/handshakes.py):
HEADER_SIZE = "header_size"  # a request head over --max-header-bytes (431)
HEADER_TIMEOUT = "header_timeout"  # a request head not complete in --header-timeout (408)
PENDING_ADDRESS = "pending_address"  # an address with --pending-per-address heads unfinished (429)
PENDING_EVICTED = "pending_evicted"  # the oldest unfinished head, closed for a new connection
CONNECTION_CAP = "connection_cap"  # a connection past --max-connections (503)
DESCRIPTORS = "descriptors"  # accept() found no file descriptor left (logged once a minute)
ROOM_CAP = "room_cap"  # a create or quick past --max-rooms or --rooms-per-address

LIMIT_KINDS = (
    FRAME_SIZE,
    RATE,
    AIM_RATE,
    CHAT_RATE,
    ABUSE_CLOSE,
    BAD_FRAMES_CLOSE,
    ORIGIN,
    NO_ORIGIN,
    ADDRESS_CONNECTIONS,
    HELLO_TIMEOUT,
    PING_TIMEOUT,
    SILENT,
    SEND_LAG,
    LAG_CLOSE,
    SLOW_CLOSE,
    INVITE_GUESSES,
    HANDSHAKE_RATE,
    ABUSE_COOLDOWN,
    HEADER_SIZE,
    HEADER_TIMEOUT,
    PENDING_ADDRESS,
    PENDING_EVICTED,
    CONNECTION_CAP,
    DESCRIPTORS,
    ROOM_CAP,
)

#: The longest abuse cooldown, as a multiple of `Limits.abuse_cooldown` (the 5th offence
#: in a row and later), and the longest any cooldown may be (a day).
COOLDOWN_MAX_FACTOR = 16
COOLDOWN_MAX_OFFENSES = 5
COOLDOWN_MAX_SECONDS = 86400.0

#: The Origin entry that means "the server's own origin" (matched against Host).
SELF_ORIGIN = "self"
#: The Origin entry that allows every origin.
ANY_ORIGIN = "*"


@dataclass(frozen=True)
class Limits:
    """Every limit of the gateway. A rate or count of 0 switches that limit off."""

    #: Largest frame a client may send (bytes); larger closes the connection with 1009.
    max_frame: int = MAX_CLIENT_FRAME
    #: Frames per second per connection (aim previews apart), and the burst allowed.
    rate: float = 10.0
    burst: int = 30
    #: Aim previews per second per connection, and their burst.
    aim_rate: float = 20.0
    aim_burst: int = 20
    #: Chat messages per second per connection, and their burst (5 per 10 s).
    chat_rate: float = 0.5
    chat_burst: int = 5
    #: Frames refused for rate a connection may send (refilled one a second) before it is
    #: closed with 1008.
    abuse_limit: int = 30
    #: Open WebSocket connections per client address (IPv6: per /64).
    conns_per_address: int = 32
    #: New WebSocket connections per second per client address, and the burst allowed: a
    #: page reload or a phone's flaky network reconnects a few times a minute, a bot that
    #: was closed and reconnects in a loop many times a second.
    handshake_rate: float = 1.0
    handshake_burst: int = 30
    #: Seconds a client address may open no new connection after one of its connections was
    #: closed for abuse (rate abuse or a run of invalid frames): otherwise it reconnects
    #: with a fresh budget at once. Doubles with each repeat within the hour, up to 16×.
    abuse_cooldown: float = 30.0
    #: Proxies whose X-Forwarded-For is believed (addresses or networks). None by default:
    #: believing loopback would let anything on the host (a sidecar, a local script, a
    #: proxy that passes the header through unchecked) name any client address it likes
    #: and so escape every per-address limit; a deployment names its proxies.
    trusted_proxies: tuple[str, ...] = ()
    #: Origins allowed to open a WebSocket: `self` (the Host header's own), `*`, or
    #: exact origins such as `https://pool.example`.
    origins: tuple[str, ...] = (SELF_ORIGIN,)
    #: Allow handshakes without an Origin header (bots, scripts; browsers always send one).
    allow_no_origin: bool = False
    #: Seconds for the TCP + WebSocket opening handshake.
    open_timeout: float = 10.0
    #: Bytes a request head (request line and headers) may take. Per-address limits can
    #: only run on a complete request, and websockets alone reads up to 128 lines of 8 KiB
    #: (1 MiB) per connection before it gives up: 600 such connections held 1 GB.
    max_header_bytes: int = 16 * 1024
    #: Seconds from the TCP accept to a complete request head (a slowloris sends it a byte
    #: at a time); `open_timeout` still bounds the whole handshake.
    header_timeout: float = 5.0
    #: Connections whose request head is not complete yet, in all and per TCP peer (a
    #: trusted proxy is counted in all only). Past the first the oldest is closed to make
    #: room (a real browser's head arrives in one round trip, so the oldest is a slowloris);
    #: past the second the new connection gets 429.
    pending_handshakes: int = 512
    pending_per_address: int = 32
    #: TCP connections at once (pending, HTTP and WebSocket). The process also keeps it
    #: below its descriptor limit, less a reserve for its own files and for health probes,
    #: so accept() never runs out of descriptors; past it a connection may still ask
    #: /healthz and /readyz, and anything else gets 503.
    max_connections: int = 16384
    #: Seconds from the handshake to an accepted `hello`.
    hello_timeout: float = 10.0
    #: Keepalive: a ping every `ping_interval` seconds, closed without a pong within
    #: `ping_timeout` seconds.
    ping_interval: float = 20.0
    ping_timeout: float = 20.0
    #: Bytes waiting to be sent to one connection (in the kernel's socket buffer and the
    #: process's own) before it counts as behind: its room events are then skipped and it
    #: gets a fresh snapshot once it has caught up.
    send_buffer: int = 256 * 1024
    #: A spectator that falls behind more than this many times in ten minutes is closed
    #: (1013); a player is always resynced.
    lag_limit: int = 3
    #: Rooms this process holds at once, and open rooms one client address (IPv6: its
    #: /64) may have made: 49 addresses once made 3,381 rooms in 40 s, and every room
    #: slows the others (a victim's shot p95 went from 18 to 170 ms).
    max_rooms: int = 2000
    rooms_per_address: int = 16
    #: `/metrics` (server/edge/scrape.py): the token a scrape of the public port must
    #: carry (none: the public port never serves it), and the port of a listener of its
    #: own (None: none) on `metrics_host`.
    metrics_token: str | None = None
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    #: Wrong invite codes per minute, per connection and per address.
    invite_guesses: int = 5
    invite_guesses_per_address: int = 30

    @property
    def socket_send_buffer(self) -> int:
        """`SO_SNDBUF` asked of the kernel for every connection. Left alone, Linux grows a
        socket's buffer to megabytes and a phone could fall minutes behind before the
        process noticed; Linux doubles the value asked, so the kernel holds about half of
        `send_buffer` and the process the other half."""
        return self.send_buffer // 4

    @property
    def behind_at(self) -> int:
        """Bytes in the process's own buffer past which the connection is behind."""
        return self.send_buffer // 2

    @property
    def hard_send_cap(self) -> int:
        """Replies waiting past this close the connection: it is not reading at all."""
        return 4 * self.send_buffer

    def problems(self) -> list[str]:
        """What is wrong with these settings (empty when they are usable)."""
        out = []
        if self.max_frame < 1024:
            out.append("max_frame must be at least 1024 bytes (a hello with its token)")
        for name in _NOT_NEGATIVE:
            value = getattr(self, name)
            if not value >= 0:  # (NaN too)
                out.append(f"{name} must be 0 or more")
        for name, rate, burst in (
            ("rate", self.rate, self.burst),
            ("aim_rate", self.aim_rate, self.aim_burst),
            ("chat_rate", self.chat_rate, self.chat_burst),
            ("handshake_rate", self.handshake_rate, self.handshake_burst),
        ):
            if rate > 0 and burst < 1:
                out.append(f"{name} needs a burst of at least 1")
        if self.abuse_cooldown * COOLDOWN_MAX_FACTOR > COOLDOWN_MAX_SECONDS:
            out.append(
                f"abuse_cooldown must be at most {COOLDOWN_MAX_SECONDS / COOLDOWN_MAX_FACTOR:g} "
                f"seconds (a repeat offender waits {COOLDOWN_MAX_FACTOR} times as long, at "
                "most a day)"
            )
        if self.max_header_bytes < 1024:
            out.append("max_header_bytes must be at least 1024 (a browser's handshake)")
        if self.send_buffer < 4096:
            out.append("send_buffer must be at least 4096 bytes")
        try:
            parse_networks(self.trusted_proxies)
        except ValueError as exc:
            out.append(f"trusted_proxies: {exc}")
        for origin in self.origins:
            if origin not in (SELF_ORIGIN, ANY_ORIGIN) and normalize_origin(origin) is None:
                out.append(f"origins: {origin!r} is not scheme://host[:port], self or *")
        return out


#: Settings where a negative value means nothing (0 switches the limit off).
_NOT_NEGATIVE = (
    "rate",
    "burst",
    "aim_rate",
    "aim_burst",
    "chat_rate",
    "chat_burst",
    "abuse_limit",
    "conns_per_address",
    "handshake_rate",
    "handshake_burst",
    "abuse_cooldown",
    "open_timeout",
    "header_timeout",
    "pending_handshakes",
    "pending_per_address",
    "max_connections",
    "max_rooms",
    "rooms_per_address",
    "hello_timeout",
    "ping_interval",
    "ping_timeout",
    "lag_limit",
    "invite_guesses",
    "invite_guesses_per_address",
)


# --- buckets ------------------------------------------------------------------------------


class TokenBucket:
    """`capacity` actions at once, refilled at `rate` per second; `rate` 0 = no limit."""

    def __init__(
        self,
        capacity: float,
        rate: float,
        clock: Clock = time.monotonic,
        on_refused: Callable[[], None] | None = None,
    ) -> None:
        self.capacity = capacity
        self.rate = rate
        self.clock = clock
        self.on_refused = on_refused
        self.tokens = float(capacity)
        self.stamp = clock()

    @property
    def unlimited(self) -> bool:
        return self.rate <= 0

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def ready(self) -> bool:
        """Whether an action would be allowed now (nothing is taken)."""
        if self.unlimited:
            return True
        self._refill()
        return self.tokens >= 1.0

    def full(self) -> bool:
        """Back to its full capacity: nothing to remember about it any more."""
        if self.unlimited:
            return True
        self._refill()
        return self.tokens >= self.capacity

    def take(self) -> bool:
        """Take one token if there is one; False (and `on_refused`) if not."""
        if self.unlimited:
            return True
        self._refill()
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        if self.on_refused is not None:
            self.on_refused()
        return False

    def spend(self) -> None:
        """Charge one action that already happened (never below empty)."""
        if self.unlimited:
            return
        self._refill()
        self.tokens = max(0.0, self.tokens - 1.0)


class Admission(Enum):
    ADMIT = "admit"
    #: Over budget: answer `rate_limited`, do nothing else.
    LIMITED = "limited"
    #: Over budget once too often: close the connection (1008).
    ABUSIVE = "abusive"


class FrameBudget:
    """One connection's budgets. Every frame is charged, refused ones included."""

    def __init__(
        self,
        limits: Limits,
        clock: Clock = time.monotonic,
        on_chat_refused: Callable[[], None] | None = None,
    ) -> None:
        self.frames = TokenBucket(limits.burst, limits.rate, clock)
        self.aims = TokenBucket(limits.aim_burst, limits.aim_rate, clock)
        self.chat = TokenBucket(limits.chat_burst, limits.chat_rate, clock, on_chat_refused)
        self.invites = TokenBucket(limits.invite_guesses, limits.invite_guesses / 60.0, clock)
        #: Refused-for-rate frames allowed, one more each second; empty = abuse.
        self.strikes = TokenBucket(limits.abuse_limit, 1.0 if limits.abuse_limit else 0, clock)
        self.refused = 0

    def admit(self, aim: bool) -> Admission:
        bucket = self.aims if aim else self.frames
        if bucket.take():
            return Admission.ADMIT
        self.refused += 1
        return Admission.LIMITED if self.strikes.take() else Admission.ABUSIVE


# --- addresses ----------------------------------------------------------------------------


def parse_networks(entries: Iterable[str]) -> tuple[IPNetwork, ...]:
    """`127.0.0.1`, `10.0.0.0/8`, `::1` … as networks (ValueError naming a bad entry)."""
    out = []
    for entry in entries:
        text = entry.strip()
        if not text:
            continue
        try:
            out.append(ipaddress.ip_network(text, strict=False))
        except ValueError:
            raise ValueError(f"{text!r} is not an IP address or network") from None
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def _ip(text: str) -> IPAddress | None:
    """The address in a peer or header text (cached: every connection's peer is read
    several times on the way in, and `ipaddress` parsing costs tens of microseconds —
    under a flood of connections from a few addresses that adds up on the event loop;
    the values are immutable, so sharing them is safe)."""
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: IPAddress, trusted: Sequence[IPNetwork]) -> bool:
    return any(address.version == net.version and address in net for net in trusted)


def is_trusted(peer: str, trusted: Sequence[IPNetwork]) -> bool:
    """Whether the TCP peer `peer` is one of the trusted proxies."""
    address = _ip(peer)
    return address is not None and _trusted(address, trusted)


def client_address(
    peer: str | None, forwarded_for: Sequence[str], trusted: Sequence[IPNetwork]
) -> str:
    """The address a connection comes from.

    X-Forwarded-For is read only when the peer itself is a trusted proxy, from the right:
    each trusted proxy vouches for the hop before it, and the first hop that is not a
    trusted proxy is the client. Anything a client wrote further left is ignored, so a
    client cannot pick its own address.
    """
    current = _ip(peer) if peer else None
    if current is None:
        return peer or "unknown"
    if not _trusted(current, trusted):
        return str(current)
    hops = [hop for header in forwarded_for for hop in header.split(",")]
    for hop in reversed(hops):
        address = _ip(hop)
        if address is None:
            break  # garbage: believe no further than the last proxy that vouched
        current = address
        if not _trusted(address, trusted):
            break
    return str(current)


@functools.lru_cache(maxsize=4096)
def address_key(address: str) -> str:
    """What per-address limits count by: the address, or its /64 for IPv6 (one host
    usually holds a whole /64)."""
    parsed = _ip(address)
    if isinstance(parsed, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed) if parsed is not None else address


@dataclass
class Cooldown:
    """An address closed for abuse: no new connection before `until`."""

    until: float
    #: Cooldowns in a row, each begun within `AddressBook.FORGIVE_AFTER` of the last one's end.
    offenses: int


class AddressBook:
    """Per-address state: open connections, how fast new ones come, the abuse cooldown,
    and wrong invite guesses. Bounded: entries that remember nothing are pruned."""

    #: Entries a table holds before those that remember nothing are dropped; after each
    #: pruning the next one waits until the table has doubled (see `_pruned`).
    _PRUNE_AT = 4096
    #: An address closed for abuse again within this many seconds of its last cooldown
    #: ending waits twice as long as the last time; after it, it starts over.
    FORGIVE_AFTER = 3600.0
    #: The longest cooldown, as a multiple of `Limits.abuse_cooldown`.
    MAX_COOLDOWN_FACTOR = COOLDOWN_MAX_FACTOR

    def __init__(self, limits: Limits, clock: Clock = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.connections: dict[str, int] = {}
        self.guesses: dict[str, TokenBucket] = {}
        self.handshakes: dict[str, TokenBucket] = {}
        self.cooldowns: dict[str, Cooldown] = {}
        self._prune_next: dict[str, int] = {}

    def _pruned(
        self, name: str, table: dict[str, V], forgettable: Callable[[V], bool]
    ) -> dict[str, V]:
        """`table`, about to take a new entry: once it has grown to its pruning point, without
        the entries that remember nothing. The next pruning waits until what is left has
        doubled, so however many new addresses arrive at once (a node's clients all
        reconnecting elsewhere, a bot with many addresses) pruning costs each new entry
        O(1) on average, never a scan of the table per handshake."""
        if len(table) < self._prune_next.get(name, self._PRUNE_AT):
            return table
        kept = {key: value for key, value in table.items() if not forgettable(value)}
        self._prune_next[name] = max(self._PRUNE_AT, 2 * len(kept))
        return kept

    def _forgotten(self, now: float) -> Callable[[Cooldown], bool]:
        return lambda cooldown: cooldown.until + self.FORGIVE_AFTER <= now

    def may_connect(self, key: str) -> bool:
        cap = self.limits.conns_per_address
        return cap <= 0 or self.connections.get(key, 0) < cap

    def connected(self, key: str) -> None:
        self.connections[key] = self.connections.get(key, 0) + 1

    def disconnected(self, key: str) -> None:
        left = self.connections.get(key, 0) - 1
        if left > 0:
            self.connections[key] = left
        else:
            self.connections.pop(key, None)

    # New connections: their rate, and the cooldown after abuse.

    def handshake(self, key: str) -> bool:
        """Charge one new connection to `key`; False when it opens them too fast."""
        if self.limits.handshake_rate <= 0:
            return True
        bucket = self.handshakes.get(key)
        if bucket is None:
            self.handshakes = self._pruned("handshakes", self.handshakes, TokenBucket.full)
            limits = self.limits
            bucket = TokenBucket(limits.handshake_burst, limits.handshake_rate, self.clock)
            self.handshakes[key] = bucket
        return bucket.take()

    def handshake_retry_after(self) -> float:
        """Seconds until an address that opened connections too fast may open one."""
        return 1.0 / self.limits.handshake_rate if self.limits.handshake_rate > 0 else 0.0

    def cooldown_left(self, key: str) -> float:
        """Seconds `key` must still wait after being closed for abuse (0: none)."""
        cooldown = self.cooldowns.get(key)
        if cooldown is None:
            return 0.0
        return max(0.0, cooldown.until - self.clock())

    def closed_for_abuse(self, key: str) -> float:
        """One of `key`'s connections was closed for abuse: start (or lengthen) its
        cooldown. Returns its length in seconds (0 when the cooldown is switched off)."""
        base = self.limits.abuse_cooldown
        if base <= 0:
            return 0.0
        now = self.clock()
        self.cooldowns = self._pruned("cooldowns", self.cooldowns, self._forgotten(now))
        last = self.cooldowns.get(key)
        if last is not None and now < last.until:
            # Its other connections, opened before the cooldown began, closed during it:
            # the same offence, not a repeat.
            return last.until - now
        offenses = 1
        if last is not None and now < last.until + self.FORGIVE_AFTER:
            offenses = min(last.offenses + 1, COOLDOWN_MAX_OFFENSES)
        factor: int = min(2 ** (offenses - 1), self.MAX_COOLDOWN_FACTOR)
        seconds = base * factor
        self.cooldowns[key] = Cooldown(until=now + seconds, offenses=offenses)
        return seconds

    def impose(self, key: str, seconds: float, offenses: int) -> None:
        """A cooldown another node started (cluster mode): `key` waits whichever of that one
        and its own ends later, and its next offence anywhere counts as a repeat."""
        if seconds <= 0:
            return
        now = self.clock()
        self.cooldowns = self._pruned("cooldowns", self.cooldowns, self._forgotten(now))
        last = self.cooldowns.get(key)
        until = now + seconds
        offenses = max(1, min(offenses, COOLDOWN_MAX_OFFENSES))
        if last is not None and now < last.until + self.FORGIVE_AFTER:  # (else forgiven)
            until = max(until, last.until)
            offenses = max(offenses, last.offenses)
        self.cooldowns[key] = Cooldown(until=until, offenses=offenses)

    def offenses(self, key: str) -> int:
        cooldown = self.cooldowns.get(key)
        return cooldown.offenses if cooldown is not None else 0

    # Wrong invite guesses.

    def _guess_bucket(self, key: str) -> TokenBucket:
        bucket = self.guesses.get(key)
        if bucket is None:
            self.guesses = self._pruned("guesses", self.guesses, TokenBucket.full)
            per_minute = self.limits.invite_guesses_per_address
            bucket = TokenBucket(per_minute, per_minute / 60.0, self.clock)
            self.guesses[key] = bucket
        return bucket

    def may_guess(self, key: str) -> bool:
        if self.limits.invite_guesses_per_address <= 0:
            return True
        bucket = self.guesses.get(key)
        return bucket is None or bucket.ready()

    def guessed_wrong(self, key: str) -> None:
        if self.limits.invite_guesses_per_address > 0:
            self._guess_bucket(key).spend()


# --- the handshake ------------------------------------------------------------------------


def normalize_origin(origin: str) -> str | None:
    """`scheme://host[:port]` in lower case with the scheme's default port dropped."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        return None
    default = 443 if parts.scheme == "https" else 80
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{parts.scheme}://{host}" + (f":{port}" if port not in (None, default) else "")


def _same_host(origin: str, host_header: str | None) -> bool:
    """The Origin names the host the request was sent to (the Host header). A Host without
    a port (a proxy that forwards `$host`) matches the Origin's host on any port."""
    if not host_header:
        return False
    try:
        seen = urlsplit(origin)
        asked = urlsplit("//" + host_header.strip())
        seen_port, asked_port = seen.port, asked.port
    except ValueError:
        return False
    if not seen.hostname or not asked.hostname or seen.hostname != asked.hostname:
        return False
    if asked_port is None:
        return True
    default = 443 if seen.scheme == "https" else 80
    return (seen_port or default) == asked_port


def origin_allowed(origin: str | None, host_header: str | None, limits: Limits) -> bool:
    if origin is None:
        return limits.allow_no_origin
    if ANY_ORIGIN in limits.origins:
        return True
    normalized = normalize_origin(origin)
    if normalized is None:
        return False
    if SELF_ORIGIN in limits.origins and _same_host(normalized, host_header):
        return True
    return any(normalized == normalize_origin(entry) for entry in limits.origins)


ProcessRequest = Callable[[ServerConnection, Request], Awaitable[Response | None]]


def is_upgrade(request: Request) -> bool:
    return request.headers.get("Upgrade", "").lower() == "websocket"


class HandshakeGuard:
    """Runs before every opening handshake: origin, then connections per address.

    A WebSocket upgrade that passes takes one of its address's connection slots until the
    TCP connection is gone (however the handshake or the connection ends); plain HTTP
    requests pass through untouched.
    """

    def __init__(self, limits: Limits, book: AddressBook, metrics: Metrics | None) -> None:
        self.limits = limits
        self.book = book
        self.metrics = metrics
        self.trusted = parse_networks(limits.trusted_proxies)
        self.addresses: dict[ServerConnection, str] = {}

    def _hit(self, kind: str) -> None:
        if self.metrics is not None:
            self.metrics.limit_hits.labels(kind).inc()

    def address_of(self, connection: ServerConnection) -> str:
        return self.addresses.get(connection, "unknown")

    def check(self, connection: ServerConnection, request: Request) -> Response | None:
        if not is_upgrade(request):
            return None
        remote: Any = connection.remote_address
        peer = str(remote[0]) if isinstance(remote, tuple) and remote else None
        address = client_address(peer, request.headers.get_all("X-Forwarded-For"), self.trusted)
        origins = request.headers.get_all("Origin")
        origin = origins[0] if len(origins) == 1 else (None if not origins else "")
        if not origin_allowed(origin, request.headers.get("Host"), self.limits):
            kind = NO_ORIGIN if origin is None else ORIGIN
            self._hit(kind)
            log.info("handshake refused: %s", kind, extra={"address": address})
            return connection.respond(403, "Origin not allowed\n")
        key = address_key(address)
        wait = self.book.cooldown_left(key)
        if wait > 0:
            # (Logged at debug only: a bot in its cooldown may knock thousands of times; the
            # metric counts them.)
            self._hit(ABUSE_COOLDOWN)
            log.debug("handshake refused: abuse cooldown", extra={"address": address})
            return _too_many(connection, "This address was closed for abuse; wait", wait)
        if not self.book.handshake(key):
            self._hit(HANDSHAKE_RATE)
            log.debug("handshake refused: connecting too fast", extra={"address": address})
            return _too_many(
                connection,
                "Too many new connections from this address",
                self.book.handshake_retry_after(),
            )
        if not self.book.may_connect(key):
            self._hit(ADDRESS_CONNECTIONS)
            log.info("handshake refused: too many connections", extra={"address": address})
            response = connection.respond(429, "Too many connections from this address\n")
            response.headers["Retry-After"] = "10"
            return response
        self.book.connected(key)
        self.addresses[connection] = address

        def release(_: object) -> None:
            self.book.disconnected(key)
            self.addresses.pop(connection, None)

        connection.connection_lost_waiter.add_done_callback(release)
        return None

    def chain(self, then: ProcessRequest) -> ProcessRequest:
        """This guard first, then `then` (the HTTP routes) for whatever it lets through."""

        async def process_request(
            connection: ServerConnection, request: Request
        ) -> Response | None:
            refused = self.check(connection, request)
            if refused is not None:
                return refused
            return await then(connection, request)

        return process_request


def _too_many(connection: ServerConnection, text: str, retry_after: float) -> Response:
    """HTTP 429 with the seconds to wait, rounded up, in Retry-After (RFC 9110)."""
    response = connection.respond(429, text + "\n")
    response.headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    return response


def serve_options(limits: Limits) -> dict[str, Any]:
    """The WebSocket-level limits, as keyword arguments of `websockets.serve`."""
    return {
        "compression": None,  # no permessage-deflate: frames are tiny, inflation is a risk
        "max_size": limits.max_frame,
        "max_queue": 32,
        "open_timeout": limits.open_timeout or None,
        "ping_interval": limits.ping_interval or None,
        "ping_timeout": limits.ping_timeout or None,
        "close_timeout": 5,
    }

"""The limit rules as pure functions: buckets, client addresses through proxies, origins,
and the settings (flags, `NINEPOOL_*` variables, refused values)."""

from __future__ import annotations

import pytest

from server.edge.limits import (
    AddressBook,
    Admission,
    FrameBudget,
    Limits,
    TokenBucket,
    address_key,
    client_address,
    normalize_origin,
    origin_allowed,
    parse_networks,
)
from server.ops.config import config_from_args


class Clock:
    """Time that moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_token_bucket_allows_a_burst_then_its_rate() -> None:
    clock = Clock()
    bucket = TokenBucket(3, 2.0, clock)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    clock.now += 0.5  # one token back
    assert bucket.take() and not bucket.take()
    clock.now += 60.0  # never more than the capacity
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    assert TokenBucket(1, 0.0, clock).unlimited  # rate 0: no limit
    assert all(TokenBucket(1, 0.0, clock).take() for _ in range(100))


def test_frame_budget_keeps_aims_apart_and_strikes_out_abuse() -> None:
    clock = Clock()
    limits = Limits(rate=1.0, burst=2, aim_rate=1.0, aim_burst=3, abuse_limit=2)
    budget = FrameBudget(limits, clock)
    assert [budget.admit(aim=False) for _ in range(2)] == [Admission.ADMIT] * 2
    assert [budget.admit(aim=True) for _ in range(3)] == [Admission.ADMIT] * 3
    assert budget.admit(aim=False) is Admission.LIMITED
    assert budget.admit(aim=True) is Admission.LIMITED
    assert budget.admit(aim=False) is Admission.ABUSIVE  # the third refusal in a second
    clock.now += 5.0  # a pause earns the budget and the strikes back
    assert budget.admit(aim=False) is Admission.ADMIT
    never = FrameBudget(Limits(rate=1.0, burst=1, abuse_limit=0), clock)
    assert never.admit(aim=False) is Admission.ADMIT
    assert {never.admit(aim=False) for _ in range(50)} == {Admission.LIMITED}


def test_new_connections_per_address_have_a_burst_then_a_rate() -> None:
    clock = Clock()
    book = AddressBook(Limits(handshake_rate=0.5, handshake_burst=3), clock)
    assert [book.handshake("203.0.113.7") for _ in range(4)] == [True, True, True, False]
    assert book.handshake("203.0.113.8")  # another address has its own budget
    assert book.handshake_retry_after() == 2.0
    clock.now += 2.0
    assert book.handshake("203.0.113.7") and not book.handshake("203.0.113.7")
    unlimited = AddressBook(Limits(handshake_rate=0.0), clock)
    assert all(unlimited.handshake("203.0.113.7") for _ in range(1000))
    assert unlimited.handshakes == {}  # nothing remembered when the limit is off


def test_abuse_cooldown_doubles_on_repeat_and_is_forgiven_after_an_hour() -> None:
    clock = Clock()
    book = AddressBook(Limits(abuse_cooldown=30.0), clock)
    key = "203.0.113.7"
    assert book.cooldown_left(key) == 0.0
    assert book.closed_for_abuse(key) == 30.0
    assert book.cooldown_left(key) == 30.0 and book.cooldown_left("203.0.113.8") == 0.0
    # Its other connections, closed during the cooldown, are the same offence.
    clock.now += 10.0
    assert book.closed_for_abuse(key) == 20.0
    clock.now += 20.0
    assert book.cooldown_left(key) == 0.0
    # Back, and abusive again: twice as long each time, at most 16 times the base.
    lengths = []
    for _ in range(6):
        lengths.append(book.closed_for_abuse(key))
        clock.now += lengths[-1] + 5.0
    assert lengths == [60.0, 120.0, 240.0, 480.0, 480.0, 480.0]
    # An hour of good behaviour after the last cooldown ended starts it over.
    clock.now += AddressBook.FORGIVE_AFTER
    assert book.closed_for_abuse(key) == 30.0
    # The count stops at the cap: a bot that keeps at it for days still waits 16 times.
    for _ in range(50):
        clock.now += book.closed_for_abuse(key) + 5.0
    assert book.offenses(key) == 5 and book.closed_for_abuse(key) == 480.0
    off = AddressBook(Limits(abuse_cooldown=0.0), clock)
    assert off.closed_for_abuse(key) == 0.0 and off.cooldown_left(key) == 0.0


def test_a_cooldown_from_another_node_keeps_whichever_ends_later() -> None:
    clock = Clock()
    book = AddressBook(Limits(abuse_cooldown=30.0), clock)
    key = "203.0.113.7"
    book.impose(key, 10.0, 2)
    assert book.cooldown_left(key) == 10.0 and book.offenses(key) == 2
    book.impose(key, 5.0, 1)  # ends sooner, fewer offences: changes nothing
    assert book.cooldown_left(key) == 10.0 and book.offenses(key) == 2
    book.impose(key, 0.0, 9)  # no cooldown at all: ignored
    assert book.offenses(key) == 2
    clock.now += 11.0
    # The next offence here is the third in a row: four times the base.
    assert book.closed_for_abuse(key) == 120.0
    # A record long forgiven counts for nothing when another node reports the address.
    clock.now += 120.0 + AddressBook.FORGIVE_AFTER + 1.0
    book.impose(key, 30.0, 1)
    assert book.offenses(key) == 1 and book.cooldown_left(key) == 30.0
    book.impose("203.0.113.9", 30.0, 10**6)  # a count past the cap is the cap
    assert book.offenses("203.0.113.9") == 5


def test_many_new_addresses_at_once_cost_no_scan_per_handshake() -> None:
    # A node's clients all reconnecting elsewhere within a second: every address is new
    # and none is forgettable yet, so pruning finds nothing to drop and must not run again
    # for each one (it used to: seconds of a stalled loop at 8,000 addresses).
    clock = Clock()
    book = AddressBook(Limits(handshake_rate=1.0, handshake_burst=30), clock)
    scans = 0
    original = book._pruned

    def counting(name: str, table: dict[str, object], forgettable: object) -> dict[str, object]:
        nonlocal scans
        before = book._prune_next.get(name, AddressBook._PRUNE_AT)
        result = original(name, table, forgettable)  # type: ignore[arg-type]
        scans += book._prune_next.get(name, AddressBook._PRUNE_AT) != before
        return result

    book._pruned = counting  # type: ignore[method-assign,assignment]
    for n in range(20_000):
        assert book.handshake(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}")
    assert len(book.handshakes) == 20_000  # all still remembered (none refilled yet)
    assert scans <= 4  # 4,096, 8,192, 16,384: a doubling each time
    assert book.may_connect("10.0.0.1")


def test_a_cooldown_longer_than_a_day_is_refused() -> None:
    assert any("abuse_cooldown" in p for p in Limits(abuse_cooldown=6000.0).problems())
    assert Limits(abuse_cooldown=5400.0).problems() == []


def test_address_book_tables_stay_bounded() -> None:
    clock = Clock()
    book = AddressBook(Limits(handshake_rate=1.0, handshake_burst=2, abuse_cooldown=1.0), clock)
    for n in range(3 * AddressBook._PRUNE_AT):
        address = f"10.{n // 65536}.{n // 256 % 256}.{n % 256}"
        book.handshake(address)
        book.closed_for_abuse(address)
        clock.now += 2.0  # each entry is long settled by the time the tables are pruned
    assert len(book.handshakes) <= AddressBook._PRUNE_AT
    assert len(book.cooldowns) <= AddressBook._PRUNE_AT + 1


LOOPBACK = parse_networks(["127.0.0.0/8", "::1"])
PROXIES = parse_networks(["10.0.0.0/8"])


@pytest.mark.parametrize(
    ("peer", "forwarded", "trusted", "expected"),
    [
        ("198.51.100.9", [], LOOPBACK, "198.51.100.9"),  # no proxy
        ("198.51.100.9", ["203.0.113.7"], LOOPBACK, "198.51.100.9"),  # untrusted peer: ignored
        ("127.0.0.1", ["203.0.113.7"], LOOPBACK, "203.0.113.7"),  # nginx on loopback
        ("127.0.0.1", [], LOOPBACK, "127.0.0.1"),  # the proxy's own connection
        # The client wrote the left entry itself: only the proxy's own entry counts.
        ("127.0.0.1", ["198.51.100.1, 203.0.113.7"], LOOPBACK, "203.0.113.7"),
        # Two trusted hops (a load balancer, then nginx), each appending what it saw.
        ("127.0.0.1", ["203.0.113.7, 10.1.2.3"], LOOPBACK + PROXIES, "203.0.113.7"),
        ("127.0.0.1", ["203.0.113.7", "10.1.2.3"], LOOPBACK + PROXIES, "203.0.113.7"),
        # Garbage where an address should be: believe the last proxy that vouched.
        ("127.0.0.1", ["not-an-ip, 10.1.2.3"], LOOPBACK + PROXIES, "10.1.2.3"),
        ("127.0.0.1", ["unknown"], LOOPBACK, "127.0.0.1"),
        ("::1", ["2001:db8::5"], LOOPBACK, "2001:db8::5"),
        ("::ffff:127.0.0.1", ["203.0.113.7"], LOOPBACK, "203.0.113.7"),  # v4-mapped peer
        ("127.0.0.1", ["[2001:db8::5]:4431"], LOOPBACK, "2001:db8::5"),
        ("127.0.0.1", ["203.0.113.7:5050"], LOOPBACK, "203.0.113.7"),
    ],
)
def test_client_address_believes_trusted_proxies_only(
    peer: str, forwarded: list[str], trusted: tuple, expected: str
) -> None:
    assert client_address(peer, forwarded, trusted) == expected


def test_ipv6_clients_are_counted_by_their_64() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::2")
    assert address_key("2001:db8:1:2::1") != address_key("2001:db8:1:3::1")
    assert address_key("203.0.113.7") == "203.0.113.7"


@pytest.mark.parametrize(
    ("origin", "normalized"),
    [
        ("https://Pool.Example", "https://pool.example"),
        ("https://pool.example:443", "https://pool.example"),
        ("http://pool.example:8080/", "http://pool.example:8080"),
        ("http://[::1]:8000", "http://[::1]:8000"),
        ("null", None),
        ("file://", None),
        ("https://pool.example/path", None),
        ("https://user@pool.example", None),
        ("https://pool.example:99999", None),
    ],
)
def test_origins_are_compared_normalized(origin: str, normalized: str | None) -> None:
    assert normalize_origin(origin) == normalized


@pytest.mark.parametrize(
    ("origin", "host", "allowed"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
        ("http://127.0.0.1:8001", "127.0.0.1:8000", False),
        ("https://pool.example", "pool.example:443", True),
        ("http://pool.example", "pool.example:443", False),
        # A proxy forwarding `$host` drops the port: the host name alone decides.
        ("https://pool.example:8443", "pool.example", True),
        ("https://evil.example", "pool.example", False),
        ("https://pool.example.evil.example", "pool.example", False),
        ("https://pool.example", None, False),
        (None, "pool.example", False),  # no Origin: refused unless configured
    ],
)
def test_the_own_origin_is_the_host_asked_for(
    origin: str | None, host: str | None, allowed: bool
) -> None:
    assert origin_allowed(origin, host, Limits()) is allowed


def test_origin_lists_any_and_no_origin() -> None:
    listed = Limits(origins=("https://pool.example", "http://localhost:8000"))
    assert origin_allowed("https://pool.example", "10.0.0.5:8000", listed)
    assert origin_allowed("http://localhost:8000", "10.0.0.5:8000", listed)
    assert not origin_allowed("http://10.0.0.5:8000", "10.0.0.5:8000", listed)  # no `self`
    assert origin_allowed("https://anything.example", "x", Limits(origins=("*",)))
    assert origin_allowed(None, "x", Limits(allow_no_origin=True))


def test_limit_flags_and_environment_variables() -> None:
    config = config_from_args(
        ["--rate", "4", "--origins", "self, https://pool.example", "--allow-no-origin"],
        {
            "NINEPOOL_BURST": "9",
            "NINEPOOL_TRUSTED_PROXIES": "10.0.0.0/8,::1",
            "NINEPOOL_MAX_FRAME": "2048",
            "NINEPOOL_TOKEN_TTL": "3600",
            "NINEPOOL_LOG_FORMAT": "TEXT",
        },
    )
    limits = config.limits
    assert (limits.rate, limits.burst, limits.max_frame) == (4.0, 9, 2048)
    assert limits.origins == ("self", "https://pool.example")
    assert limits.trusted_proxies == ("10.0.0.0/8", "::1")
    assert limits.allow_no_origin is True
    assert (config.token_ttl, config.log_format) == (3600.0, "text")
    defaults = config_from_args([], {})
    assert defaults.limits == Limits() and defaults.log_format == "json"
    assert config_from_args([], {"NINEPOOL_ALLOW_NO_ORIGIN": "yes"}).limits.allow_no_origin


@pytest.mark.parametrize(
    "argv",
    [
        ["--max-frame", "100"],
        ["--rate", "-1"],
        ["--rate", "5", "--burst", "0"],
        ["--trusted-proxies", "nginx.internal"],
        ["--origins", "pool.example"],
        ["--send-buffer", "10"],
        ["--token-ttl", "0"],
        ["--log-format", "xml"],
        ["--allow-no-origin", "maybe"],
    ],
)
def test_bad_limit_settings_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        config_from_args(argv, {})

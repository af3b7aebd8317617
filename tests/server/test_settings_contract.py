"""The flags and `NINEPOOL_*` variables are an interface: deployments, compose files and
scripts spell them out. This is the contract as the server had it before the settings
were declared in one place (`server/ops/config.py`): every flag, its variable and its
default, hard-coded here so that a renamed, lost or extra setting fails — and with it,
the precedence flag > variable > default for each one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.edge.limits import Limits
from server.ops.computers import Computers
from server.ops.config import CLIENT_DIR, SETTINGS, Config, build_parser, config_from_args
from server.ops.tournaments import TournamentSettings

#: (flag, variable, default the server reads when neither is given). `RANDOM`: drawn at
#: start (or kept beside a SQLite store).
RANDOM = object()
CONTRACT: tuple[tuple[str, str, Any], ...] = (
    ("--host", "NINEPOOL_HOST", "127.0.0.1"),
    ("--port", "NINEPOOL_PORT", 8000),
    ("--workers", "NINEPOOL_WORKERS", 2),
    ("--gc-threshold", "NINEPOOL_GC_THRESHOLD", 20_000),
    ("--log-level", "NINEPOOL_LOG_LEVEL", "INFO"),
    ("--shot-clock", "NINEPOOL_SHOT_CLOCK", 60),
    ("--rack-pause", "NINEPOOL_RACK_PAUSE", 6.0),
    ("--grace", "NINEPOOL_GRACE", 60.0),
    ("--bot-workers", "NINEPOOL_BOT_WORKERS", 1),
    ("--bot-pause", "NINEPOOL_BOT_PAUSE", 1.5),
    ("--bot-tables", "NINEPOOL_BOT_TABLES", 2),
    ("--quick-computer-after", "NINEPOOL_QUICK_COMPUTER_AFTER", 20.0),
    ("--quick-computer-level", "NINEPOOL_QUICK_COMPUTER_LEVEL", 2),
    ("--store", "NINEPOOL_STORE", "sqlite://var/rooms.db"),
    ("--secret", "NINEPOOL_SECRET", RANDOM),
    ("--secret-previous", "NINEPOOL_SECRET_PREVIOUS", None),
    ("--seed", "NINEPOOL_SEED", None),
    ("--spectator-cap", "NINEPOOL_SPECTATOR_CAP", 200),
    ("--client-dir", "NINEPOOL_CLIENT_DIR", CLIENT_DIR),
    ("--client-bundle", "NINEPOOL_CLIENT_BUNDLE", True),
    ("--update-interval", "NINEPOOL_UPDATE_INTERVAL", 1.0),
    ("--room-log-max", "NINEPOOL_ROOM_LOG_MAX", 10_000),
    ("--replay-max-bytes", "NINEPOOL_REPLAY_MAX_BYTES", 16 * 2**20),
    ("--replays-per-address", "NINEPOOL_REPLAYS_PER_ADDRESS", 2),
    ("--replay-streams", "NINEPOOL_REPLAY_STREAMS", 32),
    ("--replay-timeout", "NINEPOOL_REPLAY_TIMEOUT", 120.0),
    ("--redis-url", "NINEPOOL_REDIS_URL", None),
    ("--lease-ttl", "NINEPOOL_LEASE_TTL", 10.0),
    ("--node-timeout", "NINEPOOL_NODE_TIMEOUT", 3.0),
    ("--node-id", "NINEPOOL_NODE_ID", None),
    ("--replays-kept", "NINEPOOL_REPLAYS_KEPT", 1000),
    ("--replays-max-age", "NINEPOOL_REPLAYS_MAX_AGE", 86400.0),
    ("--replay-retention", "NINEPOOL_REPLAY_RETENTION", 0.0),
    ("--max-frame", "NINEPOOL_MAX_FRAME", 4096),
    ("--rate", "NINEPOOL_RATE", 10.0),
    ("--burst", "NINEPOOL_BURST", 30),
    ("--aim-rate", "NINEPOOL_AIM_RATE", 20.0),
    ("--aim-burst", "NINEPOOL_AIM_BURST", 20),
    ("--chat-rate", "NINEPOOL_CHAT_RATE", 0.5),
    ("--chat-burst", "NINEPOOL_CHAT_BURST", 5),
    ("--abuse-limit", "NINEPOOL_ABUSE_LIMIT", 30),
    ("--conns-per-address", "NINEPOOL_CONNS_PER_ADDRESS", 32),
    ("--handshake-rate", "NINEPOOL_HANDSHAKE_RATE", 1.0),
    ("--handshake-burst", "NINEPOOL_HANDSHAKE_BURST", 30),
    ("--abuse-cooldown", "NINEPOOL_ABUSE_COOLDOWN", 30.0),
    ("--open-timeout", "NINEPOOL_OPEN_TIMEOUT", 10.0),
    ("--max-header-bytes", "NINEPOOL_MAX_HEADER_BYTES", 16_384),
    ("--header-timeout", "NINEPOOL_HEADER_TIMEOUT", 5.0),
    ("--pending-handshakes", "NINEPOOL_PENDING_HANDSHAKES", 512),
    ("--pending-per-address", "NINEPOOL_PENDING_PER_ADDRESS", 32),
    ("--max-connections", "NINEPOOL_MAX_CONNECTIONS", 16_384),
    ("--hello-timeout", "NINEPOOL_HELLO_TIMEOUT", 10.0),
    ("--ping-interval", "NINEPOOL_PING_INTERVAL", 20.0),
    ("--ping-timeout", "NINEPOOL_PING_TIMEOUT", 20.0),
    ("--send-buffer", "NINEPOOL_SEND_BUFFER", 262_144),
    ("--lag-limit", "NINEPOOL_LAG_LIMIT", 3),
    ("--max-rooms", "NINEPOOL_MAX_ROOMS", 2000),
    ("--rooms-per-address", "NINEPOOL_ROOMS_PER_ADDRESS", 16),
    ("--metrics-token", "NINEPOOL_METRICS_TOKEN", None),
    ("--metrics-port", "NINEPOOL_METRICS_PORT", None),
    ("--metrics-host", "NINEPOOL_METRICS_HOST", "127.0.0.1"),
    ("--invite-guesses", "NINEPOOL_INVITE_GUESSES", 5),
    ("--invite-guesses-per-address", "NINEPOOL_INVITE_GUESSES_PER_ADDRESS", 30),
    ("--trusted-proxies", "NINEPOOL_TRUSTED_PROXIES", ()),
    ("--origins", "NINEPOOL_ORIGINS", ("self",)),
    ("--allow-no-origin", "NINEPOOL_ALLOW_NO_ORIGIN", False),
    ("--token-ttl", "NINEPOOL_TOKEN_TTL", 86400.0),
    ("--log-format", "NINEPOOL_LOG_FORMAT", "json"),
    ("--players-store", "NINEPOOL_PLAYERS_STORE", None),
    ("--login-ttl", "NINEPOOL_LOGIN_TTL", 30 * 86400.0),
    ("--login-failures", "NINEPOOL_LOGIN_FAILURES", 5),
    ("--login-failures-per-address", "NINEPOOL_LOGIN_FAILURES_PER_ADDRESS", 20),
    ("--login-window", "NINEPOOL_LOGIN_WINDOW", 900),
    ("--accounts-per-address", "NINEPOOL_ACCOUNTS_PER_ADDRESS", 10),
    ("--password-hashers", "NINEPOOL_PASSWORD_HASHERS", 1),
    ("--tournament-no-show", "NINEPOOL_TOURNAMENT_NO_SHOW", 300.0),
)

#: flag: (flag text, its value, variable text, its value), each unlike the default.
SAMPLES: dict[str, tuple[str, Any, str, Any]] = {
    "--host": ("0.0.0.0", "0.0.0.0", "::", "::"),
    "--port": ("9000", 9000, "9001", 9001),
    "--workers": ("0", 0, "4", 4),
    "--gc-threshold": ("0", 0, "5000", 5000),
    "--log-level": ("debug", "DEBUG", "Warning", "WARNING"),
    "--shot-clock": ("30", 30, "0", 0),
    "--grace": ("0", 0.0, "2.5", 2.5),
    "--store": ("sqlite://db/rooms.db", "sqlite://db/rooms.db", "memory://", "memory://"),
    "--secret": ("s" * 40, b"s" * 40, "t" * 40, b"t" * 40),
    "--secret-previous": ("o" * 40, b"o" * 40, "p" * 40, b"p" * 40),
    "--seed": ("7", 7, "8", 8),
    "--spectator-cap": ("0", 0, "5", 5),
    "--client-dir": ("/srv/a", Path("/srv/a"), "/srv/b", Path("/srv/b")),
    "--client-bundle": ("yes", True, "no", False),
    "--update-interval": ("0", 0.0, "2.5", 2.5),
    "--room-log-max": ("500", 500, "20000", 20000),
    "--replay-max-bytes": ("1048576", 1048576, "65536", 65536),
    "--replays-per-address": ("0", 0, "5", 5),
    "--replay-streams": ("0", 0, "8", 8),
    "--replay-timeout": ("30", 30.0, "0.5", 0.5),
    "--redis-url": ("redis://a:6379/0", "redis://a:6379/0", "redis://b:6379/1", "redis://b:6379/1"),
    "--lease-ttl": ("0.5", 0.5, "30", 30.0),
    "--node-timeout": ("1.5", 1.5, "10", 10.0),
    "--node-id": ("node-a", "node-a", "node_b.2", "node_b.2"),
    "--replays-kept": ("0", 0, "7", 7),
    "--replays-max-age": ("0", 0.0, "60", 60.0),
    "--replay-retention": ("30", 30.0, "0.5", 0.5),
    "--max-frame": ("2048", 2048, "8192", 8192),
    "--rate": ("0", 0.0, "4", 4.0),
    "--burst": ("1", 1, "9", 9),
    "--aim-rate": ("0", 0.0, "5", 5.0),
    "--aim-burst": ("1", 1, "9", 9),
    "--chat-rate": ("0", 0.0, "2", 2.0),
    "--chat-burst": ("1", 1, "9", 9),
    "--abuse-limit": ("0", 0, "9", 9),
    "--conns-per-address": ("0", 0, "9", 9),
    "--handshake-rate": ("0", 0.0, "2.5", 2.5),
    "--handshake-burst": ("1", 1, "9", 9),
    "--abuse-cooldown": ("0", 0.0, "60", 60.0),
    "--open-timeout": ("0", 0.0, "5", 5.0),
    "--max-header-bytes": ("1024", 1024, "65536", 65536),
    "--header-timeout": ("0", 0.0, "1.5", 1.5),
    "--pending-handshakes": ("0", 0, "9", 9),
    "--pending-per-address": ("0", 0, "9", 9),
    "--max-connections": ("0", 0, "100", 100),
    "--hello-timeout": ("0", 0.0, "5", 5.0),
    "--ping-interval": ("0", 0.0, "5", 5.0),
    "--ping-timeout": ("0", 0.0, "5", 5.0),
    "--send-buffer": ("4096", 4096, "65536", 65536),
    "--lag-limit": ("0", 0, "9", 9),
    "--max-rooms": ("0", 0, "9", 9),
    "--rooms-per-address": ("0", 0, "9", 9),
    "--metrics-token": ("t" * 32, "t" * 32, "u" * 32, "u" * 32),
    "--metrics-port": ("9100", 9100, "0", 0),
    "--metrics-host": ("0.0.0.0", "0.0.0.0", "::", "::"),
    "--invite-guesses": ("0", 0, "9", 9),
    "--invite-guesses-per-address": ("0", 0, "9", 9),
    "--trusted-proxies": ("10.0.0.0/8, ::1", ("10.0.0.0/8", "::1"), "127.0.0.1", ("127.0.0.1",)),
    "--origins": ("self, https://pool.example", ("self", "https://pool.example"), "*", ("*",)),
    "--allow-no-origin": ("no", False, "yes", True),
    "--token-ttl": ("60", 60.0, "3600", 3600.0),
    "--log-format": ("JSON", "json", "Text", "text"),
    "--players-store": ("sqlite://p.db", "sqlite://p.db", "redis://c:6379/2", "redis://c:6379/2"),
    "--login-ttl": ("60", 60.0, "7200", 7200.0),
    "--login-failures": ("0", 0, "9", 9),
    "--login-failures-per-address": ("0", 0, "9", 9),
    "--login-window": ("1", 1, "60", 60),
    "--accounts-per-address": ("0", 0, "9", 9),
    "--password-hashers": ("2", 2, "3", 3),
    "--bot-workers": ("0", 0, "3", 3),
    "--bot-pause": ("0", 0.0, "2.5", 2.5),
    "--rack-pause": ("0", 0.0, "12.5", 12.5),
    "--bot-tables": ("0", 0, "5", 5),
    "--quick-computer-after": ("0", 0.0, "60", 60.0),
    "--quick-computer-level": ("1", 1, "5", 5),
    "--tournament-no-show": ("30", 30.0, "0.5", 0.5),
}


def read(config: Config, flag: str) -> Any:
    """The value the server reads for `flag`: a field of `Config`, of its `Limits` or of
    its `Computers`."""
    name = flag.removeprefix("--").replace("-", "_")
    if name in Limits.__dataclass_fields__:
        return getattr(config.limits, name)
    if name in Computers.__dataclass_fields__:
        return getattr(config.computers, name)
    if name in TournamentSettings.__dataclass_fields__:
        return getattr(config.tournaments, name)
    return getattr(config, name)


class SpyEnviron(dict[str, str]):
    """An environment that notes every name the settings look up."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[str] = set()

    def __contains__(self, key: object) -> bool:
        self.asked.add(str(key))
        return super().__contains__(key)

    def __getitem__(self, key: str) -> str:
        self.asked.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        self.asked.add(key)
        return super().get(key, default)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The lone node's default store is relative: keep its key file out of the repo."""
    monkeypatch.chdir(tmp_path)
    yield


def test_the_flags_are_the_contract() -> None:
    parser = build_parser()
    flags = {
        option
        for action in parser._actions
        for option in action.option_strings
        if option not in ("-h", "--help")
    }
    assert flags == {flag for flag, _, _ in CONTRACT}
    assert len(CONTRACT) == 76


def test_the_declarations_are_the_contract() -> None:
    declared = [(setting.flag, setting.env) for setting in SETTINGS]
    assert sorted(declared) == sorted((flag, env) for flag, env, _ in CONTRACT)


def test_exactly_the_contract_variables_are_read() -> None:
    environ = SpyEnviron()
    config_from_args([], environ)
    assert environ.asked == {env for _, env, _ in CONTRACT}


def test_the_defaults_are_the_contract() -> None:
    config = config_from_args([], {})
    for flag, _, default in CONTRACT:
        if default is RANDOM:
            continue
        assert read(config, flag) == default, flag
    assert config.secret_given  # the lone node's key, kept beside its database
    assert config_from_args(["--store", "memory://"], {}).secret_given is False


@pytest.mark.parametrize(("flag", "env", "default"), CONTRACT, ids=[row[0] for row in CONTRACT])
def test_a_flag_wins_over_its_variable_which_wins_over_the_default(
    flag: str, env: str, default: Any
) -> None:
    flag_text, flag_value, env_text, env_value = SAMPLES[flag]
    assert env_value != default and flag_value != env_value
    assert read(config_from_args([flag, flag_text], {env: env_text}), flag) == flag_value
    assert read(config_from_args([f"{flag}={flag_text}"], {}), flag) == flag_value
    assert read(config_from_args([], {env: env_text}), flag) == env_value

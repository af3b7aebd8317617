"""Bad settings: a bad value from a flag or a variable stops the server before it does
anything, with a message that names the flag, the variable and where the value came
from; and the special cases (unset, empty, `0` for off) read as they always have."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.ops.config import LONE_NODE_STORE, config_from_args


def refusal(capsys: pytest.CaptureFixture[str], argv: list[str], environ: dict[str, str]) -> str:
    with pytest.raises(SystemExit) as stopped:
        config_from_args(argv, environ)
    assert stopped.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(
    ("flag", "env", "text", "must"),
    [
        ("--port", "NINEPOOL_PORT", "70000", "0-65535"),
        ("--port", "NINEPOOL_PORT", "eighty", "a whole number"),
        ("--workers", "NINEPOOL_WORKERS", "-1", "0 or more"),
        ("--grace", "NINEPOOL_GRACE", "nan", "0 or more"),
        ("--shot-clock", "NINEPOOL_SHOT_CLOCK", "4", "0 (off) or 5-300"),
        ("--shot-clock", "NINEPOOL_SHOT_CLOCK", "301", "0 (off) or 5-300"),
        ("--lease-ttl", "NINEPOOL_LEASE_TTL", "0.2", "more than 0.2"),
        ("--node-id", "NINEPOOL_NODE_ID", "", "1-64 letters"),
        ("--seed", "NINEPOOL_SEED", "", "a whole number"),
        ("--log-level", "NINEPOOL_LOG_LEVEL", "verbose", "one of DEBUG, INFO, WARNING, ERROR"),
        ("--log-format", "NINEPOOL_LOG_FORMAT", "xml", "one of json, text"),
        ("--max-frame", "NINEPOOL_MAX_FRAME", "100", "1024 or more"),
        ("--abuse-cooldown", "NINEPOOL_ABUSE_COOLDOWN", "5401", "0-5400"),
        ("--send-buffer", "NINEPOOL_SEND_BUFFER", "10", "4096 or more"),
        ("--trusted-proxies", "NINEPOOL_TRUSTED_PROXIES", "nginx.internal", "IP addresses"),
        ("--origins", "NINEPOOL_ORIGINS", "pool.example", "self, * or scheme://"),
        ("--allow-no-origin", "NINEPOOL_ALLOW_NO_ORIGIN", "maybe", "yes or no"),
        ("--token-ttl", "NINEPOOL_TOKEN_TTL", "0", "more than 0"),
    ],
)
def test_a_bad_value_names_the_flag_the_variable_and_its_source(
    capsys: pytest.CaptureFixture[str], flag: str, env: str, text: str, must: str
) -> None:
    for argv, environ, source in (
        ([f"{flag}={text}"], {}, flag),
        ([], {env: text}, env),
    ):
        message = refusal(capsys, argv, environ)
        assert f"{flag} / {env} must be {must}" in message
        assert f"{text!r} (from {source})" in message


def test_only_the_value_in_effect_is_read() -> None:
    """A flag overrides its variable, so a bad variable under a good flag is never read
    (as before: the flag is what the operator meant)."""
    config = config_from_args(["--port", "9000", "--store", "memory://"], {"NINEPOOL_PORT": "x"})
    assert config.port == 9000


def test_every_bad_value_is_reported_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    message = refusal(
        capsys,
        ["--lease-ttl", "0.1"],
        {"NINEPOOL_WORKERS": "x", "NINEPOOL_LOG_LEVEL": "loud"},
    )
    assert "3 settings refused" in message
    for where in ("--workers / NINEPOOL_WORKERS", "--log-level", "--lease-ttl"):
        assert where in message


def test_a_refusal_leaves_nothing_behind(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The lone node's key file is made only once every setting is known to be good."""
    store = f"sqlite://{tmp_path}/var/rooms.db"
    for argv in (["--lease-ttl", "0.1"], ["--rate", "5", "--burst", "0"], ["--port", "-1"]):
        refusal(capsys, ["--store", store, *argv], {})
        assert not (tmp_path / "var").exists()


def test_rules_across_settings_name_their_flags(capsys: pytest.CaptureFixture[str]) -> None:
    message = refusal(capsys, ["--rate", "5", "--burst", "0", "--store", "memory://"], {})
    assert "--rate / NINEPOOL_RATE" in message and "burst of at least 1" in message
    message = refusal(capsys, ["--store", "memory://"], {"NINEPOOL_REDIS_URL": "redis://r/0"})
    assert "--store / NINEPOOL_STORE and --redis-url / NINEPOOL_REDIS_URL" in message
    message = refusal(capsys, [], {"NINEPOOL_STORE": "redis://r/0"})
    assert "needs --redis-url / NINEPOOL_REDIS_URL" in message


def test_stores_secrets_and_empty_values_read_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    redis = "redis://r:6379/0"
    # The Redis of --redis-url is the store; giving it twice is fine; empty is unset.
    assert config_from_args([], {"NINEPOOL_REDIS_URL": redis}).store == redis
    assert config_from_args(["--store", redis, "--redis-url", redis], {}).store == redis
    unset = config_from_args([], {"NINEPOOL_REDIS_URL": "", "NINEPOOL_STORE": ""})
    assert (unset.redis_url, unset.store) == (None, LONE_NODE_STORE)
    # An empty secret is no secret: the lone node keeps its own, memory draws one.
    kept = config_from_args([], {"NINEPOOL_SECRET": ""})
    assert kept.secret_given and (tmp_path / "var" / "session-secret").exists()
    drawn = config_from_args(["--store", "memory://", "--secret", ""], {})
    assert not drawn.secret_given and len(drawn.secret) == 32
    # Lists: blanks dropped, empty means none; a switch alone is yes.
    empty = config_from_args(["--store", "memory://"], {"NINEPOOL_TRUSTED_PROXIES": " , "})
    assert empty.limits.trusted_proxies == ()
    assert config_from_args(
        ["--store", "memory://", "--allow-no-origin"], {}
    ).limits.allow_no_origin
    switched_off = config_from_args(["--store", "memory://"], {"NINEPOOL_ALLOW_NO_ORIGIN": ""})
    assert switched_off.limits.allow_no_origin is False
    # `0` is off where it means off.
    off = config_from_args(["--store", "memory://", "--shot-clock", "0", "--rate", "0"], {})
    assert (off.shot_clock, off.limits.rate) == (0, 0.0)

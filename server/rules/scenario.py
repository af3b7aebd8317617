"""Conformance scenarios: the JSON format, read strictly into actions and expectations.

A scenario plays a match from its first break through a list of steps — actions, checks
of the resulting state and verdict, and actions that must be rejected. The format is a
fixed contract (scenario files written elsewhere must run unchanged), so everything is
checked while reading and a malformed file is reported with its step, never guessed at.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from server.rules.actions import (
    Action,
    Choose,
    ClockExpired,
    Concede,
    Extension,
    Forfeit,
    LagResult,
    ShotAction,
    Stalemate,
)
from server.rules.clock import extensions_left, turn_clock
from server.rules.errors import RuleError
from server.rules.settings import Settings
from server.rules.state import MatchState
from server.rules.verdict import Verdict


class ScenarioError(Exception):
    """The scenario itself is malformed; ``step`` is its 1-based step number, if any."""

    def __init__(self, message: str, step: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.step = step


@dataclass(frozen=True)
class Step:
    """One step: an action to apply, an expectation to check, or an action to be refused."""

    number: int
    kind: str
    action: Action | None = None
    expect: Mapping[str, Any] | None = None
    error_code: str | None = None


@dataclass(frozen=True)
class Scenario:
    name: str
    settings: Settings
    players: tuple[str, str]
    breaker: str | None
    steps: tuple[Step, ...]


# --------------------------------------------------------------------------- value checks


def _where(context: str, key: str) -> str:
    return f"{context}.{key}" if context else key


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _str(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise ScenarioError(f"{where} must be a string, not {_show(value)}")
    return value


def _opt_str(value: object, where: str) -> str | None:
    return None if value is None else _str(value, where)


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(f"{where} must be true or false, not {_show(value)}")
    return value


def _int(value: object, where: str) -> int:
    if not _is_int(value):
        raise ScenarioError(f"{where} must be a whole number, not {_show(value)}")
    assert isinstance(value, int)
    return value


def _opt_int(value: object, where: str) -> int | None:
    return None if value is None else _int(value, where)


def _ints(value: object, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(_is_int(v) for v in value):
        raise ScenarioError(f"{where} must be a list of ball numbers, not {_show(value)}")
    return tuple(value)


def _strs(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ScenarioError(f"{where} must be a list of player names, not {_show(value)}")
    return tuple(value)


def _per_player(value: object, where: str) -> dict[str, int]:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and _is_int(v) for k, v in value.items()
    ):
        raise ScenarioError(f"{where} must map player names to numbers, not {_show(value)}")
    return dict(value)


def _ball_in_hand(value: object, where: str) -> str | None:
    if value is False or value is None:
        return None
    if value in ("table", "kitchen"):
        assert isinstance(value, str)
        return value
    raise ScenarioError(f'{where} must be false, "table" or "kitchen", not {_show(value)}')


def _show(value: object) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _object(value: object, where: str, required: set[str], optional: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ScenarioError(f"{where} must be an object, not {_show(value)}")
    unknown = set(value) - required - optional
    if unknown:
        known = ", ".join(sorted(required | optional))
        raise ScenarioError(f"{where}: unknown key {sorted(unknown)[0]!r} (known: {known})")
    missing = sorted(required - set(value))
    if missing:
        keys = ", ".join(repr(key) for key in missing)
        raise ScenarioError(f"{where}: missing key{'s' if len(missing) > 1 else ''} {keys}")
    return value


# --------------------------------------------------------------------------- actions


def _shot(body: object, where: str) -> Action:
    v = _object(body, where, {"by", "first", "rails", "pocketed", "off_table"}, {"push_out"})
    return ShotAction(
        by=_str(v["by"], f"{where}.by"),
        first=_opt_int(v["first"], f"{where}.first"),
        rails=_ints(v["rails"], f"{where}.rails"),
        pocketed=_ints(v["pocketed"], f"{where}.pocketed"),
        off_table=_ints(v["off_table"], f"{where}.off_table"),
        push_out=_bool(v.get("push_out", False), f"{where}.push_out"),
    )


def _choose(body: object, where: str) -> Action:
    v = _object(body, where, {"by", "choice"}, set())
    choice: Any = _str(v["choice"], f"{where}.choice")
    return Choose(by=_str(v["by"], f"{where}.by"), choice=choice)


def _concede(body: object, where: str) -> Action:
    v = _object(body, where, {"by", "what"}, set())
    what: Any = _str(v["what"], f"{where}.what")
    return Concede(by=_str(v["by"], f"{where}.by"), what=what)


def _clock_expired(body: object, where: str) -> Action:
    v = _object(body, where, {"by"}, set())
    return ClockExpired(by=_str(v["by"], f"{where}.by"))


def _extend(body: object, where: str) -> Action:
    v = _object(body, where, {"by"}, set())
    return Extension(by=_str(v["by"], f"{where}.by"))


def _stalemate(body: object, where: str) -> Action:
    v = _object(body, where, {"by", "action"}, set())
    action: Any = _str(v["action"], f"{where}.action")
    return Stalemate(by=_str(v["by"], f"{where}.by"), action=action)


def _forfeit(body: object, where: str) -> Action:
    v = _object(body, where, {"by"}, set())
    return Forfeit(by=_str(v["by"], f"{where}.by"))


def _lag(body: object, where: str) -> Action:
    v = _object(body, where, {"winner"}, {"breaker"})
    return LagResult(
        winner=_str(v["winner"], f"{where}.winner"),
        breaker=_opt_str(v.get("breaker"), f"{where}.breaker"),
    )


ACTION_READERS: Final[dict[str, Callable[[object, str], Action]]] = {
    "shot": _shot,
    "choose": _choose,
    "concede": _concede,
    "clock_expired": _clock_expired,
    "extend": _extend,
    "stalemate": _stalemate,
    "forfeit": _forfeit,
    "lag": _lag,
}


def read_action(value: object, where: str) -> Action:
    """An action written as ``{"<kind>": {...}}``."""
    if not isinstance(value, dict) or len(value) != 1:
        kinds = ", ".join(ACTION_READERS)
        raise ScenarioError(f"{where} must be an object with exactly one of: {kinds}")
    ((kind, body),) = value.items()
    reader = ACTION_READERS.get(kind)
    if reader is None:
        raise ScenarioError(f"{where}: unknown action {kind!r}")
    return reader(body, kind)


# --------------------------------------------------------------------------- expectations


@dataclass(frozen=True)
class Check:
    """How one ``expect`` key is read from the scenario and from the referee's result."""

    read: Callable[[object, str], object]
    actual: Callable[[MatchState, Verdict], object]
    unordered: bool = False


def _per_player_actual(pair: Callable[[MatchState], tuple[int, int]]) -> Callable[..., object]:
    return lambda s, _v: dict(zip(s.players, pair(s), strict=True))


CHECKS: Final[dict[str, Check]] = {
    "turn": Check(_opt_str, lambda s, v: s.turn),
    "foul": Check(_bool, lambda s, v: v.foul),
    "fouls": Check(_strs, lambda s, v: v.fouls, unordered=True),
    "ball_in_hand": Check(_ball_in_hand, lambda s, v: s.ball_in_hand),
    "push_out_allowed": Check(_bool, lambda s, v: s.push_out_allowed),
    "choice_pending": Check(_bool, lambda s, v: s.choice_pending),
    "on_table": Check(_ints, lambda s, v: s.on_table, unordered=True),
    "spotted": Check(_ints, lambda s, v: v.spotted, unordered=True),
    "warned": Check(_strs, lambda s, v: s.warned, unordered=True),
    "consecutive_fouls": Check(_per_player, _per_player_actual(lambda s: s.consecutive_fouls)),
    "game_over": Check(_bool, lambda s, v: v.game_over),
    "game_winner": Check(_opt_str, lambda s, v: v.game_winner),
    "score": Check(_per_player, _per_player_actual(lambda s: s.score)),
    "match_over": Check(_bool, lambda s, v: s.match_over),
    "match_winner": Check(_opt_str, lambda s, v: s.match_winner),
    "breaker": Check(_opt_str, lambda s, v: s.breaker),
    "rack": Check(_int, lambda s, v: s.rack),
    "stalemate_warning": Check(_bool, lambda s, v: s.stalemate_warning),
    # Beyond the fixed set: further facts a scenario may check.
    "is_break": Check(_bool, lambda s, v: s.is_break),
    "awaiting_lag": Check(_bool, lambda s, v: s.awaiting_lag),
    "new_rack": Check(_bool, lambda s, v: v.new_rack),
    "stalemate": Check(_bool, lambda s, v: v.stalemate),
    "warned_now": Check(_opt_str, lambda s, v: v.warned),
    "innings_without_progress": Check(_int, lambda s, v: s.innings_without_progress),
    "stalemate_warning_given": Check(_bool, lambda s, v: v.stalemate_warning_given),
    # O3: the seconds the player to act has (before extensions; null without a clock or
    # with nobody to act), extensions left per player in the rack, and why the turn has
    # the first-shot time ("break", "push_out" or null).
    "shot_clock": Check(_opt_int, lambda s, v: _turn_seconds(s)),
    "extensions_left": Check(_per_player, _per_player_actual(extensions_left)),
    "first_after": Check(_opt_str, lambda s, v: s.first_after),
}


def _turn_seconds(state: MatchState) -> int | None:
    clock = turn_clock(state)
    return None if clock is None else clock.seconds


def _expectation(value: object, where: str, players: tuple[str, str]) -> dict[str, object]:
    expect = _object(value, where, set(), set(CHECKS))
    read: dict[str, object] = {}
    for key, raw in expect.items():
        wanted = CHECKS[key].read(raw, _where(where, key))
        if isinstance(wanted, dict) and set(wanted) - set(players):
            stranger = sorted(set(wanted) - set(players))[0]
            raise ScenarioError(f"{where}.{key}: {stranger!r} is not a player")
        read[key] = wanted
    return read


def first_mismatch(expect: Mapping[str, object], state: MatchState, verdict: Verdict) -> str | None:
    """The first expected key (in the order written) the result does not match."""
    for key, wanted in expect.items():
        check = CHECKS[key]
        got = check.actual(state, verdict)
        if isinstance(wanted, dict):
            assert isinstance(got, dict)
            got = {name: got[name] for name in wanted}
            same = got == wanted
        elif check.unordered:
            assert isinstance(wanted, tuple) and isinstance(got, tuple)
            same = sorted(got) == sorted(wanted)
            got = sorted(got)
            wanted = sorted(wanted)
        else:
            same = got == wanted
        if not same:
            return f"{key}: expected {_show_value(key, wanted)}, got {_show_value(key, got)}"
    return None


def _show_value(key: str, value: object) -> str:
    if key == "ball_in_hand" and value is None:
        return "false"
    if isinstance(value, tuple):
        value = list(value)
    return _show(value)


# --------------------------------------------------------------------------- scenarios

_TOP_REQUIRED: Final = {"name", "players", "steps"}
_TOP_OPTIONAL: Final = {"settings", "breaker", "description"}
_STEP_KINDS: Final = (*ACTION_READERS, "expect", "expect_error")


def read_scenario(value: object) -> Scenario:
    """A scenario from parsed JSON; raises :class:`ScenarioError` naming what is wrong."""
    top = _object(value, "scenario", _TOP_REQUIRED, _TOP_OPTIONAL)
    name = _str(top["name"], "name")
    settings = _settings(top.get("settings", {}))
    players = _strs(top["players"], "players")
    if len(players) != 2 or players[0] == players[1] or not all(players):
        raise ScenarioError("players must be two different non-empty names")
    pair = (players[0], players[1])
    breaker = _opt_str(top.get("breaker"), "breaker")
    if breaker is not None and breaker not in pair:
        raise ScenarioError(f"breaker {breaker!r} is not one of the players")
    if not isinstance(top["steps"], list):
        raise ScenarioError("steps must be a list")
    steps = tuple(_step(raw, number, pair) for number, raw in enumerate(top["steps"], 1))
    return Scenario(name, settings, pair, breaker, steps)


def _settings(value: object) -> Settings:
    known = {
        "race_to",
        "break_order",
        "stalemate_innings",
        "forfeit",
        "shot_clock",
        "first_shot_clock",
        "extensions",
        "extension_seconds",
        "clock_warning",
    }
    fields = _object(value, "settings", set(), known)
    try:
        return Settings(**fields)
    except RuleError as exc:
        raise ScenarioError(f"settings: {exc.message}") from None


def _step(value: object, number: int, players: tuple[str, str]) -> Step:
    try:
        if not isinstance(value, dict) or len(value) != 1:
            raise ScenarioError(f"a step must be an object with exactly one of: {_kinds()}")
        ((kind, body),) = value.items()
        if kind == "expect":
            return Step(number, kind, expect=_expectation(body, "expect", players))
        if kind == "expect_error":
            error = _object(body, "expect_error", {"action", "code"}, set())
            action = read_action(error["action"], "expect_error.action")
            code = _str(error["code"], "expect_error.code")
            return Step(number, kind, action=action, error_code=code)
        if kind not in ACTION_READERS:
            raise ScenarioError(f"unknown step {kind!r} (one of: {_kinds()})")
        return Step(number, kind, action=ACTION_READERS[kind](body, kind))
    except ScenarioError as exc:
        raise ScenarioError(exc.message, number) from None


def _kinds() -> str:
    return ", ".join(_STEP_KINDS)

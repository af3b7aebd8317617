"""Settings declared once: a `Setting` record per setting, everything else derived.

A setting used to be written in up to five places — a dataclass field, an argparse flag, an
environment variable, a validation line and a README row — and they drifted apart. Now
the dataclass field the server reads (`Config.port`, `Limits.rate`) holds the type and
the default, and one `Setting` record holds the rest: how text becomes the value (`Kind`),
which values are allowed (`Rule`), the help text and the section. From the records come
the flags and `--help` (`add_arguments`), the `NINEPOOL_*` variables and the precedence
flag > variable > default (`read_values`), errors that name both the flag and the
variable, and the README's tables (`server.ops.settings.readme`).

The records themselves live beside `Config` in `server/ops/config.py`. This module knows
nothing of any one setting.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Every flag `--some-name` is also the environment variable `NINEPOOL_SOME_NAME`.
ENV_PREFIX = "NINEPOOL_"


class SettingError(ValueError):
    """A value the server cannot run with; the message names the flag and the variable."""


# --- kinds: text to value -------------------------------------------------------------


def _number_text(value: float) -> str:
    """`10`, `0.5`, `86400`: as a person would type it (never `1e+06`, never `10.0`)."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _yes_no(text: str) -> bool:
    value = text.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise ValueError(text)


def _comma_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


@dataclass(frozen=True)
class Kind:
    """How the text of a flag or variable becomes a value, and a value text again."""

    #: What the text must be, read after "must be" and in the README's values column.
    what: str
    #: Text to value; ValueError when the text is not of this kind.
    parse: Callable[[str], Any]
    #: Value to text, as the flag would take it (the documented default).
    show: Callable[[Any], str] = str


WHOLE = Kind("a whole number", int)
NUMBER = Kind("a number", float, _number_text)
TEXT = Kind("text", str)
URL = Kind("a URL", str)
FOLDER = Kind("a folder", Path)
#: Names matched without regard to case (and kept in the case the server uses).
UPPER = Kind("text", str.upper)
LOWER = Kind("text", str.lower)
#: A switch: the flag alone means yes; `1/true/yes/on` or `0/false/no/off/` (empty) as text.
YES_NO = Kind("yes or no", _yes_no, lambda value: "on" if value else "off")
#: Comma-separated; blanks around and between entries are dropped.
LIST = Kind("a comma-separated list", _comma_list, ",".join)


# --- rules: which values ----------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """Which values of its kind a setting takes, said in errors and the README."""

    #: Read after "must be": `0-65535`, `0 or more`.
    what: str
    holds: Callable[[Any], bool]
    #: The only values, when they can be listed (shown in `--help`'s usage line).
    choices: tuple[str, ...] = ()


def at_least(low: float) -> Rule:
    # `not value >= low` rather than `value < low`: NaN is refused too.
    return Rule(f"{_number_text(low)} or more", lambda value: bool(value >= low))


def more_than(low: float) -> Rule:
    return Rule(f"more than {_number_text(low)}", lambda value: bool(value > low))


def between(low: float, high: float) -> Rule:
    return Rule(
        f"{_number_text(low)}-{_number_text(high)}", lambda value: bool(low <= value <= high)
    )


def off_or_between(low: float, high: float) -> Rule:
    """`0` switches the setting off; anything else must be in range."""
    return Rule(
        f"0 (off) or {_number_text(low)}-{_number_text(high)}",
        lambda value: bool(value == 0 or low <= value <= high),
    )


def one_of(*choices: str) -> Rule:
    return Rule("one of " + ", ".join(choices), lambda value: value in choices, choices)


def matching(pattern: str, what: str) -> Rule:
    compiled = re.compile(pattern)
    return Rule(what, lambda value: compiled.fullmatch(value) is not None)


def accepted_by(check: Callable[[Any], object], what: str) -> Rule:
    """Values `check` accepts without raising ValueError (the server's own parser)."""

    def holds(value: Any) -> bool:
        try:
            check(value)
        except ValueError:
            return False
        return True

    return Rule(what, holds)


# --- the record ---------------------------------------------------------------------------


class _FromField:
    def __repr__(self) -> str:
        return "FROM_FIELD"


#: `Setting.default` when not given: the default of the dataclass field it fills.
FROM_FIELD: Any = _FromField()


@dataclass(frozen=True)
class Setting:
    """One setting. `owner.name` is the field the server reads; flag and variable follow
    from `name` (`max_frame`: `--max-frame`, `NINEPOOL_MAX_FRAME`)."""

    #: The dataclass holding the field (`Config`, `Limits`): its type and default.
    owner: type[Any]
    name: str
    kind: Kind
    #: Light markdown (`code`, **bold**, [links](#to)): the README shows it as is, `--help`
    #: without the marks.
    help: str
    rule: Rule | None = None
    #: The owner field's default unless given; None: unset, the server decides (a store
    #: URL from other settings, a random key).
    default: Any = FROM_FIELD
    #: The default as documented, where the value's own text would mislead (None, a path
    #: on this machine). Light markdown.
    shown: str | None = None

    def __post_init__(self) -> None:
        if self.default is FROM_FIELD:
            object.__setattr__(self, "default", field_default(self.owner, self.name))

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def env(self) -> str:
        return ENV_PREFIX + self.name.upper()

    @property
    def where(self) -> str:
        """How an error names the setting: both ways to give it."""
        return f"{self.flag} / {self.env}"

    @property
    def values(self) -> str:
        """What a value must be: the rule if there is one, else the kind."""
        return self.rule.what if self.rule else self.kind.what

    @property
    def shown_default(self) -> str:
        """The default in light markdown (`8000`, random)."""
        if self.shown is not None:
            return self.shown
        return f"`{self.kind.show(self.default)}`"

    def read(self, text: str, source: str) -> Any:
        """The value of `text` given as `source` (the flag or the variable), or SettingError."""
        try:
            value = self.kind.parse(text)
        except ValueError:
            raise SettingError(self._refusal(self.kind.what, text, source)) from None
        if self.rule is not None and not self.rule.holds(value):
            raise SettingError(self._refusal(self.rule.what, text, source))
        return value

    def _refusal(self, what: str, text: str, source: str) -> str:
        return f"{self.where} must be {what}, not {text!r} (from {source})"


@dataclass(frozen=True)
class Section:
    """Settings shown together: one group of `--help`, one table of the README."""

    #: Names the README's table (`<!-- settings:KEY begin ... -->`).
    key: str
    #: The group's title in `--help`.
    title: str
    settings: tuple[Setting, ...]


def field_default(owner: type[Any], name: str) -> Any:
    """The default of `owner.name`, a dataclass field (KeyError if there is none)."""
    for item in dataclasses.fields(owner):
        if item.name == name:
            if item.default is not dataclasses.MISSING:
                return item.default
            if item.default_factory is not dataclasses.MISSING:
                return item.default_factory()
            break
    raise KeyError(f"{owner.__name__}.{name} has no default")


def every(sections: Iterable[Section]) -> tuple[Setting, ...]:
    return tuple(setting for section in sections for setting in section.settings)


# --- flags, variables, values -------------------------------------------------------------


_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


def plain(text: str) -> str:
    """Light markdown as terminal text: `code`, **bold** and [links](#to) without marks."""
    return _LINK.sub(r"\1", text).replace("**", "").replace("`", "")


def add_arguments(parser: argparse.ArgumentParser, sections: Sequence[Section]) -> None:
    """One flag per setting, grouped by section. Flags keep their text (None when not
    given): `read_values` parses it, so a flag and a variable are checked alike."""
    for section in sections:
        group = parser.add_argument_group(section.title)
        for setting in section.settings:
            shown = plain(setting.shown_default)
            text = f"{plain(setting.help)} [{setting.values}; default {shown}; {setting.env}]"
            options: dict[str, Any] = {
                "dest": setting.name,
                "default": None,
                "help": text.replace("%", "%%"),
            }
            if setting.rule is not None and setting.rule.choices:
                options["metavar"] = "{" + ",".join(setting.rule.choices) + "}"
            if setting.kind is YES_NO:
                options.update(nargs="?", const="yes")
            group.add_argument(setting.flag, **options)


def read_values(
    args: argparse.Namespace, settings: Iterable[Setting], environ: Mapping[str, str]
) -> dict[str, Any]:
    """Every setting's value by name: its flag if given, else its variable if set (even
    empty), else its default. Only the text in effect is read, and every bad one is
    reported at once (SettingError, one line each)."""
    values: dict[str, Any] = {}
    problems: list[str] = []
    for setting in settings:
        given: str | None = getattr(args, setting.name)
        if given is not None:
            text, source = given, setting.flag
        elif setting.env in environ:
            text, source = environ[setting.env], setting.env
        else:
            values[setting.name] = setting.default
            continue
        try:
            values[setting.name] = setting.read(text, source)
        except SettingError as exc:
            problems.append(str(exc))
    if problems:
        raise SettingError("\n".join(problems))
    return values


def refusal(prog: str, problems: str) -> str:
    """One line for one problem, else a list (exit status 2, as argparse's own errors)."""
    lines = problems.splitlines()
    if len(lines) == 1:
        return f"{prog}: error: {lines[0]}\n"
    return f"{prog}: error: {len(lines)} settings refused:\n" + "".join(
        f"  {line}\n" for line in lines
    )

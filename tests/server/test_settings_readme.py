"""The declarations are whole and the README agrees with them: every field the server
reads from outside has one `Setting`, every default is a value its own setting accepts,
and server/README.md holds exactly the tables the declarations make."""

from __future__ import annotations

import dataclasses

import pytest

from server.edge.limits import Limits
from server.ops.computers import Computers
from server.ops.config import SECTIONS, SETTINGS, Config
from server.ops.settings import Setting, plain
from server.ops.settings.__main__ import main
from server.ops.settings.readme import README, table, with_tables
from server.ops.tournaments import TournamentSettings

#: Config fields no flag sets: worked out (`secret_given`), built from the `limits`,
#: `computers` and `tournaments` sections, or fixed in code (`aim_interval`).
NOT_SETTINGS = {"secret_given", "limits", "computers", "tournaments", "aim_interval"}


def test_the_readme_tables_are_those_the_declarations_make() -> None:
    text = README.read_text(encoding="utf-8")
    assert with_tables(text, SECTIONS) == text, (
        "server/README.md is out of step with server/ops/config.py: "
        "run `python -m server.ops.settings --write`"
    )
    assert main(["--check"]) == 0


def test_a_stale_table_is_found() -> None:
    text = README.read_text(encoding="utf-8")
    stale = text.replace(
        "| `--port` | `NINEPOOL_PORT` | `8000` |", "| `--port` | `NINEPOOL_PORT` | `80` |"
    )
    assert stale != text
    assert with_tables(stale, SECTIONS) == text


def test_every_field_set_from_outside_is_declared_once() -> None:
    names = [setting.name for setting in SETTINGS]
    assert len(names) == len(set(names))
    config_fields = {item.name for item in dataclasses.fields(Config)} - NOT_SETTINGS
    limits_fields = {item.name for item in dataclasses.fields(Limits)}
    assert {s.name for s in SETTINGS if s.owner is Config} == config_fields
    assert {s.name for s in SETTINGS if s.owner is Limits} == limits_fields
    computers_fields = {item.name for item in dataclasses.fields(Computers)}
    assert {s.name for s in SETTINGS if s.owner is Computers} == computers_fields
    tournament_fields = {item.name for item in dataclasses.fields(TournamentSettings)}
    assert {s.name for s in SETTINGS if s.owner is TournamentSettings} == tournament_fields


@pytest.mark.parametrize("setting", SETTINGS, ids=[setting.flag for setting in SETTINGS])
def test_each_default_is_a_value_its_setting_takes(setting: Setting) -> None:
    """What `--help` and the README say is the default is what the server gets."""
    if setting.default is None:
        assert setting.shown, "an unset default says what happens instead"
        return
    text = setting.kind.show(setting.default)
    assert setting.read(text, setting.flag) == setting.default
    assert type(setting.read(text, setting.flag)) is type(setting.default)


def test_help_and_tables_say_the_same() -> None:
    for section in SECTIONS:
        rows = table(section).splitlines()[2:]
        assert len(rows) == len(section.settings)
        for row, setting in zip(rows, section.settings, strict=True):
            assert row.startswith(f"| `{setting.flag}` | `{setting.env}` |")
            assert setting.help in row
    assert plain("see [the table](#t) and `--rate`, **1008**") == "see the table and --rate, 1008"

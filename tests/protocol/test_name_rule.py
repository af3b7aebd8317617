"""One rule for a new name, a guest's and an account's: declared in `protocol/text.py`
(`NAME_MIN`, `NAME_MAX`), held to by the account's claim (`server.players.names.check`)
and by the browser client (`client_web/namerule.mjs`, which cannot read Python: its two
numbers are checked against the declaration here, and its check run on the same names
as the server's `check_new`).
Names chosen before the rule still travel (`NAME_PATTERN`)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from protocol.text import NAME_MAX, NAME_MIN, NAME_PATTERN, clean_name, fits_name_rule
from server.players import names
from tests.node_module import node_json

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "client_web" / "namerule.mjs"
#: Names on both sides of the rule's bounds, and what NFKC, scripts and marks make of them.
SAMPLES = [
    "Al",
    "Ana",
    "x" * NAME_MAX,
    "x" * (NAME_MAX + 1),
    "Grandmaster of the cue",  # 22: a guest's name before the rule
    "\ufb00a",  # "ﬀa": three letters once NFKC
    "Đurđa",
    "Борис",
    "Ana!",
    " Ana",
    "Ann-Marie Smith-Jones",  # 21
    "ab.",
    "007",
    "Ana_",
    "_Ana",
    "\u0412oris",  # a Cyrillic В before Latin letters
    "Ана",
    "Ana  Marija",
    "Ann-Marie",
    "Ana\u0661",  # an Arabic-Indic digit
    "李小龍",
    "山田たろう",
    "ラーメン",
    "김철수",
    "Ana\u200b",  # a zero-width space
]


def server_takes(name: str) -> bool:
    """Whether the server takes `name` as a new name (the reserved words apart)."""
    try:
        names.check_new(name)
    except names.NameProblem:
        return False
    return True


def client_answers(function: str, names: list[str]) -> list[Any]:
    """What `namerule.mjs`'s `function` gives for each of `names`, run under node."""
    script = (
        f'import {{ {function} }} from "{CLIENT.as_uri()}";\n'
        f"const names = {json.dumps(names)};\n"
        f"console.log(JSON.stringify(names.map((n) => {function}(n))));\n"
    )
    return list(node_json(script))


def client_lines() -> str:
    return f"export const NAME_MIN = {NAME_MIN};\nexport const NAME_MAX = {NAME_MAX};\n"


def test_the_clients_numbers_are_the_declarations() -> None:
    text = CLIENT.read_text(encoding="utf-8")
    found = dict(re.findall(r"^export const (NAME_MIN|NAME_MAX) = (\d+);$", text, re.M))
    assert found == {"NAME_MIN": str(NAME_MIN), "NAME_MAX": str(NAME_MAX)}, (
        f"client_web/namerule.mjs is out of step with protocol/text.py; its lines:\n"
        f"{client_lines()}"
    )


def test_an_account_is_claimed_by_the_same_rule() -> None:
    assert (names.MIN_LENGTH, names.MAX_LENGTH) == (NAME_MIN, NAME_MAX)
    for length in range(1, NAME_MAX + 3):
        name = "b" + "o" * (length - 1)
        fits = NAME_MIN <= length <= NAME_MAX
        assert fits_name_rule(name) is fits, name
        if fits:
            assert names.check(name) == name
        else:
            with pytest.raises(names.NameProblem, match=f"{NAME_MIN} to {NAME_MAX}"):
                names.check(name)


def test_names_from_before_the_rule_still_travel() -> None:
    for name in ("A", "Al", "Grandmaster of the cue", "x" * 24):
        assert not fits_name_rule(name)
        assert clean_name(name) == name and NAME_PATTERN.match(name)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_client_checks_a_new_name_as_the_server_does() -> None:
    client = dict(zip(SAMPLES, client_answers("fitsNameRule", SAMPLES), strict=True))
    server = {name: server_takes(name) for name in SAMPLES}
    assert client == server
    assert server["Ana"] and server["\ufb00a"] and not server["Al"]
    assert not server["Grandmaster of the cue"] and not server["x" * (NAME_MAX + 1)]
    assert not server["007"] and not server["Ana_"] and not server["\u0412oris"]
    assert server["Ана"] and server["Ana  Marija"] and server["山田たろう"]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_client_keeps_a_typed_name_as_the_server_shows_it() -> None:
    """The browser reads a name field through `tidyName` and keeps what it gives, so it
    must give what the server shows (`names.shown`): a name kept as typed ("Ana  Marija")
    differed from the server's ("Ana Marija"), and every sitting down said hello again."""
    typed = [*SAMPLES, "  Ana \t Marija  ", "Ana\u00a0Marija", "\uff21\uff4e\uff41", "Ana\u3000B"]
    client = dict(zip(typed, client_answers("tidyName", typed), strict=True))
    assert client == {name: names.shown(name) for name in typed}
    assert client["Ana  Marija"] == "Ana Marija" and client["\uff21\uff4e\uff41"] == "Ana"

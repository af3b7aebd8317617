"""Every reason and note the referee can give goes out with a declared code
(`protocol.verdicts`), and every code has words in each of the client's catalogues."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from protocol import messages as m
from protocol.verdicts import FOUL_CODES, NOTE_CODES
from server.rooms.wording import foul_code, note_code
from server.rules import judge, referee

ROOT = Path(__file__).resolve().parents[2]


def _referee_notes() -> list[tuple[str, str]]:
    """Every `(rule, "sentence")` pair written out in the referee's source, and its
    named sentences (the R14 warning)."""
    tree = ast.parse(Path(referee.__file__).read_text(encoding="utf-8"))
    pairs = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Tuple)
            and len(node.elts) == 2
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)
        ):
            rule, sentence = (e.value for e in node.elts)  # type: ignore[attr-defined]
            if re.fullmatch(r"[RGO]\d+", rule):
                pairs.append((rule, sentence))
    pairs += [("R14", referee._WARNING_SENTENCE)]
    return pairs


def test_every_note_of_the_referee_has_its_own_code() -> None:
    # The clock foul's sentence is a reason (a foul), not a note: see the next test.
    pairs = [(rule, text) for rule, text in _referee_notes() if text != "The shot clock ran out"]
    assert len(pairs) >= 20
    for rule, sentence in pairs:
        code = note_code(rule, sentence)
        assert code in NOTE_CODES, (rule, sentence, code)
        assert code.split(".")[0] == rule


def _facts(
    first: int | None, rails: tuple[int, ...], pocketed: tuple[int, ...], off: tuple[int, ...]
) -> judge.ShotFacts:
    return judge.ShotFacts(first, frozenset(rails), frozenset(pocketed), frozenset(off), False)


def test_every_foul_sentence_has_its_code() -> None:
    cases = {
        (1, False, _facts(None, (), (), ())): "R8.none",
        (1, False, _facts(3, (0,), (), ())): "R8.wrong",
        (1, True, _facts(1, (), (), ())): "R4.zero",
        (1, True, _facts(1, (2, 3), (), ())): "R4",
        (1, False, _facts(1, (), (), ())): "R9",
        (1, False, _facts(1, (0,), (0,), (5,))): "G1.pocket",
        (1, False, _facts(1, (0,), (), (0,))): "G1.off",
    }
    for (lowest, is_break, facts), expected in cases.items():
        reasons = judge.judge_shot(lowest, is_break, facts).reasons
        codes = [foul_code(rule, text) for rule, text in reasons]
        assert expected in codes, (reasons, codes)
        assert all(code in FOUL_CODES for code in codes)
    assert foul_code("O3", "The shot clock ran out") == "O3"


@pytest.mark.parametrize("lang", ["en", "hr", "ru"])
def test_every_code_and_reason_is_worded_in_each_catalogue(lang: str) -> None:
    # The language's catalogue and the parts it spreads in (`referee.<lang>.mjs`, …).
    catalogue = " ".join(
        path.read_text(encoding="utf-8")
        for path in sorted((ROOT / "client_web" / "i18n").glob("*.mjs"))
        if lang in path.name.split(".")
    )
    keys = set(re.findall(r'^\s*"([A-Za-z0-9_.]+)"\s*:', catalogue, flags=re.MULTILINE))
    missing = [f"foul.{c}" for c in FOUL_CODES if f"foul.{c}" not in keys]
    missing += [f"note.{c}" for c in NOTE_CODES if f"note.{c}" not in keys]
    missing += [
        f"end.{r}" for r in m.GAME_END_REASONS + m.MATCH_END_REASONS if f"end.{r}" not in keys
    ]
    missing += [
        k
        for k in ("lag.tie", "lag.bothFaults", "rooms.tableOf", "rooms.tableOpen")
        if k not in keys
    ]
    assert not missing, f"{lang}: {missing}"

"""The client words every error code the server can send, in every language it speaks.

Server error codes stay codes on the wire (`protocol/errors.py`); the browser client turns
each into a sentence from its catalogue (`client_web/i18n/<lang>.mjs`, key `err.<code>`).
A code added to the protocol without its words would reach a player as a raw code.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from protocol import errors

ROOT = Path(__file__).resolve().parents[2]
CODES = sorted(
    value for name, value in vars(errors).items() if name.isupper() and isinstance(value, str)
)


@pytest.mark.parametrize("lang", ["en", "hr", "ru"])
def test_every_protocol_error_code_has_words(lang: str) -> None:
    catalogue = (ROOT / "client_web" / "i18n" / f"{lang}.mjs").read_text(encoding="utf-8")
    worded = set(re.findall(r'"err\.([a-z_]+)"\s*:', catalogue))
    assert len(CODES) > 20
    missing = [code for code in CODES if code not in worded]
    assert not missing, f"{lang}: no words for {missing}"

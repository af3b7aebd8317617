"""Text people type that others see: names and chat, made safe to show.

A player's or a room's name is shown to strangers (seats, the lobby list, chat), so it
must look like what it is. Unicode lets text look like something else:

- **bidi controls** (U+202E RIGHT-TO-LEFT OVERRIDE and friends) reorder what follows, so
  `"Ana\\u202eelor"` shows as something else entirely, and a lobby entry can seem to say
  what it does not;
- **invisible characters** (zero-width space, joiners, the word joiner, Hangul fillers)
  make two names that look the same differ, or a name look empty;
- **compatibility forms** (fullwidth `Ａｎａ`, mathematical `𝐀𝐧𝐚`, ligatures) look like
  plain letters but are other characters;
- **homoglyphs**: Cyrillic `А` and Latin `A`, Greek `Ο` and Latin `O`, `l` and `I`.

`clean` makes text NFKC and drops every format character (Unicode category Cf, which
holds the bidi controls and the zero-width ones) and the invisible fillers; names, room
names and chat are cleaned as they are decoded (`protocol.messages`). `skeleton` is what a
name looks like, after Unicode TS #39's idea: two names with the same skeleton are
confusable (`confusable`), and a room refuses a name confusable with a seated player's.
Its table is small on purpose — the Latin, Cyrillic and Greek letters that look alike in
the fonts browsers use, and digits that pass for letters — so Croatian (Đurđa), Russian
(Ана, Борис) or Greek names are taken as they are, and only a name that passes for
another is refused.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

#: Invisible characters that are not format characters (Cf) but show as nothing.
INVISIBLE = frozenset(
    "\u034f"  # combining grapheme joiner
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers
    "\u17b4\u17b5"  # Khmer inherent vowels
    "\u2800"  # braille pattern blank
)

#: The one rule for a name a player chooses now, a guest's at the table and an account's
#: alike: `NAME_MIN` to `NAME_MAX` characters (code points, once cleaned) of those
#: `NAME_PATTERN` takes. One rule, so a guest can always claim the name they play under.
#: An account's name passes the claim's own checks on top (one script, not reserved, not
#: like another account's: `server.players.names`). The browser client holds these two
#: numbers in `client_web/namerule.mjs` (it cannot read Python, and its bundler only joins files);
#: `tests/protocol/test_name_rule.py` fails, printing the lines to paste, if they part.
NAME_MIN = 3
NAME_MAX = 20
#: What a player's name may be on the wire once cleaned: 1–24 letters, digits, space, `.`,
#: `_`, `-`; no leading or trailing space. Wider than the rule for a new name: names chosen
#: before it (a guest's was 1 to 24 characters) still travel — a browser keeps its
#: player's name and says it in every `hello`, a room keeps its seats' names — and still
#: load. Only a new name is held to `NAME_MIN`–`NAME_MAX`: an account claimed, a name
#: typed into the client.
NAME_PATTERN = re.compile(r"[\w.\-](?:[\w .\-]{0,22}[\w.\-])?\Z")


def clean(text: str) -> str:
    """NFKC, without format characters (bidi controls, zero-width ones) or fillers."""
    normal = unicodedata.normalize("NFKC", text)
    return "".join(
        char for char in normal if char not in INVISIBLE and unicodedata.category(char) != "Cf"
    )


def fits_name_rule(name: str) -> bool:
    """Whether `name`, cleaned, may be chosen now: `NAME_PATTERN`'s characters, from
    `NAME_MIN` to `NAME_MAX` of them."""
    cleaned = clean(name)
    return bool(NAME_PATTERN.match(cleaned)) and NAME_MIN <= len(cleaned) <= NAME_MAX


def clean_name(name: str) -> str:
    """A player's name as it travels, cleaned; ValueError if it is then not one
    (`NAME_PATTERN`: names chosen before `NAME_MIN`–`NAME_MAX` pass too)."""
    cleaned = clean(name)
    if not NAME_PATTERN.match(cleaned):
        raise ValueError(
            "a name is 1-24 letters, digits, spaces, '.', '_' or '-', without a space at either end"
        )
    return cleaned


# Letters of other scripts that look like Latin ones, and digits that pass for letters
# (case kept: `I` passes for `l`, `i` does not).
_LOOKALIKES = {
    # Cyrillic
    "А": "A", "В": "B", "Е": "E", "Ѕ": "S", "І": "l", "Ј": "J", "К": "K", "М": "M",
    "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X", "У": "Y", "Ү": "Y",
    "Ӏ": "l", "Ԛ": "Q", "Ԝ": "W", "а": "a", "е": "e", "і": "i", "ј": "j", "о": "o",
    "р": "p", "с": "c", "ѕ": "s", "у": "y", "х": "x", "ӏ": "l", "ԁ": "d", "ԛ": "q",
    "ԝ": "w", "һ": "h", "ɡ": "g",
    # Greek
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "l", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ρ": "p",
    "ν": "v", "ι": "i", "κ": "k", "χ": "x", "ϲ": "c", "ϳ": "j", "υ": "u", "α": "a",
    # Latin and digits that pass for other Latin letters
    "I": "l", "1": "l", "|": "l", "0": "O", "ı": "i", "ℓ": "l",
}  # fmt: skip
_LOOKALIKE_TABLE = str.maketrans(_LOOKALIKES)
#: Letter pairs that pass for one letter in most fonts, once case is folded.
_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))


def skeleton(name: str) -> str:
    """What `name` looks like: lookalikes mapped to one letter, case folded, pairs that
    pass for a letter joined. Equal skeletons: confusable names."""
    text = unicodedata.normalize("NFD", clean(name)).translate(_LOOKALIKE_TABLE)
    text = unicodedata.normalize("NFD", text.casefold())
    for pair, letter in _PAIRS:
        text = text.replace(pair, letter)
    return " ".join(text.split())


def confusable(name: str, others: Iterable[str]) -> str | None:
    """The first of `others` that `name` could pass for, or None."""
    mine = skeleton(name)
    return next((other for other in others if skeleton(other) == mine), None)

"""Account names: what may be claimed, when two names are the same, and when they only
look the same. Pure functions of the text.

Three forms of a name:

- **shown**: NFKC-normalised, outer spaces stripped and inner runs of spaces made one — the
  name as the account has it. It is always a valid in-room name of the protocol
  (`protocol.messages.Name`), so an account plays under exactly the name it claimed.
- **folded** (`fold`): the shown name case-folded (NFKC again after folding, as Unicode's
  NFKC_Casefold does). "Alice", "ALICE" and "ａｌｉｃｅ" are one name; two accounts never
  share a folded name, and `/api/players/<name>` looks names up by it.
- **skeleton** (`skeleton`): what the name looks like. Accents dropped, letters of other
  scripts that are drawn like Latin ones (Cyrillic "а", Greek "ο") replaced by those, and
  the shapes a reader confuses made one ("rn" and "m", "vv" and "w", "cl" and "d", "0"
  and "o", "1", "I" and "l"), separators left out. Two accounts never share a skeleton:
  "paypal" is not claimable once "PayPaI" is, nor "john.doe" once "john_doe" is. A few
  honest names are refused because of one that looks alike ("mall" after "mail"); that
  is the price of nobody being able to pass for somebody else.

The skeleton follows the method of Unicode's UTS #39 (confusable detection: map each
character to a prototype, compare the results) with a table of the confusables that
matter for names that passed `check` — a name is letters of one script (or of the
script sets Japanese and Korean writing mix), ASCII digits and `_ - .` and spaces, so
mixed-script spoofs are refused before any skeleton is made, and what is left is a
whole name in a look-alike script, and look-alike shapes within a script.

Reserved names (`RESERVED`) are refused by skeleton too: "Adm1n" is "admin".
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

MIN_LENGTH: Final = 3
MAX_LENGTH: Final = 20
#: Besides letters and digits, the characters a name may hold (the protocol's `Name`).
SEPARATORS: Final = "_-. "

#: Names nobody may claim, by skeleton: the service's own voices, and words that would
#: pass for them or for placeholders the server shows.
RESERVED: Final = frozenset(
    {
        "admin",
        "administrator",
        "anonymous",
        "api",
        "bot",
        "deleted",
        "guest",
        "help",
        "moderator",
        "mod",
        "ninepool",
        "null",
        "official",
        "player",
        "referee",
        "root",
        "server",
        "staff",
        "support",
        "system",
        "undefined",
        "unknown",
        "you",
        "me",
    }
)
#: Reserved wherever they stand in a name's skeleton ("TheAdmin", "ninepool_team").
RESERVED_INSIDE: Final = ("admin", "ninepool", "moderator")

#: One character of another script (or a shape within Latin) -> the Latin prototype a
#: reader takes it for, after case folding. Drawn from UTS #39's confusables for the
#: letters of Cyrillic, Greek and Armenian that have Latin twins, and Latin's own
#: look-alikes. Multi-letter prototypes ("m" -> "rn") are those of UTS #39 as well.
_PROTOTYPES: Final[dict[str, str]] = {
    # Latin shapes a reader confuses.
    "m": "rn",
    "w": "vv",
    "d": "cl",
    "0": "o",
    "1": "l",
    "i": "l",
    "ı": "l",
    "ɩ": "l",
    "ǀ": "l",
    "ß": "ss",
    "æ": "ae",
    "œ": "oe",
    "ø": "o",
    "đ": "cl",
    "ħ": "h",
    "ł": "l",
    "ŀ": "l",
    "ɡ": "g",
    "ƅ": "b",
    "ǝ": "e",
    "ɑ": "a",
    "ʋ": "u",
    "ȷ": "j",
    "ꞵ": "b",
    # Cyrillic.
    "а": "a",
    "в": "b",
    "е": "e",
    "ё": "e",
    "һ": "h",
    "і": "l",
    "ї": "l",
    "ӏ": "l",
    "ј": "j",
    "к": "k",
    "м": "rn",
    "н": "h",
    "о": "o",
    "р": "p",
    "с": "c",
    "т": "t",
    "у": "y",
    "х": "x",
    "ѕ": "s",
    "ԁ": "cl",
    "ԛ": "q",
    "ԝ": "vv",
    "ү": "y",
    "ь": "b",
    "ɜ": "3",
    "з": "3",
    "ѵ": "v",
    "ԍ": "g",
    "ӡ": "3",
    "ц": "u",
    "п": "n",
    "г": "r",
    # Greek.
    "α": "a",
    "β": "b",
    "γ": "y",
    "ε": "e",
    "η": "n",
    "ι": "l",
    "κ": "k",
    "ν": "v",
    "ο": "o",
    "ρ": "p",
    "σ": "o",
    "τ": "t",
    "υ": "u",
    "χ": "x",
    "ω": "vv",
    "ϲ": "c",
    "ϳ": "j",
    "ζ": "z",
    "μ": "u",
    # Armenian.
    "ա": "w",
    "զ": "q",
    "հ": "h",
    "ո": "n",
    "ս": "u",
    "օ": "o",
    "ց": "g",
    "ք": "p",
    "ւ": "l",
}

#: Scripts whose letters may be mixed in one name: the ways Japanese and Korean are written.
_SCRIPT_SETS: Final = (
    frozenset({"CJK", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA"}),
    frozenset({"CJK", "HANGUL"}),
)
_SPACES = re.compile(r"\s+")


class NameProblem(ValueError):
    """Why a name cannot be claimed, in words for the person who typed it."""


def _script(char: str) -> str:
    """The script of a letter, from its Unicode name ("LATIN SMALL LETTER A" -> LATIN)."""
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


def shown(raw: str) -> str:
    """The name as an account would hold it (NFKC, spaces tidied); not yet checked."""
    text = unicodedata.normalize("NFKC", raw)
    return _SPACES.sub(" ", text).strip(" ")


def fold(name: str) -> str:
    """The form two names are compared in: NFKC, case-folded, NFKC again."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def skeleton(name: str) -> str:
    """What the name looks like: see the module's docstring."""
    folded = fold(name)
    bare = "".join(
        char for char in unicodedata.normalize("NFD", folded) if not unicodedata.combining(char)
    )
    mapped = "".join(_PROTOTYPES.get(char, char) for char in bare)
    return "".join(char for char in mapped if char not in SEPARATORS)


def _character_problem(char: str) -> str | None:
    if char in SEPARATORS:
        return None
    category = unicodedata.category(char)
    if category in ("Cf", "Cc", "Co", "Cs", "Cn", "Zl", "Zp", "Zs"):
        # Format characters are the bidi overrides and the zero-width joiners: text that
        # reads one way and sorts, or displays, another.
        return "invisible and control characters are not allowed"
    if category == "Nd":
        return None if "0" <= char <= "9" else "digits must be 0-9"
    if category.startswith("L"):
        return None
    return f"{char!r} is not allowed: use letters, digits, spaces, '_', '-' or '.'"


def check(raw: str) -> str:
    """The shown form of `raw` if it may be claimed as a name; else `NameProblem`.

    Reserved names and names too like a reserved one are refused here; names too like
    another account's are the store's to refuse (it holds the skeletons)."""
    for char in raw:
        if unicodedata.category(char) in ("Cf", "Cc"):
            raise NameProblem("invisible and control characters are not allowed")
    name = shown(raw)
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise NameProblem(f"a name is {MIN_LENGTH} to {MAX_LENGTH} characters long")
    for char in name:
        problem = _character_problem(char)
        if problem is not None:
            raise NameProblem(problem)
    if name[0] in SEPARATORS or name[-1] in SEPARATORS:
        raise NameProblem("a name starts and ends with a letter or a digit")
    letters = [char for char in name if unicodedata.category(char).startswith("L")]
    if not letters:
        raise NameProblem("a name needs at least one letter")
    scripts = frozenset(_script(char) for char in letters)
    if len(scripts) > 1 and not any(scripts <= allowed for allowed in _SCRIPT_SETS):
        raise NameProblem("a name is written in one script (no mixing Latin and Cyrillic, say)")
    if is_reserved(name):
        raise NameProblem("that name is reserved")
    return name


_RESERVED_FORMS: Final = frozenset(skeleton(word) for word in RESERVED)
_RESERVED_PARTS: Final = tuple(skeleton(word) for word in RESERVED_INSIDE)


def is_reserved(name: str) -> bool:
    """Whether `name` is, or looks like, a name nobody may claim (see `RESERVED`), also
    with digits after it ("guest42", "bot_3")."""
    form = skeleton(name)
    trimmed = skeleton(fold(name).rstrip("0123456789" + SEPARATORS))
    if form in _RESERVED_FORMS or trimmed in _RESERVED_FORMS:
        return True
    return any(part in form for part in _RESERVED_PARTS)

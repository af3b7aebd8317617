"""Account names: what may be claimed, when two names are the same, and when they only
look the same. Pure functions of the text.

Three forms of a name:

- **shown**: NFKC-normalised, outer spaces stripped and inner runs of spaces made one — the
  name as the account has it. It is always a valid in-room name of the protocol
  (`protocol.messages.Name`), so an account plays under exactly the name it claimed.
- **folded** (`fold`): the shown name case-folded (NFKC again after folding, as Unicode's
  NFKC_Casefold does). "Alice", "ALICE" and "ａｌｉｃｅ" are one name; two accounts never
  share a folded name, and `/api/players/<name>` looks names up by it.
- **skeleton** (`skeleton`): what the name looks like — the in-room names' skeleton of
  `protocol.text` (Latin, Cyrillic and Greek look-alikes made one, digits that pass for
  letters, case folded, "rn"/"m", "vv"/"w", "cl"/"d"), with accents and separators left
  out on top. Two accounts never share a skeleton: "paypal" is not claimable once "PayPaI"
  is, nor "john.doe" once "john_doe" is, nor "Jose" once "José" is. Rooms refuse a guest a
  name confusable with a seated player's by the same table, so a name looks taken or free
  the same way in both places.

A name is letters of one script (or of the script sets Japanese and Korean writing mix),
ASCII digits and `_ - .` and single spaces, with no invisible or format character (bidi
controls, zero-width characters, fillers: refused, not silently dropped, so what is
claimed is what was typed). Mixed-script spoofs are refused before any skeleton is made.

Reserved names (`RESERVED`) are refused by skeleton too, with `i` and `l` made one as
well: "Adm1n" is "admin".

The skeletons are stored (a unique column, a Redis key): a change to `protocol.text`'s
table changes what new names are compared by, not the stored ones, until they are made
again from the names (`SqlitePlayerStore` and `RedisPlayerStore` hold the names).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from protocol.text import INVISIBLE, NAME_MAX, NAME_MIN, NAME_PATTERN
from protocol.text import skeleton as looks

#: The rule every new name follows, a guest's or an account's (`protocol.text`).
MIN_LENGTH: Final = NAME_MIN
MAX_LENGTH: Final = NAME_MAX
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
        "бот",
        "computer",
        "računalo",
        "компьютер",
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
        "sudac",
        "судья",
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
#: What a guest may not play under either: the computer players' names ("Bot 3", also as
#: the Croatian and Russian pages word them) and names that speak for the service. A part
#: of `RESERVED` (a test holds it so): a guest's default name is "Player-1234", and "guest"
#: or "me" mislead nobody at a table.
GUEST_RESERVED: Final = frozenset(
    {
        "admin",
        "administrator",
        "bot",
        "бот",
        "computer",
        "računalo",
        "компьютер",
        "moderator",
        "ninepool",
        "official",
        "referee",
        "sudac",
        "судья",
        "server",
        "staff",
        "support",
        "system",
    }
)

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
    bare = unicodedata.normalize("NFD", looks(shown(name)))
    return "".join(
        char for char in bare if not unicodedata.combining(char) and char not in SEPARATORS
    )


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
    name = check_new(raw)
    if is_reserved(name):
        raise NameProblem("that name is reserved")
    return name


def check_new(raw: str) -> str:
    """The shown form of `raw` if it may be chosen now as anyone's name, a guest's as an
    account's (`check` without the reserved words: a guest's are `GUEST_RESERVED`,
    refused `name_taken` apart); else `NameProblem`. The one rule for a new name: what an
    account may claim, a guest may choose, so a guest can always sign up under the name
    they play under."""
    for char in raw:
        if unicodedata.category(char) in ("Cf", "Cc") or char in INVISIBLE:
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
    if not NAME_PATTERN.match(name):  # pragma: no cover - implied by the checks above
        raise NameProblem("not a name the rooms take")
    return name


def _reserved_form(name: str) -> str:
    return skeleton(name).replace("i", "l")


_RESERVED_FORMS: Final = frozenset(_reserved_form(word) for word in RESERVED)
_RESERVED_PARTS: Final = tuple(_reserved_form(word) for word in RESERVED_INSIDE)


_GUEST_FORMS: Final = frozenset(_reserved_form(word) for word in GUEST_RESERVED)


def is_reserved(name: str) -> bool:
    """Whether `name` is, or looks like, a name nobody may claim (see `RESERVED`), also
    with digits after it ("guest42", "bot_3")."""
    return _reserved_among(name, _RESERVED_FORMS)


def is_reserved_for_guests(name: str) -> bool:
    """Whether a guest may not play under `name` (see `GUEST_RESERVED`): "Bot 2", "Бот 2",
    "Referee", "TheAdmin" — as they are or as they look, with digits after them or not."""
    return _reserved_among(name, _GUEST_FORMS)


def _reserved_among(name: str, forms: frozenset[str]) -> bool:
    form = _reserved_form(name)
    trimmed = _reserved_form(fold(name).rstrip("0123456789" + SEPARATORS))
    if form in forms or trimmed in forms:
        return True
    return any(part in form for part in _RESERVED_PARTS)

"""Hypothesis strategies for client messages, written from `protocol/README.md` (the
documented ranges), not from the schema code, so a drift between the two shows up."""

from __future__ import annotations

import math
import string
from typing import Any

from hypothesis import strategies as st

from protocol.text import clean

MAX_ID = 2**31 - 1

request_ids = st.integers(0, MAX_ID)
finite = {"allow_nan": False, "allow_infinity": False}

names = st.from_regex(r"\A[A-Za-z0-9._-]([A-Za-z0-9 ._-]{0,22}[A-Za-z0-9._-])?\Z")
angles = st.floats(-360.0, 360.0, **finite)
speeds = st.floats(0.0, 12.0, exclude_min=True, **finite)
tip_components = st.floats(-1.0, 1.0, **finite)
tips = st.tuples(tip_components, tip_components)
elevations = st.floats(0.0, 90.0, exclude_max=True, **finite)
positions = st.tuples(st.floats(0.0, 2.54, **finite), st.floats(0.0, 1.27, **finite))
room_ids = st.text(string.ascii_letters + string.digits + "_-", min_size=1, max_size=32)
invite_codes = st.text(string.ascii_uppercase + string.digits, min_size=4, max_size=32)
# Room names and chat as a client would send them once cleaned (protocol/text.py: NFKC,
# no format characters or invisible fillers), so that they come back unchanged.
room_names = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cf")), max_size=40).filter(
    lambda text: clean(text) == text
)  # no control characters
chat_texts = st.text(
    st.characters(blacklist_categories=("Cs", "Cf")), min_size=1, max_size=200
).filter(lambda text: clean(text) == text and text != "")

settings = st.fixed_dictionaries(
    {},
    optional={
        "name": room_names,
        "race_to": st.integers(1, 21),
        "break_order": st.sampled_from(["winner", "alternate", "loser", "trailing"]),
        "shot_clock": st.none() | st.integers(5, 300),
        "extensions": st.integers(0, 5),
        "first_break": st.sampled_from(["lag", "draw"]),
        "private": st.booleans(),
        "forfeit": st.sampled_from(["game", "match"]),
        "stalemate_innings": st.integers(0, 1000),
        "aim_aid": st.sampled_from(["full", "ghost", "none"]),
        "clock_warning": st.integers(0, 60),
        "rated": st.booleans(),
    },
)


def _message(tag: str, required: dict[str, Any], optional: dict[str, Any]) -> Any:
    return st.fixed_dictionaries(
        {"t": st.just(tag), "id": request_ids, **required}, optional=optional
    )


#: One strategy per message kind: (tag, strategy of the dict sent on the wire).
MESSAGES: dict[str, Any] = {
    "hello": _message(
        "hello",
        {"v": st.integers(0, 65535), "name": names},
        {"token": st.none() | st.text(min_size=1, max_size=256), "keep_ids": st.booleans()},
    ),
    "lobby": _message("lobby", {}, {"on": st.booleans()}),
    "create": _message("create", {}, {"settings": settings}),
    "join": _message(
        "join",
        {},
        {
            "room": st.none() | room_ids,
            "code": st.none() | invite_codes,
            "role": st.sampled_from(["player", "spectator"]),
        },
    ),
    "quick": _message(
        "quick",
        {},
        {"on": st.booleans(), "race_to": st.integers(1, 21), "rated": st.booleans()},
    ),
    "computer": _message(
        "computer",
        {},
        {"level": st.integers(1, 5), "race_to": st.integers(1, 21), "rated": st.booleans()},
    ),
    "leave": _message("leave", {}, {}),
    "ready": _message("ready", {}, {"ready": st.booleans()}),
    "place": _message("place", {"pos": positions}, {}),
    "aim": _message(
        "aim",
        {"angle": angles, "speed": speeds},
        {
            "tip": tips,
            "elevation": elevations,
            "cue": st.none() | positions,
            "push_out": st.booleans(),
        },
    ),
    "shot": _message(
        "shot",
        {"angle": angles, "speed": speeds},
        {"tip": tips, "elevation": elevations, "push_out": st.booleans()},
    ),
    "lag": _message(
        "lag", {"speed": speeds}, {"angle": st.floats(-10.0, 10.0, **finite), "tip": tips}
    ),
    "choose": _message("choose", {"choice": st.sampled_from(["shoot", "pass"])}, {}),
    "lag_choice": _message("lag_choice", {"choice": st.sampled_from(["break", "give"])}, {}),
    "concede": _message("concede", {}, {"what": st.sampled_from(["game", "match"])}),
    "stalemate": _message("stalemate", {"action": st.sampled_from(["propose", "accept"])}, {}),
    "extend": _message("extend", {}, {}),
    "chat": _message("chat", {"text": chat_texts}, {}),
    "rematch": _message("rematch", {}, {}),
    "resync": _message("resync", {}, {}),
    "sit": _message(
        "sit",
        {},
        {
            "seat": st.none() | st.sampled_from([0, 1]),
            "code": st.none()
            | st.text("ABCDEFGHJKMNPQRSTVWXYZ0123456789", min_size=4, max_size=32),
            "invite": st.none() | st.text("0123456789abcdef", min_size=1, max_size=64),
        },
    ),
    "ping": _message("ping", {}, {"expect": st.none() | st.integers(1, 60)}),
}

valid_messages = st.one_of(*MESSAGES.values())

#: Every field whose value is a number with a documented range: (tag, field, bad values).
OUT_OF_RANGE: list[tuple[str, str, list[Any]]] = [
    ("ping", "id", [-1, MAX_ID + 1, 2**64 - 1, -(2**63)]),
    ("hello", "v", [-1, 65536]),
    ("ping", "expect", [0, 61, -1]),
    ("shot", "angle", [-360.0001, 360.0001, math.nan, math.inf, -math.inf]),
    ("shot", "speed", [0.0, -0.0, -1.0, 12.0001, math.nan, math.inf]),
    ("shot", "elevation", [-0.0001, 90.0, math.nan]),
    ("lag", "angle", [-10.0001, 10.0001, math.nan]),
    ("lag", "speed", [0.0, 12.5]),
    ("quick", "race_to", [0, 22]),
    ("computer", "level", [0, 6]),
    ("computer", "race_to", [0, 22]),
]

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text(max_size=40)
    | st.binary(max_size=40)
)
#: Anything MessagePack can carry (maps with string keys, as a client would send).
msgpack_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=20,
)

#: Maps that look like client messages: a real tag, then fields of any value.
FIELDS = sorted(
    {
        "id",
        "v",
        "name",
        "token",
        "on",
        "settings",
        "room",
        "code",
        "role",
        "race_to",
        "ready",
        "pos",
        "angle",
        "speed",
        "tip",
        "elevation",
        "cue",
        "push_out",
        "choice",
        "what",
        "action",
        "text",
        "unknown",
    }
)
message_like = st.builds(
    lambda tag, fields: {"t": tag, **fields},
    st.sampled_from(list(MESSAGES)) | st.text(max_size=8),
    st.dictionaries(st.sampled_from(FIELDS), msgpack_values, max_size=6),
)

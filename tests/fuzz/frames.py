"""Client frames for fuzzing: valid messages of every kind, and the ways to spoil them.

Everything here is built with the reference `msgpack` codec (never with the server's own
encoder), so the fuzzer speaks the wire format as an independent client would. A frame's
fate is predicted with `protocol.codec.decode_client` — the same decoder the server runs,
itself fuzzed against the reference codec in `test_fuzz_decoder.py`:

- it decodes: the server must answer it as a request (a reply, or an `error` with a
  documented code when the action is not allowed);
- it does not: the server must answer `bad_frame` / `bad_message` and change nothing;
- it is larger than `MAX_CLIENT_FRAME`: the server must close with 1009.

Randomness comes from a `random.Random` the caller seeds, so a failing storm can be
replayed from its seed.
"""

from __future__ import annotations

import math
import random
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack

from protocol import messages as m
from protocol.codec import ProtocolError, decode_client

MAX_FRAME = m.MAX_CLIENT_FRAME
MAX_ID = 2**31 - 1

#: Every tag of a client message.
CLIENT_TAGS: tuple[str, ...] = tuple(
    cls.__struct_config__.tag  # type: ignore[misc]
    for cls in m.AnyClientMessage.__args__  # type: ignore[attr-defined]
)

#: Tags that are not messages but look like them.
FAKE_TAGS = (
    "",
    "Shot",
    "SHOT",
    "shot ",
    "welcome",
    "snapshot",
    "shot_result",
    "error",
    "admin",
    "__proto__",
    "constructor",
    "t",
    "shot\x00",
    "shöt",
    "x" * 200,
)


def pack(obj: Any) -> bytes:
    """The reference encoding of `obj` (bin type for bytes, as the browser client sends)."""
    return msgpack.packb(obj, use_bin_type=True)


@dataclass
class Context:
    """What a fuzzing client knows of the world, to make its valid frames plausible."""

    rooms: list[str] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)


# --- valid messages -----------------------------------------------------------------------


def _name(rng: random.Random) -> str:
    alphabet = string.ascii_letters + string.digits + "._-"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 24)))


def _angle(rng: random.Random) -> float:
    return rng.choice([0.0, 90.0, -90.0, 180.0, 360.0, -360.0, rng.uniform(-360.0, 360.0)])


def _speed(rng: random.Random) -> float:
    return rng.choice([12.0, 5e-324, 0.001, rng.uniform(0.01, 12.0)])


def _tip(rng: random.Random) -> list[float]:
    return [rng.choice([-1.0, 0.0, 1.0, rng.uniform(-1, 1)]) for _ in range(2)]


def _pos(rng: random.Random) -> list[float]:
    return [
        rng.choice([0.0, 2.54, rng.uniform(0.0, 2.54)]),
        rng.choice([0.0, 1.27, rng.uniform(0.0, 1.27)]),
    ]


def _settings(rng: random.Random) -> dict[str, Any]:
    options: dict[str, Callable[[], Any]] = {
        "name": lambda: rng.choice(["", "Friday", "x" * 40, "ünï ✓"]),
        "race_to": lambda: rng.randint(1, 21),
        "break_order": lambda: rng.choice(["winner", "alternate", "loser", "trailing"]),
        "shot_clock": lambda: rng.choice([None, 5, 30, 300]),
        "extensions": lambda: rng.randint(0, 5),
        "first_break": lambda: rng.choice(["lag", "draw"]),
        "private": lambda: rng.random() < 0.3,
        "forfeit": lambda: rng.choice(["game", "match"]),
        "stalemate_innings": lambda: rng.choice([0, 1, 20, 1000]),
    }
    keys = rng.sample(sorted(options), rng.randint(0, len(options)))
    return {key: options[key]() for key in keys}


def valid_message(rng: random.Random, ctx: Context, tag: str | None = None) -> dict[str, Any]:
    """A message that passes the schema (the server may still refuse the action)."""
    tag = tag or rng.choice(CLIENT_TAGS)
    out: dict[str, Any] = {"t": tag, "id": rng.randint(0, MAX_ID)}
    room = rng.choice(ctx.rooms) if ctx.rooms and rng.random() < 0.8 else "nosuchroom1"
    code = rng.choice(ctx.codes) if ctx.codes and rng.random() < 0.5 else "ZZZZ9999"
    if tag == "hello":
        out.update(v=rng.choice([1, 1, 0, 2, 65535]), name=_name(rng))
        if rng.random() < 0.5:
            tokens = [*ctx.tokens, "bogus.token", "x" * 256]
            out["token"] = rng.choice(tokens)
    elif tag in ("lobby", "quick"):
        out["on"] = rng.random() < 0.7
        if tag == "quick" and rng.random() < 0.5:
            out["race_to"] = rng.randint(1, 21)
    elif tag == "create":
        if rng.random() < 0.8:
            out["settings"] = _settings(rng)
    elif tag == "join":
        choice = rng.random()
        if choice < 0.6:
            out["room"] = room
        elif choice < 0.85:
            out["code"] = code
        elif choice < 0.95:
            out.update(room=room, code=code)
        out["role"] = rng.choice(["player", "spectator", "spectator"])
    elif tag == "ready":
        out["ready"] = rng.random() < 0.7
    elif tag == "place":
        out["pos"] = _pos(rng)
    elif tag in ("aim", "shot"):
        out.update(angle=_angle(rng), speed=_speed(rng))
        if rng.random() < 0.7:
            out["tip"] = _tip(rng)
        if rng.random() < 0.5:
            out["elevation"] = rng.choice([0.0, 45.0, 89.999, rng.uniform(0, 89)])
        if tag == "aim" and rng.random() < 0.3:
            out["cue"] = rng.choice([None, _pos(rng)])
        if rng.random() < 0.3:
            out["push_out"] = rng.random() < 0.5
    elif tag == "lag":
        out.update(speed=_speed(rng), angle=rng.uniform(-10, 10), tip=_tip(rng))
    elif tag == "choose":
        out["choice"] = rng.choice(["shoot", "pass"])
    elif tag == "lag_choice":
        out["choice"] = rng.choice(["break", "give"])
    elif tag == "concede":
        out["what"] = rng.choice(["game", "match"])
    elif tag == "stalemate":
        out["action"] = rng.choice(["propose", "accept"])
    elif tag == "sit":
        if rng.random() < 0.5:
            out["seat"] = rng.choice([None, 0, 1])
        if rng.random() < 0.5:
            out["invite"] = rng.choice(["0" * 20, "3f9a0c1e77b2d4a5c6e8", "x"])
    elif tag == "chat":
        out["text"] = rng.choice(["gg", "nice shot", "✓" * 200, "\x00\x01", "<script>"])
    return out


# --- spoiling them ------------------------------------------------------------------------

#: Values of every MessagePack type, including the awkward ones.
ODD_VALUES: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    2**31,
    2**32,
    2**63 - 1,
    2**64 - 1,
    -(2**63),
    0.5,
    -0.0,
    math.nan,
    math.inf,
    -math.inf,
    1e308,
    5e-324,
    "",
    "x" * 300,
    "\ud7ff\ue000",
    b"",
    b"\x00\xff" * 8,
    [],
    [1, 2, 3],
    [[[[]]]],
    {},
    {"t": "ping", "id": 1},
    msgpack.ExtType(1, b"ext"),
    msgpack.Timestamp(1, 0),
)


def _nested(depth: int, leaf: Any = 0) -> Any:
    value: Any = leaf
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


def _mutate_object(rng: random.Random, msg: dict[str, Any]) -> Any:
    """Structural spoiling: the frame is still MessagePack."""
    msg = dict(msg)
    keys = list(msg)
    kind = rng.randrange(12)
    if kind == 0 and keys:  # drop a field
        del msg[rng.choice(keys)]
    elif kind == 1:  # an unknown field
        msg[rng.choice(["extra", "ID", "T", "seat", "__proto__", ""])] = rng.choice(ODD_VALUES)
    elif kind == 2 and keys:  # a value of another type
        msg[rng.choice(keys)] = rng.choice(ODD_VALUES)
    elif kind == 3:  # a huge or negative id
        msg["id"] = rng.choice([-1, MAX_ID + 1, 2**63 - 1, 2**64 - 1, -(2**63), 1.0, True])
    elif kind == 4:  # an unknown or mistyped tag
        msg["t"] = rng.choice([*FAKE_TAGS, 1, None, b"shot", ["shot"]])
    elif kind == 5:  # deep nesting (kept under the size limit)
        target = rng.choice(keys) if keys else "x"
        msg[target] = _nested(rng.randint(50, 500))  # msgpack packs ≤ 511 levels
    elif kind == 6:  # a string just over its limit, or far over it
        target = rng.choice(["name", "text", "room", "code", "token", "t"])
        msg[target] = rng.choice(["a" * 25, "a" * 201, "A" * 33, "A" * 13, "a" * 257, "a" * 3000])
    elif kind == 7:  # non-finite and out-of-range numbers
        target = rng.choice(["angle", "speed", "elevation", "v", "race_to", "id"])
        msg[target] = rng.choice([math.nan, math.inf, -math.inf, 1e9, -1e9, 12.000001, 90.0, -0.0])
    elif kind == 8:  # tuples of the wrong length
        target = rng.choice(["tip", "pos", "cue"])
        msg[target] = rng.choice([[], [0.0], [0.0, 0.0, 0.0], {"x": 0.0, "y": 0.0}, "0,0"])
    elif kind == 9:  # not a map at all
        return rng.choice([list(msg.values()), list(msg.items()), msg.get("t"), None, 7])
    elif kind == 10:  # keys that are not strings
        return {**{k: v for k, v in msg.items() if rng.random() < 0.7}, rng.choice([1, b"t"]): 1}
    else:  # settings with a bad member
        msg["settings"] = {
            rng.choice(["race_to", "shot_clock", "break_order", "name", "nope"]): rng.choice(
                ODD_VALUES
            )
        }
    return msg


def _mutate_bytes(rng: random.Random, frame: bytes) -> bytes:
    """Byte-level spoiling: often no longer MessagePack."""
    data = bytearray(frame)
    kind = rng.randrange(9)
    if kind == 0 and data:  # bit flips
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
    elif kind == 1 and data:  # truncation
        del data[rng.randrange(len(data)) :]
    elif kind == 2:  # trailing garbage
        data += rng.randbytes(rng.randint(1, 16))
    elif kind == 3 and data:  # a byte replaced by an interesting one
        interesting = [0x00, 0x7F, 0x80, 0xC0, 0xC1, 0xD9, 0xDB, 0xDD, 0xDF, 0xCF, 0xD3, 0xFF]
        data[rng.randrange(len(data))] = rng.choice(interesting)
    elif kind == 4 and data:  # a chunk deleted
        i = rng.randrange(len(data))
        del data[i : i + rng.randint(1, 8)]
    elif kind == 5:  # a length prefix that lies: a str32/map32/array32 header claiming a lot
        header = rng.choice([b"\xdb", b"\xdf", b"\xdd", b"\xc6"])
        data = bytearray(header + rng.randbytes(4)) + data
    elif kind == 6:  # two frames glued together
        data += frame[: rng.randint(0, len(frame))]
    elif kind == 7:  # nesting far deeper than the reference codec itself would write
        unit = rng.choice([b"\x91", b"\x81\xa0"])
        depth = rng.randint(600, (MAX_FRAME - 16) // len(unit))
        data = bytearray(b"\x82\xa1t\xa4ping\xa2id" + unit * depth)
    else:  # random bytes of random length
        data = bytearray(rng.randbytes(rng.randint(0, 64)))
    return bytes(data)


@dataclass(frozen=True)
class Fuzzed:
    """One frame to send, what it is, and what the decoder makes of it."""

    data: bytes | str
    origin: str
    message: m.ClientMessage | None
    error_code: str | None

    @property
    def too_big(self) -> bool:
        size = len(self.data.encode()) if isinstance(self.data, str) else len(self.data)
        return size > MAX_FRAME

    @property
    def valid(self) -> bool:
        return self.message is not None


def classify(data: bytes | str, origin: str) -> Fuzzed:
    try:
        message = decode_client(data)
    except ProtocolError as exc:
        return Fuzzed(data, origin, None, exc.code)
    return Fuzzed(data, origin, message, None)


def fuzzed_frame(rng: random.Random, ctx: Context, oversize: float = 0.0) -> Fuzzed:
    """One random or mutated frame. `oversize` is the chance of a frame over the limit."""
    if rng.random() < oversize:
        filler = rng.choice(["x" * (MAX_FRAME + 1), "x" * (MAX_FRAME * 4)])
        return classify(pack({"t": "chat", "id": 1, "text": filler}), "oversize")
    roll = rng.random()
    base = valid_message(rng, ctx)
    if roll < 0.25:
        return classify(pack(base), "valid")
    if roll < 0.55:
        return classify(pack(_mutate_object(rng, base)), "object")
    if roll < 0.9:
        return classify(_mutate_bytes(rng, pack(base)), "bytes")
    if roll < 0.95:
        text = rng.choice([pack(base).decode("latin-1"), '{"t": "ping", "id": 1}', "", "\x00"])
        return classify(text, "text")
    return classify(rng.randbytes(rng.randint(0, 200)), "random")

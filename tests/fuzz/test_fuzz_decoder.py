"""Fuzzing the client-frame decoder (`protocol.codec.decode_client`) with hypothesis.

- Any bytes, any text, any MessagePack value: the decoder returns a client message or
  raises `ProtocolError` with `bad_frame` / `bad_message` — never another exception.
- Every documented message round-trips, and the reference `msgpack` codec agrees with the
  decoder both ways: what msgpack writes decodes to the same message, and what our encoder
  writes msgpack reads back as the same map.
- Out-of-range, non-finite and over-long values are refused with `bad_message` naming the
  field, and the error echoes the request id when the frame had a readable one.
- The kept corpus (`corpus/`) still gets the outcome recorded in its file name.
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import msgpack
import msgspec
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from protocol import errors
from protocol import messages as m
from protocol.codec import ProtocolError, decode_client, decode_server, encode
from tests.fuzz import frames, strategies
from tests.fuzz.corpus_files import CORPUS, corpus_frames

DECODE_CODES = {errors.BAD_FRAME, errors.BAD_MESSAGE}
MAX_ID = 2**31 - 1

fast = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SETTINGS_DEFAULTS: dict[str, Any] = {
    "name": "",
    "race_to": 3,
    "break_order": "winner",
    "shot_clock": None,
    "extensions": 1,
    "first_break": "lag",
    "private": False,
    "forfeit": "game",
    "stalemate_innings": 20,
    "first_shot_clock": None,
    "extension_seconds": None,
    "clock_warning": 10,
    "aim_aid": "full",
    "rated": False,
    "reserved": [],
    "tournament": None,
}
#: The defaults `protocol/README.md` documents for omitted fields.
DEFAULTS: dict[str, dict[str, Any]] = {
    "hello": {"token": None, "keep_ids": False},
    "lobby": {"on": True},
    "create": {"settings": {}},
    "join": {"room": None, "code": None, "role": "player"},
    "quick": {"on": True, "race_to": 3, "rated": False},
    "ready": {"ready": True},
    "aim": {"tip": [0.0, 0.0], "elevation": 0.0, "cue": None, "push_out": False},
    "shot": {"tip": [0.0, 0.0], "elevation": 0.0, "push_out": False},
    "lag": {"angle": 0.0, "tip": [0.0, 0.0]},
    "concede": {"what": "game"},
    "sit": {"seat": None, "code": None, "invite": None},
    "computer": {"level": 1, "race_to": 3, "rated": False},
    "ping": {"expect": None},
}


def listify(value: Any) -> Any:
    """Tuples as the reference codec reads arrays back: lists."""
    if isinstance(value, tuple | list):
        return [listify(v) for v in value]
    if isinstance(value, dict):
        return {k: listify(v) for k, v in value.items()}
    return value


def with_defaults(message: dict[str, Any]) -> dict[str, Any]:
    full = {**DEFAULTS.get(message["t"], {}), **message}
    if message["t"] == "create":
        full["settings"] = {**SETTINGS_DEFAULTS, **full["settings"]}
    return listify(full)


def decode_outcome(frame: bytes | str) -> m.ClientMessage | ProtocolError:
    """The decoder's answer; any exception other than `ProtocolError` fails the test."""
    try:
        return decode_client(frame)
    except ProtocolError as exc:
        assert exc.code in DECODE_CODES, exc.code
        assert exc.request_id is None or 0 <= exc.request_id <= MAX_ID
        assert isinstance(exc.message, str) and exc.message
        return exc


def assert_reference_agrees(frame: bytes, message: m.ClientMessage) -> None:
    """An accepted frame is a map the reference codec reads the same way."""
    loose = msgpack.unpackb(frame, raw=False, strict_map_key=False)
    assert isinstance(loose, dict)
    assert loose["t"] == type(message).__struct_config__.tag
    assert loose["id"] == message.id
    # Re-encoded by the reference codec (duplicate keys collapse, last one wins, as in
    # the decoder), the map decodes to the very same message.
    assert decode_client(frames.pack(loose)) == message
    # And our encoder's bytes are read back by the reference codec as that message.
    assert decode_client(frames.pack(msgpack.unpackb(encode(message)))) == message


# --- anything at all ----------------------------------------------------------------------


@fast
@given(st.binary(max_size=600))
@example(b"")
@example(b"\xc1")
@example(b"\x91" * 4000)
@example(b"\xdd\xff\xff\xff\xff")  # an array claiming 4 billion items
@example(b"\xdb\xff\xff\xff\xff")  # a string claiming 4 GiB
@example(b"\x82\xa1t\xa4ping\xa2id\xcf\xff\xff\xff\xff\xff\xff\xff\xff")  # uint64 id
@example(b"\x81\xa1t\xc7\x00\x01")  # an ext as the tag
def test_any_bytes_decode_or_are_refused(data: bytes) -> None:
    outcome = decode_outcome(data)
    if isinstance(outcome, m.ClientMessage):
        assert_reference_agrees(data, outcome)


@fast
@given(st.text(max_size=200))
def test_text_frames_are_bad_frame(text: str) -> None:
    outcome = decode_outcome(text)
    assert isinstance(outcome, ProtocolError)
    assert outcome.code == errors.BAD_FRAME


@fast
@given(strategies.msgpack_values)
def test_any_msgpack_value_decodes_or_is_refused(value: Any) -> None:
    outcome = decode_outcome(frames.pack(value))
    if isinstance(outcome, ProtocolError):
        assert outcome.code == errors.BAD_MESSAGE  # it is MessagePack, so never bad_frame
    else:
        assert_reference_agrees(frames.pack(value), outcome)


@fast
@given(strategies.message_like)
def test_message_like_maps_decode_or_are_refused(value: dict[str, Any]) -> None:
    frame = frames.pack(value)
    outcome = decode_outcome(frame)
    if isinstance(outcome, ProtocolError):
        assert outcome.code == errors.BAD_MESSAGE
        raw_id = value.get("id")
        if type(raw_id) is int and 0 <= raw_id <= MAX_ID:
            # The frame was read far enough to find its id: the error echoes it.
            assert outcome.request_id == raw_id
        else:
            assert outcome.request_id is None
    else:
        assert_reference_agrees(frame, outcome)


# --- valid messages -----------------------------------------------------------------------


@fast
@given(strategies.valid_messages)
def test_documented_messages_round_trip_with_the_reference_codec(message: dict[str, Any]) -> None:
    frame = frames.pack(message)
    decoded = decode_client(frame)
    assert type(decoded).__struct_config__.tag == message["t"]
    expected = with_defaults(message)
    # Our encoder writes every field; the reference codec reads exactly the message back.
    assert msgpack.unpackb(encode(decoded)) == expected
    assert listify(msgspec.to_builtins(decoded)) == expected
    assert decode_client(encode(decoded)) == decoded
    assert_reference_agrees(frame, decoded)


def test_every_message_kind_has_a_strategy() -> None:
    assert set(strategies.MESSAGES) == set(frames.CLIENT_TAGS)


# --- refused values -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "field", "bad"),
    [(t, f, v) for t, f, values in strategies.OUT_OF_RANGE for v in values],
    ids=lambda x: repr(x),
)
def test_out_of_range_values_are_refused_naming_the_field(tag: str, field: str, bad: Any) -> None:
    message = frames.valid_message(random.Random(3), frames.Context(), tag)
    message[field] = bad
    outcome = decode_outcome(frames.pack(message))
    assert isinstance(outcome, ProtocolError), message
    assert outcome.code == errors.BAD_MESSAGE
    assert f"$.{field}" in outcome.message
    assert outcome.request_id == (message["id"] if field != "id" else None)


@pytest.mark.parametrize(
    ("tag", "field", "limit"),
    [("hello", "name", 24), ("chat", "text", 200), ("join", "room", 32), ("join", "code", 32)],
)
def test_strings_over_their_limit_are_refused(tag: str, field: str, limit: int) -> None:
    message = frames.valid_message(random.Random(5), frames.Context(), tag)
    fill = "A" if field == "code" else "a"
    message[field] = fill * limit
    assert isinstance(decode_outcome(frames.pack(message)), m.ClientMessage)
    message[field] = fill * (limit + 1)
    outcome = decode_outcome(frames.pack(message))
    assert isinstance(outcome, ProtocolError) and outcome.code == errors.BAD_MESSAGE


@pytest.mark.parametrize("depth", [100, 1000, 4000])
def test_deep_nesting_is_refused_without_recursion_errors(depth: int) -> None:
    for unit in (b"\x91", b"\x81\xa1k"):
        frame = b"\x82\xa1t\xa4ping\xa2id" + unit * depth + b"\x00"
        outcome = decode_outcome(frame)
        assert isinstance(outcome, ProtocolError)


@pytest.mark.parametrize("control", ["\x00", "\x1f", "\x7f"])
def test_room_names_refuse_ascii_control_characters(control: str) -> None:
    frame = frames.pack({"t": "create", "id": 1, "settings": {"name": f"a{control}b"}})
    outcome = decode_outcome(frame)
    assert isinstance(outcome, ProtocolError) and outcome.code == errors.BAD_MESSAGE


@fast
@given(st.sampled_from([math.nan, math.inf, -math.inf]), st.sampled_from(["angle", "speed"]))
def test_non_finite_shots_are_refused(value: float, field: str) -> None:
    message = {"t": "shot", "id": 7, "angle": 0.0, "speed": 1.0, field: value}
    outcome = decode_outcome(frames.pack(message))
    assert isinstance(outcome, ProtocolError) and outcome.request_id == 7


# --- mutations, as the live storm makes them --------------------------------------------


def test_mutated_frames_never_escape_the_decoder() -> None:
    rng = random.Random(20240611)
    ctx = frames.Context(rooms=["abc"], codes=["Q7K2MX"], tokens=["x.y"])
    seen: set[str] = set()
    for _ in range(20_000):
        fuzzed = frames.fuzzed_frame(rng, ctx, oversize=0.001)
        outcome = decode_outcome(fuzzed.data)
        seen.add(fuzzed.origin)
        if isinstance(outcome, m.ClientMessage) and isinstance(fuzzed.data, bytes):
            assert_reference_agrees(fuzzed.data, outcome)
    assert seen == {"valid", "object", "bytes", "text", "random", "oversize"}


# --- the corpus -----------------------------------------------------------------------------


def test_corpus_is_small_and_present() -> None:
    files = sorted(CORPUS.iterdir())
    assert len(files) >= 20
    assert all(f.stat().st_size <= 16 * 1024 for f in files)


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.*")), ids=lambda p: Path(p).name)
def test_corpus_frame_has_its_recorded_outcome(path: Path) -> None:
    (entry,) = [e for e in corpus_frames() if e.path == path]
    outcome = decode_outcome(entry.data)
    if entry.expect == "valid":
        assert isinstance(outcome, m.ClientMessage)
    elif entry.expect == "too_big":
        assert len(entry.data) > m.MAX_CLIENT_FRAME
    else:
        assert isinstance(outcome, ProtocolError)
        assert outcome.code == entry.expect


@pytest.mark.parametrize(
    "message",
    [
        {"t": "hello", "id": 1, "v": 1, "name": "Ana\n"},
        {"t": "join", "id": 1, "room": "abc\n"},
        {"t": "join", "id": 1, "code": "Q7K2MX\n"},
        {"t": "create", "id": 1, "settings": {"name": "Friday\n"}},
    ],
    ids=["name", "room", "code", "room_name"],
)
def test_a_trailing_newline_is_refused(message: dict[str, Any]) -> None:
    # README: names are letters, digits, space, `.`, `_`, `-`; room names have no control
    # characters; room ids and invite codes are alphanumeric.
    outcome = decode_outcome(frames.pack(message))
    assert isinstance(outcome, ProtocolError) and outcome.code == errors.BAD_MESSAGE


@pytest.mark.parametrize("control", ["\x85", "\x9b"])
def test_room_names_refuse_c1_control_characters(control: str) -> None:
    frame = frames.pack({"t": "create", "id": 1, "settings": {"name": f"a{control}b"}})
    outcome = decode_outcome(frame)
    assert isinstance(outcome, ProtocolError) and outcome.code == errors.BAD_MESSAGE


def test_every_resting_position_the_physics_gives_fits_the_server_schema() -> None:
    from server import physics

    # The live storm's quiet room once found the cue ball resting in the mouth of the y = 0
    # side pocket, past the nose, which the schema must accept. That layout no longer ends
    # there (the pocket is three-dimensional now: the ball falls in), so the ball is rolled
    # there slowly: it stops on the shelf, its centre past the nose line.
    balls = {0: (1.27, 0.05), 5: (0.5, 0.6)}
    shot = physics.Shot(angle=-90.0, speed=0.104, tip=(0.0, 0.4))
    final = physics.simulate(balls, shot).final
    assert final[0] is not None and final[0][1] < 0.0  # past the nose, over the pocket's edge
    for position in final.values():
        if position is not None:
            msgspec.convert(list(position), m.BallPosition)  # raises if outside the bounds
    # The whole frame as the server sends it decodes with the server schema.
    positions = [final.get(ball) for ball in range(10)]
    frame = encode(m.Placed(room="abc", seq=1, seat=0, pos=positions[0]))  # type: ignore[arg-type]
    assert isinstance(decode_server(frame), m.Placed)
    frame = encode(
        m.LagView(seat=0, traj=b"", duration=1.0, final=positions[0], distance=None, fault="")
    )
    assert msgspec.msgpack.decode(frame, type=m.LagView).final == positions[0]


def test_ball_margin_covers_a_ball_over_any_pocket_edge() -> None:
    # A resting centre can be past the nose by at most the pocket's shelf plus the
    # curvature of the hole's edge; a ball radius plus the deepest shelf bounds both.
    from server.physics import table

    bound = table.BALL_RADIUS + max(table.CORNER_SHELF, table.SIDE_SHELF)
    margin = m.BALL_MARGIN
    assert bound <= margin < bound + table.BALL_RADIUS  # loose enough, still a bound
    for pocket in table.TABLE.pockets.values():
        # The nearest point of the drop circle to the table: a centre past it has dropped.
        cx, cy = pocket.centre
        nearest = (cx - pocket.axis[0] * pocket.radius, cy - pocket.axis[1] * pocket.radius)
        for coordinate, low, high in ((nearest[0], 0.0, 2.54), (nearest[1], 0.0, 1.27)):
            assert low - m.BALL_MARGIN < coordinate < high + m.BALL_MARGIN


@pytest.mark.parametrize("y", [-0.0096, -0.017, 1.2796, 1.287])
def test_server_frames_with_a_ball_over_a_pocket_edge_decode(y: float) -> None:
    balls: list[tuple[float, float] | None] = [(1.27, y), *([None] * 9)]
    table = m.TableView(
        rack=1, breaker=0, turn=0, ball_in_hand=None, push_out_allowed=False,
        choice_pending=False, balls=balls, lowest=None, score=[0, 0], fouls=[0, 0],
        warned=[], stalemate_warning=False, stalemate_proposed_by=None, match_over=False,
        match_winner=None, clock=None,
    )  # fmt: skip
    ruling = m.Ruling(room="abc", seq=3, by=0, action="forfeit", verdict=None, table=table)
    decoded = decode_server(encode(ruling))
    assert isinstance(decoded, m.Ruling) and decoded.table.balls[0] == (1.27, y)
    with pytest.raises(ProtocolError):  # clients still place on the surface only
        decode_client(encode(m.Place(id=1, pos=(1.27, y))))

"""The wire schema: one-pass validation, interop with the reference `msgpack` codec, docs."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import msgpack
import msgspec
import pytest

from protocol import errors, messages
from protocol.codec import ProtocolError, decode_client, decode_server, encode

README = Path(__file__).resolve().parents[2] / "protocol" / "README.md"


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def test_every_client_message_decodes_from_reference_codec() -> None:
    frames = [
        {"t": "hello", "id": 1, "v": 1, "name": "Ana", "token": None},
        {"t": "lobby", "id": 2, "on": True},
        {"t": "create", "id": 3, "settings": {"race_to": 21, "shot_clock": 30, "private": True}},
        {"t": "join", "id": 4, "room": "abc", "role": "spectator"},
        {"t": "join", "id": 5, "code": "Q7K2MX"},
        {"t": "quick", "id": 6},
        {"t": "computer", "id": 21, "level": 5, "race_to": 7},
        {"t": "leave", "id": 7},
        {"t": "sit", "id": 21, "seat": 1, "invite": "s3f9a0c1e77b2d4a5c6e8"},
        {"t": "ready", "id": 8, "ready": False},
        {"t": "place", "id": 9, "pos": [0.5, 0.6]},
        {"t": "aim", "id": 10, "angle": 1.5, "speed": 2.0, "cue": [0.3, 0.3]},
        {"t": "shot", "id": 11, "angle": -90, "speed": 12, "tip": [0.5, -0.5], "push_out": True},
        {"t": "lag", "id": 12, "speed": 2.0},
        {"t": "choose", "id": 13, "choice": "pass"},
        {"t": "lag_choice", "id": 16, "choice": "give"},
        {"t": "concede", "id": 14, "what": "match"},
        {"t": "stalemate", "id": 15, "action": "accept"},
        {"t": "extend", "id": 16},
        {"t": "chat", "id": 17, "text": "gg ✓"},
        {"t": "rematch", "id": 18},
        {"t": "resync", "id": 19},
        {"t": "ping", "id": 20},
    ]
    tags = set()
    for frame in frames:
        message = decode_client(pack(frame))
        assert message.id == frame["id"]
        tags.add(frame["t"])
        # Our encoder's output is read by the reference codec and decodes back unchanged.
        again = msgpack.unpackb(encode(message))
        assert again["t"] == frame["t"]
        assert again["id"] == frame["id"]
        assert decode_client(pack(again)) == message
    union_tags = {cls.__struct_config__.tag for cls in messages.AnyClientMessage.__args__}
    assert tags == union_tags


@pytest.mark.parametrize(
    ("frame", "path"),
    [
        ({"t": "shot", "id": 1, "angle": 0, "speed": 0}, "$.speed"),  # O2: speed must be > 0
        ({"t": "shot", "id": 1, "angle": 0, "speed": 12.5}, "$.speed"),
        ({"t": "shot", "id": 1, "angle": math.nan, "speed": 1}, "$.angle"),
        ({"t": "shot", "id": 1, "angle": 0, "speed": math.inf}, "$.speed"),
        ({"t": "shot", "id": 1, "angle": 0, "speed": 1, "tip": [0, 1.5]}, "$.tip[1]"),
        ({"t": "shot", "id": 1, "angle": 0, "speed": 1, "elevation": 90}, "$.elevation"),
        ({"t": "shot", "id": 1, "angle": 0, "speed": "fast"}, "$.speed"),
        ({"t": "computer", "id": 1, "level": 0}, "$.level"),
        ({"t": "computer", "id": 1, "level": 6}, "$.level"),
        ({"t": "create", "id": 1, "settings": {"race_to": 22}}, "$.settings.race_to"),
        ({"t": "create", "id": 1, "settings": {"race_to": 0}}, "$.settings.race_to"),
        ({"t": "create", "id": 1, "settings": {"break_order": "random"}}, "break_order"),
        ({"t": "create", "id": 1, "settings": {"shot_clock": 1}}, "$.settings.shot_clock"),
        ({"t": "hello", "id": 1, "v": 1, "name": ""}, "$.name"),
        ({"t": "hello", "id": 1, "v": 1, "name": "x" * 25}, "$.name"),
        ({"t": "hello", "id": 1, "v": 1, "name": "bad\nname"}, "$.name"),
        ({"t": "chat", "id": 1, "text": "x" * 201}, "$.text"),
        ({"t": "place", "id": 1, "pos": [3.0, 0.5]}, "$.pos[0]"),
        ({"t": "place", "id": 1, "pos": [1.0]}, "$.pos"),
        ({"t": "ready", "id": 1, "surprise": 1}, "surprise"),
        # A trailing newline slips through a `$` pattern; every pattern ends in \Z.
        ({"t": "hello", "id": 1, "v": 1, "name": "Ana\n"}, "$.name"),
        ({"t": "join", "id": 1, "room": "abc\n"}, "$.room"),
        ({"t": "join", "id": 1, "code": "Q7K2MX\n"}, "$.code"),
        ({"t": "create", "id": 1, "settings": {"name": "Friday\n"}}, "$.settings.name"),
        ({"t": "create", "id": 1, "settings": {"name": "a\x85b"}}, "$.settings.name"),  # C1
    ],
)
def test_o2_out_of_range_is_refused_and_names_the_path(frame: dict[str, Any], path: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_client(pack(frame))
    assert caught.value.code == errors.BAD_MESSAGE
    assert path in caught.value.message
    assert caught.value.request_id == 1


def test_unknown_type_missing_id_and_garbage() -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_client(pack({"t": "teleport", "id": 4}))
    assert (caught.value.code, caught.value.request_id) == (errors.BAD_MESSAGE, 4)
    with pytest.raises(ProtocolError) as caught:
        decode_client(pack({"t": "ping"}))
    assert (caught.value.code, caught.value.request_id) == (errors.BAD_MESSAGE, None)
    for garbage in (b"\xc1", b"", b"\x92\x01"):
        with pytest.raises(ProtocolError) as caught:
            decode_client(garbage)
        assert caught.value.code in {errors.BAD_FRAME, errors.BAD_MESSAGE}
    with pytest.raises(ProtocolError) as caught:
        decode_client('{"t": "ping", "id": 1}')
    assert caught.value.code == errors.BAD_FRAME


def test_server_messages_round_trip_and_read_with_reference_codec() -> None:
    table = messages.TableView(
        rack=1,
        breaker=0,
        turn=1,
        ball_in_hand="table",
        push_out_allowed=False,
        choice_pending=False,
        balls=[(0.5, 0.5), None, *[(1.0 + i / 10, 0.6) for i in range(8)]],
        lowest=2,
        score=[0, 0],
        fouls=[1, 0],
        warned=[],
        stalemate_warning=False,
        stalemate_proposed_by=None,
        match_over=False,
        match_winner=None,
        clock=messages.ClockView(seconds=30, deadline=None, paused=True, extensions=[1, 1]),
    )
    verdict = messages.VerdictView(
        foul=True,
        fouls=["R8"],
        reasons=[("R8", "wrong ball first")],
        notes=[],
        spotted=[],
        game_over=False,
        game_winner=None,
        game_end=None,
        match_over=False,
        match_winner=None,
        new_rack=False,
        warned=None,
        stalemate=False,
        stalemate_warning_given=False,
    )
    result = messages.ShotResult(
        room="r1",
        seq=7,
        shooter=0,
        shot=messages.ShotInput(
            angle=1.0, speed=2.0, tip=(0.0, 0.1), elevation=0.0, push_out=False
        ),
        traj=b"\x01\x02\x03",
        duration=3.5,
        miscue=False,
        report=messages.ShotReport(first=3, rails=[0], pocketed=[], off_table=[]),
        verdict=verdict,
        table=table,
        final=[(0.5, 0.5), None, *[(1.0, 0.6)] * 8],
    )
    data = encode(result)
    assert decode_server(data) == result
    raw = msgpack.unpackb(data)
    assert raw["t"] == "shot_result"
    assert raw["traj"] == b"\x01\x02\x03"  # bin on the wire, bytes in any codec
    assert raw["verdict"]["reasons"] == [["R8", "wrong ball first"]]


def test_readme_documents_every_message_and_error_code() -> None:
    text = README.read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z_]+)` \| ", text, flags=re.MULTILINE))
    assert set(errors.ERROR_CODES) <= documented
    for union in (messages.AnyClientMessage, messages.AnyServerMessage):
        for cls in union.__args__:
            tag = cls.__struct_config__.tag
            assert f'"t": "{tag}"' in text, tag
    for code, meaning in errors.ERROR_CODES.items():
        assert f"| `{code}` | {meaning} |" in text, code


def test_decoding_rejects_wrong_types_in_nested_settings() -> None:
    with pytest.raises(ProtocolError):
        decode_client(pack({"t": "create", "id": 1, "settings": {"private": "yes"}}))
    assert isinstance(
        msgspec.msgpack.decode(pack({"race_to": 3}), type=messages.RoomSettings),
        messages.RoomSettings,
    )

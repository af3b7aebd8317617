"""The practice table's wire messages: each decodes from the reference codec, round-trips,
and is documented in protocol/README.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack
import pytest

from protocol import errors
from protocol import practice as pm
from protocol.codec import ProtocolError, decode_client, decode_server, encode

README = Path(__file__).resolve().parents[2] / "protocol" / "README.md"

FRAMES: list[dict[str, Any]] = [
    {"t": "practice", "id": 1},
    {"t": "practice", "id": 2, "layout": "AQA", "rules": True},
    {"t": "practice", "id": 3, "drill": "kick"},
    {"t": "practice_put", "id": 4, "ball": 9, "pos": [2.2, 0.3]},
    {"t": "practice_remove", "id": 5, "ball": 0},
    {"t": "practice_load", "id": 6, "drill": "spot_shot"},
    {"t": "practice_rules", "id": 7, "on": False},
    {"t": "practice_undo", "id": 8},
    {"t": "practice_redo", "id": 9},
    {"t": "practice_retry", "id": 10},
    {"t": "practice_preview", "id": 11, "angle": 10.0, "speed": 3.0, "tip": [0.1, -0.2]},
]


def test_every_practice_request_decodes_and_round_trips() -> None:
    tags = set()
    for frame in FRAMES:
        message = decode_client(msgpack.packb(frame, use_bin_type=True))
        assert message.id == frame["id"]
        again = msgpack.unpackb(encode(message))
        assert again["t"] == frame["t"]
        assert decode_client(msgpack.packb(again, use_bin_type=True)) == message
        tags.add(frame["t"])
    assert tags == {cls.__struct_config__.tag for cls in pm.PracticeRequest.__args__}


@pytest.mark.parametrize(
    ("frame", "path"),
    [
        ({"t": "practice_put", "id": 1, "ball": 10, "pos": [1.0, 0.5]}, "$.ball"),
        ({"t": "practice_put", "id": 1, "ball": 1, "pos": [1.0, 1.5]}, "$.pos[1]"),
        ({"t": "practice_remove", "id": 1, "ball": -1}, "$.ball"),
        ({"t": "practice", "id": 1, "drill": "trick_shots"}, "$.drill"),
        ({"t": "practice", "id": 1, "layout": "x" * 201}, "$.layout"),
        ({"t": "practice_preview", "id": 1, "angle": 0, "speed": 13}, "$.speed"),
    ],
)
def test_out_of_range_is_refused_and_names_the_path(frame: dict[str, Any], path: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_client(msgpack.packb(frame, use_bin_type=True))
    assert caught.value.code == errors.BAD_MESSAGE
    assert path in caught.value.message


def test_server_messages_round_trip() -> None:
    view = pm.PracticeView(
        balls=[(0.5, 0.6), None, None, None, None, None, None, None, None, (2.0, 0.3)],
        rules=False,
        in_hand="table",
        is_break=False,
        lowest=9,
        drill=None,
        layout="AQA",
        undo=1,
        redo=0,
        retry=False,
        shots=0,
        player="Ana",
        spectators=0,
    )
    state = pm.PracticeState(room="r1", cause="put", view=view)
    assert decode_server(encode(state)) == state
    raw = msgpack.unpackb(encode(state))
    assert raw["t"] == "practice_state" and raw["view"]["balls"][1] is None


def test_readme_documents_every_practice_message() -> None:
    text = README.read_text(encoding="utf-8")
    for union in (pm.PracticeRequest, pm.PracticeEvent):
        for cls in union.__args__:
            assert f'"t": "{cls.__struct_config__.tag}"' in text, cls
    for drill in pm.DRILLS:
        assert f"| `{drill}` |" in text

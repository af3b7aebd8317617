"""The match format on the wire: a compatible extension. Frames of older clients and
servers still decode, with the defaults; contradictory clock options are refused."""

from __future__ import annotations

import msgpack
import msgspec
import pytest

from protocol import errors
from protocol import messages as m
from protocol.codec import ProtocolError, decode_client


def create(settings: dict[str, object]) -> bytes:
    frame: bytes = msgpack.packb({"t": "create", "id": 1, "settings": settings}, use_bin_type=True)
    return frame


def test_an_older_client_s_create_gets_the_defaults() -> None:
    message = decode_client(create({"race_to": 5, "shot_clock": 30, "extensions": 2}))
    assert isinstance(message, m.Create)
    s = message.settings
    assert (s.first_shot_clock, s.extension_seconds, s.clock_warning, s.aim_aid) == (
        None,
        None,
        10,
        "full",
    )


def test_the_pro_format_decodes() -> None:
    pro = {"shot_clock": 30, "first_shot_clock": 60, "extensions": 1, "extension_seconds": 30}
    message = decode_client(create({**pro, "aim_aid": "none", "clock_warning": 10}))
    assert isinstance(message, m.Create) and message.settings.first_shot_clock == 60


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"first_shot_clock": 60}, "first_shot_clock needs a shot_clock - at `$.settings`"),
        ({"shot_clock": 30, "first_shot_clock": 29}, "first_shot_clock must be at least"),
        ({"extension_seconds": 30}, "extension_seconds needs a shot_clock"),
        ({"shot_clock": 30, "first_shot_clock": 601}, "<= 600 - at `$.settings.first_shot_clock`"),
        ({"clock_warning": 61}, "<= 60 - at `$.settings.clock_warning`"),
        ({"aim_aid": "laser"}, "Invalid enum value 'laser' - at `$.settings.aim_aid`"),
        ({"race_to": 0}, ">= 1 - at `$.settings.race_to`"),
        ({"shot_clock": -30}, ">= 5 - at `$.settings.shot_clock`"),
        ({"break_order": "coin"}, "Invalid enum value 'coin' - at `$.settings.break_order`"),
    ],
)
def test_bad_formats_are_refused_naming_the_option(settings: dict[str, object], words: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode_client(create(settings))
    assert refused.value.code == errors.BAD_MESSAGE
    assert words in str(refused.value)


def test_an_older_server_s_lobby_entry_and_clock_still_decode() -> None:
    info = {
        "room": "r1",
        "name": "",
        "players": [],
        "spectators": 0,
        "score": [0, 0],
        "race_to": 3,
        "status": "waiting",
    }
    assert msgspec.convert(info, m.Info).settings is None
    clock = {"seconds": 30, "deadline": None, "paused": True, "extensions": [1, 1]}
    view = msgspec.convert(clock, m.ClockView)
    assert (view.warning, view.extension, view.first_after) == (10, 0, None)

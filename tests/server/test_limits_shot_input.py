"""Shot inputs past the cue's own limits (O2): a raised cue cannot give the cue ball more
than 13·cos(elevation) m/s, and the tip must land on the ball. Such a shot is refused with
`bad_shot`, a message that states the limit, and nothing changes."""

from __future__ import annotations

import math
from typing import Any

import pytest

from protocol import errors
from protocol import messages as m
from server.app import GameServer
from tests.server import scripting
from tests.server.support import Peer, watched_table


async def room_state(peer: Peer) -> tuple[int, m.RoomView]:
    reply = await peer.request({"t": "resync"})
    assert isinstance(reply, m.Snapshot)
    view = reply.view
    assert view.table is not None
    # The clock's deadline is a reading of the server clock, not room state.
    return reply.seq, m.RoomView(**{**_fields(view), "table": _no_clock(view.table)})


def _fields(view: m.RoomView) -> dict[str, Any]:
    return {name: getattr(view, name) for name in view.__struct_fields__}


def _no_clock(table: m.TableView) -> m.TableView:
    return m.TableView(**{**{n: getattr(table, n) for n in table.__struct_fields__}, "clock": None})


@pytest.mark.parametrize(
    ("elevation", "speed", "tip"),
    [
        (60.0, 6.6, (0.0, 0.0)),  # the limit at 60° is 6.5 m/s
        (30.0, 12.0, (0.0, 0.0)),  # 11.26 m/s at 30°
        (80.0, 2.3, (0.0, 0.3)),  # 2.26 m/s at 80°
        (89.9, 0.05, (0.0, 0.0)),  # 0.023 m/s at 89.9°
        (0.0, 3.0, (0.8, 0.8)),  # each component in range, but off the ball (|tip| ≥ 1)
    ],
)
async def test_o2_shot_past_the_cue_limits_is_refused_and_changes_nothing(
    server: GameServer,
    peers: list[Peer],
    elevation: float,
    speed: float,
    tip: tuple[float, float],
) -> None:
    table = await watched_table(server, peers)
    shooter, other, eve = table.shooter, table.waiting, table.spectator
    before = await room_state(eve)
    shot = {"t": "shot", "angle": 0.0, "speed": speed, "tip": list(tip), "elevation": elevation}
    reply = await shooter.request(shot)
    assert isinstance(reply, m.Error), reply
    assert reply.code == errors.BAD_SHOT
    if math.hypot(*tip) < 1.0:
        limit = 13.0 * math.cos(math.radians(elevation))
        assert "13·cos(elevation)" in reply.msg and f"{limit:.3f}" in reply.msg
    else:
        assert "tip" in reply.msg
    # Nothing changed: the same seq, the same room, nobody was sent anything.
    assert await room_state(eve) == before
    seen = await other.drain(0.2)
    assert [msg for msg in seen if getattr(msg, "seq", -1) > before[0]] == []
    # The same player is still to shoot, and a shot at the limit itself plays.
    assert shooter.table is not None
    playable = scripting.break_shot(shooter.table)
    playable["elevation"] = 60.0
    playable["speed"] = 6.5
    assert isinstance(await shooter.request(playable), m.Ok)
    result = await eve.expect(m.ShotResult)
    assert result.shot.elevation == 60.0 and result.shot.speed == 6.5
    assert result.seq == before[0] + 1

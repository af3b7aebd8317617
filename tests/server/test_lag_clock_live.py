"""O6 on a running server: a player who does not lag within the room's time loses the lag
to one who did (`server.rooms.lagging`; the machine's cases are in
`tests/rooms/test_lag_clock.py`)."""

from __future__ import annotations

import time

from protocol import errors
from protocol import messages as m
from server.app import GameServer
from tests.server.support import Peer, open_peer
from tests.server.test_bad_input import snapshot_of

# The least shot clock there is: the lag's time in this room.
SHORT_CLOCK = 5


async def test_a_lag_never_played_is_lost_when_the_rooms_time_runs_out(
    server: GameServer, peers: list[Peer]
) -> None:
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    eve = await open_peer(server, peers, "Eve")
    created = await ana.request({"t": "create", "settings": {"shot_clock": SHORT_CLOCK}})
    assert isinstance(created, m.Joined)
    assert isinstance(await ben.request({"t": "join", "room": created.room}), m.Joined)
    watching = await eve.request({"t": "join", "room": created.room, "role": "spectator"})
    assert isinstance(watching, m.Joined)
    await ana.request({"t": "ready"})
    started = time.time()
    await ben.request({"t": "ready"})
    view = await snapshot_of(eve)
    assert view.status == "lag" and view.lag_until is not None
    assert abs(view.lag_until / 1000 - (started + SHORT_CLOCK)) < 1.0
    assert isinstance(await ana.request({"t": "lag", "speed": 2.0, "angle": 0.0}), m.Ok)
    # Ben never lags: the room decides when the time is up, and everyone hears it.
    lag = await eve.expect(m.LagResult, timeout=SHORT_CLOCK + 10)
    assert time.time() >= started + SHORT_CLOCK - 0.5
    assert lag.method == "lag" and lag.winner == 0 and lag.reason == "fault"
    assert [v.fault_code for v in lag.lags] == ["", "late"]
    refused = await ben.request({"t": "lag", "speed": 2.0, "angle": 0.0})
    assert isinstance(refused, m.Error) and refused.code == errors.NO_LAG
    view = await snapshot_of(eve)
    assert view.status == "lag" and view.lag_choice == 0 and view.lag_until is None

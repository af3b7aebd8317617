"""A room with a computer player survives a server restart: the bot is back in its seat
from the room's record and plays its turn, and the person comes back to their seat with
their token."""

from __future__ import annotations

from pathlib import Path

import msgspec

from protocol import messages as m
from server.ops.computers import Computers
from server.store import open_store
from tests.server import scripting
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, open_peer

#: The first server's bot takes its time, so the server stops while the bot is to play.
SLOW = Computers(bot_pause=3.0, bot_tables=0, quick_computer_after=0.0)
#: The second server's bot plays a moment after it is back.
BRISK = Computers(bot_pause=1.0, bot_tables=0, quick_computer_after=0.0)


async def play_to_the_table(ana: Peer) -> m.TableView:
    """Ana plays the lag (and breaks if she wins it) until it is the bot's turn at the
    table; the table then."""
    lagged = False
    while True:
        message = ana.inbox.pop(0) if ana.inbox else await ana._read()
        if isinstance(message, m.Snapshot) and message.view.status == "lag":
            view = message.view
            if view.lag_choice == 0:
                assert isinstance(await ana.request({"t": "lag_choice", "choice": "give"}), m.Ok)
            elif view.lag_choice is None and 0 not in view.lagged and not lagged:
                lagged = True
                assert isinstance(await ana.request({"t": "lag", "speed": 1.9}), m.Ok)
            continue
        if isinstance(message, m.LagResult) and message.winner is None:
            lagged = False
            continue
        table = getattr(message, "table", None)
        if isinstance(table, m.TableView) and table.turn is not None:
            return table


async def test_a_computer_room_resumes_after_a_restart(
    make_server: ServerFactory, peers: list[Peer], tmp_path: Path
) -> None:
    path = tmp_path / "rooms.db"
    first = await make_server(store=open_store(f"sqlite://{path}"), computers=SLOW)
    ana = await open_peer(first, peers, "Ana")
    joined = await ana.request({"t": "computer", "level": 1, "race_to": 3})
    assert isinstance(joined, m.Joined)
    table = await play_to_the_table(ana)
    if table.turn == 0:
        # Ana is at the table (the bot gave her the break): she passes the turn over.
        plan = scripting.plan_foul(table)
        assert isinstance(await ana.request(plan.message()), m.Ok)
        table = (await ana.expect(m.ShotResult)).table
    assert table.turn == 1, "the bot is to play"
    stopped_at = ana.seq
    assert stopped_at is not None
    await first.stop()

    # The restart: the room comes back from the file with its bot seated.
    second = await make_server(store=open_store(f"sqlite://{path}"), computers=BRISK)
    again = await Peer.connect(second, "Ana", token=ana.token)
    peers.append(again)
    back = await again.expect(m.Snapshot)
    assert back.room == joined.room
    person, computer = back.view.seats
    assert person is not None and person.player == ana.player and person.connected
    assert computer is not None and computer.computer == 1 and computer.connected
    if back.view.table is not None and back.view.table.turn == 1:
        result = await again.expect(m.ShotResult)
    else:
        # The bot played before Ana was back: the room's log has its shot.
        replay = await second.lobby.replay(joined.room)
        assert replay is not None
        document = msgspec.msgpack.decode(replay, type=m.Replay)
        shots = [msgspec.msgpack.decode(e, type=m.ShotResult) for e in _shot_frames(document)]
        result = shots[-1]
    assert result.room == joined.room
    assert result.shooter == 1 and result.seq > stopped_at


def _shot_frames(document: m.Replay) -> list[bytes]:
    frames = []
    for raw in document.events:
        event = msgspec.msgpack.decode(raw)
        if isinstance(event, dict) and event.get("t") == "shot_result":
            frames.append(bytes(raw))
    return frames

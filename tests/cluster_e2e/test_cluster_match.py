"""Three nodes, one Redis, nginx in front: players on different nodes play a whole match
and a spectator on the third node sees every shot, in order, once."""

from __future__ import annotations

import asyncio

from protocol import messages as m
from tests.cluster_e2e.clients import (
    Table,
    closed,
    fetch_replay,
    open_peer,
    room_events,
    shot_results,
    welcome_of,
)
from tests.cluster_e2e.conftest import Cluster

RACE_TO = 2


async def test_players_on_two_nodes_play_a_match_watched_from_the_third(
    cluster: Cluster,
) -> None:
    n1, n2, n3 = cluster.nodes
    ana = await open_peer(n1.ws_url, "Ana")
    ben = await open_peer(n2.ws_url, "Ben")
    cleo = await open_peer(n3.ws_url, "Cleo")

    listed = await cleo.request({"t": "lobby", "on": True})
    assert isinstance(listed, m.Rooms)
    created = await ana.request(
        {"t": "create", "settings": {"name": "across", "race_to": RACE_TO, "first_break": "draw"}}
    )
    assert isinstance(created, m.Joined)
    room = created.room
    # The lobby is cluster-wide: the room made on n1 shows up on n3.
    while True:
        update = await cleo.expect(m.RoomChanged)
        if update.info.room == room:
            break

    joined = await ben.request({"t": "join", "room": room, "role": "player"})
    assert isinstance(joined, m.Joined) and joined.seat == 1, joined
    watching = await cleo.request({"t": "join", "room": room, "role": "spectator"})
    assert isinstance(watching, m.Joined) and watching.seat is None, watching
    first_look = await cleo.expect(m.Snapshot)
    assert first_look.view.seats[1] is not None and first_look.view.seats[1].name == "Ben"

    assert isinstance(await ana.request({"t": "ready"}), m.Ok)
    assert isinstance(await ben.request({"t": "ready"}), m.Ok)
    draw = await cleo.expect(m.LagResult)
    table = Table(players=[ana, ben], watchers=[cleo])
    await table.begin(draw)

    for _ in range(150):
        if table.table().match_over:
            break
        await table.turn(prefer="nine" if table.shots < 60 else "pocket")
    else:
        raise AssertionError("the match did not finish")

    final = table.table()
    print(f"{table.shots} shots, score {final.score}")
    assert final.match_over and max(final.score) == RACE_TO
    # Everyone ends with the same table, and nobody saw a gap or an event twice.
    assert all(peer.table == final for peer in table.everyone)
    assert all(peer.gaps == 0 for peer in table.everyone)
    for peer in table.everyone:
        seqs = [r.seq for r in shot_results(peer)]
        assert len(seqs) == len(set(seqs)) == table.shots
    assert [r.seq for r in shot_results(cleo)] == [r.seq for r in shot_results(ana)]
    assert [r.traj for r in shot_results(cleo)] == [r.traj for r in shot_results(ben)]

    # The replay, read through nginx from whichever node answers, holds every event.
    document = await asyncio.to_thread(fetch_replay, f"http://127.0.0.1:{cluster.nginx.port}", room)
    replayed = [event["seq"] for event in document["events"]]
    assert replayed == sorted(set(replayed))
    assert set(room_events(cleo)) <= set(replayed)
    assert cluster.trouble() == []


async def test_quick_match_private_rooms_and_seats_are_cluster_wide(cluster: Cluster) -> None:
    n1, n2, n3 = cluster.nodes
    # Quick match: one player waits on n1, the partner comes on n3.
    dana = await open_peer(n1.ws_url, "Dana")
    eve = await open_peer(n3.ws_url, "Eve")
    assert isinstance(await dana.request({"t": "quick", "on": True, "race_to": 1}), m.Ok)
    matched = await eve.request({"t": "quick", "on": True, "race_to": 1})
    assert isinstance(matched, m.Joined) and matched.seat == 1, matched
    seated = await dana.expect(m.Joined)
    assert seated.room == matched.room and seated.seat == 0
    for peer in (dana, eve):
        try:
            snapshot = await peer.expect(m.Snapshot, 5)
        except TimeoutError:
            raise AssertionError(f"{peer.name}: {[type(x).__name__ for x in peer.seen]}") from None
        names = [seat.name if seat else None for seat in snapshot.view.seats]
        assert names == ["Dana", "Eve"]
    # Dana has a seat (in a room owned by n3): n2 knows it too, and gives it back to her.
    again = await open_peer(n2.ws_url, "Dana", token=dana.token)
    assert welcome_of(again).room == matched.room
    back = await again.expect(m.Snapshot)
    assert back.view.seats[0] is not None and back.view.seats[0].connected
    assert await closed(dana) == 1000  # the older connection is replaced, as on one node

    # A private room made on n2 is joined on n1 by its invite code, and only so.
    finn = await open_peer(n2.ws_url, "Finn")
    gus = await open_peer(n1.ws_url, "Gus")
    made = await finn.request({"t": "create", "settings": {"name": "secret", "private": True}})
    assert isinstance(made, m.Joined) and made.code is not None
    refused = await gus.request({"t": "join", "room": made.room, "role": "spectator"})
    # By id alone it is answered as a room that does not exist (the id is no secret).
    assert isinstance(refused, m.Error) and refused.code == "no_such_room", refused
    wrong = await gus.request({"t": "join", "code": "ZZZZZZ", "role": "player"})
    assert isinstance(wrong, m.Error) and wrong.code == "bad_invite", wrong
    joined = await gus.request({"t": "join", "code": made.code, "role": "player"})
    assert isinstance(joined, m.Joined) and joined.room == made.room and joined.seat == 1
    listing = await (await open_peer(n3.ws_url, "Hal")).request({"t": "lobby", "on": True})
    assert isinstance(listing, m.Rooms)
    listed = {info.room for info in listing.rooms}
    assert matched.room in listed and made.room not in listed  # private rooms are not listed
    # Leaving from a relayed node frees the seat everywhere.
    assert isinstance(await gus.request({"t": "leave"}), m.Ok)
    update = await finn.expect(m.Snapshot)
    assert update.view.seats[1] is None
    assert cluster.trouble() == []

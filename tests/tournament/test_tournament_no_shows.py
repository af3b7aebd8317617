"""No-shows and walkovers through a real server on port 0, as a player at a browser meets
them: the winner of a walkover who goes to the bracket page and opens the link to their
next match sits down at that match's table (not back in the finished room), and a player
who sat down at the table and stepped away is no no-show — even if the room closed behind
them, emptied, and had to be made again."""

from __future__ import annotations

import time
from typing import Any

import pytest

from protocol import messages as m
from tests.server.support import Peer
from tests.tournament.support import Factory, api, expect_in, playing, settings, sit, until

#: Seconds a match's room waits for its players here.
NO_SHOW = 3.0


async def started(server: Any, peers: dict[str, Peer], **changes: Any) -> tuple[str, Any]:
    """A single elimination of `peers` (races to one), started: its id, and its view once
    every first-round match has its room."""
    organiser = next(iter(peers.values()))
    body = settings(format="single", cap=len(peers), **changes)
    status, made = await api(server, "POST", "/api/tournaments", body, organiser.token)
    assert status == 201, made
    path = f"/api/tournaments/{made['id']}"
    for name, peer in peers.items():
        assert (await api(server, "POST", f"{path}/register", {"name": name}, peer.token))[0] == 200
    assert (await api(server, "POST", f"{path}/start", token=organiser.token))[0] == 200
    rounds = len(peers) // 2
    view = await until(server, made["id"], lambda v: len(playing(v)) == rounds)
    return made["id"], view


def match_of(view: Any, match_id: str) -> Any:
    return next(match for match in view["matches"] if match["id"] == match_id)


async def test_the_winner_of_a_walkover_sits_down_at_the_next_matchs_table(
    make_server: Factory, opened: list[Peer]
) -> None:
    """The first seed never comes; the fourth waits at the table and wins by walkover,
    then goes to the bracket page (the connection closes). The final's table opens; the
    link to it (a new connection with the same token) seats the player there: the room
    of the match they won keeps no seat to send them back to."""
    server = await make_server(no_show=NO_SHOW)
    peers = {name: await Peer.connect(server, name) for name in ("Ana", "Ben", "Cyril", "Dee")}
    opened.extend(peers.values())
    tournament_id, view = await started(server, peers)
    first = match_of(view, "W1-1")
    assert first["seeds"] == [1, 4]
    # Each slot says where it is filled from: the first round by seed, the final by the
    # first round's winners.
    assert first["feeds"] == [["seed", None], ["seed", None]]
    assert match_of(view, "W2-1")["feeds"] == [["winner", "W1-1"], ["winner", "W1-2"]]
    winner = peers[first["players"][1]]
    assert isinstance(await sit(winner, first["room"]), m.Joined)
    over = await expect_in(winner, m.MatchOver, first["room"])
    assert (over.winner, over.reason) == (1, "forfeit")
    await winner.close()  # "Back to the tournament": the game's page is left

    view = await until(server, tournament_id, lambda v: match_of(v, "W2-1")["status"] == "playing")
    final = match_of(view, "W2-1")
    assert final["players"][0] == winner.name and final["room"] != first["room"]
    _, mine = await api(server, "GET", f"/api/tournaments/{tournament_id}", token=winner.token)
    assert mine["me"] in final["seeds"]  # the page's "Take your seat" is the final's table

    again = await Peer.connect(server, winner.name, winner.token)
    opened.append(again)
    welcome = next(message for message in again.seen if isinstance(message, m.Welcome))
    assert welcome.room is None, "the finished room of the walkover kept the winner's seat"
    joined = await sit(again, final["room"])
    assert isinstance(joined, m.Joined) and joined.room == final["room"], joined
    # The final's other player (seed 2, on by the better seed: nobody came to W1-2) never
    # comes either: the one who did wins it.
    view = await until(server, tournament_id, lambda v: v["status"] == "finished")
    assert match_of(view, "W2-1")["decided"] == "forfeit"
    assert view["champion"] == winner.name


@pytest.mark.parametrize("away", ["leave", "disconnect", "watched"])
async def test_a_player_who_sat_down_and_stepped_away_is_no_no_show(
    make_server: Factory, opened: list[Peer], away: str
) -> None:
    """The second seed sits down at the final's table, then steps away: leaves the table
    (the game's lobby) or closes the page past the grace period. Their room empties and
    closes; the match gets a new one, and when the no-show time is up the player who
    never came forfeits, not the one who did (nor the worse seed for being away). Left
    while someone watches, the room stays open, and says who came all the same."""
    server = await make_server(no_show=NO_SHOW, grace=0.3)
    peers = {name: await Peer.connect(server, name) for name in ("Ana", "Ben")}
    onlooker = await Peer.connect(server, "Eve")
    opened.extend([*peers.values(), onlooker])
    tournament_id, view = await started(server, peers)
    final = match_of(view, "W1-1")
    came = peers[final["players"][1]]  # seed 2: who goes on if nobody came
    if away == "watched":
        watching = {"t": "join", "room": final["room"], "role": "spectator"}
        assert isinstance(await onlooker.request(watching), m.Joined)
    assert isinstance(await sit(came, final["room"]), m.Joined)
    if away == "disconnect":
        await came.close()
    else:
        assert isinstance(await came.request({"t": "leave"}), m.Ok)

    if away != "watched":
        view_time = time.time() * 1000
        view = await until(
            server,
            tournament_id,
            lambda v: v["status"] == "finished" or match_of(v, "W1-1")["room"] != final["room"],
        )
        again = match_of(view, "W1-1")
        assert again["status"] == "playing", "the emptied room was not made again"
        live = dict(again["live"])
        assert live.pop("forfeit_at") > view_time, "the room made again waits afresh"
        assert live == {"seated": [False, False], "started": False, "score": [0, 0]}
    view = await until(server, tournament_id, lambda v: v["status"] == "finished")
    if away == "watched":
        assert match_of(view, "W1-1")["room"] == final["room"]
    decided = match_of(view, "W1-1")
    assert (decided["decided"], decided["winner"]) == ("forfeit", 1)
    assert view["champion"] == came.name


async def test_who_sat_down_and_who_waits_at_the_table(
    make_server: Factory, opened: list[Peer]
) -> None:
    """Both players come; the second seed stays at the table, the first steps away and
    is not back when the no-show time is up: the one waiting wins, and is told there."""
    server = await make_server(no_show=NO_SHOW)
    peers = {name: await Peer.connect(server, name) for name in ("Ana", "Ben")}
    opened.extend(peers.values())
    tournament_id, view = await started(server, peers)
    final = match_of(view, "W1-1")
    stepping, waiting = (peers[name] for name in final["players"])
    assert isinstance(await sit(stepping, final["room"]), m.Joined)
    assert isinstance(await stepping.request({"t": "ready", "ready": False}), m.Ok)
    assert isinstance(await sit(waiting, final["room"]), m.Joined)
    assert isinstance(await waiting.request({"t": "ready", "ready": False}), m.Ok)
    assert isinstance(await stepping.request({"t": "leave"}), m.Ok)
    over = await expect_in(waiting, m.MatchOver, final["room"])
    assert (over.winner, over.reason) == (1, "forfeit")
    view = await until(server, tournament_id, lambda v: v["status"] == "finished")
    assert view["champion"] == waiting.name


async def test_a_matchs_table_is_in_the_lobby_as_soon_as_it_opens(
    make_server: Factory, opened: list[Peer]
) -> None:
    """Players waiting in the lobby learn there that their match's table is open (its
    entry keeps their seats), before either of them sits down: the no-show time runs
    from the table's opening, so an entry that came only with the first player to sit
    left the other to forfeit unawares."""
    server = await make_server()
    ana, ben = [await Peer.connect(server, name) for name in ("Ana", "Ben")]
    opened.extend([ana, ben])
    for peer in (ana, ben):
        assert isinstance(await peer.request({"t": "lobby", "on": True}), m.Rooms)
    _, made = await api(
        server, "POST", "/api/tournaments", settings(format="single", cap=2), ana.token
    )
    path = f"/api/tournaments/{made['id']}"
    for peer in (ana, ben):
        status, _ = await api(server, "POST", f"{path}/register", {"name": peer.name}, peer.token)
        assert status == 200
    assert (await api(server, "POST", f"{path}/start", token=ana.token))[0] == 200
    view = await until(server, made["id"], lambda v: bool(playing(v)))
    room = playing(view)[0]["room"]
    for peer in (ana, ben):
        while True:
            changed = await peer.expect(m.RoomChanged)
            if changed.info.room == room:
                break
        assert changed.info.settings.reserved is not None
        assert peer.player in changed.info.settings.reserved
        assert changed.info.players == [] and changed.info.status == "waiting"


async def test_the_organiser_gives_a_waiting_match_to_the_player_who_came(
    make_server: Factory, opened: list[Peer]
) -> None:
    """The organiser need not wait out the no-show time: a walkover asked for a match whose
    table waits, one player seated and the other never come, ends it at once as the
    wait's end would. Asked by anyone else, or for a match that is not waiting (both came,
    or neither, or play has begun), it is refused and nothing changes."""
    server = await make_server(no_show=300.0)
    peers = {name: await Peer.connect(server, name) for name in ("Ana", "Ben", "Cyril", "Dee")}
    opened.extend(peers.values())
    tournament_id, view = await started(server, peers)
    path = f"/api/tournaments/{tournament_id}/walkover"
    organiser, first, second = peers["Ana"], match_of(view, "W1-1"), match_of(view, "W1-2")
    came = peers[first["players"][1]]
    assert isinstance(await sit(came, first["room"]), m.Joined)
    # Neither player of the second match has come: nobody to give it to.
    status, refused = await api(server, "POST", path, {"match": "W1-2"}, organiser.token)
    assert (status, refused["code"]) == (409, "not_waiting"), refused
    # Not the organiser's to give: refused.
    other = next(peer for peer in peers.values() if peer is not organiser)
    status, refused = await api(server, "POST", path, {"match": "W1-1"}, other.token)
    assert (status, refused["code"]) == (403, "not_organiser"), refused
    for body in ({"match": 1}, {"match": "W1-1", "x": 1}, {}):
        assert (await api(server, "POST", path, body, organiser.token))[0] == 400
    status, refused = await api(server, "POST", path, {"match": "W9-9"}, organiser.token)
    assert (status, refused["code"]) == (400, "no_such_match"), refused
    _, unchanged = await api(server, "GET", f"/api/tournaments/{tournament_id}")
    assert [m_["status"] for m_ in unchanged["matches"] if m_["round"] == 1] == ["playing"] * 2
    # The organiser gives the first match to the one who came: the table is told at once.
    status, given = await api(server, "POST", path, {"match": "W1-1"}, organiser.token)
    assert status == 200, given
    over = await expect_in(came, m.MatchOver, first["room"])
    assert (over.winner, over.reason) == (1, "forfeit")
    decided = match_of(given, "W1-1")
    assert decided["decided"] == "forfeit" and decided["winner"] == 1
    assert match_of(given, "W1-2")["status"] == "playing"
    # Asked again: that match is no longer waiting.
    status, refused = await api(server, "POST", path, {"match": "W1-1"}, organiser.token)
    assert (status, refused["code"]) == (409, "not_waiting"), refused
    assert second["room"] is not None


async def test_a_table_neither_player_came_to_ends_with_the_brackets_result(
    make_server: Factory, opened: list[Peer]
) -> None:
    """Neither player of a match comes: the bracket sends the better seed on, and the table
    ends the same way — whoever watches it is told the match is over, won by forfeit by
    that seed; once they go the room closes, and neither player can sit down there. (It
    stayed open and waiting: its kept seats called both players to it from the lobby,
    and a match they began there named the other one champion.)"""
    server = await make_server(no_show=2 * NO_SHOW)  # (time for Eve to come and watch)
    ana, ben, eve = [await Peer.connect(server, name) for name in ("Ana", "Ben", "Eve")]
    opened.extend([ana, ben, eve])
    tournament_id, view = await started(server, {"Ana": ana, "Ben": ben})
    final = match_of(view, "W1-1")
    watched = await eve.request({"t": "join", "room": final["room"], "role": "spectator"})
    assert isinstance(watched, m.Joined), watched
    over = await expect_in(eve, m.MatchOver, final["room"])
    view = await until(server, tournament_id, lambda v: v["status"] == "finished")
    decided = match_of(view, "W1-1")
    assert decided["decided"] == "forfeit" and decided["no_show"] == [True, True]
    assert (over.winner, over.reason) == (decided["winner"], "forfeit")
    assert view["champion"] == final["players"][decided["winner"]]
    assert isinstance(await eve.request({"t": "leave"}), m.Ok)
    # The lobby says who went on, by the names the seats were kept under.
    listed = await eve.request({"t": "lobby", "on": True})
    assert isinstance(listed, m.Rooms)
    assert final["room"] not in [info.room for info in listed.rooms]
    for peer in (ana, ben):
        refused = await peer.request({"t": "join", "room": final["room"], "role": "player"})
        assert isinstance(refused, m.Error) and refused.code == "no_such_room", refused


async def test_a_forfeit_told_while_the_table_was_elsewhere_is_told_again(
    make_server: Factory, opened: list[Peer], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The node that drives the tournament tells a match's table of a forfeit only if the
    room is its own; one that was not (its node died, the room came back elsewhere) is
    told on a later round, until its table has ended: here the first telling is lost, and
    the player waiting there is told all the same."""
    server = await make_server(no_show=NO_SHOW)
    peers = {name: await Peer.connect(server, name) for name in ("Ana", "Ben", "Cyril", "Dee")}
    opened.extend(peers.values())
    told: list[tuple[str, int]] = []
    walkover = server.lobby.walkover

    def lost_once(room: str, absent: int) -> bool:  # (each room's first telling lost)
        told.append((room, absent))
        return False if told.count((room, absent)) == 1 else walkover(room, absent)

    monkeypatch.setattr(server.lobby, "walkover", lost_once)
    _, view = await started(server, peers)
    first = match_of(view, "W1-1")
    waiting = peers[first["players"][1]]
    assert isinstance(await sit(waiting, first["room"]), m.Joined)
    over = await expect_in(waiting, m.MatchOver, first["room"])
    assert (over.winner, over.reason) == (1, "forfeit")
    assert [t for t in told if t[0] == first["room"]][:2] == [(first["room"], 0)] * 2

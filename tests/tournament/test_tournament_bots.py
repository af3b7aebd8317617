"""Computer players in a tournament, through a real server on port 0: an 8-place double
elimination with three scripted WebSocket players and five computers filling the empty
places, played to the end. A person meets a computer in a room with the computer seated
in its kept seat (and concedes); two computers play their match out between themselves."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine
from typing import Any, TypeVar

import msgspec
import pytest

from protocol import messages as m
from server.ops.computers import Computers
from server.players.ratings import bot_rating
from server.tournament import bracket
from server.tournament.model import Entrant, Races
from server.tournament.service import computer_entrants
from tests.server.support import Peer
from tests.tournament.support import Factory, api, expect_in, play_match, sit
from tests.tournament.support import settings as tournament_settings

T = TypeVar("T")

#: Quick computers: no pause after a shot has played out, no bot tables of their own.
QUICK = Computers(bot_workers=0, bot_pause=0.0, bot_tables=0, quick_computer_after=0.0)


@pytest.fixture(scope="module")
def thinkers() -> int:
    """The computers decide in a thread of the test's process."""
    return 0


def settings(**changes: Any) -> dict[str, Any]:
    """A tournament whose empty places computers of level 1 take."""
    return tournament_settings(**{"name": "Split Open", "bots": True, "bot_level": 1, **changes})


async def concede_to_computer(room: str, peer: Peer, slot: int) -> m.MatchOver:
    """`peer` sits in its kept seat (the computer sits in the other already), starts,
    and concedes the match once the breaker is chosen (or sees the computer win first)."""
    joined = await sit(peer, room)
    assert isinstance(joined, m.Joined) and joined.seat == slot, joined
    assert isinstance(await peer.request({"t": "ready"}), m.Ok)
    draw = await expect_in(peer, m.LagResult, room)
    assert draw.method == "draw" and draw.winner is not None
    if draw.winner == slot:
        assert isinstance(await peer.request({"t": "lag_choice", "choice": "break"}), m.Ok)
    ruling = await expect_in(peer, m.Ruling, room)
    assert ruling.action == "lag_choice"
    conceded = await peer.request({"t": "concede", "what": "match"})
    assert isinstance(conceded, m.Ok | m.Error), conceded
    end = await expect_in(peer, m.MatchOver, room)
    assert end.winner == 1 - slot, "the computer wins the match"
    assert isinstance(await peer.request({"t": "leave"}), m.Ok)
    return end


async def in_turn(before: list[asyncio.Task[Any]], work: Coroutine[Any, Any, T]) -> T:
    """A person's next match starts once the script of their last one is through (its
    `leave` answered): two scripts reading one connection at once would take each other's
    replies (the table of the next match can open before the last one's `leave`)."""
    await asyncio.gather(*before, return_exceptions=True)  # their failures are raised apart
    return await work


async def test_computers_fill_a_double_elimination_to_the_end(
    make_server: Factory, opened: list[Peer]
) -> None:
    server = await make_server(computers=QUICK)
    organiser = await Peer.connect(server, "Org")
    opened.append(organiser)
    for bad in ({"bot_level": 0}, {"bot_level": 6}, {"bot_level": "1"}, {"bots": False}):
        status, answer = await api(
            server, "POST", "/api/tournaments", settings(**bad), organiser.token
        )
        assert status == 400 and answer["error"], (bad, answer)
    # (eight places: five computers, so that two of them meet in the first round at least)
    status, made = await api(server, "POST", "/api/tournaments", settings(cap=8), organiser.token)
    assert status == 201 and made["bots"] is True and made["bot_level"] == 1, made
    path = f"/api/tournaments/{made['id']}"
    people: dict[str, Peer] = {}
    for name in ("Ana", "Ben", "Cyril"):
        peer = await Peer.connect(server, name)
        opened.append(peer)
        people[name] = peer
        status, _ = await api(server, "POST", f"{path}/register", {"name": name}, peer.token)
        assert status == 200
    assert (await api(server, "POST", f"{path}/start", token=organiser.token))[0] == 200

    draw = random.Random(7)
    handled: set[str] = set()
    tasks: list[asyncio.Task[Any]] = []
    #: Each person's latest script: their next match's waits for it.
    last: dict[str, asyncio.Task[Any]] = {}
    view: Any = None
    loop = asyncio.get_running_loop()
    # Within the test's own time limit, so a stuck match is named rather than timed out.
    deadline = loop.time() + 200
    while loop.time() < deadline:
        status, view = await api(server, "GET", path)
        assert status == 200
        if view["status"] == "finished":
            break
        for task in tasks:  # a player's script that failed says why at once
            if task.done() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
        for match in view["matches"]:
            if match["status"] != "playing" or match["id"] in handled or match["room"] is None:
                continue
            handled.add(match["id"])
            names = match["players"]
            computers = match["computers"]
            if computers[0] is not None and computers[1] is not None:
                continue  # two computers play it out between themselves
            if computers[0] is None and computers[1] is None:
                pair = (people[names[0]], people[names[1]])
                work = play_match(match["room"], pair, draw.randrange(2))
                who = list(names)
            else:
                slot = 0 if computers[0] is None else 1
                work = concede_to_computer(match["room"], people[names[slot]], slot)
                who = [names[slot]]
            task = asyncio.create_task(in_turn([last[n] for n in who if n in last], work))
            tasks.append(task)
            last.update(dict.fromkeys(who, task))
        await asyncio.sleep(0.05)
    unfinished = [x for x in view["matches"] if x["status"] not in ("done", "void")]
    rooms = [server.lobby.rooms.get(x["room"]) for x in unfinished if x["room"]]
    assert view is not None and view["status"] == "finished", (
        f"stuck: {unfinished}; their rooms: {[r.view() if r else None for r in rooms]}"
    )
    for task in tasks:
        await task

    entrants = view["entrants"]
    assert len(entrants) == 8
    computers = [e for e in entrants if e["bot"]]
    assert len(computers) == 5
    assert all(e["level"] == 1 and e["name"].startswith("Bot ") for e in computers)
    assert all(e["level"] is None for e in entrants if not e["bot"])
    matches = [x for x in view["matches"] if x["status"] == "done"]
    assert len(matches) in (14, 15)
    between_computers = [x for x in matches if None not in x["computers"]]
    assert between_computers, "some matches were between two computers"
    for match in between_computers:
        # Played at the table to the end of its race of one: nobody conceded or forfeited.
        assert match["decided"] == "played", match
        assert sorted(match["score"]) == [0, 1], match
    standings = view["standings"]
    assert len(standings) == 8
    assert sorted(row["name"] for row in standings) == sorted(e["name"] for e in entrants)
    labelled = {row["name"]: (row["bot"], row["level"]) for row in standings}
    for entrant in entrants:
        assert labelled[entrant["name"]] == (entrant["bot"], entrant["level"])
    # The people conceded every match against a computer: a computer is the champion.
    assert labelled[view["champion"]] == (True, 1)
    assert standings[0]["place"] == "1" and standings[0]["bot"] is True
    # The list of tournaments says the champion is a computer, and its level.
    _, listed = await api(server, "GET", "/api/tournaments")
    mine = next(row for row in listed if row["id"] == made["id"])
    assert (mine["champion"], mine["champion_level"]) == (view["champion"], 1)


def test_computer_entrants_take_the_empty_places_at_a_level_or_spread() -> None:
    made = bracket.new_tournament(
        "t1",
        "Spread",
        format="double",
        cap=12,
        races=Races(),
        seeding="rating",
        seed=1,
        starts_at=0,
        organiser="o",
        bots=True,
    )
    field = bracket.register(made, Entrant("p_1", "Bot 1"))
    field = bracket.register(field, Entrant("p_2", "Ana"))
    spread = computer_entrants(field)
    assert [e.level for e in spread] == [5, 5, 4, 4, 3, 3, 2, 2, 1, 1]
    # Named by level, as computers are everywhere; a name already in the field is skipped;
    # every computer says what it is.
    assert [e.name for e in spread] == [
        *("Bot 5", "Bot 5 B", "Bot 4", "Bot 4 B", "Bot 3", "Bot 3 B"),
        *("Bot 2", "Bot 2 B", "Bot 1 B", "Bot 1 C"),
    ]
    assert len({e.player for e in spread}) == len(spread)
    assert all(e.bot and e.player.startswith("bot-") for e in spread)
    assert [e.rating for e in spread[::2]] == [bot_rating(level) for level in (5, 4, 3, 2, 1)]
    fixed = computer_entrants(msgspec.structs.replace(field, bot_level=3))
    assert {e.level for e in fixed} == {3} and len(fixed) == 10
    # A field of 64 at one level: every name its own, past Z too.
    many = computer_entrants(msgspec.structs.replace(field, cap=64, bot_level=3))
    names = [e.name for e in many]
    assert len(set(names)) == len(names) == 62
    assert names[:3] == ["Bot 3", "Bot 3 B", "Bot 3 C"] and "Bot 3 BA" in names
    started = bracket.start(field, spread)
    assert len(started.entrants) == 12 and [e.level for e in started.entrants[1:3]] == [0, 5]

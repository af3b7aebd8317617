"""The list of tournaments (`GET /api/tournaments`) marks the reader's own rows, and is
still given, unmarked, when who asks cannot be told (the accounts' store away): it needed
no accounts before it had marks."""

from __future__ import annotations

import json

from server.edge.apiconn import ApiRequest
from server.players.store import PlayerStoreError
from server.tournament import bracket
from server.tournament.api import Reader, TournamentApi
from server.tournament.bracket import new_tournament, register
from server.tournament.model import Entrant, Format, Races, Tournament


def one_tournament(fmt: Format = "single") -> Tournament:
    made = new_tournament(
        "t1",
        "Zagreb Open",
        format=fmt,
        cap=4,
        races=Races(),
        seeding="random",
        seed=3,
        starts_at=1000,
        organiser="org",
    )
    return register(made, Entrant(player="p-ana", name="Ana"))


class Listing:
    """The one thing the route asks of the tournaments' service: the newest tournaments."""

    def __init__(self, tournaments: list[Tournament]) -> None:
        self.tournaments = tournaments

    async def listing(self, limit: int) -> list[Tournament]:
        return self.tournaments[:limit]


async def nobody(_: object) -> None:
    return None


def listing_api(reader_of: object, listed: Tournament | None = None) -> TournamentApi:
    return TournamentApi(
        Listing([listed or one_tournament()]),  # type: ignore[arg-type]
        others=None,  # type: ignore[arg-type]
        reader_of=reader_of,  # type: ignore[arg-type]
        rating_of=nobody,  # type: ignore[arg-type]
        name_owner=nobody,  # type: ignore[arg-type]
    )


def get(token: str | None) -> ApiRequest:
    headers = {} if token is None else {"authorization": f"Bearer {token}"}
    return ApiRequest(method="GET", path="/api/tournaments", query="", headers=headers)


async def place_of(player: str, tournament: Tournament) -> object:
    """The `place` the list gives `player` (their token is their id here)."""

    async def reader(token: str) -> Reader | None:
        return Reader(player=token, account=None)

    answer = await listing_api(reader, tournament).handle(get(player))
    return json.loads(answer.body)[0]["place"]


async def test_the_list_marks_the_readers_own_and_survives_the_accounts_store_away() -> None:
    async def ana(token: str) -> Reader | None:
        return Reader(player="p-ana", account=None) if token == "ana" else None

    answer = await listing_api(ana).handle(get("ana"))
    row = json.loads(answer.body)[0]
    assert answer.status == 200 and (row["entered"], row["yours"]) == (True, False)

    async def away(token: str) -> Reader | None:
        raise PlayerStoreError("the accounts' store is down")

    answer = await listing_api(away).handle(get("ana"))
    assert answer.status == 200, answer
    row = json.loads(answer.body)[0]
    assert (row["name"], row["entered"], row["yours"]) == ("Zagreb Open", False, False)
    # A route that needs to know who asks still says it cannot tell.
    register_as_ana = ApiRequest(
        method="POST",
        path="/api/tournaments/t1/register",
        query="",
        headers={"authorization": "Bearer ana", "content-type": "application/json"},
        body=b'{"name": "Ana"}',
    )
    assert (await listing_api(away).handle(register_as_ana)).status == 503


async def test_the_list_gives_the_readers_place_once_it_is_known() -> None:
    """A reader knocked out in the first round of four reads their shared place (3–4) at
    once; the finalists read theirs when the final is played; a reader still in, or a
    stranger, reads none."""
    tournament = one_tournament()
    for player, name in (("p-ben", "Ben"), ("p-cy", "Cy"), ("p-di", "Di")):
        tournament = register(tournament, Entrant(player=player, name=name))
    tournament = bracket.start(tournament)
    first = [m for m in tournament.matches if m.round == 1]
    tournament = bracket.report(tournament, first[0].id, 0, (3, 1))
    played = tournament.match(first[0].id)
    assert played.loser_entrant is not None and played.winner_entrant is not None
    out = tournament.entrants[played.loser_entrant].player
    still_in = tournament.entrants[played.winner_entrant].player
    assert await place_of(out, tournament) == "3–4"
    assert await place_of(still_in, tournament) is None
    assert await place_of("p-stranger", tournament) is None
    tournament = bracket.report(tournament, first[1].id, 1, (3, 2))
    (final,) = bracket.ready(tournament)
    tournament = bracket.report(tournament, final.id, 1, (5, 4))
    assert tournament.status == "finished"
    champion = tournament.entrants[tournament.match(final.id).winner_entrant or 0].player
    runner_up = tournament.entrants[tournament.match(final.id).loser_entrant or 0].player
    assert await place_of(champion, tournament) == "1"
    assert await place_of(runner_up, tournament) == "2"
    assert await place_of(out, tournament) == "3–4"


async def test_a_double_eliminations_loser_has_a_place_only_once_out() -> None:
    """In a double elimination of four, losing on the winners' side puts a player in the
    losers' bracket, not out: no place yet; losing there gives the shared or single place;
    the grand final's reset decides first and second."""
    tournament = one_tournament("double")
    for player in ("p-b", "p-c", "p-d"):
        tournament = register(tournament, Entrant(player=player, name=player[2:].upper()))
    tournament = bracket.start(tournament)

    def player_of(entrant: int | None) -> str:
        assert entrant is not None
        return tournament.entrants[entrant].player

    first = tournament.match("W1-1")
    tournament = bracket.report(tournament, first.id, 0, (3, 1))
    dropped = player_of(tournament.match(first.id).loser_entrant)
    assert await place_of(dropped, tournament) is None  # to the losers' bracket, still in
    # Every open match won by its first slot, to the grand final's first match.
    while tournament.status == "running" and not any(
        m.id == "GF1" for m in bracket.ready(tournament)
    ):
        match = bracket.ready(tournament)[0]
        tournament = bracket.report(tournament, match.id, 0, (3, 0))
    assert [await place_of(e.player, tournament) for e in tournament.entrants].count("4") == 1
    assert [await place_of(e.player, tournament) for e in tournament.entrants].count("3") == 1
    # The losers' side's winner takes the first grand final, then the reset.
    tournament = bracket.report(tournament, "GF1", 1, (5, 4))
    gf2 = tournament.match("GF2")
    assert gf2.status in ("ready", "playing")
    tournament = bracket.report(tournament, "GF2", 1, (5, 3))
    assert tournament.status == "finished"
    assert await place_of(player_of(gf2.players[1]), tournament) == "1"
    assert await place_of(player_of(gf2.players[0]), tournament) == "2"

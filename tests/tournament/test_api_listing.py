"""The list of tournaments (`GET /api/tournaments`) marks the reader's own rows, and is
still given, unmarked, when who asks cannot be told (the accounts' store away): it needed
no accounts before it had marks."""

from __future__ import annotations

import json

from server.edge.apiconn import ApiRequest
from server.players.store import PlayerStoreError
from server.tournament.api import Reader, TournamentApi
from server.tournament.bracket import new_tournament, register
from server.tournament.model import Entrant, Races, Tournament


def one_tournament() -> Tournament:
    made = new_tournament(
        "t1",
        "Zagreb Open",
        format="single",
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


def listing_api(reader_of: object) -> TournamentApi:
    return TournamentApi(
        Listing([one_tournament()]),  # type: ignore[arg-type]
        others=None,  # type: ignore[arg-type]
        reader_of=reader_of,  # type: ignore[arg-type]
        rating_of=nobody,  # type: ignore[arg-type]
        name_owner=nobody,  # type: ignore[arg-type]
    )


def get(token: str | None) -> ApiRequest:
    headers = {} if token is None else {"authorization": f"Bearer {token}"}
    return ApiRequest(method="GET", path="/api/tournaments", query="", headers=headers)


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

"""One contract for every `TournamentStore`: SQLite on a real file, Redis on a real server."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from server.tournament.bracket import new_tournament, register, report, start
from server.tournament.model import Entrant, Races, Tournament, TournamentError
from server.tournament.store import TournamentExists, TournamentStore
from tests.redis_cluster import RedisCluster
from tests.tournament.conftest import open_store, store_source


def cup(tournament_id: str = "t1", cap: int = 8) -> Tournament:
    return new_tournament(
        tournament_id,
        "Split Cup",
        format="double",
        cap=cap,
        races=Races(),
        seeding="random",
        seed=3,
        starts_at=0,
        organiser="org",
    )


async def test_create_get_update_list(tournament_store: TournamentStore) -> None:
    assert await tournament_store.get("t1") is None
    await tournament_store.create(cup("t1"), created=1)
    await tournament_store.create(cup("t2"), created=2)
    with pytest.raises(TournamentExists):
        await tournament_store.create(cup("t1"), created=3)
    assert await tournament_store.get("t1") == cup("t1")
    updated = await tournament_store.update("t1", lambda t: register(t, Entrant("a", "Ana")))
    assert updated is not None and (await tournament_store.get("t1")) == updated
    assert await tournament_store.update("nope", lambda t: t) is None
    assert [t.id for t in await tournament_store.listing(10)] == ["t2", "t1"]
    assert [t.id for t in await tournament_store.listing(1)] == ["t2"]
    assert {t.id for t in await tournament_store.active()} == {"t1", "t2"}


async def test_a_refused_change_writes_nothing(tournament_store: TournamentStore) -> None:
    await tournament_store.create(cup(cap=2), created=1)
    for player in ("a", "b"):
        await tournament_store.update("t1", lambda t, p=player: register(t, Entrant(p, p)))
    with pytest.raises(TournamentError):
        await tournament_store.update("t1", lambda t: register(t, Entrant("c", "c")))
    stored = await tournament_store.get("t1")
    assert stored is not None and [e.player for e in stored.entrants] == ["a", "b"]


async def test_finished_tournaments_leave_the_active_set(
    tournament_store: TournamentStore,
) -> None:
    await tournament_store.create(cup(), created=1)
    await tournament_store.update("t1", lambda t: register(t, Entrant("a", "Ana")))
    await tournament_store.update("t1", lambda t: register(t, Entrant("b", "Bo")))
    running = await tournament_store.update("t1", start)
    assert running is not None and running.status == "running"
    assert [t.id for t in await tournament_store.active()] == ["t1"]
    done = await tournament_store.update("t1", lambda t: report(t, "W1-1", 0, (3, 0)))
    done = await tournament_store.update("t1", lambda t: report(t, "GF1", 0, (5, 0)))
    assert done is not None and done.status == "finished"
    assert await tournament_store.active() == []
    assert [t.id for t in await tournament_store.listing(5)] == ["t1"]


async def test_concurrent_registrations_are_all_kept(
    store_kind: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Two store objects on the same file or Redis (two nodes, say) register at once:
    no registration is lost and the cap holds."""
    redis = store_source(store_kind, request)
    if isinstance(redis, RedisCluster):
        redis.flush()
    first, second = open_store(store_kind, tmp_path, redis), open_store(store_kind, tmp_path, redis)
    try:
        await first.create(cup(cap=20), created=1)

        async def join(store: TournamentStore, player: str) -> None:
            with contextlib.suppress(TournamentError):
                await store.update("t1", lambda t: register(t, Entrant(player, player)))

        await asyncio.gather(*(join(first if n % 2 else second, f"p{n}") for n in range(30)))
        stored = await second.get("t1")
        assert stored is not None and len(stored.entrants) == 20
        assert len({e.player for e in stored.entrants}) == 20
    finally:
        await first.close()
        await second.close()


async def test_a_tournament_survives_reopening(
    store_kind: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    redis = store_source(store_kind, request)
    if isinstance(redis, RedisCluster):
        redis.flush()
    store = open_store(store_kind, tmp_path, redis)
    await store.create(cup(), created=1)
    await store.update("t1", lambda t: register(t, Entrant("a", "Ana")))
    await store.close()
    if redis is not None:
        redis.restart()  # a clean stop and start: the AOF brings it back
    again = open_store(store_kind, tmp_path, redis)
    try:
        stored = await again.get("t1")
        assert stored is not None and [e.name for e in stored.entrants] == ["Ana"]
    finally:
        await again.close()


async def test_one_node_leads_at_a_time(store_kind: str, tournament_store: TournamentStore) -> None:
    assert await tournament_store.lead("a", 5.0)
    assert await tournament_store.lead("a", 5.0)  # renewed
    if store_kind in ("redis", "redis-cluster"):
        assert not await tournament_store.lead("b", 5.0)
        assert await tournament_store.lead("b", 0.05) is False
        assert await tournament_store.lead("a", 0.05)
        await asyncio.sleep(0.2)
        assert await tournament_store.lead("b", 5.0)  # a's lead ran out

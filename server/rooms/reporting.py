"""Rooms hand their results to the players service, and show the ratings it keeps.

A room's machine says that a rack or a match has ended with a `Report` effect, after
the step's `Save`: the result is stored with the room's record before anyone hears of
it. The actor passes it here, and it is handed over without the room waiting (a room
must never wait on the players' store): tried again a few times if the store fails, and
handed over again whenever the room is brought back from its record (after a restart,
or on another node), which keeps its latest results. The players service counts each
result once, by (room, match, rack) and (room, match), so a repeat changes nothing:
ratings and leaderboards move exactly once for every rack that ended.

Ratings go the other way: when a player takes a seat, and after each rack they played
is counted, their rating is looked up and posted to the room as a `Rated` command (a
rack's two players' in one), so that the change happens in the room's own task like
every other.

`ResultSink` is the seam: `server.players.service.Players` in the server, chosen once
at start-up; `NoResults` keeps nothing (a lobby built without a players service).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, Protocol

from server.players.results import MatchResult, PlayerRating, RackResult
from server.rooms.seams import Command, Rated, Rating

log = logging.getLogger(__name__)

#: Seconds to wait before each new try of a hand-over the store refused.
RETRY_DELAYS = (0.5, 2.0, 5.0)


class ResultSink(Protocol):
    """What rooms need of the players service."""

    async def rack_finished(self, result: RackResult) -> object:
        """Count a finished rack (once: a repeat of its key changes nothing)."""

    async def match_finished(self, result: MatchResult) -> object:
        """Record a finished match (once)."""

    async def rating(self, player: str) -> PlayerRating | None:
        """The rating shown next to `player`'s name (None: a guest)."""


class NoResults:
    """A sink that keeps nothing and knows no ratings."""

    async def rack_finished(self, result: RackResult) -> object:
        return None

    async def match_finished(self, result: MatchResult) -> object:
        return None

    async def rating(self, player: str) -> PlayerRating | None:
        return None


class Postable(Protocol):
    """A room, as far as ratings reach it."""

    @property
    def id(self) -> str: ...

    def post(self, command: Command) -> None: ...


class Reporter:
    """Hands results over and looks ratings up in tasks of its own (see the module's
    docstring); `drain` waits for what is under way (at shutdown)."""

    def __init__(self, sink: ResultSink, retry_delays: tuple[float, ...] = RETRY_DELAYS) -> None:
        self.sink = sink
        self.retry_delays = retry_delays
        self._tasks: set[asyncio.Task[None]] = set()

    def report(self, room: Postable, result: RackResult | MatchResult) -> None:
        self._spawn(self._hand_over(room, result))

    def look_up(self, room: Postable, *players: str) -> None:
        self._spawn(self._look_up(room, *players))

    async def drain(self, timeout: float = 5.0) -> None:
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _hand_over(self, room: Postable, result: RackResult | MatchResult) -> None:
        for delay in (*self.retry_delays, None):
            try:
                if isinstance(result, RackResult):
                    await self.sink.rack_finished(result)
                else:
                    await self.sink.match_finished(result)
                break
            except Exception as exc:  # the store failed: try again, then give up loudly
                if delay is None:
                    # The room's record still holds the result: it is handed over again
                    # when the room is next brought back.
                    log.error("room %s: could not hand over a result: %s", room.id, exc)
                    return
                await asyncio.sleep(delay)
        if isinstance(result, RackResult):
            await self._look_up(room, result.winner, result.loser)

    async def _look_up(self, room: Postable, *players: str) -> None:
        """Posts the players' ratings in one command: a rack's two new ratings are shown
        together (the result's line says both changes)."""
        told: list[Rating] = []
        for player in players:
            try:
                rating = await self.sink.rating(player)
            except Exception as exc:
                log.warning("room %s: no rating for a player: %s", room.id, exc)
                continue
            if rating is not None:
                told.append(Rating(player, rating.rating, rating.provisional))
        if told:
            room.post(Rated(tuple(told)))

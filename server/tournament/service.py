"""Tournaments at work: the I/O shell around the pure core (`server.tournament.bracket`).

What the API asks (create, register, unregister, start now) is one atomic change of the
store each. Besides, one node of the cluster — whichever holds the store's lead, a lone
node always — drives the tournaments, every `tick` seconds:

- a tournament still registering starts at its start time (computer players filling
  the empty places first, if the organiser allows them and the server has them:
  `computer_entrants`);
- each match whose two players are known gets a room, made through the lobby's own
  room-making with the stage's race and both seats kept for its players (seat 0 for the
  match's first slot), who join it by its id (the bracket page links it);
- a match whose room has waited `--tournament-no-show` seconds without both players
  sitting down is forfeited by whoever has not come (`bracket.no_shows`: a player who
  sat down and stepped away came all the same; by both: the better seed goes on); a
  computer player always comes: it sits down as soon as the room is made, and again if
  the room came back from its record without it;
- a match whose room ended is taken from the room's stored record, should the room's
  own report (below) have been lost with its node; a room that no longer exists before
  play began (made, never entered, lost with its node; or closed, emptied by whoever
  sat down and left) is made again, who had come remembered.

Every node hears of the matches its own rooms end (`MatchEndInbox`, the lobby's
`MatchEnds`) and reports them to the store at once, whoever drives. Reporting is
idempotent: a match already decided takes no second result.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import string
import time
from collections.abc import Callable
from typing import Protocol

import msgspec

from protocol import messages as m
from server.players.ratings import bot_rating
from server.rooms.model import RoomRecord, decode_record
from server.rooms.seams import MatchEnd
from server.store import Store, StoreError
from server.tournament import bracket
from server.tournament.live import NOBODY_YET, LiveMatch, live_match
from server.tournament.model import (
    BOT_LEVELS,
    Decided,
    Entrant,
    FirstBreak,
    Format,
    Match,
    Races,
    Seeding,
    Tournament,
    TournamentError,
)
from server.tournament.store import Change, TournamentStore, TournamentStoreError

log = logging.getLogger(__name__)


class BotsUnavailable(Exception):
    """Computer players cannot take a seat on this server."""


class BotSeats(Protocol):
    """How a computer player takes a tournament seat: sits in the match room `room` at
    `seat` as entrant `player` (shown as `name`, playing at `level`), and plays the match
    out. Chosen once at start-up (`server.app`): `ComputerSeats` through the lobby, or
    `NoBots` where no computer may play."""

    @property
    def available(self) -> bool: ...

    async def seat_bot(self, room: str, seat: int, player: str, name: str, level: int) -> None:
        """Raises `BotsUnavailable` if the computer could not sit down there."""


class NoBots:
    """This server has no computer players: organisers may not ask for them."""

    available = False

    async def seat_bot(self, room: str, seat: int, player: str, name: str, level: int) -> None:
        raise BotsUnavailable("computer players are not available on this server")


class ComputerRooms(Protocol):
    """The lobby's computer-seat path (`server.rooms.lobby.Lobby.seat_computer`)."""

    def seat_computer(
        self, room_id: str, seat: int, player: str, name: str, level: int
    ) -> bool: ...


class ComputerSeats:
    """Computer players sit through the lobby's own computer seat: the room's kept seat
    is taken by a `BotMember` (`server.rooms.bots`) playing as the entrant, and the room
    asks it to act like any computer. The rooms of a tournament are made by the node that
    drives, so the room is on this node; one that has moved elsewhere meanwhile (its node
    died) is asked again on the next round, by whichever node drives then."""

    available = True

    def __init__(self, rooms: ComputerRooms) -> None:
        self.rooms = rooms

    async def seat_bot(self, room: str, seat: int, player: str, name: str, level: int) -> None:
        if not self.rooms.seat_computer(room, seat, player, name, level):
            raise BotsUnavailable(f"room {room} is not on this node")


#: Player ids of computer entrants: `bot-<n>` (never a person's: those have no hyphen).
BOT_ENTRANT_PREFIX = "bot-"


def _copy_mark(copy: int) -> str:
    """The letters that tell the `copy`-th computer of a level from the first: B, C, … Z,
    then BA, BB, … (a field of 64 may hold 63 of one level)."""
    letters = string.ascii_uppercase
    mark = ""
    while True:
        copy, digit = divmod(copy, len(letters))
        mark = letters[digit] + mark
        if copy == 0:
            return mark


def computer_entrants(tournament: Tournament) -> list[Entrant]:
    """The computer players who fill the empty places at the start, each at the organiser's
    level, or spread evenly over the levels from the strongest to the weakest (level
    `5 - 5i // n` for the i-th of n, so 16 computers make four of 5 … three of 1; the
    first filled are the strongest). Named as a computer is everywhere, by its level —
    `Bot 5` —, a second and later one of the same level `Bot 5 B`, `Bot 5 C`, … (a letter,
    not a number a reader would take for a seed; a name already in the field is skipped).
    Each carries its level's fixed rating
    (`server.players.ratings`): seeded by rating, computers sit by their strength."""
    free = tournament.cap - len(tournament.entrants)
    taken = {entrant.name.casefold() for entrant in tournament.entrants}
    extra: list[Entrant] = []
    for index in range(max(0, free)):
        if tournament.bot_level in BOT_LEVELS:
            level = tournament.bot_level
        else:
            level = BOT_LEVELS[-1] - (len(BOT_LEVELS) * index) // free
        name, copy = f"Bot {level}", 0
        while name.casefold() in taken:
            copy += 1
            name = f"Bot {level} {_copy_mark(copy)}"
        taken.add(name.casefold())
        extra.append(
            Entrant(
                f"{BOT_ENTRANT_PREFIX}{index + 1}",
                name,
                rating=bot_rating(level),
                bot=True,
                level=level,
            )
        )
    return extra


class MatchRooms(Protocol):
    """What the tournaments need of the lobby (`server.rooms.lobby.Lobby`)."""

    async def open_match(self, settings: m.RoomSettings, kept_names: tuple[str, ...]) -> str:
        """A room whose seats are kept for `settings.reserved`, under `kept_names`."""
        ...

    def room(self, room_id: str) -> object | None: ...

    def walkover(self, room_id: str, absent: int) -> bool:
        """Tell the match's room (if on this node) that seat `absent` never came: its
        match is the other seat's (whoever sits there, or nobody: neither came)."""
        ...


class MatchEndInbox:
    """The lobby's `MatchEnds`: the matches this node's rooms end, queued for the service
    (the room's task only puts; the service's own task reports)."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[MatchEnd] = asyncio.Queue()

    def match_ended(self, end: MatchEnd) -> None:
        self.queue.put_nowait(end)


def now_ms() -> int:
    return int(time.time() * 1000)


class TournamentService:
    def __init__(
        self,
        store: TournamentStore,
        rooms: MatchRooms,
        room_store: Store,
        ends: MatchEndInbox,
        *,
        node: str,
        no_show: float,
        bots: BotSeats | None = None,
        tick: float = 1.0,
        lead_ttl: float = 3.0,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        """`lead_ttl`: seconds this node's lead lasts unrenewed (it renews it every `tick`):
        how soon another node drives once this one has died."""
        self.store = store
        self.rooms = rooms
        self.room_store = room_store
        self.ends = ends
        self.node = node
        self.no_show_ms = int(no_show * 1000)
        self.bots: BotSeats = bots if bots is not None else NoBots()
        self.tick = tick
        self.lead_ttl = max(lead_ttl, 2 * tick)
        self.clock = clock
        self._tasks: list[asyncio.Task[None]] = []
        #: Woken to drive at once (a start asked for now, a match just decided).
        self._nudge = asyncio.Event()

    # --- life ------------------------------------------------------------------------------

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._take_results(), name="tournament results"),
            loop.create_task(self._drive_forever(), name="tournaments"),
        ]

    def nudge(self) -> None:
        """Drive at once, not at the next tick (a start asked for now, a match decided)."""
        self._nudge.set()

    async def stop(self) -> None:
        """Cancel the loops and wait for them to end. A cancellation lost on its way (one
        that met a nudge in the same moment was taken for the wait's end: the node's
        shutdown then hung on its tournaments) is asked for again until each has ended."""
        pending = set(self._tasks)
        for task in pending:
            task.cancel()
        while pending:
            _, pending = await asyncio.wait(pending, timeout=1.0)
            for task in pending:
                task.cancel()
        self._tasks = []
        # The store's connections are let go, but a node on its way down does not wait on
        # them for long (its clients are closed only after this step).
        try:
            async with asyncio.timeout(5.0):
                await self.store.close()
        except TimeoutError:
            log.warning("tournaments: the store's connections did not close within 5 s")

    # --- what the API asks -----------------------------------------------------------------

    async def create(
        self,
        organiser: str,
        name: str,
        *,
        format: Format,
        cap: int,
        races: Races,
        seeding: Seeding,
        starts_at: int,
        bots: bool,
        bot_level: int = 0,
        shot_clock: int | None = None,
        first_break: FirstBreak = "draw",
    ) -> Tournament:
        """`bot_level`: the level of the computers filling places (0: spread);
        `shot_clock`: seconds a shot at every match's table (None: no clock);
        `first_break`: each match's first break drawn or lagged for."""
        if bots and not self.bots.available:
            raise TournamentError("no_bots", "computer players are not available on this server")
        if bot_level != 0 and bot_level not in BOT_LEVELS:
            raise TournamentError("bad_bot_level", "a computer's level is 1-5")
        tournament = bracket.new_tournament(
            secrets.token_urlsafe(6),
            name,
            format=format,
            cap=cap,
            races=races,
            seeding=seeding,
            seed=secrets.randbits(31),
            starts_at=starts_at,
            organiser=organiser,
            bots=bots,
            shot_clock=shot_clock,
            first_break=first_break,
        )
        if bots and bot_level:
            tournament = msgspec.structs.replace(tournament, bot_level=bot_level)
        await self.store.create(tournament, self.clock())
        return tournament

    async def get(self, tournament_id: str) -> Tournament | None:
        return await self.store.get(tournament_id)

    async def listing(self, limit: int) -> list[Tournament]:
        return await self.store.listing(limit)

    async def register(self, tournament_id: str, entrant: Entrant) -> Tournament | None:
        return await self.store.update(tournament_id, lambda t: bracket.register(t, entrant))

    async def guest_places(self, guest: str) -> list[Tournament]:
        """The tournaments still registering where `guest` holds a guest's place."""
        return [
            t
            for t in await self.store.active()
            if t.status == "registering"
            and (index := t.entrant_of(guest)) is not None
            and t.entrants[index].guest
        ]

    async def hand_over(
        self, places: list[Tournament], guest: str, account: str, rating: float, provisional: bool
    ) -> list[Tournament]:
        """Each of `places` (`guest_places`) becomes `account`'s (`bracket.hand_over`,
        which reads the tournament afresh); the tournaments changed."""
        changed = []
        for tournament in places:
            after = await self.store.update(
                tournament.id,
                lambda t: bracket.hand_over(t, guest, account, rating, provisional),
            )
            if after is not None:
                changed.append(after)
        return changed

    async def unregister(self, tournament_id: str, player: str) -> Tournament | None:
        return await self.store.update(tournament_id, lambda t: bracket.unregister(t, player))

    async def remove(self, tournament_id: str, organiser: str, name: str) -> Tournament | None:
        """The organiser takes an entrant off the list before the start."""
        return await self.store.update(tournament_id, lambda t: bracket.remove(t, organiser, name))

    async def organiser_cancels(
        self, tournament_id: str, organiser: str, under_way: bool = False
    ) -> Tournament | None:
        """The organiser cancels the tournament before it starts, or (`under_way`) while it
        is played: no match is reported to it after that (`match_ended` reads only
        tournaments still active) and no room is made for it."""
        return await self.store.update(
            tournament_id, lambda t: bracket.organiser_cancels(t, organiser, under_way)
        )

    async def start_now(self, tournament_id: str, player: str) -> Tournament | None:
        """The organiser starts play now (registration closes)."""

        def begin(tournament: Tournament) -> Tournament:
            if tournament.organiser != player:
                raise TournamentError("not_organiser", "only the organiser may start it")
            if tournament.status != "registering":
                raise TournamentError("started", "the tournament has started already")
            return msgspec.structs.replace(
                tournament, starts_at=min(tournament.starts_at, self.clock())
            )

        changed = await self.store.update(tournament_id, begin)
        self.nudge()
        return changed

    # --- results from this node's rooms ----------------------------------------------------

    async def _take_results(self) -> None:
        while True:
            end = await self.ends.queue.get()
            try:
                await self.match_ended(end)
            except (TournamentStoreError, StoreError) as exc:
                log.warning("room %s: its result could not be stored yet: %s", end.room, exc)
                # The driving node reads it from the room's record on its next round.
            except TournamentError as exc:
                log.warning("room %s: its result was not taken: %s", end.room, exc)
            except Exception:
                log.exception("room %s: reporting its result failed", end.room)

    async def match_ended(self, end: MatchEnd) -> None:
        if end.winner is None or not end.reserved:
            return  # not a tournament's room (its seats are always kept)
        decided: Decided = "forfeit" if end.reason == "forfeit" else "played"
        for tournament in await self.store.active():
            for match in tournament.matches:
                if match.room == end.room and match.status == "playing":
                    await self._report(tournament.id, match.id, end.winner, end.score, decided)
                    return
        log.info("room %s: its match ended, but no tournament match waits for it", end.room)

    async def _report(
        self,
        tournament_id: str,
        match_id: str,
        winner: int,
        score: tuple[int, int],
        decided: Decided,
    ) -> None:
        def decide(tournament: Tournament) -> Tournament:
            if tournament.match(match_id).status != "playing":
                return tournament  # decided already (a repeated report)
            return bracket.report(tournament, match_id, winner, score, decided)

        await self.store.update(tournament_id, decide)
        log.info(
            "tournament %s: match %s won by slot %d (%s)", tournament_id, match_id, winner, decided
        )
        self._nudge.set()

    # --- driving ---------------------------------------------------------------------------

    async def _drive_forever(self) -> None:
        while True:
            try:
                if await self.store.lead(self.node, self.lead_ttl):
                    await self.drive()
            except (TournamentStoreError, StoreError) as exc:
                log.warning("tournaments: the store is unavailable: %s", exc)
            except Exception:
                log.exception("tournaments: driving failed")
            self._nudge.clear()
            # (asyncio.timeout, not wait_for: on Python 3.11 wait_for returns, the stop
            # lost, when its wait ends in the moment it is cancelled)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.tick):
                    await self._nudge.wait()

    async def drive(self) -> None:
        """One round over every tournament registering or running."""
        for tournament in await self.store.active():
            if tournament.status == "registering" and self.clock() >= tournament.starts_at:
                tournament = await self._begin(tournament)
            if tournament.status != "running":
                continue
            for match in tournament.matches:
                if match.status == "playing":
                    await self._watch(tournament, match)
                elif match.decided == "forfeit" and match.room is not None:
                    await self._walkover_told(match)
            await self._open_rooms(tournament.id)

    async def _begin(self, tournament: Tournament) -> Tournament:
        def begin(current: Tournament) -> Tournament:
            if current.status != "registering":
                return current
            extra: list[Entrant] = []
            if current.bots and self.bots.available:
                extra = computer_entrants(current)
            return bracket.start(current, extra)

        started = await self.store.update(tournament.id, begin)
        if started is not None:
            log.info("tournament %s: %s", started.id, started.status)
        return started if started is not None else tournament

    async def _open_rooms(self, tournament_id: str) -> None:
        while True:
            tournament = await self.store.get(tournament_id)
            if tournament is None or tournament.status != "running":
                return
            waiting = bracket.ready(tournament)
            if not waiting:
                return
            match = waiting[0]
            room = await self._make_room(tournament, match)
            await self.store.update(tournament_id, _assigning(match.id, room, self.clock()))
            await self._seat_bots(tournament, match, room)

    async def _make_room(self, tournament: Tournament, match: Match) -> str:
        entrants = [tournament.entrants[e] for e in match.players if e is not None]
        players = tuple(entrant.player for entrant in entrants)
        settings = m.RoomSettings(
            name=f"{tournament.name[:30]} · {bracket.stage_label(tournament, match)}",
            race_to=bracket.race_of(tournament, match),
            # The organiser's choice: drawn by the table, or lagged for (O6).
            first_break=tournament.first_break,
            # The organiser's clock, as a table made in the lobby with it has it (the
            # other clock settings as such a table's defaults: one extension a rack).
            shot_clock=tournament.shot_clock,
            forfeit="match",
            reserved=players,
            tournament=tournament.id,
        )
        # The names the bracket shows: nobody sits down under one like another's of them.
        return await self.rooms.open_match(settings, tuple(e.name for e in entrants))

    async def _seat_bots(
        self, tournament: Tournament, match: Match, room: str, seated: set[str] | None = None
    ) -> None:
        """The match's computer players sit down (those not in `seated`, when the room's
        record says who sits already)."""
        for seat, index in enumerate(match.players):
            if index is None:
                continue
            entrant = tournament.entrants[index]
            if not entrant.bot or (seated is not None and entrant.player in seated):
                continue
            level = entrant.level if entrant.level in BOT_LEVELS else BOT_LEVELS[0]
            try:
                await self.bots.seat_bot(room, seat, entrant.player, entrant.name, level)
            except BotsUnavailable as exc:
                log.warning("tournament %s, match %s: %s", tournament.id, match.id, exc)

    def _forfeit_at(self, match: Match) -> int | None:
        """When a player who has not come to the match's table forfeits (epoch ms, this
        service's clock): what `_watch` acts on and what the pages count down to. None
        while the match has no room."""
        return None if match.room_at is None else match.room_at + self.no_show_ms

    async def _watch(self, tournament: Tournament, match: Match) -> None:
        """A match being played: its end read from the room's record, a vanished room
        made again, no-shows forfeited."""
        assert match.room is not None and match.room_at is not None
        record = await self._record(match.room)
        if record is not None and record.table is not None and record.table.state.match_over:
            state = record.table.state
            if state.match_winner in ("0", "1"):
                decided: Decided = "forfeit" if state.match_ended_by == "forfeit" else "played"
                score = (state.score[0], state.score[1])
                await self._report(tournament.id, match.id, int(state.match_winner), score, decided)
            return
        lost = record is None and self.rooms.room(match.room) is None
        if lost or (record is not None and record.closed):
            # Made and lost with its node before anyone sat in it, or closed before play
            # began (whoever sat down there left and it emptied): nobody could sit down
            # in it any more, so the match gets a new room.
            await self._make_again(tournament, match, record)
            return
        if record is not None and record.status != "waiting":
            return  # the match has begun: the room's own grace periods apply (O5)
        present, came = _attendance(record)
        if record is not None:
            # A computer not in its seat (the room came back without it) sits down again.
            await self._seat_bots(tournament, match, match.room, present)
        forfeit_at = self._forfeit_at(match)
        if forfeit_at is not None and self.clock() < forfeit_at:
            return
        # Who has sat down counts (`came`), not only who sits there now: a player who came
        # and stepped away (the bracket page, a reload past the grace period) is no no-show.
        absent = bracket.no_shows(tournament, match, present, came)
        if not absent:
            return
        log.info("tournament %s, match %s: forfeited by no-show", tournament.id, match.id)
        await self._forfeit(tournament, match, absent)

    async def _forfeit(self, tournament: Tournament, match: Match, absent: list[int]) -> None:
        """`match` lost by the slots in `absent` (no-shows), told to its room."""
        assert match.room is not None

        def forfeit(current: Tournament) -> Tournament:
            if current.match(match.id).status != "playing":
                return current
            return bracket.forfeit(current, match.id, absent)

        decided = await self.store.update(tournament.id, forfeit)
        done = None if decided is None else decided.match(match.id)
        if done is not None and done.status == "done" and done.winner is not None:
            # The table is told: the player who came learns there that the match is theirs,
            # and a table neither came to ends with the bracket's result (the better seed
            # on) instead of waiting on — its kept seats called both players to it, and a
            # match begun there named a second winner. A room not on this node is told
            # once it is (`_walkover_told`, each round while the tournament runs).
            self.rooms.walkover(match.room, 1 - done.winner)
        self._nudge.set()

    async def _walkover_told(self, match: Match) -> None:
        """A match forfeited by no-show whose table still waits (its room was not on this
        node when the forfeit was told — its node died and it came back elsewhere since, or
        the drive moved here): told again, each round, until the table has ended."""
        if match.room is None or match.winner is None:
            return
        record = await self._record(match.room)
        if record is not None and not record.closed and record.status == "waiting":
            self.rooms.walkover(match.room, 1 - match.winner)

    async def walkover_now(
        self, tournament_id: str, organiser: str, match_id: str
    ) -> Tournament | None:
        """The organiser gives a match to the player who came, not waiting out the no-show
        time: the same judgement as at the wait's end (`bracket.no_shows`), sooner. Only
        while the table waits and exactly one of the two has not come."""
        tournament = await self.store.get(tournament_id)
        if tournament is None:
            return None
        if tournament.organiser != organiser:
            raise TournamentError("not_organiser", "only the organiser may award a walkover")
        match = tournament.match(match_id)
        if tournament.status != "running" or match.status != "playing" or match.room is None:
            raise TournamentError("not_waiting", "that match is not waiting for a player")
        record = await self._record(match.room)
        if record is not None and record.status != "waiting":
            raise TournamentError("not_waiting", "that match has begun at its table")
        absent = bracket.no_shows(tournament, match, *_attendance(record))
        if len(absent) != 1:
            raise TournamentError("not_waiting", "neither player, or both, have come to the table")
        log.info("tournament %s, match %s: walkover by the organiser", tournament_id, match_id)
        await self._forfeit(tournament, match, absent)
        return await self.store.get(tournament_id)

    async def _make_again(
        self, tournament: Tournament, match: Match, record: RoomRecord | None
    ) -> None:
        """A new room for a match whose room is gone before play began, its no-show wait
        afresh; the players who sat down in the old one are remembered as having come."""
        log.info("tournament %s: the room of match %s is gone; a new one", tournament.id, match.id)
        came = bracket.slots_among(tournament, match, () if record is None else record.seated)
        room = await self._make_room(tournament, match)
        at = self.clock()

        def again(current: Tournament) -> Tournament:
            now = current.match(match.id)
            if now.status != "playing" or now.room != match.room:
                return current
            return bracket.reassign_room(current, match.id, room, at, came)

        await self.store.update(tournament.id, again)
        await self._seat_bots(tournament, match, room)

    async def live(self, tournament: Tournament) -> dict[str, LiveMatch]:
        """Each match being played, as its room's record has it: who has sat down, whether
        play has begun, the score, and until it has when a no-show forfeits. A room whose
        record cannot be read (the store away) is left out: the bracket then says only
        that the table is open."""
        playing = [m for m in tournament.matches if m.status == "playing" and m.room]

        async def read(match: Match) -> tuple[str, LiveMatch] | None:
            assert match.room is not None
            try:
                record = await self._record(match.room)
            except (StoreError, msgspec.DecodeError, msgspec.ValidationError) as exc:
                log.warning("tournament %s: room %s unread: %s", tournament.id, match.room, exc)
                return None
            # A room is first written when someone sits down.
            state = NOBODY_YET if record is None else live_match(tournament, match, record)
            forfeit_at = self._forfeit_at(match)
            # (called off: nobody forfeits a match that counts for nothing)
            if not state.started and forfeit_at is not None and tournament.status == "running":
                state = msgspec.structs.replace(state, forfeit_at=forfeit_at)
            return match.id, state

        found = await asyncio.gather(*(read(match) for match in playing))
        return dict(item for item in found if item is not None)

    async def _record(self, room: str) -> RoomRecord | None:
        data = await self.room_store.load(room)
        return None if data is None else decode_record(data)


def _assigning(match_id: str, room: str, at: int) -> Change:
    def assign(tournament: Tournament) -> Tournament:
        return bracket.assign_room(tournament, match_id, room, at)

    return assign


def _attendance(record: RoomRecord | None) -> tuple[set[str], tuple[str, ...]]:
    """Who sits at a match's table now, and who has sat down there at all (its record)."""
    if record is None:
        return set(), ()
    return {s.player for s in record.seats if s is not None}, tuple(record.seated)

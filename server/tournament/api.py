"""The JSON API of tournaments, in the style of the players' (`server.edge.api`):

- `GET /api/tournaments`: 200 `[{"id","name","format","status","players","cap",
  "starts_at","champion","champion_level","entered","yours","place"}, …]`, newest first
  (at most 50): `champion` the winner's name once finished (else null), `champion_level`
  its computer level if a computer won (else null); with a session token (optional here),
  `entered` whether the reader is an entrant, `yours` whether they organise it and
  `place` the reader's final place as the standings give it (`"3"`, `"5–6"`) once it is
  known — they are out, or it is finished — else null;
- `POST /api/tournaments` `{"name","format","cap","seeding","starts_at","races","bots",
  "bot_level","shot_clock","first_break"}`: 201 the tournament (below); `format`
  `single`|`double`, `cap` 2–64, `seeding` `rating`|`random`, `starts_at` epoch
  milliseconds (not in the past), `races` `{"winners","losers","final"}` each 1–21 (each
  optional, default 3, 3, 5), `bots` (optional, false) lets computer players fill the
  places still empty at the start, `bot_level` (optional, with `bots` only) their level
  1–5, else spread from 5 down to 1, `shot_clock` (optional, null) the seconds a shot at
  every match's table, 5–300, null for none (each room has it as a table made with that
  clock has: one extension a rack), `first_break` (optional, `draw`) how each match's
  first break is decided: `draw`n by the table or lagged for (`lag`, O6);
- `GET /api/tournaments/<id>`: 200 the tournament: its settings (`shot_clock` among them,
  null for none; `first_break`), entrants in seed order
  (`{"name","player","rating","provisional","guest","bot","level"}`: `provisional` the
  rating is not yet a measure — a guest's starting one, or an account's first 30 rated
  games' —, `guest` the entrant has no account), every
  match (`players` by name, `computers` each slot's computer level or null, `feeds`
  where each slot is filled from — `["winner" | "loser", match id]`, or `["seed", null]`
  in the first round —, `room` to
  watch once made, `race`, `score`, `winner` slot, how it was `decided` (`no_show`: the
  slots whose player was not at the table when its no-show time ran out, for a match
  forfeited so; both when neither was, the better seed going on), and while it
  is played `live`, from its room: `{"seated": [bool, bool], "started", "score",
  "forfeit_at"}` — whether each slot's player has sat down, whether play has begun, the
  racks won so far and, until it has, when a player who has not come forfeits (epoch
  ms; null once play has begun) —, else null), `standings`
  `[{"place","name","bot","level"}]` (`bot`: a computer player, of `level`; a person's
  `level` is null) and `champion`; with a session token (optional here), `yours` says
  whether that session organises it, `entered` whether it is registered (both false
  without one) and `me` its place among the entrants from 1 — its seed, as the matches'
  `seeds` say, once the tournament has started (null if not an entrant), `removed`
  whether the organiser took it off the list (it may not register again); the answers to
  the writes below say the same of the writer; `account`, when the token is a logged-in
  player's, their account's name (the page offers it as the name to register under, and
  says whose page it is: it cannot know it otherwise), else null; 404;
- `POST /api/tournaments/<id>/register` `{"name"}`: 200 the tournament; 400 `bad_name` (a
  name out of the rule for a new name, `server.players.names.check_new`: 3–20 characters…;
  a logged-in player's own account name is taken as the account has it, even one claimed
  before the rule); 409 (full, name taken — or kept for the
  computer players, "Bot 3" —, a name that could pass for an entrant's, registered
  already, registration closed); `…/unregister`: 200; 409;
- `POST /api/tournaments/<id>/start`: the organiser starts it now; 200; 403; 409;
- `POST /api/tournaments/<id>/remove` `{"name"}`: the organiser takes that entrant off
  the list before the start, for good: that player's registering again (under any name)
  is refused with 409 `removed`, and their view of the tournament says `removed: true`;
  200; 403; 409 (`not_registered`, `closed`);
- `POST /api/tournaments/<id>/cancel`: the organiser cancels it before the start; 200;
  403; 409 (`started`; `over` once finished or cancelled). With the body
  `{"under_way": true}` the organiser cancels it while it is played too (not `started`):
  nobody wins it, its matches still at their tables play on but count for nothing, and no
  one forfeits by not coming; 400 for any other body. A cancelled tournament's
  `cancelled` says why: `too_few` (fewer than two entrants at the start) or `organiser`;
  null otherwise.

A refusal of the tournament itself (full, closed, a name taken, a bad name) carries a
`code` beside the `error` (`full`, `name_taken`, `name_confusable`, `already_registered`,
`removed`, `closed`, `not_registered`, `started`, `not_organiser`, `bad_name`). `name_confusable`:
the name is not an entrant's, but looks like one ("lvan" beside "Ivan", a Cyrillic "Вoris"
beside "Boris": `protocol.text.confusable`, as the rooms compare names), and the bracket
would show two players the same.

Writes need `Authorization: Bearer <token>`: the session token `welcome` gave the
connection, or a logged-in player's account token (the tournament knows players by the
same id as the rooms do, so an account enters under the id its seat will be kept for),
else 401. A name an account holds (or one that looks the same) is its holder's alone:
anyone else registering under it gets 409 `name_taken`.
Bodies are JSON objects of at most 4 KiB (the connection refuses more with 413), with
no fields but those named (400), of the types named (400). A refusal is always
`{"error": "<why>"}` and changes nothing.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, NamedTuple
from urllib.parse import unquote

from protocol.text import clean_name
from server.edge.apiconn import ApiHandler, ApiRequest, ApiResponse, json_error, json_response
from server.players.names import check_new, is_reserved_for_guests
from server.players.ratings import START
from server.players.store import PlayerStoreError
from server.tournament import bracket
from server.tournament.bracket import race_of
from server.tournament.live import LiveMatch
from server.tournament.model import (
    MAX_RACE,
    MAX_SHOT_CLOCK,
    MIN_SHOT_CLOCK,
    Entrant,
    Races,
    Tournament,
    TournamentError,
)
from server.tournament.service import TournamentService, now_ms
from server.tournament.standings import champion, standings
from server.tournament.store import TournamentStoreError

log = logging.getLogger(__name__)

_PREFIX = "/api/tournaments"
#: Tournaments a listing shows.
LISTED = 50
#: How far in the past a start time may be (a clock a little behind the server's).
START_SLACK_MS = 60_000
_CONFLICTS = frozenset(
    {
        "full",
        "name_taken",
        "name_confusable",
        "already_registered",
        "removed",
        "closed",
        "started",
        "over",
        "not_waiting",
    }
)
_CREATE_FIELDS = frozenset(
    {
        "name",
        "format",
        "cap",
        "seeding",
        "starts_at",
        "races",
        "bots",
        "bot_level",
        "shot_clock",
        "first_break",
    }
)
_RACE_FIELDS = ("winners", "losers", "final")


#: A cancelled tournament's reason, as a code the page words.
_CANCELLED = {bracket.TOO_FEW: "too_few", bracket.BY_ORGANISER: "organiser"}


class BadBody(ValueError):
    pass


class Reader(NamedTuple):
    """Who a Bearer token names: the player, and the name of their account (None for a
    guest's session), learnt in the one read that checks the token."""

    player: str
    account: str | None


class SeedRating(NamedTuple):
    """A player's rating as a tournament seeds by it, and whether it is still provisional
    (shown with a "?" beside the name)."""

    rating: float
    provisional: bool


class TournamentApi:
    """Answers `/api/tournaments…`; every other `/api/` request goes on to `others`."""

    def __init__(
        self,
        service: TournamentService,
        others: ApiHandler,
        reader_of: Callable[[str], Awaitable[Reader | None]],
        rating_of: Callable[[str], Awaitable[SeedRating | None]],
        name_owner: Callable[[str], Awaitable[str | None]],
    ) -> None:
        """`reader_of`: who a Bearer token names — a session's player, or a logged-in
        account's player with the account's name (told to them while registration is
        open) — or None for a token no longer good; `rating_of`: a player's rating and
        whether it is still provisional, if they have one (seeding by rating);
        `name_owner`: the player of the account holding a name, or one that looks the same
        (`Players.name_owner`), so no guest enters under an account's name."""
        self.service = service
        self.others = others
        self.reader_of = reader_of
        self.rating_of = rating_of
        self.name_owner = name_owner

    async def handle(self, request: ApiRequest) -> ApiResponse:
        path = request.path
        if path != _PREFIX and not path.startswith(_PREFIX + "/"):
            return await self.others.handle(request)
        try:
            return await self._route(request)
        except TournamentStoreError as exc:
            log.warning("tournaments store unavailable: %s", exc)
            return json_error(503, "tournaments are unavailable; try again", {"Retry-After": "5"})

    async def _route(self, request: ApiRequest) -> ApiResponse:
        parts = request.path.removeprefix(_PREFIX).strip("/").split("/")
        method = request.method
        if parts == [""]:
            if method == "GET":
                return await self.listing(request)
            if method == "POST":
                return await self.create(request)
            return json_error(405, "method not allowed", {"Allow": "GET, POST"})
        try:
            tournament_id = unquote(parts[0], errors="strict")
        except UnicodeDecodeError:
            return json_error(404, "no such tournament")
        if not 0 < len(tournament_id) <= 32 or len(parts) > 2:
            return json_error(404, "no such tournament")
        if len(parts) == 1:
            if method != "GET":
                return json_error(405, "method not allowed", {"Allow": "GET"})
            found = await self.service.get(tournament_id)
            if found is None:
                return json_error(404, "no such tournament")
            reader = await self._reader(request)
            live = await self.service.live(found)
            viewer = None if reader is None else reader.player
            # The account's name: to register under, and to say whose page it is.
            account = reader.account if reader else None
            return json_response(200, tournament_view(found, viewer, live, account))
        action = parts[1]
        if action not in ("register", "unregister", "start", "remove", "cancel", "walkover"):
            return json_error(404, "no such API")
        if method != "POST":
            return json_error(405, "method not allowed", {"Allow": "POST"})
        reader = await self._reader(request)
        if reader is None:
            return _unauthorized()
        player = reader.player
        if action == "register":
            return await self.register(request, tournament_id, reader)
        if action == "unregister":
            return await self._answer(self.service.unregister(tournament_id, player), player)
        if action == "remove":
            return await self.remove(request, tournament_id, player)
        if action == "cancel":
            return await self.cancel(request, tournament_id, player)
        if action == "walkover":
            return await self.walkover(request, tournament_id, player)
        return await self._answer(self.service.start_now(tournament_id, player), player)

    # --- helpers ---------------------------------------------------------------------------

    async def _reader(self, request: ApiRequest) -> Reader | None:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        try:
            return await self.reader_of(token.strip())
        except PlayerStoreError as exc:  # an account token, the players' store away
            raise TournamentStoreError(f"accounts unavailable: {exc}") from exc

    async def _player(self, request: ApiRequest) -> str | None:
        reader = await self._reader(request)
        return None if reader is None else reader.player

    @staticmethod
    def _body(request: ApiRequest) -> dict[str, Any]:
        media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if media != "application/json":
            raise BadBody("send the body as application/json")
        try:
            body = json.loads(request.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise BadBody("the body is not JSON") from None
        if not isinstance(body, dict):
            raise BadBody("the body is a JSON object")
        return body

    async def _answer(self, change: Awaitable[Tournament | None], player: str) -> ApiResponse:
        try:
            tournament = await change
        except TournamentError as exc:
            return _refusal(exc)
        if tournament is None:
            return json_error(404, "no such tournament")
        return json_response(200, tournament_view(tournament, player))

    # --- the routes --------------------------------------------------------------------------

    async def listing(self, request: ApiRequest) -> ApiResponse:
        # Who asks only marks their own rows: with the accounts' store away, the list is
        # still given, unmarked (it needed no accounts before the marks).
        try:
            reader = await self._reader(request)
        except TournamentStoreError:
            reader = None
        viewer = None if reader is None else reader.player
        rows = []
        for t in await self.service.listing(LISTED):
            winner = champion(t)
            seed = None if viewer is None else _seed_of(t, viewer)
            rows.append(
                {
                    "id": t.id,
                    "name": t.name,
                    "format": t.format,
                    "status": t.status,
                    "players": len(t.entrants),
                    "cap": t.cap,
                    "starts_at": t.starts_at,
                    "champion": None if winner is None else t.entrants[winner].name,
                    "champion_level": None if winner is None else _level(t.entrants[winner]),
                    "entered": seed is not None,
                    "yours": viewer is not None and viewer == t.organiser,
                    "place": None if seed is None else _final_place(t, seed),
                }
            )
        return json_response(200, rows)

    async def create(self, request: ApiRequest) -> ApiResponse:
        organiser = await self._player(request)
        if organiser is None:
            return _unauthorized()
        try:
            body = self._body(request)
            settings = _create_settings(body)
        except BadBody as exc:
            return _bad_body(exc)
        if settings["starts_at"] < now_ms() - START_SLACK_MS:
            return json_error(400, "starts_at is in the past")
        try:
            tournament = await self.service.create(organiser, **settings)
        except TournamentError as exc:
            return _refusal(exc)  # with its code, for the page to word
        return json_response(201, tournament_view(tournament, organiser))

    async def register(
        self, request: ApiRequest, tournament_id: str, reader: Reader
    ) -> ApiResponse:
        player = reader.player
        try:
            body = self._body(request)
            if set(body) != {"name"} or not isinstance(body["name"], str):
                raise BadBody('send {"name": "<your name>"}')
            name = clean_name(body["name"])
            # A name to enter under is chosen now, and held to the one rule for a new name;
            # an account's own name is its already, perhaps claimed before the rule.
            if name != reader.account:
                name = check_new(name)
        except BadBody as exc:
            return _bad_body(exc)
        except ValueError as exc:  # NameProblem among them
            return json_response(400, {"error": str(exc), "code": "bad_name"})
        if is_reserved_for_guests(name):
            # The computer players are "Bot N" in a bracket: nobody registers as one.
            return json_response(
                409, {"error": f"{name} is kept for the computer players", "code": "name_taken"}
            )
        try:
            owner = await self.name_owner(name)
            rating = await self.rating_of(player)
        except PlayerStoreError as exc:
            raise TournamentStoreError(f"accounts unavailable: {exc}") from exc
        if owner is not None and owner != player:
            # As at the table: an account's name is its holder's (log in to use it).
            return json_response(
                409, {"error": f"{name} is the name of an account", "code": "name_taken"}
            )
        # Without a rating (a guest), seeded as a new account starts: not above every
        # rated player, as an Elo-style 1500 on this scale would put them.
        entrant = (
            Entrant(player, name, START, provisional=True, guest=True)
            if rating is None
            else Entrant(player, name, rating.rating, provisional=rating.provisional)
        )
        return await self._answer(self.service.register(tournament_id, entrant), player)

    async def remove(self, request: ApiRequest, tournament_id: str, player: str) -> ApiResponse:
        try:
            body = self._body(request)
            if set(body) != {"name"} or not isinstance(body["name"], str):
                raise BadBody('send {"name": "<the entrant\'s name>"}')
            name = clean_name(body["name"])  # as `register` took it
        except BadBody as exc:
            return _bad_body(exc)
        except ValueError as exc:
            return json_response(400, {"error": str(exc), "code": "bad_name"})
        return await self._answer(self.service.remove(tournament_id, player, name), player)

    async def cancel(self, request: ApiRequest, tournament_id: str, player: str) -> ApiResponse:
        """No body (or `{}`): before the start only; `{"under_way": true}`: while it is
        played too."""
        try:
            body = self._body(request) if request.body else {}
            if set(body) - {"under_way"} or not isinstance(body.get("under_way", False), bool):
                raise BadBody('send nothing, or {"under_way": true} once it is played')
        except BadBody as exc:
            return _bad_body(exc)
        change = self.service.organiser_cancels(tournament_id, player, body.get("under_way", False))
        return await self._answer(change, player)

    async def walkover(self, request: ApiRequest, tournament_id: str, player: str) -> ApiResponse:
        """`{"match": "W1-2"}`: the organiser gives that waiting match to the player who came."""
        try:
            body = self._body(request)
            if set(body) != {"match"} or not isinstance(body["match"], str):
                raise BadBody('send {"match": "<the match\'s id>"}')
        except BadBody as exc:
            return _bad_body(exc)
        change = self.service.walkover_now(tournament_id, player, body["match"])
        return await self._answer(change, player)


def _bad_body(exc: BadBody) -> ApiResponse:
    """415 for a body that is not JSON by its media type, 400 for any other bad body."""
    return json_error(415 if "application/json" in str(exc) else 400, str(exc))


def _create_settings(body: dict[str, Any]) -> dict[str, Any]:
    unknown = set(body) - _CREATE_FIELDS
    if unknown:
        raise BadBody(f"unknown fields: {', '.join(sorted(unknown))}")
    name = body.get("name")
    if not isinstance(name, str):
        raise BadBody("name is a string")
    fmt = body.get("format")
    if fmt not in ("single", "double"):
        raise BadBody("format is single or double")
    cap = body.get("cap")
    if not _whole(cap):
        raise BadBody("cap is a whole number, 2-64")
    seeding = body.get("seeding", "rating")
    if seeding not in ("rating", "random"):
        raise BadBody("seeding is rating or random")
    starts_at = body.get("starts_at")
    if not isinstance(starts_at, int) or isinstance(starts_at, bool) or starts_at < 0:
        raise BadBody("starts_at is a time in epoch milliseconds")
    bots = body.get("bots", False)
    if not isinstance(bots, bool):
        raise BadBody("bots is true or false")
    bot_level = body.get("bot_level", 0)
    if "bot_level" in body and (not _whole(bot_level) or not 1 <= bot_level <= 5):
        raise BadBody("bot_level is a whole number, 1-5")
    if "bot_level" in body and not bots:
        raise BadBody("bot_level goes with bots: true")
    shot_clock = body.get("shot_clock")
    if shot_clock is not None and (
        not _whole(shot_clock) or not MIN_SHOT_CLOCK <= shot_clock <= MAX_SHOT_CLOCK
    ):
        raise BadBody(
            f"shot_clock is null or a whole number of seconds, {MIN_SHOT_CLOCK}-{MAX_SHOT_CLOCK}"
        )
    first_break = body.get("first_break", "draw")
    if first_break not in ("draw", "lag"):
        raise BadBody("first_break is draw or lag")
    races_body = body.get("races", {})
    if not isinstance(races_body, dict) or set(races_body) - set(_RACE_FIELDS):
        raise BadBody('races is {"winners", "losers", "final"}')
    races: dict[str, int] = {}
    for stage in _RACE_FIELDS:
        if stage in races_body:
            value = races_body[stage]
            if not _whole(value) or not 1 <= value <= MAX_RACE:
                raise BadBody(f"races.{stage} is a whole number, 1-{MAX_RACE}")
            races[stage] = value
    return {
        "name": name,
        "format": fmt,
        "cap": cap,
        "races": Races(**races),
        "seeding": seeding,
        "starts_at": starts_at,
        "bots": bots,
        "bot_level": bot_level,
        "shot_clock": shot_clock,
        "first_break": first_break,
    }


def _seed_of(tournament: Tournament, player: str) -> int | None:
    """The viewer's place in `entrants` counted from 1 — their seed once it has started,
    as the matches' `seeds` give it; None if they are not an entrant."""
    index = tournament.entrant_of(player)
    return None if index is None else index + 1


def _final_place(tournament: Tournament, seed: int) -> str | None:
    """The entrant's final place (`"5–6"`), once they are out or it is finished."""
    mine = [row for row in _placings(tournament) if row.entrant == seed - 1]
    return mine[0].place if mine else None


def _placings(tournament: Tournament) -> list[Any]:
    """The standings as the pages give them: none for a tournament called off (no one won
    it, and a place "3–4" out of one never finished says nothing)."""
    return [] if tournament.status == "cancelled" else list(standings(tournament))


def _level(entrant: Entrant) -> int | None:
    """A computer entrant's level (one made before levels were kept plays at 1)."""
    return (entrant.level or 1) if entrant.bot else None


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _refusal(exc: TournamentError) -> ApiResponse:
    """`{"error": why, "code": …}`: the code says which refusal (the bracket page words it
    in the reader's language)."""
    status = 400
    if exc.code == "not_organiser":
        status = 403
    elif exc.code in _CONFLICTS or exc.code == "not_registered":
        status = 409
    return json_response(status, {"error": exc.message, "code": exc.code})


def _live(state: LiveMatch | None) -> dict[str, Any] | None:
    if state is None:
        return None
    return {
        "seated": list(state.seated),
        "started": state.started,
        "score": list(state.score),
        "forfeit_at": state.forfeit_at,
    }


def _unauthorized() -> ApiResponse:
    return json_error(
        401, "send your session token", {"WWW-Authenticate": 'Bearer realm="ninepool"'}
    )


def tournament_view(
    tournament: Tournament,
    viewer: str | None = None,
    live: Mapping[str, LiveMatch] | None = None,
    account: str | None = None,
) -> dict[str, Any]:
    """The tournament as the API and the bracket page show it; `viewer`, the player asking
    (if known), is told whether they organise it (`yours`), whether they are registered
    (`entered`) and their place among the entrants (`me`), so the page offers them only
    what they may do and points them to their own match. `live` (by match id) is what
    the rooms of the matches being played say: a match's `live` is null otherwise.
    `account` is the viewer's account's name, if the page is to offer it."""
    live = live or {}
    names = [entrant.name for entrant in tournament.entrants]
    winner = champion(tournament)
    me = None if viewer is None else _seed_of(tournament, viewer)
    return {
        "id": tournament.id,
        "name": tournament.name,
        "format": tournament.format,
        "status": tournament.status,
        "cap": tournament.cap,
        "seeding": tournament.seeding,
        "starts_at": tournament.starts_at,
        "races": {
            "winners": tournament.races.winners,
            "losers": tournament.races.losers,
            "final": tournament.races.final,
        },
        "bots": tournament.bots,
        "bot_level": tournament.bot_level or None,
        "shot_clock": tournament.shot_clock,
        "first_break": tournament.first_break,
        "note": tournament.note,
        "cancelled": _CANCELLED.get(tournament.note) if tournament.status == "cancelled" else None,
        "yours": viewer is not None and viewer == tournament.organiser,
        "entered": me is not None,
        "me": me,
        "removed": viewer is not None and viewer in tournament.removed,
        "account": account,
        "entrants": [
            {
                "name": e.name,
                "player": e.player,
                "rating": round(e.rating),
                "provisional": e.provisional,
                "guest": e.guest,
                "bot": e.bot,
                "level": _level(e),
            }
            for e in tournament.entrants
        ],
        "matches": [
            {
                "id": match.id,
                "bracket": match.bracket,
                "round": match.round,
                "players": [None if e is None else names[e] for e in match.players],
                "computers": [
                    None if e is None else _level(tournament.entrants[e]) for e in match.players
                ],
                "seeds": [None if e is None else e + 1 for e in match.players],
                # Where each slot is filled from: ["winner" | "loser", a match's id], or
                # ["seed", null] in the first round (added compatibly: a slot not yet
                # known is named by the match it waits for).
                "feeds": [[f.kind, f.match or None] for f in match.feeds],
                "status": match.status,
                "winner": match.winner,
                "decided": match.decided,
                "no_show": list(match.no_show),
                "score": list(match.score),
                "room": match.room,
                "race": race_of(tournament, match),
                "live": _live(live.get(match.id)),
            }
            for match in tournament.matches
        ],
        "standings": [
            {
                "place": row.place,
                "name": names[row.entrant],
                "bot": tournament.entrants[row.entrant].bot,
                "level": _level(tournament.entrants[row.entrant]),
            }
            for row in _placings(tournament)
        ],
        "champion": None if winner is None else names[winner],
    }

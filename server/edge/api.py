"""The JSON API of players: accounts, sign-in, leaderboards and profiles.

- `POST /api/accounts` `{"name","password"}`: 201 `{"name"}`; 400 (name or password
  refused), 409 (taken), 429 (too many new accounts from this address);
- `POST /api/login` `{"name","password"}`: 200 `{"token","name"}`; 401 (wrong name or
  password: one answer for both), 429 with `Retry-After`;
- `POST /api/logout`: 204, this token no longer works;
- `POST /api/logout-all`: 204, no token of the account works any more;
- `DELETE /api/accounts/me`: 204, the account and its personal data are gone;
- `GET /api/leaderboard?limit=N[&period=month]`: 200 `[{"name","rating","racks"}, …]`;
- `GET /api/players/<name>`: 200 the profile; 404.

The last three with `POST`/`DELETE` need `Authorization: Bearer <account token>` (401
without a good one). `POST /api/accounts` may carry a guest's session token the same
way: the account then takes over that guest's player id. `POST /api/login` may carry one
too (one no longer good is ignored there): the guest's places in tournaments not yet
started become the account's (`GuestPlaces`), as they do when a guest makes an account.
Bodies are JSON (`Content-Type: application/json`, else 415) of at most 4 KiB (else
413). A refusal is always `{"error": "<why>"}`. Passwords are read, hashed or checked,
and dropped: never logged, echoed or stored as given. The hashing runs off the event loop
(`server.players.passwords`); when too much of it is waiting, 503 with Retry-After.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any, Protocol
from urllib.parse import parse_qs, unquote

from server.edge.apiconn import ApiRequest, ApiResponse, json_error, json_response
from server.edge.limits import IPNetwork, address_key, client_address
from server.players.passwords import HashersBusy
from server.players.service import AccountError, Identity, Players, Throttled
from server.players.store import PlayerStoreError

log = logging.getLogger(__name__)

#: Leaderboard rows by default, and at most.
DEFAULT_LIMIT = 50
MAX_LIMIT = 100
_PLAYERS = "/api/players/"


class GuestPlaces(Protocol):
    """Where a guest holds places that are theirs as a person, not as a session: told when
    the guest signs in to an account (`account`: the guest's own id when they made it)."""

    async def signed_in(self, guest: str, account: str) -> None:
        """Never raises: the sign-in has happened whatever becomes of the places."""


class ApiRoutes:
    """Answers every `/api/` request (`server.edge.apiconn` reads them)."""

    def __init__(
        self,
        players: Players,
        guest_of: Callable[[str], str | None],
        places: GuestPlaces,
        trusted: tuple[IPNetwork, ...] = (),
    ) -> None:
        """`guest_of`: the player id a guest's session token names, or None
        (`Sessions.verify`); `places`: the tournaments' (`TournamentPlaces`)."""
        self.players = players
        self.guest_of = guest_of
        self.places = places
        self.trusted = trusted

    async def handle(self, request: ApiRequest) -> ApiResponse:
        try:
            return await self._route(request)
        except Throttled as exc:
            return json_error(
                429, "too many attempts; wait and try again", {"Retry-After": str(exc.retry_after)}
            )
        except HashersBusy:
            return json_error(503, "busy; try again shortly", {"Retry-After": "1"})
        except PlayerStoreError as exc:
            log.warning("players store unavailable: %s", exc)
            return json_error(503, "players are unavailable; try again", {"Retry-After": "5"})

    async def _route(self, request: ApiRequest) -> ApiResponse:
        path, method = request.path, request.method
        routes: dict[str, dict[str, Callable[[ApiRequest], Any]]] = {
            "/api/accounts": {"POST": self.create_account},
            "/api/login": {"POST": self.login},
            "/api/logout": {"POST": self.logout},
            "/api/logout-all": {"POST": self.logout_all},
            "/api/accounts/me": {"DELETE": self.delete_account},
            "/api/leaderboard": {"GET": self.leaderboard},
        }
        if path.startswith(_PLAYERS) and path.count("/") == 3:
            methods: dict[str, Callable[[ApiRequest], Any]] = {"GET": self.profile}
        else:
            methods = routes.get(path, {})
        if not methods:
            return json_error(404, "no such API")
        handler = methods.get(method)
        if handler is None:
            return json_error(405, "method not allowed", {"Allow": ", ".join(methods)})
        response: ApiResponse = await handler(request)
        return response

    # --- helpers ---------------------------------------------------------------------------------

    def _address(self, request: ApiRequest) -> str:
        return address_key(client_address(request.peer, request.forwarded_for, self.trusted))

    @staticmethod
    def _bearer(request: ApiRequest) -> str | None:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        return (token.strip() or None) if scheme.lower() == "bearer" else None

    async def _identity(self, request: ApiRequest) -> Identity | None:
        token = self._bearer(request)
        return None if token is None else await self.players.identify(token)

    @staticmethod
    def _credentials(request: ApiRequest) -> tuple[str, str] | ApiResponse:
        """The name and password of a JSON body, or the refusal to send."""
        media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if media != "application/json":
            return json_error(415, "send the body as application/json")
        try:
            body = json.loads(request.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return json_error(400, "the body is not JSON")
        if not isinstance(body, dict):
            return json_error(400, 'send {"name": …, "password": …}')
        name, password = body.get("name"), body.get("password")
        if not isinstance(name, str) or not isinstance(password, str):
            return json_error(400, "name and password are both strings")
        return name, password

    # --- accounts ---------------------------------------------------------------------------------

    async def create_account(self, request: ApiRequest) -> ApiResponse:
        credentials = self._credentials(request)
        if isinstance(credentials, ApiResponse):
            return credentials
        guest = None
        token = self._bearer(request)
        if token is not None:
            guest = self.guest_of(token)
            if guest is None:
                return json_error(401, "the session token is not valid; send none")
        try:
            account = await self.players.create_account(
                credentials[0], credentials[1], self._address(request), guest
            )
        except AccountError as exc:
            return json_error(409 if exc.kind == "taken" else 400, exc.reason)
        if guest is not None:
            await self.places.signed_in(guest, account.player)
        return json_response(201, {"name": account.name})

    async def login(self, request: ApiRequest) -> ApiResponse:
        credentials = self._credentials(request)
        if isinstance(credentials, ApiResponse):
            return credentials
        try:
            token, account = await self.players.login(*credentials, self._address(request))
        except AccountError as exc:
            return json_error(401, exc.reason)
        bearer = self._bearer(request)
        guest = None if bearer is None else self.guest_of(bearer)
        if guest is not None:
            await self.places.signed_in(guest, account.player)
        return json_response(200, {"token": token, "name": account.name, "player": account.player})

    async def logout(self, request: ApiRequest) -> ApiResponse:
        identity = await self._identity(request)
        if identity is None:
            return _unauthorized()
        await self.players.logout(identity)
        return ApiResponse(204)

    async def logout_all(self, request: ApiRequest) -> ApiResponse:
        identity = await self._identity(request)
        if identity is None:
            return _unauthorized()
        await self.players.logout_everywhere(identity)
        return ApiResponse(204)

    async def delete_account(self, request: ApiRequest) -> ApiResponse:
        identity = await self._identity(request)
        if identity is None:
            return _unauthorized()
        await self.players.delete_account(identity)
        return ApiResponse(204)

    # --- reading ----------------------------------------------------------------------------------

    async def leaderboard(self, request: ApiRequest) -> ApiResponse:
        query = parse_qs(request.query, keep_blank_values=True)
        limit_text = query.get("limit", [str(DEFAULT_LIMIT)])[-1]
        if not limit_text.isdigit() or not limit_text.isascii() or int(limit_text) < 1:
            return json_error(400, f"limit is a whole number from 1 to {MAX_LIMIT}")
        period = query.get("period", ["all"])[-1]
        if period not in ("all", "month"):
            return json_error(400, "period is all or month")
        rows = await self.players.leaderboard(
            min(int(limit_text), MAX_LIMIT), monthly=period == "month"
        )
        return json_response(200, rows)

    async def profile(self, request: ApiRequest) -> ApiResponse:
        try:
            name = unquote(request.path.removeprefix(_PLAYERS), errors="strict")
        except UnicodeDecodeError:
            return json_error(404, "no such player")
        profile = await self.players.profile(name) if 0 < len(name) <= 64 else None
        if profile is None:
            return json_error(404, "no such player")
        return json_response(200, profile)


def _unauthorized() -> ApiResponse:
    return json_error(401, "log in first", {"WWW-Authenticate": 'Bearer realm="ninepool"'})

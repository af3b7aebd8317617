"""The gateway: one coroutine per WebSocket connection.

It decodes and validates every frame against `protocol/` (a bad frame gets an error
reply and changes nothing), handles the session (`hello`), and hands everything about a
room to that room's inbox. It holds no game state of its own.

A guest's name in `hello` is held to the one rule for a new name
(`server.players.names.check_new`, as an account's: 3 to 20 characters…), with a session
token or without — the token says who plays, not under which name, and a page says the
name its player has just typed with it —, else refused `bad_name`. A name chosen before
the rule (a guest's was 1 to 24 characters) is kept only where it is shown already: for a
player coming back to the seat of this node's room that carries it.

A `hello` may carry an account token (`POST /api/login`): the connection then plays under
the account's name and player id. A guest's name is checked against the accounts' names
(`Players.name_owner`: the same after folding, or one that looks the same) and refused
`name_taken` unless the guest's player is that account; so is a name kept for the
computer players or the service ("Bot 2", "Referee": `Players.reserved_for_guests`).
Both ask the players' store, so `hello` — and a rated quick match, which needs the
player's rating — is awaited in the connection's own reader task: that connection's later
frames wait for it (they must come after it anyway), and nothing else on the event loop
does.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import TypeVar

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from protocol import errors
from protocol import messages as m
from protocol import practice as pm
from protocol.codec import ProtocolError, decode_client
from protocol.text import confusable
from server.edge.answers import STATE_CHANGING, Answers
from server.edge.client import Client
from server.edge.limits import (
    ABUSE_CLOSE,
    AIM_RATE,
    BAD_FRAMES_CLOSE,
    FRAME_SIZE,
    HELLO_TIMEOUT,
    INVITE_GUESSES,
    PING_TIMEOUT,
    RATE,
    ROOM_CAP,
    AddressBook,
    Admission,
    HandshakeGuard,
    Limits,
    address_key,
)
from server.edge.sessions import Sessions, new_player_id
from server.ops.logs import bind_connection
from server.ops.metrics import Metrics
from server.players.names import NameProblem, check_new
from server.players.ratings import START
from server.players.service import Identity, Players
from server.players.tokens import AccountTokens
from server.rooms.actor import now_ms
from server.rooms.lobby import Lobby
from server.rooms.naming import name_back, own_kept_name
from server.rooms.practice_room import PracticeRoom
from server.rooms.seams import Gone, Request

log = logging.getLogger(__name__)

#: Refused frames in a row before the connection is closed (1008).
MAX_BAD_FRAMES = 8
#: Sessions whose recent request ids are kept for a reconnect (`hello` with `keep_ids`),
#: the least recently seen forgotten first.
SESSIONS_REMEMBERED = 4096

ROOM_MESSAGES = (
    m.Ready,
    m.Place,
    m.Aim,
    m.Shot,
    m.LagShot,
    m.LagChoice,
    m.Choose,
    m.Concede,
    m.Stalemate,
    m.Extend,
    m.Chat,
    m.Rematch,
    m.Resync,
    m.Sit,
)

#: A practice table's own requests (`protocol/practice.py`), for the table the client is at.
PRACTICE_MESSAGES = (
    pm.PracticePut,
    pm.PracticeRemove,
    pm.PracticeLoad,
    pm.PracticeRules,
    pm.PracticeUndo,
    pm.PracticeRedo,
    pm.PracticeRetry,
    pm.PracticePreview,
)

M = TypeVar("M", m.Create, m.Quick, m.Computer, pm.Practice)


class RoomOwners:
    """The rooms each client address made, for `--rooms-per-address`. A room is
    forgotten once the lobby no longer holds it (counted lazily, when the address asks
    for another), and addresses with no open room are pruned as the table grows."""

    _PRUNE_AT = 4096

    def __init__(self) -> None:
        self.rooms: dict[str, set[str]] = {}
        self._prune_at = self._PRUNE_AT

    def count(self, key: str, open_rooms: Mapping[str, object]) -> int:
        mine = self.rooms.get(key)
        if not mine:
            return 0
        # Walks this address's rooms (a few), not every open room on the node.
        mine.difference_update([room for room in mine if room not in open_rooms])
        if not mine:
            del self.rooms[key]
            return 0
        return len(mine)

    def add(self, key: str, room_id: str, open_rooms: Mapping[str, object] | None = None) -> None:
        self.rooms.setdefault(key, set()).add(room_id)
        if open_rooms is not None and len(self.rooms) >= self._prune_at:
            for other in list(self.rooms):
                self.count(other, open_rooms)
            self._prune_at = max(self._PRUNE_AT, 2 * len(self.rooms))


class Gateway:
    def __init__(
        self,
        lobby: Lobby,
        sessions: Sessions,
        metrics: Metrics,
        limits: Limits | None = None,
        *,
        players: Players,
    ) -> None:
        self.lobby = lobby
        self.sessions = sessions
        #: Accounts: account tokens at `hello`, names guests may not take, ratings.
        self.players = players
        self.metrics = metrics
        self.limits = limits if limits is not None else Limits()
        self.addresses = AddressBook(self.limits)
        #: Runs before every opening handshake (`websockets.serve(process_request=…)`).
        self.guard = HandshakeGuard(self.limits, self.addresses, metrics)
        self.accepting = True
        self.clients: set[Client] = set()
        #: Told of every cooldown this node starts (address key, seconds, offences in a
        #: row): in a cluster, the other nodes refuse the address too.
        self.on_cooldown: Callable[[str, float, int], None] | None = None
        #: Which addresses made the rooms of this node (`--rooms-per-address`).
        self.room_owners = RoomOwners()
        #: player -> the answers of a session that asked to keep its request ids.
        self.session_answers: OrderedDict[str, Answers] = OrderedDict()

    async def handle(self, ws: ServerConnection) -> None:
        address = self.guard.address_of(ws)
        client = Client(ws, self.metrics, self.limits, address, self.addresses)
        bind_connection(client)  # this task's log lines name the connection, player, room
        if not self.accepting:
            client.error(None, errors.SHUTTING_DOWN, "the server is shutting down")
            await ws.close(1001, "server shutting down")
            return
        client.bound_socket_buffer()
        self.clients.add(client)
        self.metrics.connections.inc()
        hello_timer = None
        if self.limits.hello_timeout > 0:
            hello_timer = asyncio.get_running_loop().call_later(
                self.limits.hello_timeout, self._hello_overdue, client
            )
        try:
            await self._serve(client, ws)
        except ConnectionClosed as exc:
            self._count_close(exc)
        finally:
            if hello_timer is not None:
                hello_timer.cancel()
            client.forget_silence()
            self.clients.discard(client)
            self.metrics.connections.dec()
            self.lobby.disconnected(client)
            if client.room is not None:
                client.room.post(Gone(client))
            client.closed = True

    def _hello_overdue(self, client: Client) -> None:
        if client.player is None and client.open:
            client.hit(HELLO_TIMEOUT)
            log.info("closing a connection that sent no hello", extra=client.log_fields())
            client.close(1008, "no hello in time")

    def _count_close(self, exc: ConnectionClosed) -> None:
        """Closes websockets decides on its own: an oversized frame, a missing pong."""
        sent = exc.sent
        if sent is None:
            return
        if sent.code == 1009:
            self.metrics.limit_hits.labels(FRAME_SIZE).inc()
        elif sent.code == 1011 and "keepalive" in sent.reason:
            self.metrics.limit_hits.labels(PING_TIMEOUT).inc()

    async def _serve(self, client: Client, ws: ServerConnection) -> None:
        bad_in_a_row = 0
        loop = asyncio.get_running_loop()
        async for frame in ws:
            self.metrics.frames_in.inc()
            client.heard(loop.time())
            message: m.ClientMessage | None = None
            refusal: ProtocolError | None = None
            try:
                message = decode_client(frame)
            except ProtocolError as exc:
                refusal = exc
            bad_in_a_row = bad_in_a_row + 1 if refusal is not None else 0
            # Every frame is charged, refused ones too; aim previews have their own budget.
            aim = isinstance(message, m.Aim)
            admission = client.budget.admit(aim)
            if admission is not Admission.ADMIT:
                request_id = refusal.request_id if refusal is not None else None
                client.hit(AIM_RATE if aim else RATE)
                client.error(
                    message.id if message is not None else request_id,
                    errors.RATE_LIMITED,
                    _rate_message(self.limits, aim),
                )
                if admission is Admission.ABUSIVE:
                    client.hit(ABUSE_CLOSE)
                    cooldown = self._cool_down(client)
                    log.info(
                        "closing a connection that keeps sending over its rate limit",
                        extra={
                            "address": client.address,
                            "refused": client.budget.refused,
                            "cooldown": round(cooldown, 1),
                        },
                    )
                    await ws.close(1008, "rate limit exceeded")
                    return
            elif refusal is not None:
                client.error(refusal.request_id, refusal.code, refusal.message)
            if bad_in_a_row >= MAX_BAD_FRAMES:
                client.hit(BAD_FRAMES_CLOSE)
                cooldown = self._cool_down(client)
                log.info(
                    "closing a connection that keeps sending invalid frames",
                    extra={"address": client.address, "cooldown": round(cooldown, 1)},
                )
                await ws.close(1008, "too many invalid frames")
                return
            if message is None or admission is not Admission.ADMIT:
                continue
            if client.player is not None and isinstance(message, STATE_CHANGING):
                repeat = client.answers.begin(message.id, asyncio.get_running_loop().time())
                if repeat is not None:  # sent before: its first answer, or (coming) nothing
                    if repeat:
                        client.send(repeat)
                    continue
            if (
                isinstance(message, m.Hello)
                and client.player is None
                and message.token
                and message.v == m.PROTOCOL_VERSION
            ):
                with client.handling():
                    await self._practice_back(message.token)
            try:
                if isinstance(message, m.Hello):
                    with client.handling():
                        keep_going = await self._hello(client, message)
                elif isinstance(message, m.Quick) and message.on and message.rated:
                    with client.handling():
                        keep_going = await self._rated_quick(client, message)
                else:
                    keep_going = self._dispatch(client, message)
            except Exception:
                log.exception("failed to handle %s", type(message).__name__)
                client.error(message.id, errors.INTERNAL, "the server failed; nothing changed")
                continue
            if not keep_going:
                await ws.close(1008, "protocol version mismatch")
                return

    async def _practice_back(self, token: str) -> None:
        """Before a returning player's welcome: their practice table, if they left one on
        another node (or this node's copy has gone on elsewhere), is opened here."""
        player = self.sessions.check(token).player
        if player is not None:
            await self.lobby.practice_back(player)

    def _cool_down(self, client: Client) -> float:
        """A connection is closed for abuse: its address may open no new one for a while
        (`--abuse-cooldown`), or it would come straight back with a fresh budget."""
        key = address_key(client.address)
        seconds = self.addresses.closed_for_abuse(key)
        if seconds > 0 and self.on_cooldown is not None:
            self.on_cooldown(key, seconds, self.addresses.offenses(key))
        return seconds

    def _dispatch(self, client: Client, message: m.ClientMessage) -> bool:
        """Handle one valid message (not `hello`, see `_serve`); False closes the
        connection."""
        if client.player is None:
            client.error(message.id, errors.HELLO_REQUIRED, "send hello first")
            return True
        if isinstance(message, m.Ping):
            client.promise(message.expect, asyncio.get_running_loop().time())
            client.send_message(m.Pong(id=message.id, now=now_ms()))
        elif isinstance(message, m.Lobby):
            self.lobby.subscribe(client, message)
        elif isinstance(message, m.Create):
            if message.settings.rated and not client.account:
                self._account_required(client, message.id)
            elif self._may_make_room(client, message.id):
                self._made_room(client, self.lobby.create, message)
        elif isinstance(message, m.Join):
            if self._passes_for_a_seated_player(client, message):
                pass
            elif self._guest_in_rated_seat(client, message):
                self._account_required(client, message.id)
            elif self._may_guess(client):
                self.lobby.join(client, message)
            else:
                client.hit(INVITE_GUESSES)
                client.error(
                    message.id, errors.RATE_LIMITED, "too many wrong invite codes; wait a minute"
                )
        elif isinstance(message, m.Quick):
            if not message.on or self._may_make_room(client, message.id):
                self._made_room(client, self.lobby.quick, message)
        elif isinstance(message, m.Computer):
            if message.rated and not client.account:
                self._account_required(client, message.id)
            elif self._may_make_room(client, message.id):
                self._made_room(client, self.lobby.computer, message)
        elif isinstance(message, m.Leave):
            if client.room is not None:
                client.room.post(Request(client, message))
            elif self.lobby.unqueue(client):
                client.ok(message.id)
            else:
                client.error(message.id, errors.NOT_IN_ROOM, "not in a room")
        elif isinstance(message, pm.Practice):
            if self._may_make_room(client, message.id):
                self._made_room(client, self.lobby.practice, message)
        elif isinstance(message, PRACTICE_MESSAGES):
            if client.room is None:
                client.error(message.id, errors.NOT_IN_ROOM, "open a practice table first")
            elif not isinstance(client.room, PracticeRoom):
                client.error(message.id, errors.PRACTICE_ONLY, "this is a match, not practice")
            else:
                client.room.post(Request(client, message))
        elif isinstance(message, ROOM_MESSAGES):
            if client.room is None:
                client.error(message.id, errors.NOT_IN_ROOM, "join a room first")
            else:
                client.room.post(Request(client, message))
        else:  # pragma: no cover - every message type is handled above
            client.error(message.id, errors.BAD_MESSAGE, "unexpected message")
        return True

    async def _hello(self, client: Client, message: m.Hello) -> bool:
        if client.player is not None:
            client.error(message.id, errors.ALREADY_HELLO, "hello was already accepted")
            return True
        if message.v != m.PROTOCOL_VERSION:
            client.error(
                message.id,
                errors.VERSION_MISMATCH,
                f"this server speaks protocol {m.PROTOCOL_VERSION}, not {message.v}",
            )
            return False
        account = False
        name = message.name
        identity: Identity | None = None
        if message.token is not None and AccountTokens.looks_like(message.token):
            identity = await self.players.identify(message.token)
            if identity is None:
                log.info("hello with an account token that is no longer good")
                client.error(
                    message.id,
                    errors.BAD_TOKEN,
                    "this login has ended (logged out, expired or deleted); log in again, "
                    "or send hello without a token",
                )
                return True
            player, name, account = identity.player, identity.name, True
        elif message.token is not None:
            checked = self.sessions.check(message.token)
            if checked.player is None:
                # (Never log the token: it is the player's credential.)
                log.info("hello with a %s session token", checked.problem)
                reason = (
                    "the session token has expired"
                    if checked.problem == "expired"
                    else "unknown or forged session token"
                )
                client.error(message.id, errors.BAD_TOKEN, f"{reason}; send hello without one")
                return True
            player = checked.player
        else:
            player = new_player_id()
        # A guest's name is held to the one rule for a new name, the token or not (a page
        # says its typed name with its token); refused once it is known whether the name
        # is taken (`name_taken` says more). A name from before the rule is kept only where
        # it is shown already: by a player coming back to the seat that carries it.
        problem: NameProblem | None = None
        if not account:
            try:
                name = check_new(name)
            except NameProblem as exc:
                if not self._seated_under(player, name):
                    problem = exc
        if not account and self.players.reserved_for_guests(name):
            client.error(
                message.id,
                errors.NAME_TAKEN,
                f"{name} is kept for the computer players and the service; choose another name",
            )
            return True
        if not account:
            owner = await self.players.name_owner(name)
            if owner is not None and owner != player:
                client.error(
                    message.id,
                    errors.NAME_TAKEN,
                    f"{name} is the name of an account (or looks like one); log in to play "
                    "under it, or choose another name",
                )
                return True
        if problem is not None:
            client.error(message.id, errors.BAD_NAME, f"{problem}; choose another name")
            return True
        # A fresh token on every hello: a player who keeps coming back never expires.
        token = (
            self.players.renew(identity) if identity is not None else self.sessions.issue(player)
        )
        client.player = player
        client.name = name
        client.account = account
        if message.keep_ids:
            client.answers = self._session_answers(player)
        seat_room = self.lobby.seat_of(player)
        room_id = seat_room.id if seat_room is not None and not seat_room.closed else None
        if room_id is not None:
            client.name = self._name_in_seat(player, room_id, client.name)
        client.send_message(
            m.Welcome(
                id=message.id,
                v=m.PROTOCOL_VERSION,
                player=player,
                name=client.name,
                token=token,
                now=now_ms(),
                room=room_id,
                account=account,
            )
        )
        if room_id is not None:
            self.lobby.reattach(client)
        return True

    async def _rated_quick(self, client: Client, message: m.Quick) -> bool:
        """A rated quick match: for accounts, paired by rating (`Lobby.quick_rated`)."""
        if client.player is None:
            client.error(message.id, errors.HELLO_REQUIRED, "send hello first")
        elif not client.account:
            self._account_required(client, message.id)
        elif self._may_make_room(client, message.id):
            rating = await self.players.rating(client.player)
            if not client.closed:
                shown = float(rating.rating) if rating is not None else START
                self._made_room(client, lambda c, q: self.lobby.quick_rated(c, q, shown), message)
        return True

    def _guest_in_rated_seat(self, client: Client, message: m.Join) -> bool:
        """A guest asking for a seat in a rated room of this node (a rated room of another
        node seats them, but their racks count for nobody: a guest has no rating)."""
        if client.account or message.role != "player":
            return False
        room_id = self.lobby.codes.get(message.code) if message.code is not None else message.room
        room = self.lobby.room(room_id) if room_id is not None else None
        return room is not None and room.settings.rated

    def _account_required(self, client: Client, request_id: int) -> None:
        client.error(
            request_id,
            errors.ACCOUNT_REQUIRED,
            "rated play is for players with an account; sign up or log in first",
        )

    def _passes_for_a_seated_player(self, client: Client, message: m.Join) -> bool:
        """A name that could pass for the name of a player seated in the room (the same
        name, another case, lookalike letters: `protocol.text.confusable`) is refused
        there, as player or spectator (`name_confusable`), so nobody can impersonate a
        player at the table or in its chat. Only rooms of this node, and a private room
        only with its code (the refusal names the player)."""
        room_id = message.room
        if message.code is not None:
            room_id = self.lobby.codes.get(message.code)
        room = self.lobby.room(room_id) if room_id is not None else None
        if room is None or (room.settings.private and message.code is None):
            return False
        # A seat kept for this player (a tournament's) is theirs to take under their name on
        # the bracket whatever name sits in the other: an opponent who renamed to look like
        # them cannot lock them out. Under any other name they are held to the rule.
        if client.player in room.settings.reserved:
            own = own_kept_name(room.state, client.player)
            if own is None or confusable(client.name, [own]) is not None:
                return False
        others = [s.name for s in room.seats if s is not None and s.player != client.player]
        match = confusable(client.name, others)
        if match is None:
            return False
        client.error(
            message.id,
            errors.NAME_CONFUSABLE,
            f"your name could pass for {match}'s, who plays in this room; choose another",
        )
        return True

    def _seated_under(self, player: str, name: str) -> bool:
        """Whether `player` sits at a table of this node under `name` as it is."""
        seat_room = self.lobby.seat_of(player)
        room = self.lobby.room(seat_room.id) if seat_room is not None else None
        return room is not None and any(
            seat is not None and seat.player == player and seat.name == name for seat in room.seats
        )

    def _name_in_seat(self, player: str, room_id: str, name: str) -> str:
        """The name a seated player coming back under `name` will have at the table, for
        the `welcome` to say: the room decides it as it takes the player back
        (`server.rooms.naming`); a room of another node decides it there."""
        room = self.lobby.room(room_id)
        return name if room is None else name_back(room.seats, player, name, room.state)

    def _may_make_room(self, client: Client, request_id: int) -> bool:
        """A `create`, or a `quick` that may pair: within `--max-rooms` for the process
        and `--rooms-per-address` for the client's address, else `too_many_rooms`."""
        limits = self.limits
        if (
            limits.max_rooms > 0
            and len(self.lobby.rooms) + len(self.lobby.practice_rooms) >= limits.max_rooms
        ):
            text = "the server holds as many rooms as it may; join one, or try again later"
        elif (
            limits.rooms_per_address > 0
            and self.room_owners.count(address_key(client.address), self._open_tables())
            >= limits.rooms_per_address
        ):
            text = (
                f"at most {limits.rooms_per_address} open rooms per address; join one, or "
                "leave yours first"
            )
        else:
            return True
        client.hit(ROOM_CAP)
        client.error(request_id, errors.TOO_MANY_ROOMS, text)
        return False

    def _made_room(self, client: Client, make: Callable[[Client, M], None], message: M) -> None:
        """`make` (the lobby's create, quick or practice); a room it gave the client (a quick
        match paired at once included) is charged to the client's address."""
        before = client.room
        make(client, message)
        room_id = client.room_id
        if client.room is not before and room_id is not None:
            self.room_owners.add(address_key(client.address), room_id, self._open_tables())

    def _open_tables(self) -> Mapping[str, object]:
        """This node's open tables, match rooms and practice tables alike (both count
        towards `--max-rooms` and `--rooms-per-address`)."""
        return {**self.lobby.rooms, **self.lobby.practice_rooms}

    def _session_answers(self, player: str) -> Answers:
        """The answers `player`'s connections share: a request sent again on a new
        connection after a drop (same id) gets its first answer and is not carried out
        again. Only for a client that numbers its requests across reconnects (`keep_ids`):
        one that starts again at 1 would be answered from its last connection. Kept on this
        node only: a reconnect through the load balancer to another node starts afresh."""
        answers = self.session_answers.get(player)
        if answers is None:
            answers = Answers()
            self.session_answers[player] = answers
            while len(self.session_answers) > SESSIONS_REMEMBERED:
                self.session_answers.popitem(last=False)
        self.session_answers.move_to_end(player)
        return answers

    def _may_guess(self, client: Client) -> bool:
        """A join is a guess at an invite code (or a private room's id): one connection, or
        one address, that keeps guessing wrong is refused for a while. Wrong guesses are
        charged when the lobby answers `bad_invite` (`Client.error`)."""
        return client.budget.invites.ready() and self.addresses.may_guess(
            address_key(client.address)
        )

    def close_all(self, code: int, reason: str) -> None:
        for client in list(self.clients):
            client.close(code, reason)


def _rate_message(limits: Limits, aim: bool) -> str:
    if aim:
        return f"at most {limits.aim_rate:g} aim previews a second; this one was dropped"
    return f"at most {limits.rate:g} messages a second (bursts of {limits.burst}); slow down"

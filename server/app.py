"""The server process: wires the store, the physics pool, the lobby, the gateway and
the HTTP routes onto one port, and shuts them down in order.

Whether the process is a lone node or one node of a cluster is decided here, once: the
lobby gets its `Peers` (`LonePeers`, or with `--redis-url` the `ClusterNode`) and never
asks again; so is whether that Redis is one server (`redis://`) or a Redis Cluster
(`redis+cluster://`: the store's cluster client, the tagged keys, sharded pub/sub)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import serve

from server.cluster.channels import open_channels
from server.cluster.cooldowns import SharedCooldowns
from server.cluster.node import ClusterNode
from server.edge.api import ApiRoutes
from server.edge.apiconn import api_connection_class
from server.edge.gateway import Gateway
from server.edge.handshakes import (
    Door,
    descriptor_limit,
    quiet_accept_errors,
    raise_descriptor_limit,
    serve_ops,
)
from server.edge.http import HttpRoutes
from server.edge.limits import LIMIT_KINDS, parse_networks, serve_options
from server.edge.replays import ReplayLimits, ReplayStreams
from server.edge.sessions import Sessions
from server.ops.config import Config
from server.ops.metrics import Metrics
from server.ops.shutdown import watched
from server.players.passwords import Passwords
from server.players.ratings import START, is_provisional
from server.players.service import Players, Rules
from server.players.stores import open_player_store, players_store_url
from server.players.tokens import AccountTokens
from server.rooms.lobby import Lobby
from server.rooms.peers import LonePeers, Peers
from server.rooms.practice_book import LonePracticeBook, PracticeBook
from server.rooms.simulation import PhysicsPool
from server.store import (
    MemoryStore,
    Store,
    StoreError,
    monitor_health,
    open_store,
    store_ready,
    trim_forever,
)
from server.store.redis import RedisStore
from server.tournament.api import Reader, SeedRating, TournamentApi
from server.tournament.places import TournamentPlaces
from server.tournament.service import ComputerSeats, MatchEndInbox, TournamentService
from server.tournament.stores import open_tournament_store

log = logging.getLogger(__name__)


class GameServer:
    """One server process. `start()` binds and returns once ready; `stop()` drains."""

    def __init__(
        self,
        config: Config,
        store: Store | None = None,
        pool: PhysicsPool | None = None,
        players: Players | None = None,
    ) -> None:
        self.config = config
        self.metrics = Metrics(LIMIT_KINDS)
        self.store = store if store is not None else open_config_store(config)
        self._own_pool = pool is None
        self.pool = (
            pool if pool is not None else PhysicsPool(config.workers, config.computers.bot_workers)
        )
        self.cluster = _cluster_node(config, self.store, self.metrics)
        self.peers: Peers = self.cluster if self.cluster is not None else LonePeers()
        #: Where practice tables are kept: in the cluster's Redis, or this node's memory.
        book: PracticeBook = (
            self.cluster.practice_book if self.cluster is not None else LonePracticeBook()
        )
        #: Tournaments: their store, the matches they hear of from this node's rooms.
        self.tournament_store = open_tournament_store(config.store, config.redis_url)
        self.match_ends = MatchEndInbox()
        #: Accounts, ratings, leaderboards; the JSON API under /api/ (server/edge/api.py);
        #: the rooms hand it their results (server/rooms/reporting.py).
        self.players = players if players is not None else open_players(config)
        self.lobby = Lobby(
            config,
            self.store,
            self.pool,
            self.metrics,
            self.peers,
            book,
            self.match_ends,
            results=self.players,
        )
        sessions = Sessions(config.secret, config.token_ttl, previous=config.secret_previous)
        self.tournaments = TournamentService(
            self.tournament_store,
            self.lobby,
            self.store,
            self.match_ends,
            node=self.cluster.id if self.cluster is not None else "lone",
            no_show=config.tournaments.tournament_no_show,
            # Computer players fill empty places through the lobby's computer seat.
            bots=ComputerSeats(self.lobby),
            lead_ttl=config.node_timeout,
        )
        self.api = ApiRoutes(
            self.players,
            sessions.verify,
            TournamentPlaces(self.tournaments, self._rating_of, self._is_account),
            parse_networks(config.limits.trusted_proxies),
        )
        self._sessions = sessions
        self.tournament_api = TournamentApi(
            self.tournaments,
            self.api,
            self._reader_of,
            self._rating_of,
            self.players.name_owner,
        )
        self.gateway = Gateway(
            self.lobby, sessions, self.metrics, config.limits, players=self.players
        )
        #: Every TCP connection passes it first: what it may cost before its request is known.
        self.door = Door(
            config.limits,
            parse_networks(config.limits.trusted_proxies),
            self.metrics,
            descriptor_limit(),
        )
        self.cooldowns: SharedCooldowns | None = None
        if self.cluster is not None:
            self.cooldowns = SharedCooldowns(
                self.cluster.bus, self.gateway.addresses, self.cluster.id
            )
            self.gateway.on_cooldown = self.cooldowns.share
        self.replays = ReplayStreams(
            self.lobby.replays,
            sessions,
            self.gateway.addresses,
            parse_networks(config.limits.trusted_proxies),
            ReplayLimits(
                max_bytes=config.replay_max_bytes,
                per_address=config.replays_per_address,
                streams=config.replay_streams,
                timeout=config.replay_timeout,
            ),
        )
        self.routes = HttpRoutes(
            config.client_dir, self.metrics, self.replays, self._ready, config.client_bundle
        )
        self.ready = False
        self._ws: WsServer | None = None
        self._lag_task: asyncio.Task[None] | None = None
        self._health_task: asyncio.Task[None] | None = None
        self._trim_task: asyncio.Task[None] | None = None

    async def _reader_of(self, token: str) -> Reader | None:
        """Who a Bearer token names, for the tournaments: an account's token its account's
        player (so a logged-in player enters under the id their seat will be kept for) and
        name, a session token its session's player; None for a token no longer good."""
        if AccountTokens.looks_like(token):
            identity = await self.players.identify(token)
            return None if identity is None else Reader(identity.player, identity.name)
        player = self._sessions.verify(token)
        return None if player is None else Reader(player, None)

    async def _rating_of(self, player: str) -> SeedRating | None:
        """A player's rating, for seeding a tournament by rating, and whether it is still
        provisional; an account with no rated rack yet is where every account starts (it
        was taken for a guest: "(guest)" beside a name just signed up); None: a guest."""
        stats = await self.players.store.stats(player)
        if stats is not None:
            return SeedRating(stats.rating, provisional=is_provisional(stats.racks))
        if await self.players.store.account(player) is None:
            return None
        return SeedRating(START, provisional=True)

    async def _is_account(self, player: str) -> bool:
        return await self.players.store.account(player) is not None

    def _ready(self) -> bool:
        """Ready to take players: started, not draining, the store takes writes and (in a
        cluster) the pub/sub connection and the directory are up."""
        return self.peers.ready and self.ready and store_ready(self.store)

    @property
    def port(self) -> int:
        assert self._ws is not None
        return int(self._ws.sockets[0].getsockname()[1])

    @property
    def url(self) -> str:
        host = self.config.host
        shown = "localhost" if host in ("0.0.0.0", "::", "127.0.0.1", "") else host
        return f"http://{shown}:{self.port}/"

    async def start(self) -> None:
        """Bind the port, then start: a node that cannot have its port fails here before it
        has joined anything (it would otherwise beat in the cluster while serving nobody).
        If starting fails or is cancelled half way, whatever started is stopped again."""
        loop = asyncio.get_running_loop()
        quiet_accept_errors(loop, self.door)
        self._ws = await serve(
            self.gateway.handle,
            self.config.host,
            self.config.port,
            # The door holds every connection from its first byte (head size and time,
            # unfinished heads per address and in all, the connection cap); origin and
            # connections per address are checked on the request, before any handshake.
            process_request=self.door.chain(self.gateway.guard.chain(self.routes.process_request)),
            create_connection=api_connection_class(self.door, self.tournament_api),
            # Bound now, served once everything behind it runs.
            start_serving=False,
            **serve_options(self.config.limits),
        )
        try:
            if self._own_pool:
                await self.pool.start()
            # A lone node brings its rooms back from the store; in a cluster each room is
            # adopted by a node that needs it.
            await self.peers.start()
            if self.cooldowns is not None:
                await self.cooldowns.start()
            await self._ws.start_serving()
        except BaseException:
            await self._abort()
            raise
        self._lag_task = loop.create_task(self.metrics.watch_loop_lag())
        self._health_task = loop.create_task(monitor_health(self.store), name="store health")
        retention = self.config.replay_retention * 86400
        self._trim_task = loop.create_task(trim_forever(self.store, retention), name="trim")
        self.tournaments.start()
        self.ready = True

    async def _abort(self) -> None:
        """`start` did not finish: close the port and stop what did start, so that the
        process can exit (and, in a cluster, is not counted as a node)."""
        if self._ws is not None:
            self._ws.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._ws.wait_closed(), timeout=5)
        with contextlib.suppress(Exception):
            if self.cooldowns is not None:
                await self.cooldowns.stop()
        with contextlib.suppress(Exception):
            await self.peers.stop()
        with contextlib.suppress(Exception):
            await self.store.close()
        with contextlib.suppress(Exception):
            await self.tournament_store.close()
        if self._own_pool:
            await asyncio.get_running_loop().run_in_executor(None, self.pool.close)

    async def stop(self) -> None:
        """Graceful: stop taking players, snapshot every room (in a cluster, hand the rooms
        over to the other nodes at once), close clients with 1001."""
        self.ready = False
        self.gateway.accepting = False
        await watched("the tournaments", self.tournaments.stop())
        await watched("serving rooms", self.peers.stop_serving())
        await watched("the rooms' snapshots", self.lobby.shutdown())
        await watched("the hand-over", self.peers.hand_off())
        await watched("the replays", self.replays.close())
        self.gateway.close_all(1001, "server shutting down")
        if self._ws is not None:
            self._ws.close(close_connections=True)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._ws.wait_closed(), timeout=10)
        for task in (self._lag_task, self._health_task, self._trim_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self.cooldowns is not None:
            await watched("the shared cooldowns", self.cooldowns.stop())
        await watched("leaving the cluster", self.peers.stop())
        await watched("the players' store", self.players.close())
        await watched("the store", self.store.close())
        if self._own_pool:
            loop = asyncio.get_running_loop()
            await watched("the worker pools", loop.run_in_executor(None, self.pool.close))


def open_players(config: Config) -> Players:
    """The players service on the store the settings name (`server.players.stores`)."""
    url = players_store_url(config.store, config.redis_url, config.players_store)
    rules = Rules(
        failures_per_account=config.login_failures,
        failures_per_address=config.login_failures_per_address,
        window=config.login_window,
        accounts_per_address=config.accounts_per_address,
    )
    tokens = AccountTokens(config.secret, config.login_ttl, previous=config.secret_previous)
    return Players(open_player_store(url), Passwords(config.password_hashers), tokens, rules)


def open_config_store(config: Config) -> Store:
    """The store the settings name; an in-memory one with the replay retention settings."""
    if config.store.partition("://")[0] == "memory":
        return MemoryStore(keep_retired=config.replays_kept, retired_max_age=config.replays_max_age)
    return open_store(config.store, retention=config.replay_retention * 86400)


def _cluster_node(config: Config, store: Store, metrics: Metrics) -> ClusterNode | None:
    """With `--redis-url`, this process is one node of a cluster on that Redis: one Redis
    (`redis://…`, plain pub/sub) or a Redis Cluster (`redis+cluster://…`, which opened a
    cluster client and the hash-tagged layout; sharded pub/sub), chosen here once."""
    if config.redis_url is None:
        return None
    if not isinstance(store, RedisStore):
        raise StoreError("a cluster node keeps its rooms in the Redis of --redis-url")
    return ClusterNode(config, store, metrics, open_channels(store.client))


async def run(config: Config) -> None:
    """Run until SIGTERM or SIGINT, then shut down gracefully."""
    descriptors = raise_descriptor_limit()
    log.info("descriptor limit: %s", descriptors if descriptors is not None else "none")
    server = GameServer(config)
    # SIGTERM and SIGINT are this process's from the start. One while starting (a node
    # waiting for Redis) cancels the start, and again every quarter second until the
    # cancellation takes: Python 3.11's `wait_for` and `asyncio.timeout` can each swallow
    # one that lands as their own wait ends, and a start that swallowed asyncio.run's
    # single cancellation went on waiting for Redis, deaf to the interrupt.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    starting = asyncio.ensure_future(server.start())
    while not starting.done():
        try:
            await asyncio.wait({starting}, timeout=0.25)
        except asyncio.CancelledError:
            # This task cancelled while starting (asyncio.run's SIGINT before these
            # handlers are in, or whoever runs it): an interrupt like the others.
            stop.set()
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
        if stop.is_set() and not starting.done():
            starting.cancel()
    if starting.cancelled():
        log.info("interrupted while starting: shutting down")
        return
    starting.result()  # the start's own failure (the port taken, the store unusable)
    if stop.is_set():  # interrupted as the start ended: stop instead of serving
        log.info("interrupted while starting: shutting down")
        await server.stop()
        return
    ops = None
    if config.limits.metrics_port is not None:
        ops = await serve_ops(server.metrics, server._ready, config.limits)
        address = ops.sockets[0].getsockname()
        print(f"metrics on http://{address[0]}:{address[1]}/metrics", flush=True)
    print(f"ninepool server ready: open {server.url}", flush=True)
    if not config.secret_given:
        log.warning("no --secret given: session tokens will not survive a restart")
    await stop.wait()
    log.info("shutting down")
    await server.stop()
    if ops is not None:
        ops.close()
        await watched("the metrics port", ops.wait_closed())

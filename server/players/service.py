"""`Players`: the one object the rooms and the HTTP API talk to about players.

- Accounts: claim a name (optionally taking over a guest's player id, so what the guest
  plays from then on counts), log in, log out (one token, or every token), delete.
- Ratings: `rack_finished` / `match_finished` for the rooms (idempotent per rack and per
  match), or `submit_rack` / `submit_match` to hand them over without waiting.
- Reading: the leaderboards and a player's profile, as JSON-ready dicts.

Sign-in throttles live in the store, so they hold across every node of a cluster: each
failed login counts against the name tried and against the address it came from, and
once either has had its fill within `window` seconds, logins for it are answered
`Throttled` (HTTP 429 with Retry-After) without any hashing — even with the right
password, or guessing could go on. A success forgives the name's count.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from server.players import names
from server.players.passwords import MAX_PASSWORD_BYTES, MIN_PASSWORD_LENGTH, Passwords
from server.players.ratings import BOT_RATINGS, START, bot_level, is_provisional
from server.players.results import (
    MatchResult,
    PlayerRating,
    RackRecord,
    RackResult,
    month_of,
    rack_refusal,
)
from server.players.store import (
    Account,
    LeaderRow,
    NameTaken,
    PlayerStore,
    PlayerTaken,
    RackApplied,
)
from server.players.tokens import AccountTokens, Claim

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Rules:
    """The sign-in throttles (see the module's docstring); 0 switches one off."""

    failures_per_account: int = 5
    failures_per_address: int = 20
    window: int = 900
    accounts_per_address: int = 10
    accounts_window: int = 3600


class AccountError(Exception):
    """A request about an account that cannot be done: `kind` is `invalid` (HTTP 400),
    `taken` (409) or `unknown` (401)."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


class Throttled(Exception):
    """Too many failures (or new accounts) lately: wait `retry_after` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"retry after {retry_after} s")
        self.retry_after = max(1, retry_after)


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a valid account token belongs to."""

    player: str
    name: str
    claim: Claim


def new_player_id() -> str:
    """A fresh player id, in the form of the session tokens' (`p_` and 16 hex digits)."""
    return "p_" + secrets.token_hex(8)


def _now_ms(clock: Callable[[], float]) -> int:
    return int(clock() * 1000)


def check_password(password: str) -> None:
    if len(password) < MIN_PASSWORD_LENGTH:
        raise AccountError("invalid", f"a password has at least {MIN_PASSWORD_LENGTH} characters")
    if len(password.encode("utf-8", "surrogatepass")) > MAX_PASSWORD_BYTES:
        raise AccountError("invalid", f"a password has at most {MAX_PASSWORD_BYTES} bytes")


class Players:
    """Accounts, ratings and leaderboards over one `PlayerStore`."""

    def __init__(
        self,
        store: PlayerStore,
        passwords: Passwords,
        tokens: AccountTokens,
        rules: Rules | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.passwords = passwords
        self.tokens = tokens
        self.rules = rules if rules is not None else Rules()
        self.clock = clock
        self._pending: set[asyncio.Task[Any]] = set()

    async def close(self) -> None:
        await self.drain()
        self.passwords.close()
        await self.store.close()

    # --- accounts ----------------------------------------------------------------------------

    async def create_account(
        self, raw_name: str, password: str, address: str, guest: str | None = None
    ) -> Account:
        """Claim `raw_name`. `guest`: the player id of the guest session asking (its
        racks from now on count for the account). `AccountError` or `Throttled`."""
        try:
            name = names.check(raw_name)
        except names.NameProblem as exc:
            raise AccountError("invalid", str(exc)) from None
        check_password(password)
        rules = self.rules
        if rules.accounts_per_address > 0:
            made = await self.store.attempts(f"made:{address}")
            if made.count >= rules.accounts_per_address:
                raise Throttled(made.retry_after)
        folded, look = names.fold(name), names.skeleton(name)
        if guest is not None and await self.store.account(guest) is not None:
            raise AccountError("taken", "this player has an account already; log in to it")
        if await self.store.account_by_name(folded) is not None:
            raise AccountError("taken", "that name is taken")
        hashed = await self.passwords.hash(password)
        player = guest if guest is not None else new_player_id()
        for _ in range(3):
            try:
                await self.store.create_account(
                    player, name, folded, look, hashed, _now_ms(self.clock)
                )
                break
            except NameTaken:
                raise AccountError("taken", "that name is taken, or one too like it") from None
            except PlayerTaken:
                player = new_player_id()  # a deleted account's id is never reused
        else:  # pragma: no cover - three random 64-bit ids all taken
            raise AccountError("taken", "no free player id")
        if rules.accounts_per_address > 0:
            await self.store.fail(f"made:{address}", rules.accounts_window)
        log.info("account created", extra={"player": player})
        account = await self.store.account(player)
        assert account is not None
        return account

    async def login(self, raw_name: str, password: str, address: str) -> tuple[str, Account]:
        """A new token for the account named `raw_name`. `AccountError("unknown")` for a
        wrong name or password alike; `Throttled` after too many failures."""
        folded = names.fold(names.shown(raw_name))
        rules = self.rules
        keys = []
        if rules.failures_per_account > 0:
            keys.append((f"name:{folded}", rules.failures_per_account))
        if rules.failures_per_address > 0:
            keys.append((f"addr:{address}", rules.failures_per_address))
        waits = []
        for key, most in keys:
            attempts = await self.store.attempts(key)
            if attempts.count >= most:
                waits.append(attempts.retry_after)
        if waits:
            raise Throttled(max(waits))
        account = await self.store.account_by_name(folded)
        good = await self.passwords.verify(
            None if account is None else account.password_hash, password[:MAX_PASSWORD_BYTES]
        )
        if account is None or not good:
            for key, _ in keys:
                await self.store.fail(key, rules.window)
            raise AccountError("unknown", "wrong name or password")
        if rules.failures_per_account > 0:
            await self.store.forgive(f"name:{folded}")
        if self.passwords.needs_rehash(account.password_hash):
            # Made with other parameters (older, weaker ones): store it as they are now.
            fresh = await self.passwords.hash(password)
            await self.store.set_password_hash(account.player, fresh)
        token, _ = self.tokens.issue(account.player, account.generation)
        return token, account

    async def identify(self, token: str) -> Identity | None:
        """The account a token stands for, if it is still good (signed, unexpired, not
        logged out, of the account's current generation)."""
        claim = self.tokens.read(token)
        if claim is None:
            return None
        generation = await self.store.token_state(claim.player, claim.token_id)
        if generation is None or generation != claim.generation:
            return None
        account = await self.store.account(claim.player)
        if account is None:
            return None
        return Identity(account.player, account.name, claim)

    def renew(self, identity: Identity) -> str:
        """A fresh token of the same account and generation (the gateway hands one out at
        every `hello`, as it does session tokens)."""
        return self.tokens.issue(identity.player, identity.claim.generation)[0]

    async def logout(self, identity: Identity) -> None:
        await self.store.revoke(identity.claim.token_id, identity.claim.expires)

    async def logout_everywhere(self, identity: Identity) -> None:
        await self.store.new_generation(identity.player)

    async def delete_account(self, identity: Identity) -> bool:
        deleted = await self.store.delete_account(identity.player)
        if deleted:
            log.info("account deleted", extra={"player": identity.player})
        return deleted

    @staticmethod
    def reserved_for_guests(raw_name: str) -> bool:
        """Whether a guest may not play under this name: a computer player's ("Bot 2"), or
        one that speaks for the service ("Referee") — `names.GUEST_RESERVED`."""
        return names.is_reserved_for_guests(names.shown(raw_name))

    async def name_owner(self, raw_name: str) -> str | None:
        """The player id of the account with this name (after folding) or one that looks
        the same (its skeleton), if any: a guest may not play under an account's name
        (the gateway's `hello`)."""
        shown = names.shown(raw_name)
        return await self.store.name_holder(names.fold(shown), names.skeleton(shown))

    async def rating(self, player: str) -> PlayerRating | None:
        """The rating shown next to `player`'s name: an account's (provisional until 30
        rated racks; the starting rating before its first), a bot's fixed one, None for a
        guest."""
        level = bot_level(player)
        if level is not None and level in BOT_RATINGS:
            return PlayerRating(round(BOT_RATINGS[level]), provisional=False)
        stats = await self.store.stats(player)
        if stats is None:
            # No rated rack yet: an account starts where every account does (its first rack
            # is rated from there), a guest has none.
            if await self.store.account(player) is None:
                return None
            return PlayerRating(round(START), provisional=True)
        return PlayerRating(round(stats.rating), provisional=is_provisional(stats.racks))

    # --- racks and matches ---------------------------------------------------------------------

    async def rack_finished(self, result: RackResult) -> RackApplied | None:
        """Count one finished rack, if it is rated (`results.rack_refusal`) and both
        players are accounts or bots; None if it does not count or counted before."""
        if rack_refusal(result) is not None:
            return None
        at = result.at if result.at is not None else _now_ms(self.clock)
        return await self.store.apply_rack(RackRecord(result, at))

    async def match_finished(self, result: MatchResult) -> bool:
        """Add a finished match to its players' recent matches (rated or not); False if
        it was recorded before."""
        at = result.at if result.at is not None else _now_ms(self.clock)
        return await self.store.record_match(result, at)

    def submit_rack(self, result: RackResult) -> None:
        """`rack_finished` without waiting (a room must not wait on the players' store);
        a failure is logged. `drain` waits for what is under way."""
        self._spawn(self.rack_finished(result), "rack")

    def submit_match(self, result: MatchResult) -> None:
        self._spawn(self.match_finished(result), "match")

    def _spawn(self, work: Any, what: str) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._pending.add(task)

        def done(finished: asyncio.Task[Any]) -> None:
            self._pending.discard(finished)
            if not finished.cancelled() and finished.exception() is not None:
                log.error("could not record a %s result: %s", what, finished.exception())

        task.add_done_callback(done)

    async def drain(self) -> None:
        while self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)

    # --- reading ---------------------------------------------------------------------------------

    async def leaderboard(self, limit: int, monthly: bool = False) -> list[dict[str, Any]]:
        month = month_of(_now_ms(self.clock)) if monthly else None
        rows: list[LeaderRow] = await self.store.leaderboard(limit, month)
        return [{"name": r.name, "rating": round(r.rating), "racks": r.racks} for r in rows]

    async def profile(self, raw_name: str) -> dict[str, Any] | None:
        account = await self.store.account_by_name(names.fold(names.shown(raw_name)))
        if account is None:
            return None
        profile = await self.store.profile(account.player)
        if profile is None:
            return None
        opponents = await self.store.names(sorted({m.opponent for m in profile.matches}))
        stats = profile.stats
        return {
            "name": account.name,
            "rating": round(stats.rating),
            "racks": stats.racks,
            "provisional": is_provisional(stats.racks),
            "won": stats.won,
            "lost": stats.lost,
            "breaks": stats.breaks,
            "break_and_runs": stats.break_and_runs,
            "nines_on_break": stats.nines_on_break,
            "fouls": stats.fouls,
            "fouls_per_rack": round(stats.fouls / stats.racks, 3) if stats.racks else 0.0,
            "since": account.created,
            "history": [{"at": p.at, "rating": round(p.rating, 1)} for p in profile.history],
            "matches": [
                {
                    "room": m.room,
                    "match": m.match,
                    "at": m.at,
                    "opponent": _opponent(m.opponent, opponents),
                    "opponent_level": _computer_level(m.opponent),
                    "won": m.won,
                    "score": list(m.score),
                    "ended_by": m.ended_by,
                    "rated": m.rated,
                    "replay": f"/replay/{m.room}",
                }
                for m in profile.matches
            ],
        }


def _computer_level(player: str) -> int | None:
    """The computer opponent's level, so a client names it in its own language (the
    `opponent` string is English); None for a person."""
    level = bot_level(player)
    return level if level is not None and level in BOT_RATINGS else None


def _opponent(player: str, known: dict[str, str]) -> str | None:
    """An opponent as a profile shows them: the account's name, the bot's level, or
    None for a guest or a deleted account (nobody's name is kept for them)."""
    if player in known:
        return known[player]
    level = _computer_level(player)
    return None if level is None else f"Bot (level {level})"

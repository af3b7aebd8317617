"""Account tokens: what `POST /api/login` hands out, and what proves an account since.

A token says which account (its player id), which generation of the account's tokens it
belongs to, when it expires and its own id, and is signed (HMAC-SHA256) with the
service's secret — the session tokens' (`--secret`, and `--secret-previous` while it is
being rotated) under a domain of its own, so no session token is ever an account token
or the other way round. Any node can check the signature; what makes a token
*revocable* is the store, asked on every use:

- "log out" marks this one token's id as revoked until it would have expired;
- "log out everywhere" raises the account's generation: every token of an older one is
  refused from then on, on every node;
- deleting the account leaves no generation to match.

Tokens are credentials: nothing logs them, and their shape (two base64url runs joined by
a dot) is the one the log formatter blanks (`server.ops.logs`).
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from server.players.signing import Signer, unb64

_DOMAIN = b"ninepool-account\x00"
_KIND = "acct"
#: A player id is `p_` and 16 hex digits; anything much longer in a token is not ours.
_MAX_PLAYER = 40


@dataclass(frozen=True, slots=True)
class Claim:
    """What a well-signed, unexpired token says (the store decides if it still holds)."""

    player: str
    generation: int
    expires: int
    token_id: str


class AccountTokens:
    def __init__(
        self,
        secret: bytes,
        ttl: float,
        clock: Callable[[], float] = time.time,
        previous: bytes | None = None,
    ) -> None:
        self._signer = Signer(_DOMAIN, secret, previous, "token")
        if not ttl > 0:
            raise ValueError("the token TTL must be more than 0 seconds")
        self.ttl = ttl
        self._clock = clock

    def issue(self, player: str, generation: int) -> tuple[str, Claim]:
        """A new token for `player`'s account at `generation`, and what it says."""
        claim = Claim(
            player=player,
            generation=generation,
            expires=math.ceil(self._clock() + self.ttl),
            token_id=secrets.token_urlsafe(12),
        )
        payload = f"{_KIND}|{player}|{generation}|{claim.expires}|{claim.token_id}".encode()
        return self._signer.seal(payload), claim

    def read(self, token: str) -> Claim | None:
        """What `token` says if this service signed it and it has not expired."""
        if len(token) > 512:
            return None
        payload = self._signer.open(token)
        if payload is None:
            return None
        try:
            kind, player, generation, expires, token_id = payload.decode("ascii").split("|")
            claim = Claim(player, int(generation), int(expires), token_id)
        except (UnicodeDecodeError, ValueError):
            return None
        if kind != _KIND or not player.startswith("p_") or len(player) > _MAX_PLAYER:
            return None
        if self._clock() >= claim.expires:
            return None
        return claim

    @staticmethod
    def looks_like(token: str) -> bool:
        """Whether `token` is shaped as an account token (not checked): lets the gateway
        tell an account's token from a guest's session token before asking the store."""
        head = token.partition(".")[0]
        try:
            return unb64(head).startswith(_KIND.encode() + b"|")
        except ValueError:
            return False

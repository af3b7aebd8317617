"""Session tokens: opaque to clients, HMAC-signed, bound to one player id, expiring.

A token names the player and when it stops being valid, and carries a signature made with
the service's secret, so any node holding the same secret can tell who is reconnecting
without shared session state. Each accepted `hello` hands out a fresh token, so a player
who keeps coming back keeps a valid one; a token that leaked stops working after the TTL.

A seat is not a token of its own: a room binds each seat to a player id (stored with the
room), and the only way to act as that player is a token signed for that id. A
spectator's token, or another player's, names another id and can never act in the seat.

Tokens are secrets: nothing here logs them, and the log formatter (`server.ops.logs`) blanks
anything shaped like one.
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from server.players.signing import Signer

_DOMAIN = b"ninepool-session\x00"
#: Player ids are `p_` and 16 hex digits; anything longer in a token is not ours.
_MAX_PLAYER = 40


def new_player_id() -> str:
    return "p_" + secrets.token_hex(8)


@dataclass(frozen=True)
class TokenCheck:
    """What a token says: its player, or why it is refused (`forged` or `expired`)."""

    player: str | None
    problem: str | None = None


class Sessions:
    """Issues tokens with one secret and checks them against it, or against the previous
    secret while keys are being rotated.

    A rotation must not send every player away: for a while the nodes accept tokens signed
    with the previous key as well (`previous`), but sign only with the current one, and
    every accepted `hello` hands out a fresh token. So a player who comes back during the
    grace period leaves with a token of the new key, and once tokens of the old key have
    expired (`ttl`) the previous key can be dropped (deploy/README.md, "Rotating secrets").
    """

    def __init__(
        self,
        secret: bytes,
        ttl: float = 86400.0,
        clock: Callable[[], float] = time.time,
        previous: bytes | None = None,
    ) -> None:
        self._signer = Signer(_DOMAIN, secret, previous, "session")
        if not ttl > 0:
            raise ValueError("the token TTL must be more than 0 seconds")
        self.ttl = ttl
        self._clock = clock

    def issue(self, player: str) -> str:
        """A token for `player`, valid for the TTL from now."""
        expires = math.ceil(self._clock() + self.ttl)
        return self._signer.seal(f"{player}|{expires}".encode())

    def check(self, token: str) -> TokenCheck:
        payload = self._signer.open(token)
        if payload is None:
            return TokenCheck(None, "forged")
        try:
            player, bar, expires_text = payload.decode("ascii").partition("|")
            expires = int(expires_text)
        except (UnicodeDecodeError, ValueError):
            return TokenCheck(None, "forged")
        if not bar or not player.startswith("p_") or len(player) > _MAX_PLAYER:
            return TokenCheck(None, "forged")
        if self._clock() >= expires:
            return TokenCheck(None, "expired")
        return TokenCheck(player)

    def verify(self, token: str) -> str | None:
        """The player id the token was issued for, or None if this service did not sign it
        or it has expired."""
        return self.check(token).player

"""Session tokens: opaque to clients, HMAC-signed, bound to one player id.

A token names the player and carries a signature made with the service's secret, so any
node holding the same secret can tell who is reconnecting without shared session state.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

_TAG_BYTES = 20


def new_player_id() -> str:
    return "p_" + secrets.token_hex(8)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Sessions:
    """Issues and checks tokens for one secret."""

    def __init__(self, secret: bytes) -> None:
        if not secret:
            raise ValueError("the session secret must not be empty")
        self._secret = secret

    def _sign(self, payload: bytes) -> bytes:
        return hmac.new(self._secret, b"ninepool-session\x00" + payload, hashlib.sha256).digest()[
            :_TAG_BYTES
        ]

    def issue(self, player: str) -> str:
        payload = player.encode("utf-8")
        return f"{_b64(payload)}.{_b64(self._sign(payload))}"

    def verify(self, token: str) -> str | None:
        """The player id the token was issued for, or None if this service did not sign it."""
        head, dot, tail = token.partition(".")
        if not dot:
            return None
        try:
            payload, tag = _unb64(head), _unb64(tail)
            player = payload.decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            return None
        if not hmac.compare_digest(tag, self._sign(payload)):
            return None
        if not player.startswith("p_") or len(player) > 40:
            return None
        return player

"""Signed tokens: a payload and its HMAC-SHA256 tag, each base64url, joined by a dot.

Why one place: session tokens (`server/edge/sessions.py`) and account tokens
(`server/players/tokens.py`) are both signed with the service's secret, and both must
accept the previous secret while it is being rotated (`--secret-previous`) yet sign only
with the current one. Each signs under a domain of its own, so a token of one kind never
checks as the other. What a payload says, and when it expires, is each kind's business;
this only seals and opens.

Tokens are credentials: nothing here logs them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

_TAG_BYTES = 20


def b64(data: bytes) -> str:
    """base64url without padding: tokens travel in JSON, URLs and headers."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: str) -> bytes:
    """The bytes of `b64` text; ValueError (binascii.Error) if it is not base64url."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    """Seals payloads with `secret` under `domain`; opens what it, or the previous secret
    while there is one, sealed."""

    def __init__(self, domain: bytes, secret: bytes, previous: bytes | None, what: str) -> None:
        if not secret:
            raise ValueError(f"the {what} secret must not be empty")
        self._domain = domain
        self._secret = secret
        #: Accepted, never signed with (None or empty: no previous key).
        self._previous = previous or None

    def _tag(self, payload: bytes, key: bytes) -> bytes:
        return hmac.new(key, self._domain + payload, hashlib.sha256).digest()[:_TAG_BYTES]

    def seal(self, payload: bytes) -> str:
        """`payload` and its tag under the current secret, as a token."""
        return f"{b64(payload)}.{b64(self._tag(payload, self._secret))}"

    def open(self, token: str) -> bytes | None:
        """The payload of a token this signer (or the previous secret) sealed; None for
        anything else — malformed, or signed with another key or domain."""
        head, dot, tail = token.partition(".")
        if not dot:
            return None
        try:
            payload, tag = unb64(head), unb64(tail)
        except ValueError:
            return None
        if hmac.compare_digest(tag, self._tag(payload, self._secret)):
            return payload
        previous = self._previous
        if previous is not None and hmac.compare_digest(tag, self._tag(payload, previous)):
            return payload
        return None

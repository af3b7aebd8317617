"""Encoding and decoding frames: MessagePack only, validated in one pass."""

from __future__ import annotations

import msgspec

from protocol import errors
from protocol.messages import AnyClientMessage, AnyServerMessage
from protocol.practice import PracticeEvent, PracticeRequest

#: Every request a client may send: the match's and the practice table's.
ClientFrame = AnyClientMessage | PracticeRequest
#: Every message the server may send.
ServerFrame = AnyServerMessage | PracticeEvent


class ProtocolError(Exception):
    """A frame that could not be accepted; `code` is one of `protocol.errors`."""

    def __init__(self, code: str, message: str, request_id: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id


_encoder = msgspec.msgpack.Encoder()
_client_decoder = msgspec.msgpack.Decoder(ClientFrame)
_server_decoder = msgspec.msgpack.Decoder(ServerFrame)
_loose_decoder = msgspec.msgpack.Decoder()


def encode(message: msgspec.Struct) -> bytes:
    """Encode any message (either direction) as one MessagePack frame."""
    return _encoder.encode(message)


def _request_id_of(frame: bytes) -> int | None:
    """Best effort: the `id` of a frame that failed validation, so the error can echo it."""
    try:
        loose = _loose_decoder.decode(frame)
    except (msgspec.DecodeError, RecursionError):
        return None
    if isinstance(loose, dict):
        candidate = loose.get("id")
        if (
            isinstance(candidate, int)
            and not isinstance(candidate, bool)
            and 0 <= candidate <= 2**31 - 1
        ):
            return candidate
    return None


def decode_client(frame: bytes | str) -> ClientFrame:
    """Decode and validate a client frame, or raise `ProtocolError`."""
    if isinstance(frame, str):
        raise ProtocolError(errors.BAD_FRAME, "text frames are not accepted; send MessagePack")
    try:
        return _client_decoder.decode(frame)
    except msgspec.ValidationError as exc:
        raise ProtocolError(errors.BAD_MESSAGE, str(exc), _request_id_of(frame)) from None
    except (msgspec.DecodeError, RecursionError) as exc:
        raise ProtocolError(errors.BAD_FRAME, f"not a MessagePack frame: {exc}") from None


def decode_server(frame: bytes) -> ServerFrame:
    """Decode a server frame (clients written in Python, tests, benchmarks)."""
    return _server_decoder.decode(frame)

"""Abuse cooldowns shared by every node of a cluster.

A node that closes a connection for abuse refuses new connections from its address for a
while (`--abuse-cooldown`, `server.edge.limits.AddressBook`). Behind nginx the client's next
connection may well land on another node, which would let it straight back in with a
fresh budget; so each node publishes the cooldowns it starts on one channel, and every
node applies the others' to its own book. Pub/sub is at most once: a node that was cut
off from Redis for a moment may miss one, and then only its own cooldown holds there
(nginx's `limit_req` still caps the rate of new connections at the edge).
"""

from __future__ import annotations

import asyncio
import logging

import msgspec

from server.cluster.bus import Bus, BusError
from server.edge.limits import COOLDOWN_MAX_SECONDS, AddressBook

log = logging.getLogger(__name__)


class CooldownNotice(msgspec.Struct, frozen=True, forbid_unknown_fields=False):
    """One node started a cooldown for `address` (an `address_key`)."""

    node: str
    address: str
    seconds: float
    offenses: int


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(CooldownNotice)


class SharedCooldowns:
    def __init__(self, bus: Bus, book: AddressBook, node: str) -> None:
        self.bus = bus
        self.book = book
        self.node = node
        self.channel = bus.keys.cooldown_channel
        self._sending: set[asyncio.Task[None]] = set()
        self._open = False

    async def start(self) -> None:
        self._open = True
        await self.bus.subscribe(self.channel, self._received)

    async def stop(self) -> None:
        self._open = False  # a connection closed for abuse while draining tells no one
        for task in list(self._sending):
            task.cancel()
        await asyncio.gather(*self._sending, return_exceptions=True)

    def share(self, address: str, seconds: float, offenses: int) -> None:
        """Tell the other nodes (called by the gateway as it starts a cooldown)."""
        if not self._open:
            return
        notice = CooldownNotice(node=self.node, address=address, seconds=seconds, offenses=offenses)
        task = asyncio.get_running_loop().create_task(self._publish(_encoder.encode(notice)))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _publish(self, data: bytes) -> None:
        try:
            await self.bus.publish(self.channel, data)
        except BusError as exc:
            log.warning("could not share an abuse cooldown: %s", exc)

    def _received(self, data: bytes) -> None:
        try:
            notice = _decoder.decode(data)
        except msgspec.DecodeError as exc:  # (ValidationError is a DecodeError)
            log.warning("ignored a malformed cooldown notice: %s", exc)
            return
        if notice.node == self.node:
            return  # our own, already in the book
        # (A count past the cap is the cap: `impose` clamps it.)
        if not (0 < notice.seconds <= COOLDOWN_MAX_SECONDS and notice.offenses > 0):
            log.warning("ignored a cooldown notice out of range from node %s", notice.node)
            return
        self.book.impose(notice.address, notice.seconds, notice.offenses)

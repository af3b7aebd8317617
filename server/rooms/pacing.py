"""Pacing: at most one update per key per interval, and the newest one wins.

Some news is only worth its latest value: a room's entry in the lobby's list, say. A room
whose spectators come and go a hundred times a second would otherwise send every lobby
subscriber a hundred frames a second — a cost that crowds of subscribers multiply and
that every other table on the process feels. Paced, a key's first change goes out at
once; changes within `interval` of the last one sent wait, and when the interval is over
only the newest goes out. The cost of a key is then at most one update per interval,
however often it changes.

The pacer holds one small slot per key it has sent for; `forget` a key that is gone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Handle(Protocol):
    def cancel(self) -> None: ...


#: Call a function after a delay (seconds); `asyncio.AbstractEventLoop.call_later`'s shape.
CallLater = Callable[[float, Callable[[], None]], Handle]


@dataclass
class _Slot(Generic[V]):
    sent_at: float
    waiting: V | None = None
    timer: Handle | None = None


class Pacer(Generic[K, V]):
    """Calls `send(key, value)` at most once per `interval` seconds for each key, with the
    newest value offered (`interval` 0: every offer at once)."""

    def __init__(
        self,
        interval: float,
        send: Callable[[K, V], None],
        clock: Callable[[], float] | None = None,
        call_later: CallLater | None = None,
    ) -> None:
        self.interval = interval
        self._send = send
        self._clock = clock
        self._call_later = call_later
        self._slots: dict[K, _Slot[V]] = {}

    def _now(self) -> float:
        if self._clock is not None:
            return self._clock()
        return asyncio.get_running_loop().time()

    def _later(self, delay: float, then: Callable[[], None]) -> Handle:
        if self._call_later is not None:
            return self._call_later(delay, then)
        return asyncio.get_running_loop().call_later(delay, then)

    def offer(self, key: K, value: V) -> None:
        """`value` is the news of `key` now: sent at once, or when its interval is over."""
        now = self._now()
        slot = self._slots.get(key)
        if slot is not None and slot.timer is not None:
            slot.waiting = value  # the newest wins
            return
        if slot is None or now >= slot.sent_at + self.interval:
            self._slots[key] = _Slot(sent_at=now)
            self._send(key, value)
            return
        slot.waiting = value
        slot.timer = self._later(slot.sent_at + self.interval - now, lambda: self._due(key))

    def waiting(self, key: K) -> bool:
        """Whether news of `key` waits for its interval to end."""
        slot = self._slots.get(key)
        return slot is not None and slot.timer is not None

    def forget(self, key: K) -> None:
        """`key` is gone: drop what waits for it and its slot."""
        slot = self._slots.pop(key, None)
        if slot is not None and slot.timer is not None:
            slot.timer.cancel()

    def close(self) -> None:
        for key in list(self._slots):
            self.forget(key)

    def __len__(self) -> int:
        return len(self._slots)

    def _due(self, key: K) -> None:
        slot = self._slots.get(key)
        if slot is None or slot.timer is None:
            return
        value, slot.waiting, slot.timer = slot.waiting, None, None
        slot.sent_at = self._now()
        if value is not None:
            self._send(key, value)

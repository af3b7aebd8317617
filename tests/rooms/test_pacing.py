"""The pacer on a clock of its own: at most one send per key per interval, the newest wins."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from server.rooms.pacing import Pacer


@dataclass
class Timer:
    at: float
    then: Callable[[], None]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class FakeLoop:
    now: float = 0.0
    timers: list[Timer] = field(default_factory=list)

    def call_later(self, delay: float, then: Callable[[], None]) -> Timer:
        timer = Timer(self.now + delay, then)
        self.timers.append(timer)
        return timer

    def advance(self, to: float) -> None:
        self.now = to
        for timer in sorted(self.timers, key=lambda t: t.at):
            if timer.at <= to and not timer.cancelled:
                self.timers.remove(timer)
                timer.then()


def pacer(interval: float = 1.0) -> tuple[Pacer[str, int], FakeLoop, list[tuple[str, int]]]:
    loop, sent = FakeLoop(), []
    paced: Pacer[str, int] = Pacer(
        interval, lambda k, v: sent.append((k, v)), lambda: loop.now, loop.call_later
    )
    return paced, loop, sent


def test_first_at_once_then_the_newest_when_the_interval_ends() -> None:
    paced, loop, sent = pacer()
    paced.offer("a", 1)
    assert sent == [("a", 1)]
    for n in range(2, 100):  # a churn: 98 changes within the interval
        loop.now = n / 200
        paced.offer("a", n)
    assert sent == [("a", 1)] and paced.waiting("a")
    loop.advance(1.0)
    assert sent == [("a", 1), ("a", 99)] and not paced.waiting("a")
    # Quiet for longer than the interval: the next change goes at once again.
    loop.now = 5.0
    paced.offer("a", 100)
    assert sent[-1] == ("a", 100)


def test_keys_are_paced_apart_and_forgotten() -> None:
    paced, loop, sent = pacer()
    paced.offer("a", 1)
    paced.offer("b", 1)
    paced.offer("a", 2)
    paced.offer("b", 2)
    assert sent == [("a", 1), ("b", 1)]
    paced.forget("b")  # the room closed: what waited for it goes nowhere
    loop.advance(2.0)
    assert sent == [("a", 1), ("b", 1), ("a", 2)] and len(paced) == 1


def test_an_interval_of_zero_sends_everything() -> None:
    paced, _, sent = pacer(0.0)
    for n in range(5):
        paced.offer("a", n)
    assert [v for _, v in sent] == [0, 1, 2, 3, 4]

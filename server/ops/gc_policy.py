"""How a serving process runs CPython's cyclic garbage collector.

The collector stops the whole process while it runs, and a full collection walks every
container object alive: with 6,000 connections that is about 730,000 objects (some 120
per connection: websockets' protocol and transport, asyncio tasks and futures, the
limits' buckets, room logs) and a pause of about half a second. With CPython's default
thresholds (700, 10, 10) a busy server ran such a full collection every half minute or
so and a middle one (20–70 ms) every few seconds: at 1,000 tables they were the whole
tail of shot latency (p99 90–335 ms, max 560–650 ms), while the event loop itself never
lagged more than 10 ms between them (`bench/README.md`, "Load"). The collectors found
nothing to free: a serving process makes next to no cyclic garbage (the pymunk queries
that did are reused now, `server/physics/world.py`); almost every object dies by its
reference count the moment it is dropped.

So a serving process, once everything is imported and before it serves:

- collects once and freezes what is alive then (`gc.freeze`): modules, classes and the
  physics tables are never garbage, and no collection walks them again;
- makes young collections rarer (`young_threshold` net new container objects instead of
  700), so that the short-lived objects of a message are gone by reference count before
  a collection ever sees them, and next to nothing is promoted to the older generations
  whose collections are the long pauses.

Cyclic garbage is still collected, only later, and that costs memory: a closed
connection's websockets objects (about 66, in reference cycles) now reach the old
generation before they are collected, which CPython does once it has grown by a quarter.
A 30-minute soak of connections made and closed levels off 25 MB higher (97 MB against
72) and stays there. In-process servers (tests) keep the defaults: this is the process's
policy, set by `python -m server` (`--gc-threshold`, 0: CPython's own).
"""

from __future__ import annotations

import gc

#: Net new container objects between young collections (CPython's default is 700).
YOUNG_THRESHOLD = 20_000


def tune_for_serving(young_threshold: int = YOUNG_THRESHOLD) -> None:
    """Freeze what the process holds now and space young collections `young_threshold`
    allocations apart; 0 leaves the collector as CPython set it."""
    if young_threshold <= 0:
        return
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(young_threshold, middle, old)

"""The steps of a graceful stop, each watched: one that runs long is named in the log.

A node told to stop hands its rooms over, then closes its connections, stores and worker
pools. Each step is awaited to its end (a store's close may still be writing what was
acknowledged, so nothing is cut short), but a step still running after `SLOW_STEP`
seconds is logged by name, so a stop that hangs says where."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TypeVar

log = logging.getLogger(__name__)

#: Seconds after which a step of the stop that has not finished is logged.
SLOW_STEP = 5.0

T = TypeVar("T")


async def watched(step: str, work: Awaitable[T], slow: float = SLOW_STEP) -> T:
    """`work`'s result, awaited to its end; logged as a warning if it takes over `slow`
    seconds, and again when it finishes."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=slow)
    if done:
        return task.result()
    loop = asyncio.get_running_loop()
    began = loop.time() - slow
    log.warning("shutting down: %s has taken over %.0f s", step, slow, extra={"step": step})
    try:
        return await task
    finally:
        log.warning(
            "shutting down: %s ended after %.1f s",
            step,
            loop.time() - began,
            extra={"step": step},
        )

"""A graceful stop's steps: each runs to its end, and one that runs long is named in the
log while it runs and when it ends (so a stop that hangs says where)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from server.ops.shutdown import watched


async def test_a_quick_step_is_not_logged(caplog: pytest.LogCaptureFixture) -> None:
    async def quick() -> str:
        await asyncio.sleep(0)
        return "done"

    with caplog.at_level(logging.WARNING, logger="server.ops.shutdown"):
        assert await watched("the store", quick(), slow=1.0) == "done"
    assert caplog.records == []


async def test_a_slow_step_is_named_and_still_awaited_to_its_end(
    caplog: pytest.LogCaptureFixture,
) -> None:
    finished = asyncio.Event()

    async def slow() -> int:
        await asyncio.sleep(0.3)
        finished.set()
        return 7

    with caplog.at_level(logging.WARNING, logger="server.ops.shutdown"):
        assert await watched("the worker pools", slow(), slow=0.05) == 7
    assert finished.is_set()
    said = [r.getMessage() for r in caplog.records]
    assert said[0] == "shutting down: the worker pools has taken over 0 s"
    assert said[1].startswith("shutting down: the worker pools ended after 0.")
    assert [getattr(r, "step", None) for r in caplog.records] == ["the worker pools"] * 2


async def test_a_failing_step_raises_its_own_error_after_saying_it_ran_long(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def broken() -> None:
        await asyncio.sleep(0.1)
        raise OSError("disk gone")

    with (
        caplog.at_level(logging.WARNING, logger="server.ops.shutdown"),
        pytest.raises(OSError, match="disk gone"),
    ):
        await watched("the store", broken(), slow=0.02)
    assert len(caplog.records) == 2

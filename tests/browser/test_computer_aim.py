"""The computer's cue in Chromium: paced as a person (`--bot-pause`), the computer's stroke
is drawn lined up on the table before it is played — after the person's own long shot
too, during whose playback the computer's aim came and was dropped (the table stood still
for the whole pause, then a shot came out of nowhere)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.browser.support import Client, save
from tests.browser.test_client import assert_quiet, click_table, set_power

OpenClient = Callable[..., Client]

#: Read each poll: the room's stage, whose turn, a shot playing, the remote aim drawn.
STATE = """(() => {
  const a = window.ninepool.app, o = window.ninepool.overlay();
  return { status: a.view && a.view.status, choice: a.view && a.view.lag_choice,
           turn: a.table && a.table.turn, anim: !!a.anim || a.queue.length > 0,
           drawn: !!(o && o.aim && o.aim.remote), lagSent: !!a.lagSent, pending: !!a.shotPending,
           shots: a.rackShots.count,
           prompt: (document.querySelector('#status .prompt') || {}).textContent || '' };
})()"""


@pytest.fixture(scope="module")
def server_flags() -> list[str]:
    return ["--bot-pause", "1.5"]


def test_the_computers_cue_is_drawn_lined_up_before_it_shoots(open_client: OpenClient) -> None:
    # At the page's own pace (no `?rate=`): the computer decides while Ana's long shot
    # still plays; its aim, heard then, is drawn once that shot is over.
    ana = open_client("Ana", rate=None)
    ana.page.select_option("#computer-level", "1")
    ana.page.click("#computer")
    ana.wait("a.view && a.view.seats[1] && a.view.seats[1].computer === 1")
    shot = False  # Ana has shot
    after: int | None = None  # the shot count when the computer's turn came after Ana's
    for _ in range(1200):
        s = ana.page.evaluate(STATE)
        if s["status"] == "lag" and s["choice"] == 0 and ana.page.is_visible("#lag-give"):
            ana.page.click("#lag-give")  # the computer breaks
        elif s["status"] == "lag" and s["choice"] is None and not s["lagSent"]:
            if ana.page.is_visible("#lag-shoot"):
                ana.page.click("#lag-shoot")
        elif s["status"] == "playing" and s["turn"] == 0 and not s["anim"] and not s["pending"]:
            # A long shot that touches no ball: up and down the table (a foul, R8).
            cue = ana.state("a.table.balls[0]")
            click_table(ana, cue[0], 1.27 if cue[1] < 0.635 else 0.0)
            set_power(ana, 70)
            ana.page.click("#shoot")
            ana.wait("a.anim || a.queue.length > 0 || a.table.turn === 1")
            shot, after = True, None
        elif shot and s["status"] == "playing" and s["turn"] == 1 and not s["anim"]:
            after = s["shots"] if after is None else after
            if s["drawn"]:
                assert "Bot 1 is aiming" in s["prompt"], s["prompt"]
                break
        elif shot and s["turn"] == 1 and after is not None and s["shots"] > after:
            raise AssertionError("the computer shot without its cue ever drawn")
        ana.page.wait_for_timeout(50)
    else:
        raise AssertionError("the computer's cue was never drawn")
    save(ana, "computer-aiming.png")
    assert_quiet(ana)

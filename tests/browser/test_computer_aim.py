"""The computer's cue in Chromium: paced as a person (`--bot-pause`), the computer's stroke
is drawn lined up on the table before it is played — after the person's own shot too,
whose playback the computer's aim came during and was dropped (the table stood still for
the whole pause, then a shot came out of nowhere)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.browser.support import Client, save
from tests.browser.test_client import assert_quiet, foul_softly

OpenClient = Callable[..., Client]

#: Read each poll: the room's stage, whose turn, a shot playing, the remote aim drawn.
STATE = """(() => {
  const a = window.ninepool.app, o = window.ninepool.overlay();
  return { status: a.view && a.view.status, choice: a.view && a.view.lag_choice,
           turn: a.table && a.table.turn, anim: !!a.anim || a.queue.length > 0,
           drawn: !!(o && o.aim && o.aim.remote), lagSent: !!a.lagSent, pending: !!a.shotPending,
           prompt: (document.querySelector('#status .prompt') || {}).textContent || '' };
})()"""


@pytest.fixture(scope="module")
def server_flags() -> list[str]:
    return ["--bot-pause", "1.5"]


def test_the_computers_cue_is_drawn_lined_up_before_it_shoots(open_client: OpenClient) -> None:
    # At the page's own pace (no `?rate=`): the computer's aim comes while the last shot
    # still plays, and is drawn once it is over.
    ana = open_client("Ana", rate=None)
    ana.page.select_option("#computer-level", "1")
    ana.page.click("#computer")
    ana.wait("a.view && a.view.seats[1] && a.view.seats[1].computer === 1")
    shot = False
    for _ in range(900):
        s = ana.page.evaluate(STATE)
        if s["status"] == "lag" and s["choice"] == 0 and ana.page.is_visible("#lag-give"):
            ana.page.click("#lag-give")  # the computer breaks
        elif s["status"] == "lag" and s["choice"] is None and not s["lagSent"]:
            if ana.page.is_visible("#lag-shoot"):
                ana.page.click("#lag-shoot")
        elif s["status"] == "playing" and s["turn"] == 0 and not s["anim"] and not s["pending"]:
            foul_softly(ana)  # the turn to the computer, after a shot of Ana's
            shot = True
        elif shot and s["status"] == "playing" and s["turn"] == 1 and s["drawn"]:
            assert "Bot 1 is aiming" in s["prompt"], s["prompt"]
            break
        ana.page.wait_for_timeout(100)
    else:
        raise AssertionError("the computer's cue was never drawn after Ana's shot")
    save(ana, "computer-aiming.png")
    assert_quiet(ana)

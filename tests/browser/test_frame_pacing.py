"""A page asks the browser for frames only when it has something to draw. Each frame asked
for keeps the compositor at work whether or not anything is drawn: the page used to ask for
one at every display refresh, at the lobby and at a table at rest alike, about 6 % of a
core on a phone doing nothing. The lobby now asks for a few a second, a table at rest for
the twenty its pulsing highlight and its clock need, and a player who aims gets every
refresh at once."""

from __future__ import annotations

from tests.browser.support import Client
from tests.browser.test_client import assert_quiet, shooter
from tests.browser.test_firstminute import OpenClient, started

#: Counts the page's frame requests (installed before any of the page's scripts run).
COUNT_FRAMES = """
window.__frames = 0;
const ask = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (f) => { window.__frames += 1; return ask(f); };
"""


def counting(c: Client) -> Client:
    """The same page again, its frame requests counted from its first script."""
    c.context.add_init_script(COUNT_FRAMES)
    c.page.reload()
    c.page.wait_for_selector("#conn.conn-online")
    return c


def frames_in(c: Client, ms: int, during: str = "") -> int:
    """Frames the page asks for in `ms` milliseconds (`during`: a script run meanwhile)."""
    before = int(c.page.evaluate("window.__frames"))
    if during:
        c.page.evaluate(during)
    c.page.wait_for_timeout(ms)
    return int(c.page.evaluate("window.__frames")) - before


def test_the_lobby_at_rest_asks_for_a_few_frames_a_second(open_client: OpenClient) -> None:
    ana = counting(open_client("Ana"))
    ana.page.wait_for_selector("#lobby:not([hidden])")
    asked = frames_in(ana, 2000)
    # Four a second (a look at the route, in case it changed unseen); it was sixty.
    assert asked <= 20, asked
    assert_quiet(ana)


def test_a_table_at_rest_paces_itself_and_aiming_gets_every_refresh(
    open_client: OpenClient,
) -> None:
    ana, bob, _ = started(open_client)
    c = counting(shooter((ana, bob)))
    c.wait("a.view.status === 'playing' && !!a.table")
    c.idle()
    c.page.wait_for_timeout(500)
    resting = frames_in(c, 2000)
    # The highlight's pulse and the clock: twenty a second, not sixty.
    assert 10 <= resting <= 60, resting
    # The mouse moves the cue: the page draws at the display's rate while it does.
    box = c.page.locator("#table").bounding_box()
    assert box is not None
    x0, y = box["x"] + box["width"] * 0.7, box["y"] + box["height"] * 0.3
    before = int(c.page.evaluate("window.__frames"))
    for i in range(60):
        c.page.mouse.move(x0 + (i % 30) * 3, y + (i % 7))
        c.page.wait_for_timeout(16)
    aiming = int(c.page.evaluate("window.__frames")) - before
    assert aiming > resting, (aiming, resting)
    # At rest again, it slows down again.
    c.page.wait_for_timeout(600)
    assert frames_in(c, 2000) <= 60
    assert_quiet(ana, bob)

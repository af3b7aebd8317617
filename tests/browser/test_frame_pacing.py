"""A page asks the browser for frames only when it has something to draw. Each frame asked
for keeps the compositor at work whether or not anything is drawn: the page used to ask for
one at every display refresh, at the lobby and at a table at rest alike, about 6 % of a
core on a phone doing nothing. The lobby now asks for a few a second; a table that has just
come to rest for the twenty its pulsing highlight needs, until the ring has pulsed a few
times and holds still, when the table is drawn again only if something on it changes (the
ring pulses for the player to shoot: for the others it holds still at once); a player who
aims gets every refresh at once."""

from __future__ import annotations

from tests.browser.support import Client
from tests.browser.test_client import assert_quiet, settle, shooter
from tests.browser.test_firstminute import OpenClient, foul_softly_any, started

#: Counts the page's frame requests (installed before any of the page's scripts run).
COUNT_FRAMES = """
window.__frames = 0;
const ask = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (f) => { window.__frames += 1; return ask(f); };
"""


def counting(c: Client, ready: str = "#conn.conn-online") -> Client:
    """The same page again, its frame requests counted from its first script; `ready`: what
    shows it loaded."""
    c.context.add_init_script(COUNT_FRAMES)
    c.page.reload()
    c.page.wait_for_selector(ready)
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
    other = counting(bob if c is ana else ana)
    c.wait("a.view.status === 'playing' && !!a.table")
    c.idle()
    other.wait("a.view.status === 'playing' && !!a.table")
    # The mouse drags the cue round: the page draws at the display's rate while it does.
    before = int(c.page.evaluate("window.__frames"))
    angle = c.state("a.aim.angle")
    aim_by_dragging(c, steps=60)
    aiming = int(c.page.evaluate("window.__frames")) - before
    assert c.state("a.aim.angle") != angle, "the drag did not aim"
    # At rest the ball to hit pulses for a few seconds: twenty frames a second, not sixty.
    c.page.wait_for_timeout(400)
    assert not c.state("window.ninepool.overlay().calm")
    resting = frames_in(c, 2000)
    assert 10 <= resting <= 60, resting
    assert aiming > resting, (aiming, resting)
    # The player who waits sees the ring hold still from the start (it pulses for the one to
    # shoot): once the shooter's cue stops moving, their table is not drawn again.
    other.page.wait_for_function("window.ninepool.overlay().calm", timeout=2_000)
    waiting = frames_in(other, 1000)
    assert waiting <= 8, waiting
    # Then the ring holds still, and a calm table is looked at four times a second and
    # drawn again only when something on it changes.
    c.page.wait_for_function("window.ninepool.overlay().calm", timeout=15_000)
    drawn = c.state("window.ninepool.frameStats().drawn")
    calm = frames_in(c, 2000)
    assert calm <= 12, calm
    assert c.state("window.ninepool.frameStats().drawn") == drawn, "a calm table was drawn again"
    # A calm table resized (a phone turned, a window narrowed) is drawn at its new size at
    # once: resizing clears a canvas, and nothing on the table itself changed.
    before_resize = drawn_of(other)
    other.page.set_viewport_size({"width": 1000, "height": 700})
    other.page.wait_for_function(f"window.ninepool.frameStats().drawn > {before_resize}")
    cloth = other.page.evaluate(CLOTH_PIXEL)
    assert cloth[3] == 255 and cloth[1] > cloth[0], cloth  # green cloth, not a blank canvas
    # Anything new pulses the ring again: the cue moved.
    aim_by_dragging(c, steps=5)
    c.page.wait_for_function("!window.ninepool.overlay().calm")
    assert_quiet(ana, bob)


#: The colour (RGBA) of the table's canvas on the cloth near a foot corner, off the rack.
CLOTH_PIXEL = """(() => {
  const canvas = document.getElementById('table');
  const [x, y] = window.ninepool.screenOf(2.2, 0.2);
  const r = canvas.getBoundingClientRect(), k = canvas.width / r.width;
  return [...canvas.getContext('2d').getImageData((x - r.left) * k, (y - r.top) * k, 1, 1).data];
})()"""


def aim_by_dragging(c: Client, steps: int) -> None:
    """The real mouse pressed on the cloth ahead of the cue ball and dragged across the
    table, a step each display refresh, then let go (which aims; it does not shoot)."""
    x0, y0 = c.state("window.ninepool.screenOf(1.6, 0.35)")
    x1, y1 = c.state("window.ninepool.screenOf(1.6, 0.95)")
    c.page.mouse.move(x0, y0)
    c.page.mouse.down()
    for i in range(1, steps + 1):
        c.page.mouse.move(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        c.page.wait_for_timeout(16)
    c.page.mouse.up()


def drawn_of(c: Client) -> int:
    return int(c.state("window.ninepool.frameStats().drawn"))


#: Counts the draws on the replay's canvas (installed before any of the page's scripts run).
COUNT_REPLAY_DRAWS = """
window.__replayDraws = 0;
const blit = CanvasRenderingContext2D.prototype.drawImage;
CanvasRenderingContext2D.prototype.drawImage = function (...args) {
  if (this.canvas.id === 'r-table' && args[0] instanceof HTMLCanvasElement
      && args[0].width === this.canvas.width) window.__replayDraws += 1;
  return blit.apply(this, args);
};
"""


def test_a_replay_at_rest_is_not_drawn_again(open_client: OpenClient) -> None:
    """A replay played to its end stops; stopped, its table is neither drawn again nor
    looked at more than a few times a second (it was drawn twenty times a second)."""
    ana, bob, room = started(open_client)
    foul_softly_any(shooter((ana, bob)))
    settle(ana, bob)
    sam = open_client("Sam", hash=f"#/replay/{room}")
    sam.context.add_init_script(COUNT_REPLAY_DRAWS)
    counting(sam, "#replay-view:not([hidden]) #r-log li")
    played_out = (
        "(() => { const s = document.getElementById('r-scrub');"
        " return s.value === s.max && s.max > 0 &&"
        " document.getElementById('r-play').getAttribute('aria-pressed') === 'false'; })()"
    )
    sam.page.click("#r-play")
    sam.page.wait_for_function(played_out, timeout=60_000)
    assert int(sam.page.evaluate("window.__replayDraws")) > 0
    sam.page.wait_for_timeout(300)
    draws = int(sam.page.evaluate("window.__replayDraws"))
    asked = frames_in(sam, 2000)
    assert asked <= 12, asked
    assert int(sam.page.evaluate("window.__replayDraws")) == draws, "a stopped replay drew again"
    # A step back draws the table as it was then.
    sam.page.click("#r-prev")
    sam.page.wait_for_function(f"window.__replayDraws > {draws}")
    assert_quiet(sam)

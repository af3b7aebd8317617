"""A player whose network goes away (a phone in a lift) while it is their shot: the
connection breaks without a close, and the browser does not notice. Nobody saw anything:
the opponent saw them present and their shot clock ran out into a foul. The page now
finds the dead connection by its heartbeat and says so over the table, the server takes
the silent connection for dropped, and the opponent sees them away with the clock
stopped; back on the network, they are back at their seat."""

from __future__ import annotations

import re
from collections.abc import Callable

from tests.browser.support import Client, save
from tests.browser.test_client import assert_quiet, shooter
from tests.browser.test_firstminute import PHONE, Touch, started

OpenClient = Callable[..., Client]


def test_a_shooter_whose_network_goes_is_seen_away_and_told(open_client: OpenClient) -> None:
    tom, sara, _ = started(
        open_client,
        host={},
        guest={**PHONE, "lang": "hr"},
        table={"#c-preset": "custom", "#c-clock": "60"},
    )
    c = shooter((tom, sara))
    other = sara if c is tom else tom
    seat = c.state("a.seat")
    other.page.wait_for_function("/\\d:\\d\\d/.test(document.getElementById('clock').textContent)")
    c.context.set_offline(True)
    # The shooter's own page says the connection is gone, over the table.
    c.page.wait_for_selector("#conn-lost:not([hidden])", timeout=20_000)
    lost = c.page.inner_text("#conn-lost")
    assert lost in ("No connection — reconnecting…", "Nema veze — ponovno spajanje…"), lost
    save(c, "connection-lost-shooter.png")
    # A shot struck meanwhile is not played, and the toast says so (not only "not connected").
    if c is sara:  # a phone's pull on the strip
        track = c.page.locator("#strip-track").bounding_box()
        assert track is not None
        x = track["x"] + track["width"] / 2
        Touch(c).drag((x, track["y"] + 20), (x, track["y"] + track["height"] * 0.5), 400)
    else:
        c.page.click("#shoot")
    c.page.wait_for_selector("#toast:not([hidden])")
    assert c.page.inner_text("#toast") in (
        "Not connected: your shot was not played. Reconnecting…",
        "Nema veze: udarac nije odigran. Ponovno spajanje…",
    )
    # The opponent sees them away, and their clock stopped (it ran on before).
    other.wait(f"a.view.seats[{seat}].connected === false", timeout=25_000)
    other.page.wait_for_function("document.getElementById('clock').textContent.includes('stop')")
    # Their plate says how long they have to come back — on a phone in a short tag that
    # is not cut off ("away — back within…" hid the figure).
    tag = other.page.locator(f"#seat{seat} .tag.off")
    words = tag.inner_text()
    pattern = r"nije na vezi · \d+ s" if other is sara else r"away — back within \d+ s"
    assert re.fullmatch(pattern, words), words
    assert tag.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), words
    save(other, "connection-lost-opponent.png")
    c.context.set_offline(False)
    c.page.wait_for_selector("#conn-lost", state="hidden", timeout=20_000)
    c.page.wait_for_selector("#conn.conn-online")
    other.wait(f"a.view.seats[{seat}].connected === true", timeout=20_000)
    # The opponent's log says both, as the replay does.
    name = c.state("a.welcome.name")
    said = {
        "en": (f"{name} lost the connection", f"{name} is back"),
        "hr": (f"{name} — veza je prekinuta", f"{name} je opet na vezi"),
    }
    dropped, back = said["hr" if other is sara else "en"]
    other.page.wait_for_function(f"document.getElementById('log').textContent.includes({back!r})")
    assert dropped in other.page.inner_text("#log")
    assert c.state("a.seat") == seat and c.state("a.table.turn") == seat
    assert_quiet(tom, sara)

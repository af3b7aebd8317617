"""A tab opened at the site's own address while this browser's player is seated: sent to
a running match (O5, `test_client`), but not to one that is over."""

from __future__ import annotations

from tests.browser.support import Client, save
from tests.browser.test_client import assert_quiet
from tests.browser.test_firstminute import OpenClient, started
from tests.browser.test_watching import concede


def new_tab(c: Client, address: str) -> Client:
    tab = Client(name=f"{c.name} (tab 2)", page=c.context.new_page(), context=c.context)
    tab.page.on("console", lambda m: tab.console.append(f"{m.type}: {m.text}"))
    tab.page.goto(address)
    tab.page.wait_for_selector("#conn.conn-online")
    return tab


def test_a_new_tab_after_a_finished_match_opens_the_lobby_not_its_table(
    open_client: OpenClient,
) -> None:
    """A player whose opponent had conceded opened the site in a new tab to look for the
    next game: the tab took the seat and showed the finished table's result again. A
    finished match has nothing to go back to: the tab opens the lobby, as the lobby's
    button on the result would, and the table is left."""
    ana, bob, room = started(open_client, host={"lang": "hr"})
    concede(bob, "match")
    ana.page.locator("#result-dialog").wait_for(state="visible")
    ana.wait("a.view.status === 'finished'")
    tab = new_tab(ana, ana.page.url.split("#")[0])
    tab.page.locator("#lobby").wait_for(state="visible")
    tab.wait("a.welcome !== null && a.room === null")
    assert tab.page.is_hidden("#table-view")
    assert tab.page.is_hidden("#result-dialog")
    assert "#/room/" not in tab.page.url
    # The seat is given up, as leaving by the lobby's button gives it up.
    bob.wait(f"a.view.room === {room!r} && a.view.seats.filter(s => s !== null).length < 2")
    save(tab, "new-tab-after-match-hr.png")
    # The table's own address still opens it (to watch the result, or the replay).
    again = new_tab(ana, ana.page.url.split("#")[0] + f"#/room/{room}")
    again.wait(f"a.room === {room!r}")
    assert_quiet(tab, again, bob)

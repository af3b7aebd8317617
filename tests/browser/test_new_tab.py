"""A tab opened at the site's own address while this browser's player is seated: sent to
a running match (O5, `test_client`), but not to one that is over."""

from __future__ import annotations

from typing import Any

from tests.browser.support import Client, save
from tests.browser.test_client import assert_quiet
from tests.browser.test_firstminute import OpenClient, started
from tests.browser.test_rated_browser import sign_up
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


def test_a_tab_left_behind_follows_a_log_out_in_the_other_tab(open_client: OpenClient) -> None:
    """A player signed up, opened the lobby in a second tab (which took the session) and
    logged out there. The first tab still offered "My profile" and "Log out", and its "Play
    here" came back as a new guest under the account's name, told the name was taken. It
    now shows the log-in at once, and "Play here" starts it afresh as the new guest."""

    def signed_up(name: str, **kw: Any) -> Client:  # the host with an account
        c = open_client(name, **kw)
        if name == "Ana":
            sign_up(c, "Dmitrij")
        return c

    ana, bob, _room = started(signed_up, host={"lang": "ru"})
    concede(bob, "match")
    ana.page.locator("#result-dialog").wait_for(state="visible")
    ana.wait("a.view.status === 'finished'")
    tab = new_tab(ana, ana.page.url.split("#")[0])  # (the lobby)
    tab.wait("a.welcome !== null && a.room === null")
    tab.page.click("#account-logout")
    tab.wait("a.welcome && a.welcome.account !== true")
    ana.page.locator("#account-open").wait_for(state="visible")
    assert ana.page.is_hidden("#account-menu")
    # A tab the other one took the session from waits for "Play here"; one still
    # connected says hello again by itself (which of the two depends on whether the
    # server had the table's tab replaced as the new one came: both are fine).
    ana.page.wait_for_timeout(500)
    if ana.page.is_visible("#play-here"):
        ana.page.click("#result-close")
        ana.page.click("#play-here")
        ana.page.wait_for_selector("#conn.conn-online")
    ana.wait("a.welcome && a.welcome.account !== true && a.welcome.name !== 'Dmitrij'")
    # (a guest again: this test's browser names its guests "Ana" at every page load)
    assert ana.state("a.welcome.player") == tab.state("a.welcome.player")
    assert ana.page.is_hidden("#account-menu") and ana.page.is_visible("#account-open")
    assert ana.page.is_hidden("#toast") or "Dmitrij" not in ana.page.inner_text("#toast")
    save(ana, "tab-after-log-out-elsewhere-ru.png")
    assert_quiet(ana, bob)


def test_two_lobby_tabs_of_an_account_follow_a_log_out_as_one_guest(
    open_client: OpenClient,
) -> None:
    """Two tabs in the lobby, both connected as one account: every hello renews the
    account's token, which must not send the other tab to say hello again (each would
    answer the other's for ever). A log-out in one is followed by the other once the
    new guest is known: both are then that one guest, not two."""
    ana = open_client("Ana", lang="hr")
    sign_up(ana, "Dmitar")  # (another name than the module's other account)
    tab = new_tab(ana, ana.page.url.split("#")[0])
    tab.wait("a.welcome && a.welcome.account === true")
    token = ana.state("a.welcome.token")
    ana.page.wait_for_timeout(1500)
    assert ana.state("a.welcome.token") == token, "the tabs kept saying hello"
    assert ana.page.is_hidden("#play-here")
    tab.page.click("#account-logout")
    tab.wait("a.welcome && a.welcome.account !== true")
    ana.wait("a.welcome && a.welcome.account !== true")
    ana.wait(f"a.welcome.player === {tab.state('a.welcome.player')!r}")
    assert ana.page.is_visible("#account-open") and ana.page.is_hidden("#account-menu")
    assert_quiet(ana)


def test_the_top_bar_stays_one_row_when_another_tab_takes_the_seat(
    open_client: OpenClient,
) -> None:
    """On a Russian 1024 px screen the bar of a tab whose seat another tab took broke each
    of its buttons onto two lines ("Игра открыта в другой вкладке", "Играть / здесь").
    The state is said in three words now, the buttons keep one line each, and the name
    gives way, cut short, with the whole of it on hover."""
    name = "Вячеслава Петровская"
    ana = open_client(name, lang="ru", width=1024, height=720)
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player'")
    tab = new_tab(ana, ana.page.url)
    tab.wait("!!a.view && a.role === 'player'")
    ana.page.locator("#play-here").wait_for(state="visible")
    assert ana.page.inner_text("#conn") == "В другой вкладке"
    bar = ana.page.locator(".topbar").bounding_box()
    assert bar is not None and bar["height"] < 56, bar
    for item in ("#play-here", "#conn", "#leaders-open", "#account-open"):
        box = ana.page.locator(item).bounding_box()
        assert box is not None and box["height"] < 40, (item, box)
    assert ana.page.get_attribute("#me", "title") == f"Вы играете под именем {name}"
    save(ana, "new_tab_replaced_bar_ru.png")

"""A tournament run by people who have never opened the game, in Chromium: an organiser
who opens `/tournament/new` from a link makes one there (the page makes its own session),
the form's mistakes worded in the page's language before anything is sent, the link
copied and passed on; a player who opens that link registers at once; once it starts,
the player waiting in the lobby is told that the match's table is open, without reloading,
and both pages count down to the no-show's forfeit; someone else in the lobby may watch
that table but not sit at it."""

from __future__ import annotations

import re
from collections.abc import Callable

from tests.browser.support import Client, Server, save
from tests.browser.test_screens_and_dialogs import LAPTOP
from tests.browser.test_tournament_page import call, confirm, session_token

NO_SHOW = re.compile(r"^No-show forfeit in ([0-9]+):([0-5][0-9])$")


def seconds_left(text: str) -> int:
    found = NO_SHOW.match(text)
    assert found, text
    return int(found.group(1)) * 60 + int(found.group(2))


def test_newcomers_organise_register_and_are_called_to_their_match(
    open_page: Callable[..., Client], server: Server
) -> None:
    def person(path: str, name: str) -> Client:
        return open_page(name, path, **LAPTOP, clipboard=True)

    marko = person("/tournament/new?lang=hr", "Marko")
    page = marko.page
    page.wait_for_selector("#tour-create-form:not([hidden])")
    assert page.locator("#tc-session").is_hidden()
    assert page.evaluate("localStorage.getItem('ninepool.token')")
    # The form's mistakes, in Croatian (not the browser's English bubbles), the field in
    # question focused; typing clears the complaint.
    page.fill("#tc-name", "Petak navečer")
    page.fill("#tc-cap", "1")
    page.click("#tc-submit")
    assert page.inner_text("#tc-answer") == "Turnir nije stvoren: turnir ima od 2 do 64 mjesta."
    assert page.evaluate("document.activeElement.id") == "tc-cap"
    page.fill("#tc-cap", "4")
    assert page.inner_text("#tc-answer") == ""
    page.fill("#tc-final", "0")
    page.click("#tc-submit")
    assert page.inner_text("#tc-answer") == (
        "Turnir nije stvoren: meč se igra do 1 – 21 dobivene partije."
    )
    assert page.evaluate("document.activeElement.id") == "tc-final"
    page.fill("#tc-final", "3")
    page.select_option("#tc-format", "single")
    save(marko, "tournament-newcomer-form-hr.png")
    page.click("#tc-submit")
    page.wait_for_url(re.compile(r"/tournament/[A-Za-z0-9_-]{8}\?lang=hr$"))
    tournament_id = page.url.split("/tournament/")[1].split("?")[0]
    # The link to pass on: the tournament's own address, in no language of its own.
    page.click("#tour-share")
    page.wait_for_function("document.getElementById('tour-share-answer').textContent !== ''")
    assert page.inner_text("#tour-share-answer") == "Poveznica je kopirana: pošaljite je igračima."
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == f"{server.url}/tournament/{tournament_id}"

    # Vesna follows it in a browser that has never opened the game, and registers.
    vesna = person(f"/tournament/{tournament_id}", "Vesna")
    vesna.page.wait_for_selector("#tour-form:not([hidden])")
    assert vesna.page.locator("#tour-session").is_hidden()
    vesna.page.fill("#tour-player-name", "Vesna")
    vesna.page.click("#tour-join")
    vesna.page.wait_for_selector("#tour-leave:visible")
    page.fill("#tour-player-name", "Marko")
    page.click("#tour-join")
    page.wait_for_selector("#tour-leave:visible")
    # Vesna waits in the lobby (same browser, another page); someone else is there too.
    lobby = vesna.context.new_page()
    lobby.goto(f"{server.url}/")
    lobby.wait_for_selector("#conn.conn-online")
    stranger = person("/", "Stranger")
    stranger.page.wait_for_selector("#conn.conn-online")
    assert lobby.locator("#my-match").is_hidden()

    page.wait_for_selector("#tour-organiser:not([hidden]) #tour-start:not([disabled])")
    page.click("#tour-start")
    confirm(page)
    # The lobby calls Vesna to her table as soon as it opens: no reload.
    lobby.wait_for_selector("#my-match:not([hidden])", timeout=20_000)
    room = lobby.get_attribute("#my-match-sit", "href").rsplit("/", 1)[1]
    # The stranger may watch that table, not sit at it: its seats are kept.
    row = stranger.page.locator(f"#rooms tr[data-room='{room}']")
    row.wait_for()
    assert row.locator("button[data-join=spectator]").count() == 1
    assert row.locator("button[data-join=player]").count() == 0
    # Vesna's bracket page: her match, and how long until not coming loses it.
    vesna.page.wait_for_selector("#tour-mine:not([hidden]) #tour-mine-deadline .tour-deadline")
    first = seconds_left(vesna.page.inner_text("#tour-mine-deadline"))
    assert 200 < first <= 300
    vesna.page.wait_for_function(
        f"""(() => {{
          const text = document.getElementById('tour-mine-deadline').textContent;
          const m = text.match(/(\\d+):(\\d\\d)$/);
          return m && Number(m[1]) * 60 + Number(m[2]) < {first};
        }})()""",
        timeout=10_000,
    )
    card = vesna.page.locator(".tour-match.live .tour-deadline")
    assert 200 < seconds_left(card.inner_text()) <= 300
    save(vesna, "tournament-newcomer-called.png")
    for client in (marko, vesna, stranger):
        assert client.problems() == [], (client.name, client.problems())


def single_elimination(open_page: Callable[..., Client], name: str) -> tuple[Client, str]:
    """A single elimination made on the page by its organiser: their page and its path."""
    organiser = open_page("Org", "/tournament/new")
    organiser.page.wait_for_selector("#tour-create-form:not([hidden])")
    organiser.page.fill("#tc-name", name)
    organiser.page.select_option("#tc-format", "single")
    organiser.page.click("#tc-submit")
    organiser.page.wait_for_url(re.compile(r"/tournament/[A-Za-z0-9_-]{8}$"))
    return organiser, "/tournament/" + organiser.page.url.split("/tournament/")[1]


def test_a_guest_signs_up_from_the_tournament_page_and_comes_back_to_it(
    open_page: Callable[..., Client], server: Server
) -> None:
    """The tournament page offers a guest "Sign up or log in" (it had no way to it: a player
    wanting a rating went back to the game, signed up and looked for the tournament
    again); the game's page opens with the account form, and once signed up the player is
    back on the tournament's page, signed in."""
    organiser, path = single_elimination(open_page, "Friday")
    guest = open_page("Gita", f"{path}?lang=hr")
    page = guest.page
    signin = page.locator("#tour-signin")
    signin.wait_for()
    assert signin.inner_text() == "Registracija ili prijava"
    signin.click()
    page.wait_for_selector("#account-dialog[open]")
    assert "account=" not in page.url  # (a reload would not ask again)
    page.fill("#account-name", "Gita Horvat")
    page.fill("#account-password", "a long enough password")
    page.click("#account-signup")
    page.wait_for_url(re.compile(re.escape(path) + r"\?lang=hr$"))
    page.wait_for_function("document.querySelector('.topbar .me').textContent === 'Gita Horvat'")
    assert page.locator("#tour-signin").is_hidden()
    assert guest.problems() == [] and organiser.problems() == []


def test_a_guest_who_logs_in_from_the_tournament_page_keeps_their_place(
    open_page: Callable[..., Client], server: Server
) -> None:
    """A guest entered as "Zed" logs in to the account they had, Mia, from the tournament
    page: back on it, the place is the account's (the page showed Zed's place as someone
    else's and offered to register again; entered twice, the player met themselves)."""
    call(server, "POST", "/api/accounts", {"name": "Mia", "password": "a long enough password"})
    organiser, path = single_elimination(open_page, "Saturday")
    token = session_token(server, "Zed")
    zed = open_page("Zed", f"{path}?lang=en", storage={"ninepool.token": token})
    page = zed.page
    page.wait_for_selector("#tour-register:not([hidden])")
    page.fill("#tour-player-name", "Zed")
    page.click("#tour-join")
    page.locator("#tour-leave").wait_for()
    page.click("#tour-signin")
    page.wait_for_selector("#account-dialog[open]")
    page.fill("#account-name", "Mia")
    page.fill("#account-password", "a long enough password")
    page.click("#account-login")
    page.wait_for_url(re.compile(re.escape(path) + r"\?lang=en$"))
    page.wait_for_function("document.querySelector('.topbar .me').textContent === 'Mia'")
    # Entered, as the account: "Withdraw", not "Register"; one place, not a guest's.
    page.locator("#tour-leave").wait_for()
    assert page.locator("#tour-join").is_hidden()
    view = call(server, "GET", "/api/tournaments/" + path.rsplit("/", 1)[1])
    assert [(e["name"], e["guest"]) for e in view["entrants"]] == [("Zed", False)]
    save(zed, "tournament-guest-logged-in-keeps-place.png")
    assert zed.problems() == [] and organiser.problems() == []

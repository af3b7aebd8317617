"""The organiser's form `/tournament/new` in Chromium, in English, Croatian and Russian:
the computer players' option, its mistakes worded in the page's language before anything
is sent, and the races it asks for."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.support import Server, save
from tests.browser.test_tournament_page import SINGLE, call, new_tournament, session_token


@pytest.mark.parametrize("lang", ["en", "hr", "ru"])
def test_the_organiser_lets_computers_fill_places_from_the_form(
    page_at: Any, server: Server, lang: str
) -> None:
    """`/tournament/new`: the organiser's form, with the computer players' option and
    their level; the tournament made opens at once and says who fills its places."""
    token = session_token(server, f"Org {lang}")
    client = page_at("/tournament/new", lang, token)
    page = client.page
    page.wait_for_selector("#tour-create:not([hidden]) #tour-create-form:not([hidden])")
    assert page.locator("#tc-bot-level").is_disabled()
    page.fill("#tc-name", f"Computers {lang}")
    page.fill("#tc-cap", "8")
    page.check("#tc-bots")
    assert page.locator("#tc-bot-level").is_enabled()
    page.select_option("#tc-bot-level", "2")
    body = page.locator("body").inner_text()
    assert "tour." not in body and "lobby." not in body
    page.click("#tc-submit")
    page.wait_for_selector("#tour-view:not([hidden]) #tour-bots:not([hidden])")
    facts = page.locator("#tour-bots").inner_text()
    assert "2" in facts and "tour." not in facts
    tournament_id = page.url.split("?")[0].rstrip("/").split("/")[-1]
    view = call(server, "GET", f"/api/tournaments/{tournament_id}")
    assert (view["name"], view["bots"], view["bot_level"]) == (f"Computers {lang}", True, 2)
    # Started, a computer fills the empty place under its name in the reader's language
    # (a field of two: one person, who never sits down, so nothing is played).
    small = new_tournament(server, token, f"Two {lang}", cap=2, bots=True, bot_level=2, **SINGLE)
    call(server, "POST", f"/api/tournaments/{small}/register", {"name": f"Ivo {lang}"}, token)
    call(server, "POST", f"/api/tournaments/{small}/start", token=token)
    page.goto(f"{server.url}/tournament/{small}?lang={lang}")
    page.wait_for_selector("#tour-view:not([hidden]) .tour-slot")
    slots = page.locator(".tour-slot span:nth-child(2)").all_inner_texts()
    computer = [text for text in slots if "·" in text]  # the name with its computer tag
    bot = {"en": "Bot 2", "hr": "Bot 2", "ru": "Бот 2"}[lang]
    assert len(computer) == 1 and computer[0].startswith(bot), slots
    # What the computers will do is now what one did.
    filled = {
        "en": "A computer player took the place left empty at the start.",
        "hr": "Mjesto koje je na početku ostalo prazno zauzeo je računalni igrač.",
        "ru": "Место, оставшееся свободным к началу, занял компьютерный игрок.",
    }[lang]
    assert page.locator("#tour-bots").inner_text() == filled
    assert client.problems() == []


def test_the_create_form_words_its_refusals_in_the_readers_language(
    page_at: Any, server: Server
) -> None:
    """A start in the past, a name too long for the server: said in Croatian, not in the
    API's English; nothing is made."""
    token = session_token(server, "Org refusals")
    client = page_at("/tournament/new", "hr", token)
    page = client.page
    page.wait_for_selector("#tour-create:not([hidden]) #tour-create-form:not([hidden])")
    assert page.get_attribute("#tc-name", "maxlength") == "48"
    # A single elimination asks no losers' bracket race: its field is not shown.
    assert page.locator("#tc-losers").is_visible()
    page.select_option("#tc-format", "single")
    assert page.locator("#tc-losers").is_hidden() and page.locator("#tc-losers").is_disabled()
    assert page.locator("#tc-winners").is_visible() and page.locator("#tc-final").is_visible()
    before = len(call(server, "GET", "/api/tournaments"))
    page.fill("#tc-name", "Petak navečer")
    page.fill("#tc-starts", "2020-01-01T20:00")
    page.click("#tc-submit")
    page.wait_for_function("document.getElementById('tc-answer').textContent.length > 0")
    assert page.inner_text("#tc-answer") == (
        "Turnir nije stvoren: početak ne može biti u prošlosti."
    )
    # A name of blanks only, past the field's own `required`: the page refuses it as the
    # server would, in the same words.
    page.fill("#tc-starts", "2099-01-01T20:00")
    page.evaluate("document.getElementById('tc-name').removeAttribute('required')")
    page.fill("#tc-name", "   ")
    page.click("#tc-submit")
    page.wait_for_function(
        "document.getElementById('tc-answer').textContent.includes('naziv')", timeout=10_000
    )
    assert page.inner_text("#tc-answer") == (
        "Turnir nije stvoren: naziv turnira može imati od 1 do 48 znakova."
    )
    assert len(call(server, "GET", "/api/tournaments")) == before
    # The browser logs the refused request itself (400); nothing else may be logged.
    assert [p for p in client.problems() if "status of 400 (Bad Request)" not in p] == []


@pytest.mark.parametrize("lang", ["en", "hr", "ru"])
def test_the_create_form_asks_no_losers_race_for_single_elimination(
    page_at: Any, server: Server, lang: str
) -> None:
    token = session_token(server, f"Org single {lang}")
    client = page_at("/tournament/new", lang, token)
    page = client.page
    page.wait_for_selector("#tour-create:not([hidden]) #tour-create-form:not([hidden])")
    assert page.locator("#tc-losers").is_visible()
    winners = page.locator("label:has(#tc-winners) span")
    double_label = winners.inner_text()
    page.select_option("#tc-format", "single")
    assert page.locator("#tc-losers").is_hidden()
    # No winners' bracket to name either: the race of every round before the final.
    rounds = {"en": "Rounds before the final", "hr": "Kola prije finala", "ru": "Раунды до финала"}
    assert winners.inner_text() == rounds[lang]
    save(client, f"tournament-new-single-{lang}.png", full_page=True)
    page.select_option("#tc-format", "double")
    assert page.locator("#tc-losers").is_visible() and page.locator("#tc-losers").is_enabled()
    assert winners.inner_text() == double_label
    assert client.problems() == []


#: "30 s a shot, 1 extension of 30 s per rack", as the tables of each language say it.
CLOCK_30 = {
    "en": "30 s a shot, 1 extension of 30 s per rack",
    "hr": "30 s za udarac, 1 produljenje od 30 s po partiji",
    "ru": "30 с на удар, 1 продление по 30 с на партию",
}


@pytest.mark.parametrize("lang", ["hr", "ru"])
def test_the_organiser_gives_the_tables_a_shot_clock(
    page_at: Any, server: Server, lang: str
) -> None:
    """The form offers the shot clock the lobby's "create a table" dialog offers, in the
    same words; the one chosen is said in words under it, kept with the tournament and
    shown on its page."""
    lobby = page_at("/", lang)
    lobby.page.wait_for_selector("#lobby:not([hidden])")
    offered = "[...document.getElementById('{}').options].map(o => [o.value, o.textContent])"
    tables = lobby.page.evaluate(offered.format("c-clock"))
    token = session_token(server, f"Org clock {lang}")
    client = page_at("/tournament/new", lang, token)
    page = client.page
    page.wait_for_selector("#tour-create:not([hidden]) #tour-create-form:not([hidden])")
    assert page.evaluate(offered.format("tc-clock")) == tables
    label = {"hr": "Vrijeme za udarac", "ru": "Время на удар"}[lang]
    assert page.inner_text("label:has(#tc-clock) span") == label
    # None unless chosen: as every tournament had before.
    assert page.input_value("#tc-clock") == "" and page.inner_text("#tc-clock-help") == ""
    page.select_option("#tc-clock", "30")
    assert page.inner_text("#tc-clock-help") == CLOCK_30[lang]
    page.fill("#tc-name", f"Clock {lang}")
    save(client, f"tournament-new-clock-{lang}.png", full_page=True)
    page.click("#tc-submit")
    page.wait_for_selector("#tour-view:not([hidden])")
    assert CLOCK_30[lang] in page.inner_text("#tour-facts")
    tournament_id = page.url.split("?")[0].rstrip("/").split("/")[-1]
    assert call(server, "GET", f"/api/tournaments/{tournament_id}")["shot_clock"] == 30
    # A tournament without one says so.
    plain = new_tournament(server, token, f"No clock {lang}")
    page.goto(f"{server.url}/tournament/{plain}?lang={lang}")
    page.wait_for_selector("#tour-view:not([hidden])")
    none = {"hr": "Bez vremenskog ograničenja za udarac", "ru": "Без ограничения времени на удар"}
    assert none[lang] in page.inner_text("#tour-facts")
    assert client.problems() == [] and lobby.problems() == []

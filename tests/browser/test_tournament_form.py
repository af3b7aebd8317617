"""The organiser's form `/tournament/new` in Chromium, in English, Croatian and Russian:
the computer players' option, its mistakes worded in the page's language before anything
is sent, and the races it asks for."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.support import Server, save
from tests.browser.test_tournament_page import SINGLE, call, new_tournament, session_token


def pick_start(page: Any, **fields: int | str) -> None:
    """Sets the form's start time, field by field (`year`, `month` 1-12, `day`, `hour`
    0-23 or, on a 12-hour clock, 1-12 with `period` `am`/`pm`, `minute`)."""
    for part in ("year", "month", "day", "hour", "period", "minute"):
        if part in fields:
            page.select_option(f"#tc-start-{part}", str(fields[part]))


def start_fields(page: Any) -> list[str]:
    """The start time's fields shown, in the order a reader meets them."""
    return list(
        page.evaluate(
            "[...document.querySelectorAll('#tc-starts select')]"
            ".filter((s) => s.getClientRects().length).map((s) => s.id.replace('tc-start-', ''))"
        )
    )


def options(page: Any, select: str) -> list[str]:
    return list(page.locator(f"{select} option").all_inner_texts())


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
    slots = page.locator(".tour-slot > span:nth-child(2)").all_inner_texts()
    computer = [text for text in slots if "·" in text]  # the name with its computer tag
    bot = {"en": "Bot 2", "hr": "Bot 2", "ru": "Бот 2"}[lang]
    assert len(computer) == 1 and computer[0].startswith(bot), slots
    # Its name on one line, the tag beside or under it ("Bot / 2" read as two words).
    lines = page.evaluate(
        "[...document.querySelectorAll('.tour-name')].map((e) =>"
        " e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).fontSize))"
    )
    assert lines and all(h < 1.6 for h in lines), lines
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
    year = page.evaluate("new Date().getFullYear()")
    pick_start(page, year=year, month=1, day=1, hour=0, minute=0)  # passed already
    page.click("#tc-submit")
    page.wait_for_function("document.getElementById('tc-answer').textContent.length > 0")
    assert page.inner_text("#tc-answer") == (
        "Turnir nije stvoren: početak ne može biti u prošlosti."
    )
    # A name of blanks only, past the field's own `required`: the page refuses it as the
    # server would, in the same words.
    pick_start(page, year=year + 1, month=1, day=1, hour=20, minute=0)
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
    # The box says what its numbers are ("Races to" over "Rounds before the final: 3"
    # read as three rounds): the games a player needs to win a match.
    legend = {
        "en": "Games to win a match",
        "hr": "Broj partija za pobjedu u meču",
        "ru": "Партий для победы в матче",
    }
    assert page.inner_text("fieldset:has(#tc-winners) legend") == legend[lang]
    save(client, f"tournament-new-single-{lang}.png", full_page=True)
    page.select_option("#tc-format", "double")
    assert page.locator("#tc-losers").is_visible() and page.locator("#tc-losers").is_enabled()
    assert winners.inner_text() == double_label
    assert client.problems() == []


def test_two_places_are_a_single_elimination_until_the_organiser_picks(
    page_at: Any, server: Server
) -> None:
    """Two places make one match, and a double elimination would follow it with a grand
    final between the same two: the form offers a single elimination for two places,
    until the organiser picks a format, which it then keeps."""
    token = session_token(server, "Org two")
    page = page_at("/tournament/new", "en", token).page
    page.wait_for_selector("#tour-create:not([hidden]) #tour-create-form:not([hidden])")
    fmt = page.locator("#tc-format")
    assert fmt.input_value() == "double"
    assert page.is_hidden("#tc-cap-note")
    page.fill("#tc-cap", "2")
    assert fmt.input_value() == "single" and page.locator("#tc-losers").is_hidden()
    # Said, not done silently; and no race asked for rounds before a final that has none.
    assert page.inner_text("#tc-cap-note") == "Two places make one match: the final."
    assert page.locator("#tc-winners").is_hidden() and page.locator("#tc-final").is_visible()
    page.fill("#tc-cap", "8")
    assert fmt.input_value() == "double" and page.locator("#tc-losers").is_visible()
    assert page.is_hidden("#tc-cap-note") and page.locator("#tc-winners").is_visible()
    # Picked, the format stays whatever the places, and what two places make is said.
    page.select_option("#tc-format", "double")
    page.fill("#tc-cap", "2")
    assert fmt.input_value() == "double" and page.locator("#tc-losers").is_visible()
    assert page.inner_text("#tc-cap-note") == (
        "Two places: one match, then a grand final between the same two players."
    )


#: "30 s a shot, 1 extension of 30 s per rack", as the tables of each language say it.
CLOCK_30 = {
    "en": "30 s a shot, 1 extension of 30 s per rack",
    "hr": "30 s za udarac, 1 produljenje od 30 s po partiji",
    "ru": "30 с на удар, 1 продление по 30 с на партию",
}


@pytest.mark.parametrize("lang", ["hr", "ru"])
def test_the_organiser_gives_the_tables_a_shot_clock_and_the_lag(
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
    # How the first break is decided, in the lobby's words; drawn unless chosen.
    first = {"hr": "Prvo otvaranje određuje", "ru": "Первое разбитие решает"}[lang]
    assert page.inner_text("label:has(#tc-first) span") == first
    assert page.input_value("#tc-first") == "draw"
    page.select_option("#tc-first", "lag")
    page.fill("#tc-name", f"Clock {lang}")
    save(client, f"tournament-new-clock-{lang}.png", full_page=True)
    page.click("#tc-submit")
    page.wait_for_selector("#tour-view:not([hidden])")
    assert CLOCK_30[lang] in page.inner_text("#tour-facts")
    lag = {"hr": "Prvo otvaranje: bliškanje", "ru": "Первое разбитие — по раскату"}
    assert lag[lang] in page.inner_text("#tour-facts")
    tournament_id = page.url.split("?")[0].rstrip("/").split("/")[-1]
    made = call(server, "GET", f"/api/tournaments/{tournament_id}")
    assert (made["shot_clock"], made["first_break"]) == (30, "lag")
    # A tournament without one says so.
    plain = new_tournament(server, token, f"No clock {lang}")
    page.goto(f"{server.url}/tournament/{plain}?lang={lang}")
    page.wait_for_selector("#tour-view:not([hidden])")
    none = {"hr": "Bez vremenskog ograničenja za udarac", "ru": "Без ограничения времени на удар"}
    assert none[lang] in page.inner_text("#tour-facts")
    drawn = {"hr": "Prvo otvaranje: ždrijeb", "ru": "Первое разбитие — по жребию"}
    assert drawn[lang] in page.inner_text("#tour-facts")
    assert client.problems() == [] and lobby.problems() == []


#: The reader's time zone after the time ("CET", "UTC", "GMT+3"): the tournament's pages
#: show its start in each reader's own, and the organiser's words say which theirs is.
ZONE = r"(UTC|GMT[+-]\d+(:\d\d)?|[A-Z]{3,5})"
#: The months as each language names them on their own (a month picked, not a date read).
MONTHS = {
    "hr": "siječanj veljača ožujak travanj svibanj lipanj"
    " srpanj kolovoz rujan listopad studeni prosinac",
    "ru": "январь февраль март апрель май июнь июль август сентябрь октябрь ноябрь декабрь",
}
#: Each field's name as a screen reader says it.
FIELD_NAMES = {
    "hr": ["Dan", "Mjesec", "Godina", "Sat", "Minute"],
    "ru": ["День", "Месяц", "Год", "Час", "Минуты"],
}


@pytest.mark.parametrize("lang", ["hr", "ru"])
def test_the_start_time_follows_the_pages_language_not_the_browsers(
    page_at: Any, server: Server, lang: str
) -> None:
    """An American browser (en-US) on a Croatian or Russian form: the start is picked as
    the page's language writes a date and a time — day, month (named), year, then a
    24-hour clock —, read back in words, sent as that local time, and shown so on the
    tournament's page; switched to English, the same time is offered the American way."""
    token = session_token(server, f"Org time {lang}")
    client = page_at("/tournament/new", lang, token, locale="en-US")
    page = client.page
    page.wait_for_selector("#tour-create:not([hidden]) #tour-create-form:not([hidden])")
    assert page.evaluate("navigator.language") == "en-US"
    assert start_fields(page) == ["day", "month", "year", "hour", "minute"]
    assert options(page, "#tc-start-month") == MONTHS[lang].split()
    assert options(page, "#tc-start-hour") == [f"{h:02d}" for h in range(24)]
    assert options(page, "#tc-start-minute") == [f"{m:02d}" for m in range(0, 60, 5)]
    named = page.evaluate(
        "[...document.querySelectorAll('#tc-starts select')]"
        ".filter((s) => s.getClientRects().length).map((s) => s.getAttribute('aria-label'))"
    )
    assert named == FIELD_NAMES[lang]
    year = page.evaluate("new Date().getFullYear()") + 1
    pick_start(page, year=year, month=12, day=24, hour=20, minute=30)
    said = page.inner_text("#tc-starts-said")
    expected = {
        "hr": rf"\w+, 24\. prosinca {year}\. u 20:30 {ZONE}",
        "ru": rf"\w+, 24 декабря {year} г\. в 20:30 {ZONE}",
    }[lang]
    assert re.fullmatch(expected, said), said
    save(client, f"tournament-new-start-{lang}.png", full_page=True)
    # In English, in the same browser: the American order and a 12-hour clock, the time
    # chosen kept.
    page.select_option("#lang", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert start_fields(page) == ["month", "day", "year", "hour", "minute", "period"]
    assert page.input_value("#tc-start-month") == "12" and page.input_value("#tc-start-day") == "24"
    assert (page.input_value("#tc-start-hour"), page.input_value("#tc-start-period")) == ("8", "pm")
    assert options(page, "#tc-start-period") == ["AM", "PM"]
    assert re.fullmatch(
        rf"\w+, December 24, {year} at 8:30\sPM {ZONE}", page.inner_text("#tc-starts-said")
    )
    page.select_option("#lang", lang)
    page.wait_for_function(f"document.documentElement.lang === {lang!r}")
    assert re.fullmatch(expected, page.inner_text("#tc-starts-said"))
    page.fill("#tc-name", f"Badnjak {lang}")
    page.click("#tc-submit")
    page.wait_for_selector("#tour-view:not([hidden])")
    tournament_id = page.url.split("?")[0].rstrip("/").split("/")[-1]
    starts_at = call(server, "GET", f"/api/tournaments/{tournament_id}")["starts_at"]
    assert starts_at == page.evaluate(f"new Date({year}, 11, 24, 20, 30).getTime()")
    facts = page.inner_text("#tour-facts")
    assert {"hr": f"24. prosinca {year}. u 20:30", "ru": f"24 декабря {year} г. в 20:30"}[
        lang
    ] in facts, facts
    # In the reader's time zone, which it names: a player elsewhere sees another hour.
    assert re.search(r"20:30 (UTC|GMT[+\u2212-]?\d*|[A-Z]{3,5})\b", facts), facts
    assert client.problems() == []


def test_the_start_time_fits_a_phone(page_at: Any, server: Server) -> None:
    """On a 390 px phone the start's fields fit the screen (nothing scrolls sideways), each
    a finger's size; a day the month does not have is not offered."""
    token = session_token(server, "Org phone")
    client = page_at("/tournament/new", "hr", token, width=390, height=844, locale="en-US")
    page = client.page
    page.wait_for_selector("#tour-create:not([hidden]) #tour-create-form:not([hidden])")
    boxes = page.evaluate(
        "[...document.querySelectorAll('#tc-starts select')].map((s) => {"
        " const r = s.getBoundingClientRect(); return [r.left, r.right, r.height]; })"
    )
    assert all(left >= 0 and right <= 390 and height >= 44 for left, right, height in boxes), boxes
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    year = page.evaluate("new Date().getFullYear()") + 1
    pick_start(page, year=year, month=1, day=31)
    pick_start(page, month=4)  # April has 30 days: the 31st becomes the 30th
    assert options(page, "#tc-start-day")[-1] == "30"
    assert page.input_value("#tc-start-day") == "30"
    save(client, "tournament-new-start-phone-hr.png", full_page=True)
    assert client.problems() == []


def test_an_english_reader_in_britain_picks_the_start_the_british_way(
    page_at: Any, server: Server
) -> None:
    """The English page in a British browser (en-GB): the day before the month and a
    24-hour clock, as the reader's own region writes a date, in English words."""
    token = session_token(server, "Org time gb")
    client = page_at("/tournament/new", "en", token, locale="en-GB")
    page = client.page
    page.wait_for_selector("#tour-create:not([hidden]) #tour-create-form:not([hidden])")
    assert page.evaluate("navigator.language") == "en-GB"
    assert start_fields(page) == ["day", "month", "year", "hour", "minute"]
    assert options(page, "#tc-start-hour") == [f"{h:02d}" for h in range(24)]
    year = page.evaluate("new Date().getFullYear()") + 1
    pick_start(page, year=year, month=12, day=24, hour=20, minute=30)
    said = page.inner_text("#tc-starts-said")
    assert re.fullmatch(rf"\w+,? 24 December {year},? (at )?20:30 {ZONE}", said), said
    assert client.problems() == []

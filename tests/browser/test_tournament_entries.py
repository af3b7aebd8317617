"""Taking an entrant off a tournament's list, in Chromium: the organiser's question is a
destructive one, and the entrant's own page says what happened to them."""

from __future__ import annotations

import re
import time
from typing import Any

from tests.browser.support import Server, save
from tests.browser.test_tournament_forfeits import final_of_two
from tests.browser.test_tournament_page import call, confirm, new_tournament, session_token


def test_an_entrant_taken_off_the_list_is_told_so(page_at: Any, server: Server) -> None:
    """Petar registered on the page, which said "Prijavljeni ste." The organiser took him
    off the list: his page offered to register again under that same green "You are
    registered", and the server let him straight back on. Now the removal is for good:
    his page says the organiser took him off and offers no form, after a reload too. The
    organiser's question says so, with a red button, as the other irreversible ones do."""
    organiser = session_token(server, "Ivan")
    tournament_id = new_tournament(server, organiser, "Zagrebački kup")
    path = f"/tournament/{tournament_id}"
    petar_token = session_token(server, "Petar")
    petar = page_at(path, "hr", petar_token, name="Petar")
    petar.page.wait_for_selector("#tour-form:not([hidden])")
    petar.page.click("#tour-join")
    petar.page.wait_for_function(
        "document.getElementById('tour-answer').textContent === 'Prijavljeni ste.'"
    )
    ivan = page_at(path, "hr", organiser)
    ivan.page.wait_for_selector('[data-remove="Petar"]')
    ivan.page.click('[data-remove="Petar"]')
    assert ivan.page.get_attribute("#tour-confirm-yes", "class") == "danger"
    assert (
        confirm(ivan.page, "Ukloni")
        == "Ukloniti s popisa: Petar? Taj se igrač više neće moći prijaviti."
    )
    ivan.page.wait_for_selector('#tour-entrants li[data-name="Petar"]', state="detached")
    entrants = call(server, "GET", f"/api/tournaments/{tournament_id}")["entrants"]
    assert [e["name"] for e in entrants] == []
    told = "Organizator vas je uklonio s popisa: ne možete se ponovno prijaviti."
    petar.page.wait_for_function(f"document.getElementById('tour-answer').textContent === {told!r}")
    assert petar.page.is_hidden("#tour-form")
    save(petar, "tournament-entrant-removed-hr.png")
    petar.page.reload()
    petar.page.wait_for_function(f"document.getElementById('tour-answer').textContent === {told!r}")
    assert petar.page.is_hidden("#tour-form") and petar.page.is_hidden("#tour-join")
    # Withdrawing oneself is said as one's own doing, not as the organiser's, and one may
    # come back.
    marko = page_at(path, "hr", session_token(server, "Marko"), name="Marko")
    marko.page.wait_for_selector("#tour-form:not([hidden])")
    marko.page.click("#tour-join")
    marko.page.wait_for_function(
        "document.getElementById('tour-answer').textContent === 'Prijavljeni ste.'"
    )
    marko.page.click("#tour-leave")
    marko.page.wait_for_function(
        "document.getElementById('tour-answer').textContent !== 'Prijavljeni ste.'"
    )
    assert "Organizator" not in marko.page.inner_text("#tour-answer")
    marko.page.click("#tour-join")
    marko.page.wait_for_function(
        "document.getElementById('tour-answer').textContent === 'Prijavljeni ste.'"
    )
    assert petar.problems() == [] and ivan.problems() == [] and marko.problems() == []


def test_the_organiser_gives_a_waiting_match_to_the_player_who_came(
    open_client: Any, page_at: Any, server: Server
) -> None:
    """After the start the organiser's page offered nothing: a no-show's opponent waited
    out the whole no-show time. On a match whose table waits with one of its two players
    seated, the organiser may give it to that player at once (asked first, in red)."""
    ana = open_client("Ana", lang="hr")
    ana.wait("!!a.welcome")
    token = ana.page.evaluate("localStorage.getItem('ninepool.token')")
    tournament, organiser = final_of_two(
        server, "Nedjelja", {"Ana": token, "Luka": session_token(server, "Luka")}
    )
    path = f"/api/tournaments/{tournament}"
    room = None
    for _ in range(200):
        matches = call(server, "GET", path)["matches"]
        room = matches[0]["room"] if matches else None
        if room:
            break
        ana.page.wait_for_timeout(50)
    assert room
    ana.page.evaluate(f"location.hash = '#/play/{room}'")
    ana.wait("a.role === 'player' && !!a.view")
    ivan = page_at(f"/tournament/{tournament}", "hr", organiser)
    button = ivan.page.locator("[data-walkover]")
    button.wait_for()
    assert button.inner_text() == "Pobjeda bez borbe: Ana"  # (to whom: "odmah" did not say)
    button.click()
    assert confirm(ivan.page, "Pobjeda bez borbe: Ana") == (
        "Dodijeliti meč odmah? Pobjeđuje Ana, a Luka gubi meč zbog nedolaska za stol."
    )
    ivan.page.wait_for_selector(".tour-match .tour-forfeit")
    assert ivan.page.inner_text(".tour-match .tour-forfeit") == (
        "Pobjeda bez borbe: Ana (nedolazak: Luka)"
    )
    assert ivan.page.inner_text("#tour-bracket-answer") == "Luka gubi meč zbog nedolaska za stol."
    assert ivan.page.locator("[data-walkover]").count() == 0
    ana.page.locator("#result-dialog").wait_for(state="visible")
    save(ivan, "tournament-walkover-now-hr.png")
    assert ivan.problems() == []


def test_the_page_counts_down_to_the_start(page_at: Any, server: Server) -> None:
    """The page gave the start only as a date and time ("Начало: 7 декабря 2026 г. в
    11:59 UTC"): a player had to work out whether to wait at the page or come back
    tomorrow. It now says how long is left, by the server's clock, and counts it down;
    once the tournament is under way or called off, it says nothing of a start."""
    organiser = session_token(server, "Ivan")
    later = new_tournament(server, organiser, "Вечерний турнир")
    ru = page_at(f"/tournament/{later}", "ru", organiser)
    ru.page.wait_for_selector("#tour-countdown:not([hidden])")
    assert ru.page.inner_text("#tour-countdown") == "Начнётся через 60 минут"
    soon = new_tournament(
        server, organiser, "Zagreb brzi", starts_at=int(time.time() * 1000) + 15_000
    )
    hr = page_at(f"/tournament/{soon}", "hr", organiser)
    hr.page.wait_for_selector("#tour-countdown:not([hidden])")
    first = hr.page.inner_text("#tour-countdown")
    found = re.fullmatch(r"Počinje za (\d+) sekund[aeiu]", first)
    assert found is not None, first
    seconds = int(found[1])
    assert 1 <= seconds <= 15, first
    hr.page.wait_for_function(
        f"document.getElementById('tour-countdown').textContent !== {first!r}"
    )
    later_seconds = hr.page.inner_text("#tour-countdown")
    assert int(re.findall(r"\d+", later_seconds)[0]) < seconds, later_seconds
    save(hr, "tournament-countdown-hr.png")
    # Nobody registered: called off at its time, and no start is counted any more.
    hr.page.wait_for_selector("#tour-note:not([hidden])", timeout=40_000)
    assert hr.page.is_hidden("#tour-countdown")
    assert hr.problems() == [] and ru.problems() == []


def test_the_organiser_calls_off_a_tournament_under_way(page_at: Any, server: Server) -> None:
    """Once it had started the organiser's page offered nothing but a walkover: an event
    called off ran on. While it is played the organiser may cancel it, told first (in
    red) that nobody will win it and that matches at their tables count for nothing."""
    players = {name: session_token(server, name) for name in ("Oleg", "Pavel")}
    tournament, organiser = final_of_two(server, "Кубок вторника", players)
    for _ in range(200):
        if call(server, "GET", f"/api/tournaments/{tournament}")["status"] == "running":
            break
        time.sleep(0.05)
    org = page_at(f"/tournament/{tournament}", "ru", organiser)
    org.page.wait_for_selector("#tour-organiser:not([hidden])")
    assert org.page.inner_text("#tour-yours-note") == (
        "Вы организатор этого турнира: он уже идёт, но его ещё можно отменить."
    )
    assert org.page.is_hidden("#tour-start") and org.page.is_visible("#tour-cancel")
    oleg = page_at(f"/tournament/{tournament}", "ru", players["Oleg"], name="Oleg")
    oleg.page.wait_for_selector("#tour-view:not([hidden])")
    assert oleg.page.is_hidden("#tour-organiser")  # the organiser's alone
    org.page.click("#tour-cancel")
    assert org.page.get_attribute("#tour-confirm-yes", "class") == "danger"
    assert confirm(org.page).startswith(
        "Отменить турнир сейчас, во время игры? Победителя не будет"
    )
    org.page.wait_for_selector("#tour-note:not([hidden])")
    assert org.page.inner_text("#tour-note") == "Турнир отменён организатором."
    assert org.page.is_hidden("#tour-organiser")
    view = call(server, "GET", f"/api/tournaments/{tournament}")
    assert (view["status"], view["cancelled"], view["champion"]) == ("cancelled", "organiser", None)
    # The match card awaits nobody and counts down nothing any more.
    card = org.page.inner_text("#tour-brackets")
    assert "Турнир отменён: этот матч больше ничего не решает" in card and "Ждём" not in card
    # Past its start: "Начался …", not "Начало: …" as before it began.
    facts = org.page.inner_text("#tour-facts")
    assert "Начался" in facts and "Начало:" not in facts, facts
    # The players' pages say it too, on their next read, with no seat to take.
    oleg.page.wait_for_selector("#tour-note:not([hidden])", timeout=20_000)
    assert "Сесть за стол" not in oleg.page.inner_text("#tour-brackets")
    save(org, "tournament-called-off-ru.png")
    assert org.problems() == [] and oleg.problems() == []


def test_an_unknown_tournament_says_so(page_at: Any) -> None:
    client = page_at("/tournament/nope", "hr")
    client.page.wait_for_selector("#tour-message:not([hidden])")
    client.page.wait_for_function(
        "document.querySelector('#tour-message').textContent === 'Takav turnir ne postoji.'"
    )
    assert [p for p in client.problems() if "status of 404" not in p] == []

"""Taking an entrant off a tournament's list, in Chromium: the organiser's question is a
destructive one, and the entrant's own page says what happened to them."""

from __future__ import annotations

from typing import Any

from tests.browser.support import Server, save
from tests.browser.test_tournament_page import call, confirm, new_tournament, session_token


def test_an_entrant_taken_off_the_list_is_told_so(page_at: Any, server: Server) -> None:
    """Petar registered on the page, which said "Prijavljeni ste." The organiser took him
    off the list: his page offered to register again under that same green "You are
    registered". It now says the organiser took him off. The organiser's question is asked
    with a red button, as the other irreversible ones are."""
    organiser = session_token(server, "Ivan")
    tournament_id = new_tournament(server, organiser, "Zagrebački kup")
    path = f"/tournament/{tournament_id}"
    petar = page_at(path, "hr", session_token(server, "Petar"), name="Petar")
    petar.page.wait_for_selector("#tour-form:not([hidden])")
    petar.page.click("#tour-join")
    petar.page.wait_for_function(
        "document.getElementById('tour-answer').textContent === 'Prijavljeni ste.'"
    )
    ivan = page_at(path, "hr", organiser)
    ivan.page.wait_for_selector('[data-remove="Petar"]')
    ivan.page.click('[data-remove="Petar"]')
    assert ivan.page.get_attribute("#tour-confirm-yes", "class") == "danger"
    assert confirm(ivan.page, "Ukloni") == "Ukloniti s popisa: Petar?"
    ivan.page.wait_for_selector('#tour-entrants li[data-name="Petar"]', state="detached")
    entrants = call(server, "GET", f"/api/tournaments/{tournament_id}")["entrants"]
    assert [e["name"] for e in entrants] == []
    petar.page.wait_for_function(
        "document.getElementById('tour-answer').textContent"
        " === 'Organizator vas je uklonio s popisa.'"
    )
    assert petar.page.is_visible("#tour-join")
    save(petar, "tournament-entrant-removed-hr.png")
    # Withdrawing himself is said as his own doing, not as the organiser's.
    petar.page.click("#tour-join")
    petar.page.wait_for_function(
        "document.getElementById('tour-answer').textContent === 'Prijavljeni ste.'"
    )
    petar.page.click("#tour-leave")
    petar.page.wait_for_function(
        "document.getElementById('tour-answer').textContent !== 'Prijavljeni ste.'"
    )
    assert petar.page.inner_text("#tour-answer") != "Organizator vas je uklonio s popisa."
    assert petar.problems() == [] and ivan.problems() == []

"""Conceding a match (O4) and the rematch after it, in real Chromium: the result on every
page (the players' and a spectator's), a rematch asked for and an opponent gone, said on
the open result, and a rematch's games replayed as its own."""

from __future__ import annotations

from collections.abc import Callable

from tests.browser.support import RATE, Client, Server
from tests.browser.test_client import (
    OpenClient,
    assert_quiet,
    foul_softly,
    replay_events,
    settle,
    shooter,
    start_match,
    winner_chooses,
)
from tests.browser.test_firstminute import host_and_guest, play_the_lag
from tests.browser.test_watching import concede


def test_o4_concede_match_then_rematch(open_client: OpenClient) -> None:
    ana, bob, room = start_match(open_client)
    cleo = open_client("Cleo", hash=f"#/room/{room}")  # watching
    cleo.wait("a.role === 'spectator' && !!a.view")
    ana.page.click("#more summary")
    ana.page.click("#concede")
    ana.page.click("#concede-match")
    for c in (ana, bob, cleo):
        c.page.locator("#result-dialog").wait_for(state="visible")
    assert bob.page.inner_text("#result-title") == "You win the match!"
    assert ana.page.inner_text("#result-title") == "Bob wins the match!"
    # (Ana's own log speaks to her: "You concede the match")
    assert "You concede the match" in ana.page.inner_text("#log")
    # The match over, its whole replay is one click away (each game's too).
    room = ana.state("a.room")
    for c in (ana, bob):
        whole = c.page.locator("#result-replay-match")
        assert whole.is_visible() and whole.inner_text() == "Replay of the match"
        assert whole.get_attribute("href") == f"#/replay/{room}/1/all"
    bob.page.click("#result-rematch")
    # The watcher's log says who asks for a rematch (it said nothing).
    cleo.page.wait_for_function(
        "document.getElementById('log').textContent.includes('Bob asks for a rematch')"
    )
    ana.page.click("#result-rematch")
    # The new match begun, the watcher's old result is gone with the finished match.
    cleo.wait("a.view.status !== 'finished'")
    cleo.page.locator("#result-dialog").wait_for(state="hidden")
    # Each log marks where the new match starts, above the last one's end.
    for c in (ana, bob, cleo):
        c.page.wait_for_function(
            "[...document.querySelectorAll('#log li')].some((li) =>"
            " li.textContent.startsWith('Rematch: a new match begins at 0 : 0'))"
        )
        lines = c.page.eval_on_selector_all("#log li", "(lis) => lis.map((li) => li.textContent)")
        new = next(i for i, line in enumerate(lines) if line.startswith("Rematch"))
        end = next(i for i, line in enumerate(lines) if "concede" in line and "the match" in line)
        assert new < end, lines  # the newest first
    winner_chooses((ana, bob), "#lag-break")
    for c in (ana, bob):
        c.wait("a.view.status === 'playing' && !a.table.match_over && a.table.rack === 1")
        c.idle()
    assert_quiet(ana, bob, cleo)


def test_a_rematch_asked_and_an_opponent_gone_are_said_on_the_open_result(
    open_client: OpenClient,
) -> None:
    """The result stays open on Ana's screen: Bob asking for a rematch shows on its button;
    Bob leaving the table turns it into "your opponent has left", and his empty seat
    carries no foul of his."""
    ana, bob, _ = start_match(open_client)
    for _ in range(2):  # until Bob has a foul to his name
        fouler = shooter((ana, bob))
        foul_softly(fouler)
        settle(ana, bob)
        if fouler is bob:
            break
    bob_seat = 1 - ana.state("a.seat")
    assert ana.page.locator(f"#seat{bob_seat} .tag.foul").count() == 1
    # One foul is not yet "in a row".
    assert ana.page.inner_text(f"#seat{bob_seat} .tag.foul") == "1 foul"
    ana.page.click("#more summary")
    ana.page.click("#concede")
    ana.page.click("#concede-match")
    for c in (ana, bob):
        c.page.locator("#result-dialog").wait_for(state="visible")
    bob.page.click("#result-rematch")
    ana.page.wait_for_function(
        "document.getElementById('result-rematch').textContent === 'Rematch (Bob wants one)'"
    )
    # The one who asked reads that it is asked, not greyed out (it was dim grey on green).
    asked = "getComputedStyle(document.getElementById('result-rematch'))"
    bob.page.wait_for_function("document.getElementById('result-rematch').disabled")
    assert bob.page.evaluate(f"{asked}.opacity") == "1"
    assert bob.page.evaluate(f"{asked}.color") == "rgb(232, 236, 233)"
    bob.page.click("#more summary")
    bob.page.click("#leave")
    bob.page.wait_for_selector("#leave-dialog[open], #lobby:not([hidden])")
    if bob.page.is_visible("#leave-dialog"):
        bob.page.click("#leave-confirm")
    bob.page.locator("#lobby").wait_for(state="visible")
    ana.page.wait_for_function(
        "document.getElementById('result-rematch').textContent"
        " === 'Your opponent has left the table'"
    )
    assert ana.page.is_disabled("#result-rematch")
    assert ana.page.locator(f"#seat{bob_seat} .tag.foul").count() == 0
    assert_quiet(ana, bob)


def test_the_whole_match_replay_opens_in_the_page_and_stays_after_a_reload(
    open_client: OpenClient,
) -> None:
    """A player's "Replay of the match" opens the replay in the same page, in its language
    (it had reloaded the page without its `?lang=`, in English, back at the table); reloaded
    there, the page shows the replay asked for, not the table the seat is at."""
    ana, bob, room = start_match(open_client, host_lang="hr")
    ana.page.click("#more summary")
    ana.page.click("#concede")
    ana.page.click("#concede-match")
    ana.page.locator("#result-dialog").wait_for(state="visible")
    ana.page.evaluate("window.samePage = true")
    ana.page.click("#result-replay-match")
    ana.wait("a.route === 'replay'")
    assert ana.page.evaluate("window.samePage === true")
    assert ana.page.evaluate("document.documentElement.lang") == "hr"
    assert ana.page.locator("#r-back").is_visible()
    ana.page.reload()
    ana.page.wait_for_selector("#conn.conn-online")
    ana.wait("a.route === 'replay' && a.room !== null")
    assert ana.page.evaluate("location.hash") == f"#/replay/{room}/1/all"
    assert ana.page.evaluate("document.documentElement.lang") == "hr"
    # The whole match's replay says which game the event shown is in (it never did).
    ana.page.locator("#r-log li button").last.click()
    ana.page.wait_for_function(
        "document.getElementById('r-line').textContent.endsWith('· 1. meč, partija 1')"
    )
    assert_quiet(ana, bob)


def test_a_rematch_game_links_its_own_replay(
    open_client: OpenClient, open_page: Callable[[str, str], Client], server: Server
) -> None:
    """A rematch numbers its racks from 1 again, so its first game's result links
    `/replay/<room>/2/1`: that page plays the rematch's game, and `/replay/<room>/1` still
    the first match's (here conceded with its rack under way: it ends at the concession).
    On the whole replay, "Last" lands on the last result, not on a player leaving; the
    rematch whole (`/#/replay/<room>/2/all`) starts after the first match."""
    ana, bob, room = start_match(open_client)
    foul_softly(shooter((ana, bob)))
    settle(ana, bob)
    concede(ana, "match")
    bob.page.locator("#result-dialog").wait_for(state="visible")
    link = bob.page.get_attribute("#result-replay", "href") or ""
    assert link.split("?")[0].endswith(f"/replay/{room}/1"), link
    bob.page.click("#result-rematch")
    ana.page.click("#result-rematch")
    winner_chooses((ana, bob), "#lag-break")
    for c in (ana, bob):
        c.wait("a.view.status === 'playing' && a.view.match === 2 && a.table.rack === 1")
    foul_softly(shooter((ana, bob)))
    settle(ana, bob)
    concede(ana, "game")
    bob.page.locator("#result-dialog").wait_for(state="visible")
    bob.page.wait_for_function("document.getElementById('result-replay').hasAttribute('href')")
    link = bob.page.get_attribute("#result-replay", "href")
    assert link == f"{server.url}/replay/{room}/2/1?lang=en"
    # The log's line that ended the game links its replay too (the result gives way to the
    # next rack), and still does once the page is reloaded and the log rebuilt.
    game_line = f"#log a.log-replay[href='#/replay/{room}/2/1']"
    bob.page.wait_for_selector(game_line, state="attached")
    assert bob.page.locator(game_line).first.text_content() == "Replay of match 2, game 1"
    # (in a tab of its own: in the page it took a player from the table, the clock running)
    assert bob.page.locator(game_line).first.get_attribute("target") == "_blank"
    # The first match's line (conceded with its game under way) links that game.
    first_line = f"#log a.log-replay[href='#/replay/{room}/1']"
    assert bob.page.locator(first_line).first.text_content() == "Replay of game 1"
    ana.page.reload()
    ana.wait("!!a.view && !!a.table")
    ana.page.wait_for_selector(game_line, state="attached")
    assert ana.page.locator(f"{game_line}, {first_line}").count() == 2
    bob.page.click("#more summary")
    bob.page.click("#leave")  # someone leaving after the last result
    events = replay_events(server, room)
    match_over = next(i for i, e in enumerate(events) if e["t"] == "match_over")
    game_over = next(i for i, e in enumerate(events) if e["t"] == "game_over")
    assert match_over < game_over  # the first match ended with no game over: conceded
    rematch = open_page("rematch-game", f"/replay/{room}/2/1?lang=en&rate={RATE}")
    assert rematch.page.url.endswith(f"#/replay/{room}/2/1")
    rematch.page.wait_for_function(
        "document.getElementById('r-line').textContent.includes('match 2, game 1')"
    )
    scrub = rematch.page.locator("#r-scrub")
    assert int(scrub.get_attribute("min") or 0) > match_over
    assert int(scrub.get_attribute("max") or 0) == game_over
    assert "match 2, game 1" in rematch.page.inner_text("#r-line")
    # (the table's name after a colon: "Replay of Against the computer" read oddly)
    assert rematch.page.inner_text("#r-line").startswith("Replay: ")
    assert rematch.page.get_attribute("#r-share", "href") == link.split("?")[0]
    first = open_page("first-game", f"/replay/{room}/1?lang=hr&rate={RATE}")
    first.page.wait_for_function(
        "document.getElementById('r-line').textContent.includes('partija 1')"
    )
    assert first.page.locator("#r-scrub").get_attribute("max") == str(match_over)
    assert "partija 1" in first.page.inner_text("#r-line")
    whole = open_page("whole", f"/?lang=en#/replay/{room}")
    whole.page.wait_for_function("document.getElementById('r-log').children.length > 0")
    # At the first event there is nothing to go back to, at the last result nothing on.
    assert whole.page.is_disabled("#r-first") and whole.page.is_disabled("#r-prev")
    whole.page.click("#r-last")
    assert whole.page.is_disabled("#r-last") and whole.page.is_enabled("#r-first")
    last = max(i for i, e in enumerate(replay_events(server, room)) if e["t"] == "game_over")
    assert whole.page.locator("#r-scrub").input_value() == str(last)
    # The rematch whole, as its result and the profiles link it: from after the first
    # match's end, titled so, its share link the same address.
    second = open_page("second-match", f"/?lang=ru#/replay/{room}/2/all")
    second.page.wait_for_selector("#replay-view:not([hidden])")
    # (the view shows before its record has come: wait for the record's title line)
    second.page.wait_for_function(
        "document.getElementById('r-line').textContent.includes('матч 2')"
    )
    begun = next(
        i
        for i, e in enumerate(events)
        if i > match_over
        and e["t"] not in ("chat", "presence")
        and not (e["t"] == "snapshot" and e["view"]["status"] == "finished")
    )
    assert int(second.page.locator("#r-scrub").get_attribute("min") or 0) == begun
    assert "матч 2" in second.page.inner_text("#r-line")
    assert second.page.get_attribute("#r-share", "href") == f"{server.url}/#/replay/{room}/2/all"
    assert_quiet(ana, rematch, first, whole, second)


def test_who_comes_to_watch_a_rematch_reads_the_last_match_in_the_log_only(
    open_client: OpenClient,
) -> None:
    """Someone who came to a rematch waiting for its lag read the last match's end ("…
    concedes the match") as the new match's headline, for as long as the lag waited (the
    TV's viewers, for minutes). The log keeps it; the headline is the new match's."""
    ana, bob, room = host_and_guest(open_client, first_break="lag")
    play_the_lag((ana, bob))
    winner_chooses((ana, bob), "#lag-break")
    for c in (ana, bob):
        c.wait("a.view.status === 'playing' && !!a.table")
        c.idle()
    concede(ana, "match")
    for c in (ana, bob):
        c.page.locator("#result-dialog").wait_for(state="visible")
    bob.page.click("#result-rematch")
    ana.page.click("#result-rematch")
    ana.wait("a.view.status === 'lag' && a.view.match === 2")
    dee = open_client("Dee", hash=f"#/room/{room}")
    dee.wait("a.role === 'spectator' && !!a.view && a.view.match === 2")
    dee.page.wait_for_function(
        "document.getElementById('log').textContent.includes('concedes the match')"
    )
    assert "concedes" not in dee.page.inner_text("#status"), dee.page.inner_text("#status")
    # Nor does it come back when the log is worded anew at the table (a player renamed by
    # the account they made, or here another language): it did, over the rematch's lag.
    assert "concede" not in ana.page.inner_text("#status").lower()
    ana.page.select_option("#lang", "hr")
    ana.page.wait_for_function("document.documentElement.lang === 'hr'")
    assert "Predali ste meč" in ana.page.inner_text("#log")
    assert "Predali ste" not in ana.page.inner_text("#status"), ana.page.inner_text("#status")
    assert_quiet(ana, bob, dee)


def test_a_match_conceded_before_its_game_was_played_names_the_game_it_links(
    open_client: OpenClient,
) -> None:
    """A match conceded before a shot of its new game links the game before (the new one
    has nothing to replay): its link said "Replay of this game" and opened the last one.
    It names that game, in another language too."""
    ana, bob, room = start_match(open_client)
    cleo = open_client("Cleo", hash=f"#/room/{room}")  # watching
    cleo.wait("a.role === 'spectator' && !!a.view")
    foul_softly(shooter((ana, bob)))  # a shot in game 1
    settle(ana, bob)
    concede(ana, "game")
    for c in (ana, bob):
        c.page.locator("#result-dialog").wait_for(state="visible")
        assert c.page.inner_text("#result-replay") == "Replay of this game"
        c.wait("a.table && a.table.rack === 2")
        c.idle()
        c.page.evaluate("document.getElementById('result-dialog').close()")
    concede(ana, "match")  # before a shot of game 2
    for c in (ana, bob, cleo):
        c.page.wait_for_function(
            "document.getElementById('result-dialog').open"
            " && document.getElementById('result-dialog').classList.contains('match')"
        )
        link = c.page.locator("#result-replay")
        assert link.inner_text() == "Replay of game 1"
        assert (link.get_attribute("href") or "").split("?")[0].endswith("/1")
    # Someone watching has the result as a notice, the page still theirs: another language
    # keeps the game's number (the words had become the markup's "this game").
    cleo.page.select_option("#lang", "hr")
    cleo.page.wait_for_function("document.documentElement.lang === 'hr'")
    assert cleo.page.inner_text("#result-replay") == "Snimka 1. partije"
    assert_quiet(ana, bob, cleo)


def test_the_menu_after_a_match_stays_in_the_panel(open_client: OpenClient) -> None:
    """After a match, "More" stands after "Rematch": its menu ran past the panel's right
    edge, and brought into view it scrolled the whole panel (the log, "Rematch") sideways.
    The menu opens moved left, within the panel, which stays where it was. Beside them,
    "Lobby" is the way out."""
    ana, bob, _room = start_match(open_client, host_lang="ru")
    ana.page.set_viewport_size({"width": 1366, "height": 768})
    concede(bob, "match")
    ana.page.locator("#result-dialog").wait_for(state="visible")
    ana.page.click("#result-close")
    ana.page.locator("#rematch").wait_for(state="visible")
    before = ana.page.locator("#rematch").bounding_box()
    ana.page.click("#more summary")
    ana.page.wait_for_function(
        "document.querySelector('#more .more-menu').getBoundingClientRect().right"
        " <= document.getElementById('panel').getBoundingClientRect().right"
    )
    ana.page.wait_for_timeout(200)  # (brought into view by then)
    assert ana.page.evaluate("document.getElementById('panel').scrollLeft") == 0
    assert before is not None and ana.page.locator("#rematch").bounding_box() == before
    # The way out stands beside "Rematch" (it was "More" → "Leave table" only).
    ana.page.keyboard.press("Escape")
    assert ana.page.inner_text("#panel-lobby") == "Лобби"
    ana.page.click("#panel-lobby")
    ana.page.locator("#lobby").wait_for(state="visible")
    ana.wait("a.room === null")
    assert_quiet(ana, bob)


def test_a_closed_tables_link_shows_its_replay(open_client: OpenClient) -> None:
    """A player who went back to a finished match's link ("#/room/…") was told the table
    was "closed, or private and needs its invite link" — wrong for a table they played at,
    and a dead end. A table closed since shows its replay instead, and says why."""
    ana, bob, room = start_match(open_client)
    foul_softly(shooter((ana, bob)))  # (a table closed with no shot played keeps no replay)
    settle(ana, bob)
    concede(bob, "match")
    for c in (ana, bob):
        c.page.locator("#result-dialog").wait_for(state="visible")
        c.page.click("#result-close")
        c.page.click("#panel-lobby")
        c.wait("a.room === null")
    # The room closes once nobody is at it; its link then leads to its replay.
    for _ in range(100):
        if not ana.state(f"a.rooms.has({room!r})"):
            break
        ana.page.wait_for_timeout(100)
    ana.page.evaluate(f"location.hash = '#/room/{room}'")
    ana.page.wait_for_selector("#replay-view:not([hidden])")
    assert ana.page.url.endswith(f"#/replay/{room}")
    said = ana.page.inner_text("#toast")
    assert said == "That table is no longer open to join. Here is its replay.", said
    ana.page.wait_for_function("document.getElementById('r-log').children.length > 0")
    assert_quiet(ana, bob)


def test_left_alone_before_the_rematch_begins_the_player_waits_ready(
    open_client: OpenClient,
) -> None:
    """The opponent left during the rematch's draw: the table went back to waiting with
    "Let's start!" offered beside an empty seat, and "not ready" under the one who stayed.
    Sitting is being ready: they wait ready, with the invite to send, as after sitting
    down."""
    ana, bob, _ = start_match(open_client)
    ana.page.click("#more summary")
    ana.page.click("#concede")
    ana.page.click("#concede-match")
    for c in (bob, ana):
        c.page.locator("#result-dialog").wait_for(state="visible")
        c.page.click("#result-rematch")
    ana.wait("a.view.status === 'lag'")
    bob.page.click("#more summary")
    bob.page.click("#leave")
    if bob.page.locator("#leave-confirm").is_visible():
        bob.page.click("#leave-confirm")
    bob.page.locator("#lobby").wait_for(state="visible")
    ana.wait("a.view.status === 'waiting' && a.view.seats.some((s) => !s)")
    ana.wait(f"a.view.seats[{ana.state('a.seat')}].ready === true")
    assert ana.page.is_hidden("#ready")
    assert ana.page.is_visible("#invite")
    assert_quiet(ana, bob)

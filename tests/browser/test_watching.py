"""Watching in a real browser: the TV channel follows the most interesting live table and
moves on when its match ends, the stream overlay follows one table live (and says when
there is no such table), the lobby leads to the TV, and a rack's replay page plays that
rack by itself. Every page in English, Croatian and Russian, with nothing on any
console."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.browser.support import RATE, Client, Server, open_replay, save
from tests.browser.test_client import (
    assert_quiet,
    foul_softly,
    replay_events,
    settle,
    shooter,
    start_match,
)
from tests.browser.test_firstminute import PHONE, host_and_guest, play_the_lag, started

OpenClient = Callable[..., Client]
LANGS = ("en", "hr", "ru")


def overlay_model(c: Client) -> Any:
    return c.page.evaluate("window.ninepoolOverlay ?? null")


def concede(c: Client, which: str) -> None:
    c.page.click("#more summary")
    c.page.click("#concede")
    # A table that is no tournament's says nothing of one.
    c.page.locator("#concede-dialog").wait_for(state="visible")
    assert c.page.is_hidden("#concede-stake")
    c.page.click(f"#concede-{which}")


def test_tv_follows_the_best_table_and_the_overlay_follows_one(
    open_client: OpenClient, open_page: Callable[[str, str], Client]
) -> None:
    ana, bob, first = start_match(open_client)
    cid = open_client("Cid")
    dee = open_client("Dee")
    # Each pair at its own table (start_match's lobby click would join the newest table).
    cid.page.click("#create-form button[type=submit]")
    cid.page.wait_for_selector("#table-view:not([hidden])")
    second = cid.state("a.room")
    dee.page.goto(dee.page.url.split("#")[0] + f"#/room/{second}")
    for c in (cid, dee):
        c.wait("a.view && (a.view.status === 'lag' || a.view.status === 'playing')")
    # Overlays watch the first table in every language: people watching it make it the
    # channel's pick.
    overlays = {
        lang: open_page(f"overlay-{lang}", f"/overlay/{first}?lang={lang}") for lang in LANGS
    }
    for o in overlays.values():
        o.page.wait_for_function(
            "window.ninepoolOverlay && window.ninepoolOverlay.status === 'playing'"
        )
        names = [o.page.inner_text(f".ov-seat{s} .ov-name") for s in (0, 1)]
        assert names == ["Ana", "Bob"]
        assert [o.page.inner_text(f".ov-score[data-seat='{s}']") for s in (0, 1)] == ["0", "0"]
    assert "Race to 3" in overlays["en"].page.inner_text(".ov-race")
    assert "Igra se do 3" in overlays["hr"].page.inner_text(".ov-race")
    assert "Игра до 3" in overlays["ru"].page.inner_text(".ov-race")
    model = overlay_model(overlays["en"])
    assert model["rack"] == 1 and model["balls"] == list(range(1, 10))
    assert sum(model["seats"][s]["toAct"] for s in (0, 1)) == 1

    tvs = {lang: open_page(f"tv-{lang}", f"/tv?lang={lang}&linger=1&rate={RATE}") for lang in LANGS}
    # The strip that follows the channel: the table the TV shows.
    on_tv = open_page("overlay-tv", f"/overlay/tv?lang=hr&linger=1&rate={RATE}")
    on_tv.page.wait_for_function(
        f"window.ninepoolOverlay?.room === {first!r} && window.ninepoolOverlay.status === 'playing'"
    )
    assert [on_tv.page.inner_text(f".ov-seat{s} .ov-name") for s in (0, 1)] == ["Ana", "Bob"]
    for lang, tv in tvs.items():
        assert tv.page.url.endswith("#/tv")
        tv.wait(f"a.tvRoom === {first!r} && a.view && a.view.room === {first!r}")
        # A streamer on the TV takes the channel's overlay, which moves on with it (not
        # the table now shown, which a streamer's scene then stayed on).
        assert tv.page.get_attribute("#stream-overlay", "href") == f"/overlay/tv?lang={lang}"
    assert "Ana" in tvs["en"].page.inner_text("#tv-banner")
    assert tvs["hr"].page.inner_text("#tv-banner").startswith("TV · upravo prikazujemo")
    assert tvs["ru"].page.inner_text("#tv-banner").startswith("ТВ · сейчас в эфире")
    # A shot on the followed table plays out on the TV with no word of skipping it, and no
    # Skip button over the rail: the channel is watched, not driven.
    # (What the TV shows while the shot plays is recorded: it plays out fast here.)
    tv = tvs["en"]
    tv.page.evaluate(
        """() => {
          window.seenPlaying = [];
          new MutationObserver(() => {
            if (!window.ninepool.app.anim) return;
            const skip = !document.getElementById('skip').hidden;
            window.seenPlaying.push([document.getElementById('status').textContent, skip]);
          }).observe(document.getElementById('status'), { childList: true, subtree: true });
        }"""
    )
    foul_softly(shooter((ana, bob)))
    settle(ana, bob)
    tv.page.wait_for_function("window.seenPlaying.length > 0 && !window.ninepool.app.anim")
    for text, skip in tv.page.evaluate("window.seenPlaying"):
        assert "skip" not in text.lower() and not skip, (text, skip)
    save(tvs["en"], "tv-following.png")
    # On a phone held upright the TV's table stands upright too, as a player's does.
    tvs["hr"].page.set_viewport_size({"width": 390, "height": 844})
    tvs["hr"].page.wait_for_function("window.ninepool.portrait()")
    save(tvs["hr"], "tv-phone-hr.png")
    # Held sideways (a 2:1 phone) the channel's words stand at the foot of the column left
    # of the table, not in a bar over it: the table takes the stage's height.
    tvs["hr"].page.set_viewport_size({"width": 844, "height": 390})
    tvs["hr"].page.wait_for_function("!window.ninepool.portrait()")
    bar = tvs["hr"].page.locator("#tv-banner").bounding_box()
    status = tvs["hr"].page.locator("#status").bounding_box()
    table = tvs["hr"].page.locator("#table").bounding_box()
    assert bar is not None and status is not None and table is not None
    assert bar["x"] + bar["width"] <= table["x"] and bar["y"] > status["y"], (bar, table)
    words = tvs["hr"].page.locator("#status > :last-child").bounding_box()
    assert words is not None and words["y"] + words["height"] <= bar["y"], (words, bar)
    assert table["height"] >= status["height"], (table, status)  # the column's height
    save(tvs["hr"], "tv-phone-sideways-hr.png")
    save(overlays["en"], "overlay.png")

    # The strip's width, which must not change with the words under the score.
    # (read in one go: the overlay redraws its strip as the table changes)
    widths = {
        lang: o.page.wait_for_function(
            "document.querySelector('.ov-bar')?.getBoundingClientRect().width"
        ).json_value()
        for lang, o in overlays.items()
    }
    # A game conceded: the overlay's score follows at once.
    concede(ana, "game")
    for o in overlays.values():
        o.page.wait_for_function(
            "document.querySelector(\".ov-score[data-seat='1']\")?.textContent === '1'"
        )
    # The TV shows the game's result as words only: a player's ways on (rematch,
    # replays, continue) are not its viewers', and its top bar names no viewer.
    for tv in tvs.values():
        tv.page.locator("#result-dialog").wait_for(state="visible")
        assert tv.page.is_hidden("#result-dialog .row")
        assert tv.page.is_hidden("#me")
    # The match ends: the TV lingers on the result, then moves to the other table.
    for c in (ana, bob):
        c.page.locator("#result-dialog").wait_for(state="hidden", timeout=15_000)
    concede(ana, "match")
    for lang, o in overlays.items():
        o.page.wait_for_function("window.ninepoolOverlay && window.ninepoolOverlay.winner === 1")
        # "Game 1" became "Match over" under the score: the strip kept its width on stream.
        o.page.wait_for_function(
            "(w) => document.querySelector('.ov-bar')?.getBoundingClientRect().width === w",
            arg=widths[lang],
            timeout=5_000,
        )
    for tv in tvs.values():
        tv.wait(f"a.tvRoom === {second!r} && a.view && a.view.room === {second!r}", timeout=30_000)
    assert "Cid" in tvs["en"].page.inner_text("#tv-banner")
    # The channel's strip moved with it: the other table's players, its score from nought.
    on_tv.page.wait_for_function(
        f"window.ninepoolOverlay?.room === {second!r} && window.ninepoolOverlay.status !== 'idle'",
        timeout=30_000,
    )
    assert [on_tv.page.inner_text(f".ov-seat{s} .ov-name") for s in (0, 1)] == ["Cid", "Dee"]
    assert [on_tv.page.inner_text(f".ov-score[data-seat='{s}']") for s in (0, 1)] == ["0", "0"]
    # A player whose match is over turns to the TV in the same page (only the address's
    # hash changes): the finished table is left, and the live one comes on.
    bob.page.locator("#result-dialog").wait_for(state="visible")
    # The header no longer numbers the conceded game as one still to play.
    assert bob.page.inner_text("#match-line") == "Race to 3 · Match over"
    bob.page.click("#result-close")
    bob.page.evaluate("location.hash = '#/tv'")
    bob.wait(f"a.tvRoom === {second!r} && a.view && a.view.room === {second!r}", timeout=30_000)
    assert bob.state("a.role") == "spectator"
    assert bob.page.is_hidden("#me"), "no 'Watching as Bob' on the channel"
    save(tvs["ru"], "tv-moved-on.png")
    assert_quiet(ana, bob, cid, dee, on_tv, *tvs.values(), *overlays.values())


def test_the_lobby_leads_to_the_tv(open_client: OpenClient) -> None:
    eve = open_client("Eve", lang="hr")
    assert eve.page.inner_text("#tv-link") == "TV"
    eve.page.click("#tv-link")
    eve.page.locator("#tv-banner").wait_for(state="visible")
    assert eve.page.url.endswith("#/tv")
    assert eve.page.inner_text("#tv-banner").startswith("TV")
    assert_quiet(eve)


def test_an_overlay_of_a_table_that_never_was_says_so(
    open_page: Callable[[str, str], Client],
) -> None:
    words = {"en": "No such table", "hr": "Nema takvog stola", "ru": "Такого стола нет"}
    for lang, text in words.items():
        o = open_page(f"overlay-none-{lang}", f"/overlay/NoSuchRoom1?lang={lang}")
        o.page.wait_for_function("window.ninepoolOverlay?.status === 'none'")
        assert o.page.inner_text("#overlay") == text
        assert o.page.locator(".ov-score").count() == 0


def test_a_rack_replay_page_plays_that_rack_by_itself(
    open_client: OpenClient, open_page: Callable[[str, str], Client], server: Server
) -> None:
    ana, bob, room = start_match(open_client)
    foul_softly(shooter((ana, bob)))  # a shot in rack 1: a game with something to replay
    settle(ana, bob)
    concede(ana, "game")  # rack 1 ends: Bob wins it
    for c in (ana, bob):
        c.wait("a.table && a.table.rack === 2")
    # The end-of-rack dialog offers the rack's page (the next rack's table can come before
    # the dialog on a busy machine: it is waited for).
    bob.page.locator("#result-dialog").wait_for(state="visible")
    bob.page.wait_for_function("document.getElementById('result-replay').hasAttribute('href')")
    link = bob.page.get_attribute("#result-replay", "href")
    assert link == f"{server.url}/replay/{room}/1?lang=en"  # (in the page's language)
    events = replay_events(server, room)
    ends = [i for i, e in enumerate(events) if e["t"] == "game_over"]
    # Rack 1 starts where play starts: the waiting room before it is the match's, not the
    # rack's. A lag that rolls has the table before it first, to be seen rolling; this
    # match's break was drawn (nothing rolls), so the rack starts at the draw.
    start = next(i for i, e in enumerate(events) if e["t"] not in ("snapshot", "chat", "presence"))
    assert start > 0  # the room waited for Bob: there is a waiting room to leave out
    assert events[start]["t"] == "lag_result" and events[start]["method"] == "draw"
    rack_one = ends[0] + 1 - start
    pages = {
        lang: open_page(f"replay-{lang}", f"/replay/{room}/1?lang={lang}&rate={RATE}")
        for lang in LANGS
    }
    for lang, p in pages.items():
        assert p.page.url.endswith(f"#/replay/{room}/1")
        p.page.wait_for_selector("#replay-view:not([hidden])")
        assert p.page.locator("#r-log li").count() == rack_one
        # It plays by itself to the rack's end, then stops.
        p.page.wait_for_function(
            f"document.getElementById('r-scrub').value === '{ends[0]}'"
            " && document.getElementById('r-play').getAttribute('aria-pressed') === 'false'",
            timeout=60_000,
        )
        line = p.page.inner_text("#r-line")
        assert {"en": "game 1", "hr": "partija 1", "ru": "партия 1"}[lang] in line
        assert p.page.get_attribute("#r-share", "href") == f"{server.url}/replay/{room}/1"
    # The scrubber jumps anywhere in the rack.
    en = pages["en"]
    en.page.locator("#r-scrub").fill(str(start + 1))
    assert en.page.inner_text("#r-pos").startswith(f"Event 2 of {rack_one}")
    en.page.locator("#r-scrub").fill(str(start))
    first = en.page.inner_text("#r-pos")
    assert first.startswith(f"Event 1 of {rack_one}") and "chooses who breaks" in first, first
    # A link to the moment shown: it opens the replay there and waits (it does not play
    # on from it, nor from the start), and the address forgets the moment once read.
    moment = open_page("replay-moment", f"/replay/{room}/1?lang=hr&rate={RATE}", clipboard=True)
    moment.page.wait_for_function(
        f"document.getElementById('r-scrub').value === '{ends[0]}'"
        " && document.getElementById('r-play').getAttribute('aria-pressed') === 'false'",
        timeout=60_000,
    )
    moment.page.locator("#r-scrub").fill(str(start + 2))
    moment.page.click("#r-copy")
    copied = "Kopirano: poveznica otvara snimku kod 3. događaja."
    # (said once the clipboard has taken it: a moment after the click)
    moment.page.wait_for_function("document.getElementById('r-copied').textContent !== ''")
    assert moment.page.inner_text("#r-copied") == copied
    link = moment.page.evaluate("navigator.clipboard.readText()")
    assert link == f"{server.url}/replay/{room}/1?at=3", link  # (not the page's own query)
    shared = open_page("replay-shared", link.removeprefix(server.url) + "&lang=ru")
    shared.page.wait_for_selector("#replay-view:not([hidden])")
    shared.page.wait_for_function("document.getElementById('r-pos').textContent !== ''")
    assert shared.page.inner_text("#r-pos").startswith(f"Событие 3 из {rack_one}")
    assert shared.page.get_attribute("#r-play", "aria-pressed") == "false"
    assert "at=" not in shared.page.url and shared.page.url.endswith(f"#/replay/{room}/1")
    save(moment, "replay-moment-copied-hr.png")
    # A rack the match never reached says so.
    missing = open_page("replay-missing", f"/replay/{room}/9?lang=en")
    missing.page.wait_for_selector("#toast:not([hidden])")
    assert "no game 9" in missing.page.inner_text("#toast")
    # ... and shows the room's whole record instead of an empty viewer.
    missing.page.wait_for_selector("#replay-view:not([hidden])")
    assert missing.page.locator("#r-log li").count() > rack_one
    assert missing.page.get_attribute("#r-share", "href") == f"{server.url}/#/replay/{room}"
    save(en, "replay-rack.png")
    # On a phone the controls are on the page, below a table of a readable size (no
    # sheet to open: the page has no toggle), and playing does not pull the page away.
    phone = open_client("Ivan", **PHONE, lang="ru", hash=f"#/replay/{room}/1")
    phone.page.wait_for_selector("#replay-view:not([hidden])")
    phone.page.wait_for_timeout(1500)
    assert phone.page.evaluate("window.scrollY") == 0
    canvas = phone.page.locator("#r-table").bounding_box()
    assert canvas is not None and canvas["height"] > 400, canvas
    for control in ("#r-play", "#r-next", "#r-scrub"):
        phone.page.locator(control).scroll_into_view_if_needed()
        assert phone.page.locator(control).is_visible(), control
    if phone.page.get_attribute("#r-play", "aria-pressed") == "true":
        phone.page.click("#r-play")  # pause the playing rack first
    if phone.page.is_enabled("#r-first"):  # (still at the first event: nothing to go back to)
        phone.page.click("#r-first")
    assert phone.page.inner_text("#r-pos").startswith(f"Событие 1 из {rack_one}")
    # Play becomes Pause in the same room: no button of the bar moves (the bar wrapped anew
    # at each press, Pause being the shorter word).
    boxes = (
        "[...document.querySelectorAll('.replay-panel > .row > *')]"
        ".map(e => e.getBoundingClientRect().toJSON())"
    )
    paused = phone.page.evaluate(boxes)
    assert phone.page.inner_text("#r-play") == "▶ Воспроизвести"
    phone.page.click("#r-play")
    assert phone.page.inner_text("#r-play") == "❚❚ Пауза"
    assert phone.page.evaluate(boxes) == paused
    phone.page.click("#r-play")
    assert phone.page.get_attribute("#r-play", "aria-pressed") == "false"
    save(phone, "replay-rack-phone-ru.png")
    # On the narrowest phone the bar is two rows, not three: the steps are their arrows
    # alone, each still named in words for a screen reader.
    phone.page.set_viewport_size({"width": 360, "height": 740})
    phone.page.wait_for_function("innerWidth === 360")
    # (rows told apart by their buttons' bottoms: the row aligns them at its foot)
    rows = phone.page.evaluate(
        "[...document.querySelectorAll('.replay-panel > .row > :not([hidden])')]"
        ".map(e => Math.round(e.getBoundingClientRect().bottom))"
    )
    assert len(set(rows)) == 2, rows
    assert phone.page.get_attribute("#r-next", "aria-label") == "Следующее событие"
    # Every button of the bar a finger's size (Play and the lobby's link were 35 px).
    heights = phone.page.evaluate(
        "[...document.querySelectorAll('.replay-panel > .row > :not([hidden])')]"
        ".map(e => Math.round(e.getBoundingClientRect().height))"
    )
    assert min(heights) >= 44, heights
    save(phone, "replay-rack-phone-360-ru.png")
    assert_quiet(ana, bob, phone, *pages.values())


def test_a_replay_steps_by_its_keys(open_client: OpenClient) -> None:
    """In a replay the arrow keys did nothing: only its buttons stepped. ←/→ step back and
    on, Home/End go to the first and the last, Space plays and pauses; the position
    slider, focused, keeps its own arrows (one step a press, not two)."""
    ana, bob, room = host_and_guest(open_client, first_break="lag")
    play_the_lag((ana, bob))
    for c in (ana, bob):
        c.wait("a.view.lag_choice != null")
    cleo = open_client("Cleo", lang="hr")
    open_replay(cleo, room)
    assert cleo.page.is_visible("#r-keys")

    def at() -> int:
        return int(cleo.page.inner_text("#r-pos").split()[1])

    cleo.page.evaluate("document.activeElement.blur()")
    cleo.page.keyboard.press("Home")
    cleo.page.wait_for_function(
        "document.getElementById('r-pos').textContent.startsWith('Događaj 1 ')"
    )
    cleo.page.keyboard.press("ArrowRight")
    assert at() == 2
    cleo.page.keyboard.press("ArrowRight")
    cleo.page.keyboard.press("ArrowLeft")
    assert at() == 2
    cleo.page.keyboard.press("End")
    assert at() > 2
    cleo.page.keyboard.press("Home")
    cleo.page.keyboard.press("Space")
    assert cleo.page.get_attribute("#r-play", "aria-pressed") == "true"
    cleo.page.keyboard.press("Space")
    assert cleo.page.get_attribute("#r-play", "aria-pressed") == "false"
    before = at()
    cleo.page.focus("#r-scrub")
    cleo.page.keyboard.press("ArrowRight")
    assert at() == before + 1
    assert_quiet(ana, bob, cleo)


def test_the_deciding_game_is_said_in_the_header(open_client: OpenClient) -> None:
    """At 1 : 1 in a race to 2 nothing said that the next game decides the match. The
    header says it ("odlučujuća", "решающая") and, the match over, that it is over."""
    ana, bob, _room = started(
        open_client, host={"lang": "hr"}, guest={"lang": "ru"}, settings={"race_to": 2}
    )
    for loser in (ana, bob):  # one game each
        for c in (ana, bob):
            c.wait(
                "a.view.status === 'playing' && !!a.table && a.table.turn !== null", timeout=30_000
            )
        rack = loser.state("a.table.rack")
        concede(loser, "game")
        loser.wait(f"a.table.rack === {rack + 1}", timeout=30_000)
    ana.page.wait_for_function(
        "document.getElementById('match-line').textContent"
        " === 'Igra se do 2 · partija 3, odlučujuća'"
    )
    assert bob.page.inner_text("#match-line") == "Игра до 2 · партия 3, решающая"
    save(bob, "deciding-game-header-ru.png")
    concede(ana, "match")
    ana.page.wait_for_function(
        "document.getElementById('match-line').textContent === 'Igra se do 2 · meč je završen'"
    )
    assert_quiet(ana, bob)


def test_a_spectator_watches_and_chats_under_the_name_they_typed(
    open_client: OpenClient,
) -> None:
    """A newcomer typed their name in the lobby and pressed "Watch": the table, the chat
    and the match's replay named them by the name made up for them ("Игрок-2583"). Like
    sitting down, watching takes the name typed."""
    ana, bob, room = start_match(open_client)
    dima = open_client("", lang="ru")
    dima.wait("a.welcome && a.welcome.name.startsWith('Игрок-')")
    dima.page.fill("#name", "Стример Дима")
    dima.page.click(f"tr[data-room='{room}'] button[data-join='spectator']")
    dima.wait("a.role === 'spectator' && !!a.view")
    assert dima.state("a.welcome.name") == "Стример Дима"
    assert dima.page.inner_text("#me") == "Вы смотрите под именем Стример Дима"
    dima.page.fill("#chat-input", "Привет!")
    dima.page.press("#chat-input", "Enter")
    ana.page.wait_for_function(
        "window.ninepool.app.chatLines.some((m) => m.name === 'Стример Дима')"
    )
    assert "Стример Дима (watching): Привет!" in ana.page.inner_text("#chat-log")
    assert_quiet(ana, bob, dima)


def test_the_tvs_address_opened_after_a_finished_match_shows_the_tv(
    open_client: OpenClient, server: Server
) -> None:
    """A player whose match is over (their seat at its table still theirs) opens the TV's
    address in the same tab: the TV, not the finished table they came from, which that
    tab's welcome sent them back to."""
    ana, bob, room = started(open_client)
    concede(ana, "match")
    ana.wait("a.view && a.view.status === 'finished'")
    ana.page.goto(f"{server.url}/tv?lang=en")
    ana.page.locator("#tv-banner").wait_for(state="visible")
    ana.page.wait_for_timeout(1000)  # (the seat's welcome has come and gone)
    assert ana.page.url.endswith("#/tv"), ana.page.url
    assert ana.page.is_visible("#tv-banner")
    assert ana.state("a.room") != room
    assert_quiet(ana, bob)

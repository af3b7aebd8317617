"""The server's side of a newcomer's first minute, seen in chromium against the real
server: the past comes with a reload's own snapshot (no replay fetched), the share link
carries the seat invite and a spectator sits down with `sit` (never leaving the room), the
lobby names an unnamed table after its host, the stalemate button waits for the server's
word, a phone held upright shows the whole prompt in every language, a reload while a
shot rolls logs that shot once, when its replay ends, and a result's replay opens in the
player's own tab and leads back to the table."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tests.browser.support import ARTIFACTS, RATE, Client, Server, save
from tests.browser.test_client import (
    assert_quiet,
    click_table,
    foul_softly,
    set_power,
    settle,
    shooter,
)
from tests.browser.test_firstminute import PHONE, OpenClient, started
from tests.browser.test_watching import concede


def _requests_sent(c: Client) -> None:
    """Records the type of every request the page sends from now on (`window.__sent`)."""
    c.page.evaluate(
        "(() => { const conn = window.ninepool.conn; const request = conn.request.bind(conn);"
        " window.__sent = []; conn.request = (m, ...rest) => { window.__sent.push(m.t);"
        " return request(m, ...rest); }; })()"
    )


def test_a_reload_takes_the_log_chat_and_verdict_from_its_snapshot(
    open_client: OpenClient,
) -> None:
    ana, bob, _ = started(open_client)
    foul_softly(shooter((ana, bob)))
    settle(ana, bob)
    ana.page.fill("#chat-input", "hello table")
    ana.page.press("#chat-input", "Enter")
    bob.page.wait_for_function(
        "document.getElementById('chat-log').textContent.includes('hello table')"
    )
    verdict = bob.page.inner_text("#status .verdict")
    assert verdict.startswith(("Foul: ", "Your foul: ")), verdict
    replays: list[str] = []
    bob.page.on("request", lambda r: replays.append(r.url) if "/replay/" in r.url else None)
    bob.page.reload()
    bob.page.wait_for_selector("#conn.conn-online")
    bob.wait("!!a.table")
    bob.page.wait_for_function(
        "document.getElementById('chat-log').textContent.includes('hello table')"
    )
    bob.page.wait_for_function(
        "/Foul: |Your foul: /.test(document.getElementById('log').textContent)"
    )
    assert bob.page.inner_text("#status .verdict") == verdict
    assert replays == [], "the past came with the snapshot: no replay is read"
    # The seat invite came back with the player's own snapshot: the share link has it.
    assert re.fullmatch(r"s[0-9a-f]{20}", bob.state("a.invite") or "")
    assert_quiet(ana, bob)


def test_the_share_link_carries_the_seat_invite_and_a_spectator_sits_without_leaving(
    open_client: OpenClient,
) -> None:
    ana = open_client("Ana")
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player' && !!a.invite")
    invite = ana.state("a.invite")
    link = ana.page.input_value("#invite-link")
    assert link.endswith(f"#/play/{ana.state('a.room')}/{invite}")
    room = ana.state("a.room")
    dan = open_client("Dan")
    _requests_sent(dan)
    dan.page.wait_for_selector(f"tr[data-room='{room}']")
    dan.page.click(f"tr[data-room='{room}'] button:has-text('Watch')")
    dan.wait("a.role === 'spectator' && !!a.view")
    dan.page.click("#seat1 button:has-text('Sit here')")
    dan.wait("a.role === 'player' && a.seat === 1")
    kinds = dan.page.evaluate("window.__sent")
    assert "sit" in kinds and "leave" not in kinds, kinds
    assert dan.state("a.invite") == invite
    save(dan, "sit_here.png")
    assert_quiet(ana, dan)


def test_a_private_tables_invite_says_who_invites(open_client: OpenClient) -> None:
    """A private table is not in the lobby's list: the newcomer's name question still
    names the friend who sent the link (read from the table with the link's code), and
    what is played there — the guest knew nothing of a 20 s clock until it ran."""
    ana = open_client("Ana")
    ana.page.check("#c-private")
    ana.page.select_option("#c-clock", "20")
    ana.page.fill("#c-race", "5")
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player' && !!a.invite && !!a.code")
    link = ana.page.input_value("#invite-link")
    newcomer = open_client("", lang="ru", hash=link[link.index("#") :])
    newcomer.page.locator("#name-dialog").wait_for(state="visible")
    assert newcomer.page.inner_text("#name-dialog-text") == (
        "Ana приглашает вас за свой стол. Соперник и все зрители видят имя, под которым вы играете."
    )
    format_line = newcomer.page.inner_text("#name-dialog-format")
    assert format_line.startswith("Игра до 5 · ") and "20 с на удар" in format_line, format_line
    newcomer.page.click("#name-dialog button[value=sit]")
    newcomer.wait("a.role === 'player' && a.seat === 1")
    assert_quiet(ana, newcomer)


def test_a_private_tables_stream_strip_carries_its_code(
    open_client: OpenClient, open_page: Callable[[str, str], Client]
) -> None:
    """The table's menu offers a private table's players its score strip for streaming,
    with the invite code the strip needs to watch; without the code the table is not there
    for the strip, as for anyone, and the page says so with the private case in it."""
    ana = open_client("Ana", lang="ru")
    ana.page.check("#c-private")
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player' && !!a.code")
    room, code = ana.state("a.room"), ana.state("a.code")
    href = ana.page.get_attribute("#stream-overlay", "href")
    assert href == f"/overlay/{room}?lang=ru&code={code}", href
    strip = open_page("overlay-private", href)
    # (Before the room's snapshot comes, a strip also says "waiting", with no names.)
    strip.page.wait_for_function(
        "window.ninepoolOverlay?.status === 'waiting'"
        " && window.ninepoolOverlay.seats.some((s) => s.name === 'Ana')"
    )
    bare = open_page("overlay-private-bare", f"/overlay/{room}?lang=en")
    bare.page.wait_for_function("window.ninepoolOverlay?.status === 'none'")
    # Pasted as a code in the lobby, the table's address is refused in words that say why
    # it may be so.
    dan = open_client("Dan")
    # Watch pressed before anything is pasted: he is told what to do, the field focused.
    dan.page.click("#join-code-watch")
    dan.page.wait_for_function(
        "document.getElementById('toast').textContent.startsWith('Type or paste the invite code')"
        " && document.activeElement === document.getElementById('join-code')"
    )
    assert dan.state("a.room") is None
    # "Open replay" with no table id likewise (it did nothing and said nothing).
    dan.page.click("#replay-form button[type=submit]")
    dan.page.wait_for_function(
        "document.getElementById('toast').textContent.startsWith(\"Type the table's id\")"
        " && document.activeElement === document.getElementById('replay-id')"
    )
    dan.page.fill("#join-code", ana.page.url)
    assert ana.page.url.endswith(f"#/room/{room}")
    dan.page.click("#join-code-watch")
    dan.page.wait_for_function(
        "document.body.innerText.includes('it is private and needs its invite link')"
    )
    assert_quiet(ana, strip, bare, dan)


def test_a_tables_id_typed_as_its_invite_code_seats_the_friend(open_client: OpenClient) -> None:
    """A public table's invite is a link with no code in it, so a friend told the table's
    id (the last part of its address) types that into the lobby's invite field: he sits
    down. What is neither an invite code nor an open table is refused as a code, in words
    that give the way that works."""
    ana = open_client("Ana")
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player'")
    room = ana.state("a.room")
    assert ana.page.url.endswith(f"#/room/{room}"), ana.page.url
    bob = open_client("Bob", lang="hr")
    join = "#join-code-form button[type=submit]"
    bob.page.fill("#join-code", "ZZ9QX7")
    bob.page.click(join)
    bob.page.wait_for_function(
        "document.getElementById('toast').textContent"
        ".startsWith('Nijedan stol nema taj kôd ni oznaku: zalijepite cijelu pozivnu poveznicu')"
    )
    assert bob.state("a.room") is None
    bob.page.fill("#join-code", f" {room} ")
    bob.page.click(join)
    bob.wait(f"a.room === {room!r} && a.role === 'player' && a.seat === 1")
    ana.wait("a.view.seats.filter(Boolean).length === 2")
    assert_quiet(ana, bob)


def test_the_lobby_names_an_unnamed_table_after_its_host(open_client: OpenClient) -> None:
    cleo = open_client("Cleo")
    cleo.page.click("#create-form button[type=submit]")
    cleo.wait("!!a.view && a.role === 'player'")
    room = cleo.state("a.room")
    for lang, name in (
        ("en", "Cleo's table"),
        ("hr", "Stol igrača Cleo"),
        ("ru", "Стол игрока Cleo"),
    ):
        dan = open_client("Dan", lang=lang)
        row = dan.page.locator(f"tr[data-room='{room}']")
        row.wait_for()
        # The name's line; the room's format is shown beneath it.
        first = row.locator("td").first.inner_text().splitlines()[0]
        assert first == name, (lang, first)
        assert room not in row.inner_text()
        save(dan, f"lobby_names_{lang}.png")
        assert_quiet(dan)
    assert_quiet(cleo)


def test_the_stalemate_button_waits_for_the_server(open_client: OpenClient) -> None:
    ana, bob, _ = started(open_client)
    players = (ana, bob)
    for fouls in range(3):
        assert all(c.state("document.getElementById('stalemate').hidden") for c in players), fouls
        foul_softly(shooter(players))
        settle(ana, bob)
    # The break and two more innings without a ball pocketed: a proposal is open now.
    for c in players:
        c.wait("a.table.stalemate_open === true")
        c.wait("document.getElementById('stalemate').hidden === false")
    assert_quiet(ana, bob)


def test_a_phone_held_upright_shows_the_whole_prompt_in_every_language(
    open_client: OpenClient,
) -> None:
    ana = open_client("Ana", **PHONE)
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player'")
    ana.page.wait_for_selector("#status .prompt")
    clipped = ana.page.evaluate(
        """async () => {
          const out = [];
          const prompt = document.querySelector('#status .prompt');
          const box = document.getElementById('status');
          const height = box.getBoundingClientRect().height;
          const fill = {
            name: 'Aleksandrina Ana', p: '100 %', ball: '9', hit: '8', deg: '45',
            tip: 'a little left spin', why: 'touching another ball',
          };
          for (const lang of ['en', 'hr', 'ru']) {
            const cat = (await import(`./i18n/${lang}.mjs`)).default;
            for (const [key, value] of Object.entries(cat)) {
              if (!key.startsWith('prompt.') || typeof value !== 'string') continue;
              // Placeholders as long as they get (a name of 16 letters).
              prompt.textContent = value.replace(/\\{([a-z]+)\\}/g, (_, k) => fill[k] ?? fill.name);
              if (prompt.scrollHeight > prompt.clientHeight + 1) out.push(`${lang} ${key}`);
              const moved = Math.abs(box.getBoundingClientRect().height - height) > 0.5;
              if (moved) out.push(`${lang} ${key}: the box moved`);
            }
          }
          return out;
        }"""
    )
    assert clipped == [], clipped
    save(ana, "phone_prompt.png")
    assert_quiet(ana)


def test_a_reload_while_a_shot_rolls_logs_that_shot_once_when_its_replay_ends(
    open_client: OpenClient,
) -> None:
    ana, bob, _ = started(open_client)
    breaker = shooter((ana, bob))
    watcher = bob if breaker is ana else ana
    head = breaker.state("a.table.balls[1]")
    click_table(breaker, head[0], head[1])
    set_power(breaker, 100)
    breaker.page.click("#shoot")
    watcher.page.wait_for_function("window.ninepool.animating()")
    # Reloaded at twice real time (the default), so the break still rolls when it is
    # looked at on a busy machine.
    assert f"rate={RATE}" in watcher.page.url, watcher.page.url
    watcher.page.goto(watcher.page.url.replace(f"rate={RATE}", "rate=2"))
    watcher.page.wait_for_selector("#conn.conn-online")
    watcher.wait("!!a.table && !!a.lastShot")
    # The break plays out again on the reloaded page; its line waits for the end.
    assert watcher.page.evaluate("window.ninepool.animating()"), "the reload outlasted the break"
    rolling = watcher.state("a.lastShot.seq")
    assert rolling not in watcher.state("a.logSources.map(s => s.m.seq)"), (
        "the break's verdict was told before it was seen"
    )
    settle(ana, bob)
    seqs = watcher.state("a.logSources.map(s => s.m.seq)")
    assert seqs.count(rolling) == 1 and len(seqs) == len(set(seqs)), seqs
    assert watcher.page.eval_on_selector_all("#log > *", "els => els.length") == len(seqs)
    assert_quiet(ana, bob)


def test_a_results_replay_opens_in_the_same_tab_and_leads_back_to_the_table(
    open_client: OpenClient,
) -> None:
    """A second tab would say hello as the same player and take the seat from this one:
    the result's replay opens here, and its way back is to the table, still seated."""
    ana, bob, room = started(open_client)
    breaker = shooter((ana, bob))
    foul_softly(breaker)
    settle(ana, bob)
    concede(bob, "game")
    ana.page.locator("#result-replay").wait_for(state="visible")
    # The keys land on Continue, not on the first link.
    assert ana.page.evaluate("document.activeElement.id") == "result-close"
    link = ana.page.get_attribute("#result-replay", "href") or ""
    assert re.search(rf"/replay/{room}/1(\?lang=\w+)?$", link), link
    seat = ana.state("a.seat")
    ana.page.click("#result-replay")
    ana.page.locator("#replay-view").wait_for(state="visible")
    assert len(ana.context.pages) == 1, "the replay opened another tab"
    assert ana.page.url.endswith(f"#/replay/{room}/1")
    ana.page.wait_for_function("document.getElementById('r-log').children.length > 0")
    # An unnamed table's replay is named as the lobby names it, never by its room id.
    line = ana.page.inner_text("#r-line")
    assert "Ana's table" in line and room not in line, line
    assert ana.page.is_visible("#conn.conn-online")
    ana.page.click("#r-back")
    ana.page.locator("#table-view").wait_for(state="visible")
    assert ana.state("a.room") == room and ana.state("a.seat") == seat
    assert ana.page.is_visible("#conn.conn-online")
    assert_quiet(ana, bob)


def a_games_replay_in_its_own_tab(
    open_client: OpenClient, host: dict[str, Any] | None = None
) -> tuple[Client, Client, str, Any, Any]:
    """A game conceded after a foul; Ana opens its replay from the log, in a tab of its
    own: (Ana, Bob, the room, the log's link, the replay's tab)."""
    ana, bob, room = started(open_client, host=host)
    foul_softly(shooter((ana, bob)))
    settle(ana, bob)
    concede(bob, "game")
    ana.page.locator("#result-dialog").wait_for(state="visible")
    ana.page.click("#result-close")
    link = ana.page.locator(f"#log a.log-replay[href='#/replay/{room}/1']").first
    with ana.context.expect_page() as opened:
        link.click()
    tab = opened.value
    tab.locator("#replay-view").wait_for(state="visible")
    return ana, bob, room, link, tab


def test_a_logs_replay_in_a_tab_of_its_own_leaves_the_seat_in_this_one(
    open_client: OpenClient,
) -> None:
    """The log's replay links open a tab of their own (the player's clock may be running).
    That tab said hello as the same player and took the seat from the table's tab
    ("Playing in another tab"): it now plays the replay without a connection, and says
    hello only once it goes elsewhere (the lobby) or its player signs in."""
    ana, bob, room, link, tab = a_games_replay_in_its_own_tab(open_client)
    tab.wait_for_function("document.getElementById('r-log').children.length > 0")
    assert tab.is_hidden("#conn")  # nothing said of a connection it has not made
    ana.page.wait_for_timeout(1500)  # (a hello would have taken the seat by now)
    assert ana.page.is_visible("#conn.conn-online") and ana.page.is_hidden("#play-here")
    assert ana.state("a.room") == room and ana.state("a.seat") is not None
    # Signing in from it says hello first (an account is not changed while its player is
    # seated, and only the hello says whether), then opens the dialog.
    tab.click("#account-open")
    tab.wait_for_selector("#conn.conn-online")
    tab.wait_for_selector("#account-dialog[open]")
    tab.close()
    # Another such tab says hello once it goes to the lobby.
    with ana.context.expect_page() as opened:
        link.click()
    tab = opened.value
    tab.locator("#replay-view").wait_for(state="visible")
    assert tab.is_hidden("#conn")
    tab.click("#replay-view a[href='#/']:not(#r-back)")
    tab.wait_for_selector("#conn.conn-online")
    tab.close()
    assert_quiet(ana, bob)


def test_a_link_to_another_table_opened_in_a_fresh_page_is_followed_once_the_seat_may_be_left(
    open_client: OpenClient, server: Server
) -> None:
    """A tournament's bracket links its player to the next match's table. Opened in a fresh
    page while the player still has a seat at a finished friendly table, the link used to
    be overridden by that seat. A running match still sends its player back to it."""
    ana, bob, first = started(open_client)
    cid = open_client("Cid")
    cid.page.click("#create-form button[type=submit]")
    cid.page.wait_for_selector("#table-view:not([hidden])")
    second = cid.state("a.room")

    def fresh_page(hash: str) -> Client:
        ana.page.close()
        page = ana.context.new_page()
        page.on("console", lambda m: ana.console.append(f"{m.type}: {m.text}"))
        page.goto(f"{server.url}/?rate={RATE}&lang=en{hash}")
        ana.page = page
        return ana

    # The match runs: the link is not followed, and the page says why.
    fresh_page(f"#/play/{second}")
    ana.page.locator("#toast").wait_for(state="visible")
    assert "You are playing a match" in ana.page.inner_text("#toast")
    ana.wait(f"a.room === {first!r} && a.role === 'player' && !!a.view")
    ana.page.wait_for_function(f"location.hash === '#/room/{first}'")
    # Over: the same link takes the player to the other table and its seat.
    concede(bob, "match")
    ana.page.locator("#result-dialog").wait_for(state="visible")
    fresh_page(f"#/play/{second}")
    ana.wait(f"a.room === {second!r} && a.role === 'player' && !!a.view")
    ana.page.wait_for_function(f"location.hash === '#/room/{second}'")
    cid.wait("a.view.seats.filter(Boolean).length === 2")
    assert_quiet(ana, cid)


def test_a_finished_matchs_result_does_not_follow_its_player_to_the_lobby(
    open_client: OpenClient,
) -> None:
    ana, bob, _ = started(open_client)
    concede(bob, "match")
    ana.page.locator("#result-dialog").wait_for(state="visible")
    ana.page.evaluate("location.hash = '#/'")
    ana.page.wait_for_selector("#lobby:not([hidden])")
    ana.page.locator("#result-dialog").wait_for(state="hidden")
    assert_quiet(ana, bob)


def test_a_logs_replay_in_a_tab_of_its_own_leads_back_by_closing_itself(
    open_client: OpenClient,
) -> None:
    """A replay the log opened in a tab of its own had no way back to the table: its
    "Lobby" would take the seat from the table's tab. Its "Back to the table" closes the
    tab, which shows the table's tab again, still seated. A replay opened by its address
    has no table to go back to, and offers none."""
    ana, bob, room, _link, tab = a_games_replay_in_its_own_tab(open_client, {"lang": "ru"})
    back = tab.locator("#r-back")
    back.wait_for(state="visible")
    assert back.inner_text() == "Вернуться к столу"
    tab.screenshot(path=str(ARTIFACTS / "replay-own-tab-back-ru.png"))
    with tab.expect_event("close", timeout=5_000):
        back.click()
    assert ana.page.is_visible("#conn.conn-online") and ana.page.is_hidden("#play-here")
    assert ana.state("a.room") == room and ana.state("a.seat") is not None
    eve = open_client("Eve", hash=f"#/replay/{room}/1")
    eve.page.locator("#replay-view").wait_for(state="visible")
    eve.page.wait_for_function("document.getElementById('r-log').children.length > 0")
    assert eve.page.is_hidden("#r-back")
    assert_quiet(ana, bob, eve)


def test_alone_at_a_new_table_the_card_offers_the_invite_and_nothing_to_hold(
    open_client: OpenClient,
) -> None:
    """Alone at a table just opened, the card under the invite had one button, "Hold the
    start" (sitting down is being ready), and a newcomer pressed it: the friend who came
    then sat at a table that did not start. Alone, nothing is held, and the friend who
    comes starts the match."""
    ana = open_client("Ana", lang="ru")
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player' && !!a.view.seats[a.seat]?.ready")
    ana.page.locator("#invite").wait_for(state="visible")
    assert ana.page.is_hidden("#ready")
    save(ana, "alone-at-a-new-table-ru.png")
    bob = open_client("Bob", hash=f"#/room/{ana.state('a.room')}")
    for c in (ana, bob):
        c.wait("a.view.status !== 'waiting'")
    assert_quiet(ana, bob)

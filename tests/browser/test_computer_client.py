"""Chromium plays the computer: "Play the computer" in the lobby with a level, the bot's
seat labelled as a computer, the lag and a whole rack played through the page against
the bot (level 1)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.browser.support import Client, save
from tests.browser.test_client import assert_quiet, set_power, shoot_at_lowest
from tests.browser.test_rated_browser import sign_up

OpenClient = Callable[..., Client]

#: The person's shots before the rack must be over (the bot pots too).
MAX_TURNS = 60


@pytest.fixture(scope="module")
def server_flags() -> list[str]:
    """The computer plays as soon as it has decided (`--bot-pause 0`): at the shared 0.3 it
    would also wait out each of its shots at real time on the server's clock, while the
    page plays them several times faster — most of a rack's minutes, spent waiting. The
    page queues what arrives while it animates, as it does for any fast opponent."""
    return ["--bot-pause", "0", "--quick-computer-after", "1"]


def test_a_quick_match_nobody_takes_offers_the_computer_once(open_client: OpenClient) -> None:
    """Waiting alone for a quick match: the computer is offered in place of the lobby's own
    computer row (one "Play the computer", not two), and taking it starts the match."""
    zoe = open_client("Zoe", width=390, height=844, touch=True)
    zoe.page.tap("#quick")
    zoe.page.locator("#computer-offer").wait_for(state="visible")
    assert "No opponent yet" in zoe.page.inner_text("#computer-offer-text")
    assert zoe.page.is_hidden("#computer-row")
    assert zoe.page.locator("button:visible", has_text="Play the computer").count() == 1
    save(zoe, "quick-offer-phone.png")
    zoe.page.tap("#computer-offer-take")
    zoe.page.wait_for_selector("#table-view:not([hidden])")
    zoe.wait("a.view && a.view.seats[1] && a.view.seats[1].computer === 2")
    # The wait is over: nothing is offered any more (the lobby's row is back for later).
    zoe.wait("!a.quickWaiting && a.computerOffer === null")
    assert zoe.page.get_attribute("#computer-row", "hidden") is None
    assert_quiet(zoe)


def said_once(c: Client, when: str, words: str) -> bool:
    """Whether `words` stand in the status box under a verdict, the table still, while
    `when` holds; if they do, they stand there once (asserted)."""
    seen = c.state(
        f"({{ still: !a.anim && !!a.lastVerdict && {when},"
        " text: document.getElementById('status').innerText.toLowerCase() })"
    )
    if not (seen["still"] and words in seen["text"]):
        return False
    assert seen["text"].count(words) == 1, seen["text"]
    return True


def test_a_rack_against_the_computer(open_client: OpenClient) -> None:
    ana = open_client("Ana")
    assert ana.page.inner_text("#computer") == "Play the computer"
    ana.page.select_option("#computer-level", "1")
    ana.page.click("#computer")
    ana.page.wait_for_selector("#table-view:not([hidden])")
    ana.wait("a.view && a.view.seats[1] && a.view.seats[1].computer === 1")
    assert "computer · level 1" in ana.page.inner_text("#seat1")
    assert "computer" not in ana.page.inner_text("#seat0")

    # The lag: the bot plays its stroke by itself; Ana plays hers from the page.
    ana.wait("a.view.status === 'lag'")
    ana.page.wait_for_selector("#lag-controls:not([hidden])")
    ana.page.click("#lag-shoot")
    ana.wait("a.view.status === 'playing' || a.view.lag_choice === 0", timeout=90_000)
    if ana.state("a.view.status") != "playing":
        ana.page.locator("#lag-dialog").wait_for(state="visible")
        ana.page.click("#lag-break")
    ana.wait("a.view.status === 'playing' && !!a.table")

    # The rack: Ana shoots at the lowest ball on her turns, the bot plays its own.
    named = told = 0
    for _ in range(MAX_TURNS):
        ana.wait(
            "(a.table.rack > 1 || a.table.match_over) || "
            "(a.table.turn === a.seat && !a.shotPending)",
            timeout=120_000,
        )
        ana.idle()
        if ana.state("a.table.rack > 1 || a.table.match_over"):
            break
        if ana.state("a.table.turn !== a.seat"):
            # The verdict says the computer is to shoot; the line under it does not say it
            # again ("— Bot 1 to shoot" then "Bot 1 to shoot — must hit…").
            named += said_once(ana, "a.table.turn !== a.seat", "bot 1")
            continue
        # Her own turn under a verdict ending "— your shot": the line under it does not
        # say it again ("Your shot — hit the 2 first.").
        told += said_once(ana, "a.lastVerdict.next === a.seat", "your shot")
        if ana.state("a.table.choice_pending"):
            ana.page.locator("#choice-dialog").wait_for(state="visible")
            ana.page.click("#choose-shoot")
            ana.wait("!a.table.choice_pending")
            continue
        # Nor once she moves the power (the line said anew from the power's control did).
        set_power(ana, 35)
        told += said_once(ana, "a.lastVerdict.next === a.seat", "your shot")
        shoot_at_lowest(ana, 35)
        ana.wait("!a.shotPending")
    else:
        raise AssertionError("the rack did not end")
    ana.wait("a.table.score[0] + a.table.score[1] === 1")
    assert named > 0  # (the computer's turn was seen at least once before its shot)
    print("her turns under a verdict naming her:", told)
    save(ana, "computer-rack.png")
    assert_quiet(ana)


def test_a_rated_wait_nobody_takes_can_meet_a_guest_waiting_for_an_unrated_game(
    open_client: OpenClient,
) -> None:
    """An account holder waits for a rated quick match (the box ticked, as it starts for
    them), a guest for an unrated one: each is offered the computer, and the rated one
    the unrated queue too, where the guest is — the two meet instead of each playing the
    computer alone."""
    ana = open_client("Ana")
    sign_up(ana, "Ana Rated")
    assert ana.page.is_checked("#quick-rated")
    ana.page.click("#quick")
    ana.wait("a.quickWaiting && a.quickRated")
    # The box says what the search is while it lasts (a change would not change it).
    assert ana.page.is_disabled("#quick-rated")
    bob = open_client("Bob", lang="ru")
    bob.page.click("#quick")
    for c in (ana, bob):
        c.page.locator("#computer-offer").wait_for(state="visible")
    assert "No rated opponent yet" in ana.page.inner_text("#computer-offer-text")
    assert bob.page.is_hidden("#computer-offer-unrated")  # a guest's wait is unrated
    assert "рейтинг" not in bob.page.inner_text("#computer-offer-text")
    save(ana, "quick-offer-rated.png")
    ana.page.click("#computer-offer-unrated")
    for c in (ana, bob):
        c.page.wait_for_selector("#table-view:not([hidden])")
        c.wait("!!a.view && a.view.settings.rated === false && !a.view.seats.some(s => !s)")
        c.wait("!a.quickWaiting && a.computerOffer === null")
    assert ana.state("a.room") == bob.state("a.room")
    names = sorted(ana.state("a.view.seats.map(s => s.name)"))
    assert names == ["Ana Rated", "Bob"]
    assert_quiet(ana, bob)


def test_an_upright_phone_puts_the_computers_tag_on_two_lines(open_client: OpenClient) -> None:
    """The tag "компьютер · уровень 4" wrapped after its dot on a 360 px phone; upright, it
    says what it is on one line and its level on the next, centred, within its seat."""
    zoya = open_client("Александра", lang="ru", width=360, height=740, touch=True)
    zoya.page.select_option("#computer-level", "4")
    zoya.page.tap("#computer")
    zoya.page.wait_for_selector("#table-view:not([hidden])")
    tag = zoya.page.locator("#seat1 .tag.computer")
    tag.wait_for()
    parts = tag.locator("span:not(.sep)")
    assert parts.all_inner_texts() == ["компьютер", "уровень 4"]
    assert tag.locator(".sep").is_hidden()
    # Measured at one instant, once laid out (the seat's tag is drawn again as the table
    # fills in, and a part measured apart could be gone by then).
    first, second, box, seat = zoya.page.wait_for_function(
        "() => { const tag = document.querySelector('#seat1 .tag.computer');"
        " const parts = tag ? [...tag.querySelectorAll('span:not(.sep)')] : [];"
        " const all = [...parts, tag, document.getElementById('seat1')];"
        " if (parts.length !== 2 || all.some((e) => !e || !e.getClientRects().length)) return null;"
        " return all.map((e) => { const r = e.getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; }); }"
    ).json_value()
    assert second["y"] >= first["y"] + first["height"] - 1  # the level on a line of its own
    assert abs((first["x"] + first["width"] / 2) - (second["x"] + second["width"] / 2)) < 2
    assert box["x"] >= seat["x"] and box["x"] + box["width"] <= seat["x"] + seat["width"]
    save(zoya, "computer-tag-ru-phone.png")
    assert_quiet(zoya)


def test_the_computer_level_chosen_is_offered_next_time(open_client: OpenClient) -> None:
    """Back in the lobby the level went back to "2 — casual" every time: a beginner who
    had picked 1 found herself against the casual computer on her next game."""
    ana = open_client("Ana", lang="hr")
    assert ana.page.input_value("#computer-level") == "2"
    ana.page.select_option("#computer-level", "1")
    ana.page.reload()
    ana.page.wait_for_selector("#conn.conn-online")
    assert ana.page.input_value("#computer-level") == "1"
    assert_quiet(ana)

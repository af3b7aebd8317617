"""Match formats in the browser: the create dialog's presets, the format shown in the
lobby and at the table, the shot clock's extension button and counts, and the aim aid —
what the room allows is all any page draws while a player aims, for the shooter and for
the opponent watching the aim alike."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.browser.support import Client, save
from tests.browser.test_client import assert_quiet, click_table, shooter, winner_chooses

OpenClient = Callable[..., Client]


def aim_parts(c: Client) -> list[str]:
    overlay = c.page.evaluate("window.ninepool.overlay()")
    return list(overlay["aimParts"]) if overlay else []


@pytest.mark.parametrize(
    ("preset", "aid", "drawn", "words"),
    [
        ("casual", None, ["line", "ghost", "departures"], "Casual"),
        ("custom", "ghost", ["ghost"], "ghost ball only"),
        ("pro", None, [], "Pro"),
    ],
)
def test_the_aim_aid_and_the_format_at_the_table(
    open_client: OpenClient, preset: str, aid: str | None, drawn: list[str], words: str
) -> None:
    ana = open_client("Ana")
    bob = open_client("Bob")
    ana.page.select_option("#c-first", "draw")
    ana.page.select_option("#c-preset", preset)
    if aid is not None:
        ana.page.select_option("#c-aid", aid)
    assert ana.page.input_value("#c-preset") == preset
    assert words in ana.page.inner_text("#c-preset-help")
    ana.page.click("#create-form button[type=submit]")
    ana.page.wait_for_selector("#table-view:not([hidden])")
    ana.wait("!!a.view")  # (the table's page may show a moment before its snapshot is in)
    room = ana.state("a.room")
    settings = ana.state("a.view.settings")
    expected_aid = aid or {"casual": "full", "pro": "none"}[preset]
    assert settings["aim_aid"] == expected_aid
    if preset == "pro":
        assert (settings["shot_clock"], settings["first_shot_clock"]) == (30, 60)
        assert (settings["extensions"], settings["extension_seconds"]) == (1, 30)

    # The lobby shows the format with the score and the race.
    row = bob.page.locator(f"tr[data-room='{room}']")
    row.wait_for()
    assert words in row.locator("small.format").inner_text()
    row.locator("button.primary").click()
    bob.page.wait_for_selector("#table-view:not([hidden])")
    winner_chooses((ana, bob), "#lag-break")
    for c in (ana, bob):
        c.wait("a.view && a.view.status === 'playing' && !!a.table")
        c.idle()
        assert words in c.page.inner_text("#format-line")

    players = (ana, bob)
    aimer = shooter(players)
    other = bob if aimer is ana else ana
    table = aimer.state("a.table")
    low = table["balls"][table["lowest"]]
    click_table(aimer, low[0], low[1])
    wanted = json.dumps(json.dumps(drawn, separators=(",", ":")))
    drawn_now = f"JSON.stringify(window.ninepool.overlay().aimParts) === {wanted}"
    aimer.page.wait_for_function(drawn_now)
    # The opponent sees the live aim with the same aid, and no more.
    other.wait("!!a.remoteAim")
    other.page.wait_for_function(drawn_now)
    assert aim_parts(aimer) == drawn and aim_parts(other) == drawn
    save(aimer, f"aim-aid-{expected_aid}.png")

    if preset == "pro":
        # The shot clock, the extension button with its seconds and count, both seats' counts.
        assert aimer.page.is_visible("#clock") and other.page.is_visible("#clock")
        aimer.page.locator("#more summary, #more > summary").first.click()
        button = aimer.page.locator("#extend")
        button.wait_for(state="visible")
        assert "+30 s (1 left)" in button.inner_text()
        assert other.page.locator(".tag.ext[data-extensions='1']").count() == 2
        button.click()
        aimer.wait(f"a.table.clock.extensions[{aimer.state('a.seat')}] === 0")
        other.page.wait_for_selector(".tag.ext[data-extensions='0']")
        assert "no extensions left" in other.page.inner_text(".tag.ext[data-extensions='0']")
        assert aimer.page.is_hidden("#extend")
    assert_quiet(ana, bob)


@pytest.mark.parametrize(
    ("lang", "words", "refusal"),
    [
        (
            "en",
            "Pro · winner breaks · 30 s a shot, 60 s after the break or a push-out",
            "less time",
        ),
        ("hr", "Profesionalno · otvara pobjednik · 30 s za udarac, 60 s nakon otvaranja", "manje"),
        (
            "ru",
            "Профессиональный · разбивает победитель · 30 с на удар, 60 с после разбития",
            "меньше",
        ),
    ],
)
def test_the_presets_in_every_language(
    open_client: OpenClient, lang: str, words: str, refusal: str
) -> None:
    page = open_client("Ana", lang=lang)
    page.page.select_option("#c-preset", "pro")
    assert words in page.page.inner_text("#c-preset-help")
    # Who breaks next changes the words at once, the format staying what it was.
    before = page.page.inner_text("#c-preset-help")
    page.page.select_option("#c-break", "alternate")
    assert page.page.inner_text("#c-preset-help") != before
    assert page.page.input_value("#c-preset") == "pro"
    page.page.select_option("#c-break", "winner")
    assert page.page.inner_text("#c-preset-help") == before
    assert page.page.input_value("#c-clock") == "30" and page.page.input_value("#c-aid") == "none"
    # A value changed by hand makes the format custom.
    page.page.select_option("#c-aid", "ghost")
    assert page.page.input_value("#c-preset") == "custom"
    page.page.select_option("#c-preset", "casual")
    assert page.page.input_value("#c-clock") == "" and page.page.input_value("#c-aid") == "full"
    # A first shot shorter than any shot is refused before it is sent, in words.
    page.page.select_option("#c-clock", "60")
    page.page.click("#create-form details.advanced summary")
    page.page.select_option("#c-first-clock", "45")
    page.page.click("#create-form button[type=submit]")
    page.page.locator("#toast").wait_for(state="visible")
    assert refusal in page.page.inner_text("#toast")
    assert page.state("a.room") is None
    assert_quiet(page)

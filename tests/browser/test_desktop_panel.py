"""The side panel on a laptop's screen: the log of what happened takes the room the panel
has left, down to the chat, instead of a fixed strip over an empty quarter of it; and the
chat's box stays in sight under the controls (a player who scrolled the page to it lost the
table and the shot clock)."""

from __future__ import annotations

from tests.browser.support import save
from tests.browser.test_client import assert_quiet, foul_softly, settle, shooter
from tests.browser.test_firstminute import OpenClient, started
from tests.browser.test_screens_and_dialogs import LAPTOP


def test_the_log_fills_the_side_panel_down_to_the_chat(open_client: OpenClient) -> None:
    ana, bob, room = started(open_client, host=LAPTOP, guest={**LAPTOP, "lang": "hr"})
    cleo = open_client("Cleo", **LAPTOP, hash=f"#/room/{room}")  # watching
    cleo.wait("a.role === 'spectator' && !!a.view")
    for _ in range(3):
        foul_softly(shooter((ana, bob)))
        settle(ana, bob, cleo)
    # The players' controls come first; the log below them gives way (down to 100 px) so
    # that the chat's box and its messages are in sight, and the page does not scroll.
    for text in ("Sretno!", "Hvala, i tebi", "Idemo"):
        bob.page.fill("#chat-input", text)
        bob.page.press("#chat-input", "Enter")
    # (a laptop's, a 1280 × 800 window in Russian, whose words take more lines, and a
    # 1280 × 720 one in Croatian)
    sizes = ((LAPTOP, None), ({"width": 1280, "height": 800}, "ru"))
    for size, lang in (*sizes, ({"width": 1280, "height": 720}, "hr")):
        for c in (ana, bob, cleo):
            c.page.set_viewport_size(size)
            if lang:
                c.page.select_option("#lang", lang)
            c.page.wait_for_function("document.querySelectorAll('#log li').length >= 3")
            c.page.wait_for_function("document.querySelectorAll('#chat-log li').length >= 3")
            # (the box keeps its newest line in sight as it resizes, a frame or two after the
            # window and the words changed)
            c.page.wait_for_function(
                "() => { const box = document.getElementById('chat-log').getBoundingClientRect();"
                " const last = document.querySelector('#chat-log li:last-child')"
                "?.getBoundingClientRect();"
                " return !!last && last.bottom <= box.bottom + 1 && last.top >= box.top - 1; }"
            )
            # In the chat's box: its newest line, as the box shrank under a turn's controls
            # (it was left below).
            box = c.page.locator("#chat-log").bounding_box()
            lines = [li.bounding_box() for li in c.page.locator("#chat-log li").all()]
            assert box is not None and all(line is not None for line in lines)
            seen = [
                ln
                for ln in lines
                if ln and box["y"] - 1 <= ln["y"] <= box["y"] + box["height"] - ln["height"] + 1
            ]
            # The three newest lines, a conversation and not its last word alone (one line
            # was left at 1280 × 720, the message above it cut off).
            assert all(line in seen for line in lines[-3:]), (c.name, size, box, lines)
            log = c.page.locator("#log").bounding_box()
            assert log is not None and log["height"] >= 91, (c.name, size, log)
            for part in ("#chat-input", "#chat-log li"):
                place = c.page.locator(part).last.bounding_box()
                assert place is not None and place["y"] + place["height"] <= size["height"], part
            assert c.page.evaluate("document.scrollingElement.scrollHeight <= innerHeight")
        save(ana, f"laptop-panel-chat-in-sight-{size['width']}.png")
    # Watching (no controls): the log reaches down to the chat, with nothing but the
    # panel's padding below it.
    panel = cleo.page.locator("#panel").bounding_box()
    chat = cleo.page.locator("#chat-form").bounding_box()
    log = cleo.page.locator("#log").bounding_box()
    assert panel is not None and chat is not None and log is not None
    gap = panel["y"] + panel["height"] - (chat["y"] + chat["height"])
    assert 0 <= gap <= 24, (gap, panel, chat)
    assert log["height"] > 350, log
    save(cleo, "laptop-panel-log-watching.png")
    assert_quiet(ana, bob, cleo)


#: A laptop's window made short (a browser's bars, a docked window): 600 px high.
SHORT = {**LAPTOP, "height": 600}


def test_a_chat_message_out_of_sight_is_shown_over_the_table(open_client: OpenClient) -> None:
    """In a short window the chat sits below the fold of the side panel while a player has
    the controls: a message from the opponent is shown over the table for a moment instead
    of arriving unseen; with the chat in sight, or for the sender, it is not."""
    ana, bob, _ = started(open_client, host=SHORT, guest={**SHORT, "lang": "ru"})
    shown = (
        "(() => { const t = document.getElementById('chat-pop'); "
        "return t.hidden ? '' : t.textContent; })()"
    )
    assert bob.page.evaluate(
        "document.getElementById('chat-input').getBoundingClientRect().top > innerHeight"
    ), "the chat is in sight already: no test"
    ana.page.fill("#chat-input", "Lijep udarac!")
    ana.page.press("#chat-input", "Enter")
    bob.page.wait_for_function(f"{shown} === 'Ana: Lijep udarac!'")
    assert ana.page.evaluate(shown) == ""
    # Not the error toast: that stays for errors (and is read out as an alert).
    assert bob.page.evaluate("document.getElementById('toast').hidden")
    # The chat scrolled into sight: the next message is read where it lands.
    bob.page.locator("#chat-log").scroll_into_view_if_needed()
    bob.page.evaluate("document.getElementById('chat-pop').hidden = true")
    ana.page.fill("#chat-input", "Još jednom")
    ana.page.press("#chat-input", "Enter")
    bob.page.wait_for_function(
        "document.getElementById('chat-log').textContent.includes('Još jednom')"
    )
    assert bob.page.evaluate(shown) == ""
    assert_quiet(ana, bob)


def test_a_long_chat_message_gives_way_and_never_scrolls_the_controls_away(
    open_client: OpenClient,
) -> None:
    """A 1280 × 800 window in Russian, whose help under Shoot takes five lines: a chat
    message of four lines made the panel 27 px too tall, and sending it scrolled the panel
    for good, the top of the spin control under the scoreboard. The chat's messages give
    way (down to their last line) and the panel does not scroll."""
    ru = {"width": 1280, "height": 800, "lang": "ru"}
    ana, bob, _room = started(open_client, host=ru, guest=ru)
    c = shooter((ana, bob))
    other = bob if c is ana else ana
    long = "Привет! " + "Это длинное сообщение, чтобы увидеть перенос. " * 4
    other.page.fill("#chat-input", long)
    other.page.press("#chat-input", "Enter")
    c.page.wait_for_function("document.querySelectorAll('#chat-log li').length >= 1")
    c.page.fill("#chat-input", "Удачи!")
    c.page.press("#chat-input", "Enter")
    c.page.wait_for_function("document.querySelectorAll('#chat-log li').length >= 2")
    c.page.evaluate("new Promise((r) => requestAnimationFrame(() => r(null)))")
    panel = c.page.evaluate(
        "(() => { const p = document.getElementById('panel');"
        " return [p.scrollTop, p.scrollHeight, p.clientHeight]; })()"
    )
    assert panel[0] == 0 and panel[1] <= panel[2] + 1, panel
    spin = c.page.locator("#spin").bounding_box()
    board = c.page.locator("#table-view .scoreboard").bounding_box()
    assert spin and board and spin["y"] >= board["y"] + board["height"], (spin, board)
    place = c.page.locator("#chat-input").bounding_box()
    assert place is not None and place["y"] + place["height"] <= 800
    save(c, "laptop-panel-long-chat-ru.png")
    assert_quiet(ana, bob)


def test_the_break_names_the_handle_and_is_read_whole_on_a_small_laptop(
    open_client: OpenClient,
) -> None:
    """The breaker's prompt names the blue handle that moves the cue ball behind the line
    (a newcomer dragged the ball itself, which pulls the cue back, and never found it), and
    on a 1024 × 768 window it is read whole in each language: the status box, of fixed
    height, cut off the Russian prompt's last line."""
    small = {"width": 1024, "height": 768}
    for lang, handle, breaks in (
        ("en", "blue handle", "{} to break."),
        ("hr", "plava ručica", "Otvara {}."),
        ("ru", "синяя ручка двигает биток", "Разбивает {}."),
    ):
        ana, bob, _ = started(
            open_client, host={**small, "lang": lang}, guest={**small, "lang": lang}
        )
        c = shooter((ana, bob))
        c.wait("a.table.ball_in_hand === 'kitchen'")
        said = c.page.inner_text("#status .prompt")
        assert handle in said, said
        box = c.page.evaluate(
            "(() => { const s = document.getElementById('status');"
            " return [s.scrollHeight, s.clientHeight]; })()"
        )
        assert box[0] <= box[1], (lang, box)
        # The other player is told who breaks (they read "to shoot with ball in hand", a
        # foul's words), unless the breaker's live aim is what they are shown.
        other = bob if c is ana else ana
        other.wait("!a.othersAimDrawn")
        assert other.page.inner_text("#status .prompt") == breaks.format(c.name)
        save(c, f"break-prompt-1024-{lang}.png")
        assert_quiet(ana, bob)

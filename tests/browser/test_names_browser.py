"""Names in real Chromium: a guest who signs up in the middle of a match is named anew on
every screen at once — the opponent's, a spectator's, the lobby's list, the log, the
match's result and its replay."""

from __future__ import annotations

from tests.browser.support import Server, save
from tests.browser.test_client import (
    OpenClient,
    assert_quiet,
    shooter,
    start_match,
)
from tests.browser.test_firstminute import PHONE, Touch
from tests.browser.test_rated_browser import sign_up
from tests.browser.test_tournament_page import session_token
from tests.browser.test_watching import concede


def test_a_guest_who_signs_up_mid_match_is_named_anew_on_every_screen(
    open_client: OpenClient,
) -> None:
    ana, bob, room = start_match(open_client)
    cleo = open_client("Cleo")
    lou = open_client("Lou")
    cleo.page.click(f"tr[data-room='{room}'] button:has-text('Watch')")
    cleo.wait("!!a.table")
    # The draw's winner (breaking) is the guest who signs up: the log has named them.
    guest = shooter((ana, bob))
    opponent = bob if guest is ana else ana
    seat = guest.state("a.seat")
    for c in (opponent, cleo):
        c.page.wait_for_function(
            f"document.getElementById('log').textContent.includes('{guest.name} wins the draw')"
        )

    sign_up(guest, "Marta")
    for c in (guest, opponent, cleo):
        c.page.wait_for_function(
            f"document.getElementById('seat{seat}').textContent.includes('Marta')", timeout=10_000
        )
    lou.page.wait_for_function(
        f"document.querySelector(\"tr[data-room='{room}']\").textContent.includes('Marta')",
        timeout=10_000,
    )
    for c in (opponent, cleo):
        # The log says so once; its lines before keep the name they were written with.
        c.page.wait_for_function(
            f"document.getElementById('log').textContent.includes('{guest.name} plays on as Marta')"
        )
        lines = c.page.locator("#log li").all_inner_texts()
        assert f"{guest.name} plays on as Marta" in lines, lines
        assert any(line.startswith(f"{guest.name} wins the draw") for line in lines), lines
        assert not any(line.startswith("Marta wins the draw") for line in lines), lines
    save(opponent, "renamed-opponent.png")
    # Still a guest's unrated match: nothing rated appears on it.
    assert not opponent.state("a.view.settings.rated")

    # The result names her, and so does the match's replay.
    concede(guest, "match")
    cleo.page.locator("#result-dialog").wait_for(state="visible")
    assert "Marta" in cleo.page.inner_text("#result-score")
    assert "Marta concedes" in cleo.page.inner_text("#result-text")
    cleo.page.click("#result-replay-match")
    cleo.page.locator("#r-last").wait_for(state="visible")
    cleo.page.click("#r-last")
    cleo.page.wait_for_function(
        f"document.getElementById('r-seat{seat}').textContent.includes('Marta')"
    )
    replayed = cleo.page.inner_text("#r-log")
    assert f"{guest.name} plays on as Marta" in replayed
    # The page said hello anew before it let the old connection go: she never left.
    assert "lost the connection" not in replayed and "is back" not in replayed, replayed
    assert_quiet(ana, bob, cleo, lou)


def test_one_rule_for_a_new_name_token_or_not(open_client: OpenClient, server: Server) -> None:
    """A guest and an account choose a name by one rule, 3 to 20 characters, which the
    page says in each language. A guest's name from before the rule (22 characters, kept
    by the browser), with the guest's session token or without, is held to it by the
    server: the page says why and plays on under a name made up for it."""
    old = "Grandmaster of the cue"  # 22 characters: a guest's name before the rule
    kept = "Grandmaster"
    rules = {
        "en": ("3 to 20 characters", "A name is 3 to 20", "A name is 3 to 20"),
        "hr": ("Od 3 do 20 znakova", "Ime ima od 3 do 20", "Ime ima od 3 do 20"),
        "ru": ("От 3 до 20 символов", "Имя — от 3 до 20", "Имя — от 3 до 20"),
    }
    for lang, (help_text, refusal, account_refusal) in rules.items():
        c = open_client(kept, lang=lang, token=session_token(server, "Returning"))
        c.wait(f"a.welcome && a.welcome.name === {kept!r}")
        assert c.page.input_value("#name") == kept and c.page.inner_text("#me") == kept
        assert help_text in c.page.inner_text("#name-help")
        # Too short for a new name: refused, the name stays.
        c.page.fill("#name", "Al")
        c.page.keyboard.press("Tab")
        c.page.wait_for_selector("#toast:not([hidden])")
        assert c.page.inner_text("#toast").startswith(refusal)
        # The lobby's help says the rule the refusal says (it once left out "only between
        # them", and the account's rule "one alphabet").
        said = c.page.inner_text("#name-help").split(": ", 1)[1]
        assert c.page.inner_text("#toast").endswith(said), said
        assert c.page.inner_text("#me") == kept
        # Too long: typing (or pasting) stops at the rule's end.
        c.page.fill("#name", "")
        c.page.type("#name", "Master of the cue ball")
        assert c.page.input_value("#name") == "Master of the cue ba"
        # The account dialog words the same rule, and sends nothing for a name out of it.
        sent: list[str] = []
        c.page.on("request", lambda r, sent=sent: sent.append(r.url) if "/api/" in r.url else None)
        c.page.click("#account-open")
        c.page.locator("#account-dialog").wait_for(state="visible")
        assert c.page.input_value("#account-name") == "Master of the cue ba"
        c.page.fill("#account-name", "Al")
        c.page.fill("#account-password", "long enough password")
        c.page.click("#account-signup")
        c.page.wait_for_function("document.getElementById('account-error').textContent !== ''")
        assert c.page.inner_text("#account-error").startswith(account_refusal)
        assert c.page.inner_text("#account-rules").startswith(account_refusal)
        assert sent == []
        c.page.click("#account-cancel")
        assert_quiet(c)
    # The name from before, kept by the browser with its token or without: refused, said
    # why, another given (the token says who plays, not under which name).
    for token in (session_token(server, "Returning"), None):
        new = open_client(old, token=token)
        new.wait(f"a.welcome && a.welcome.name !== {old!r}")
        new.page.wait_for_selector("#toast:not([hidden])")
        assert new.page.inner_text("#toast").startswith("That name cannot be chosen")
        assert new.page.inner_text("#me") == new.state("a.welcome.name") != old
        assert new.page.input_value("#name") == new.state("a.welcome.name")


def test_a_refused_name_takes_no_lobby_action(open_client: OpenClient) -> None:
    """A name out of the rule in the lobby's field is refused, and the quick match, the
    computer, a new table are not started under some other name meanwhile (they were,
    the field still showing the refused name, the kept one replaced by a made-up one)."""
    c = open_client("Ante", lang="hr")
    c.wait("a.welcome && a.welcome.name === 'Ante'")
    c.page.fill("#name", "Ab")
    for button in ("#quick", "#computer", "#create-form button[type=submit]"):
        c.page.evaluate("document.getElementById('toast').hidden = true")
        c.page.click(button)
        c.page.wait_for_selector("#toast:not([hidden])")
        assert c.page.inner_text("#toast").startswith("Ime ima"), button
        c.page.wait_for_timeout(300)
        assert c.state("a.room") is None and c.state("a.quickWaiting") is not True, button
    assert c.page.input_value("#name") == "Ab"
    assert c.state("a.welcome.name") == "Ante"
    # Put right, the name is taken and the table made.
    c.page.fill("#name", "Antonija")
    c.page.click("#create-form button[type=submit]")
    c.wait("a.room !== null && a.welcome.name === 'Antonija'")
    assert_quiet(c)


def test_a_reconnect_without_a_welcome_lets_the_old_connection_go(
    open_client: OpenClient,
) -> None:
    """Signing up mid-match says hello on a new connection before the old one goes. When
    the new one is never welcomed (here the network swallows it), the old connection is
    let go within seconds all the same: the room sees the player gone (the opponent's
    table says so, and a clock would pause), not a seat held by a connection nobody reads."""
    ana, bob, _room = start_match(open_client)
    seat = ana.state("a.seat")
    swallowed: list[object] = []
    # Every WebSocket opened from now on reaches nobody: no server, no welcome.
    ana.page.route_web_socket("**/*", lambda ws: swallowed.append(ws))
    ana.page.click("#account-open")
    ana.page.locator("#account-dialog").wait_for(state="visible")
    ana.page.fill("#account-name", "Anabel")
    ana.page.fill("#account-password", "correct horse battery")
    ana.page.click("#account-signup")
    bob.wait(
        f"a.view && a.view.seats[{seat}] && a.view.seats[{seat}].connected === false",
        timeout=20_000,
    )
    assert swallowed, "the page opened a new connection"


def test_a_made_up_name_is_there_to_be_replaced(open_client: OpenClient) -> None:
    """A newcomer's lobby field holds the name made up for them ("Igrač-4489"), in the
    grey of a placeholder: a finger tapped it and typed, and got "Igrač-4489Iv". It reads
    as text, and a tap selects it, so what is typed replaces it."""
    c = open_client("", lang="hr", **PHONE)
    c.wait("a.welcome && a.welcome.name.startsWith('Igrač-')")
    field = c.page.locator("#name")
    made_up = field.input_value()
    assert made_up.startswith("Igrač-"), made_up
    colour = field.evaluate("(e) => getComputedStyle(e).color")
    muted = c.page.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--muted').trim()"
    )
    assert colour != "rgb(154, 167, 162)" and muted == "#9aa7a2", colour
    box = field.bounding_box()
    assert box is not None
    Touch(c).tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    c.page.keyboard.type("Ivana")
    assert field.input_value() == "Ivana"
    field.evaluate("(e) => e.blur()")
    c.page.wait_for_function("document.getElementById('me').textContent === 'Ivana'")
    assert_quiet(c)


def test_the_account_dialog_does_not_offer_a_made_up_name(open_client: OpenClient) -> None:
    """A newcomer signing up clicked the name field, which held the name made up for them,
    and typed theirs after it: the account became "Игрок-5533Дмитрий Ко". The field starts
    empty for a made-up name, and holds a name the player chose."""
    c = open_client("", lang="ru")
    c.wait("a.welcome && a.welcome.name.startsWith('Игрок-')")
    c.page.click("#account-open")
    c.page.locator("#account-dialog").wait_for(state="visible")
    field = c.page.locator("#account-name")
    assert field.input_value() == ""
    # The dialog asks for a name of one's own (it said "keep the name you play under").
    assert c.page.inner_text("#account-text").startswith("Зарегистрируйтесь под своим именем")
    field.click()
    c.page.keyboard.type("Дмитрий Ковалёв")
    assert field.input_value() == "Дмитрий Ковалёв"
    c.page.click("#account-cancel")
    c.page.fill("#name", "Дима")
    c.page.click("#account-open")
    assert field.input_value() == "Дима"
    assert c.page.inner_text("#account-text").startswith("Зарегистрируйтесь, чтобы сохранить имя")
    assert_quiet(c)


def test_the_account_dialogs_buttons_share_their_rows_on_a_phone(open_client: OpenClient) -> None:
    """On a Russian phone "Отмена" wrapped onto a row of its own. Sign up now spans the
    dialog and log in and cancel share the row under it; a wide screen keeps one row."""

    def boxes(c: object) -> dict[str, dict[str, float]]:
        page = c.page  # type: ignore[attr-defined]
        page.click("#account-open")
        page.locator("#account-dialog").wait_for(state="visible")
        ids = ("account-signup", "account-login", "account-cancel")
        return {i: page.locator(f"#{i}").bounding_box() for i in ids}

    phone = boxes(open_client("", lang="ru", **PHONE))
    signup, login, cancel = phone["account-signup"], phone["account-login"], phone["account-cancel"]
    assert login["y"] == cancel["y"] > signup["y"] + signup["height"] - 1
    assert abs(login["width"] - cancel["width"]) < 0.25 * cancel["width"]
    assert signup["width"] > login["width"] + cancel["width"]
    wide = boxes(open_client("", lang="ru", width=1280, height=720))
    assert len({round(box["y"]) for box in wide.values()}) == 1


def test_the_invite_question_says_the_rule_in_the_pages_language(
    open_client: OpenClient,
) -> None:
    """A Russian page in a browser set to English: a name too short in the invite's name
    question was refused in the browser's own English ("Please lengthen this text…"). The
    page's rule says why, in the page's language, and the question stays open."""
    ana = open_client("Ana")
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player'")
    link = ana.page.input_value("#invite-link")
    newcomer = open_client("", lang="ru", hash=link[link.index("#") :])
    newcomer.page.locator("#name-dialog").wait_for(state="visible")
    field = newcomer.page.locator("#name-dialog-input")
    field.fill("")
    field.type("Ол")
    newcomer.page.click("#name-dialog button[value=sit]")
    assert newcomer.page.is_visible("#name-dialog")
    said = field.evaluate("(e) => e.validationMessage")
    assert said.startswith("Имя — от 3 до 20"), said
    field.type("ьга")
    assert field.evaluate("(e) => e.validationMessage") == ""
    newcomer.page.click("#name-dialog button[value=sit]")
    newcomer.wait("a.role === 'player' && a.welcome.name === 'Ольга'")
    assert_quiet(ana, newcomer)


def test_a_typed_name_is_kept_as_the_server_shows_it(open_client: OpenClient) -> None:
    """A name typed with spaces to spare ("  Ana   Marija ") is the server's "Ana Marija".
    The field and the browser keep that form: kept as typed, it never equalled the name
    the server welcomed, and every quick match or new table said hello again on a new
    connection for a name it already had."""
    c = open_client("Ante", lang="hr")
    c.wait("a.welcome && a.welcome.name === 'Ante'")
    sockets: list[object] = []
    c.page.on("websocket", lambda ws: sockets.append(ws))
    c.page.fill("#name", "  Ana   Marija ")
    c.page.locator("#name").evaluate("(e) => e.blur()")
    assert c.page.input_value("#name") == "Ana Marija"
    assert c.page.evaluate("localStorage.getItem('ninepool.name')") == "Ana Marija"
    for _ in range(2):
        c.page.click("#quick")
        c.wait("a.quickWaiting === true && a.welcome.name === 'Ana Marija'")
        c.page.click("#quick")
        c.wait("a.quickWaiting !== true")
    # One new connection for the new name, none after.
    assert len(sockets) == 1, sockets
    assert c.page.inner_text("#me") == "Ana Marija"
    assert_quiet(c)

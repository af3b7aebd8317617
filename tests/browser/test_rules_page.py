"""The rules page `/rules` in Chromium: reached from the lobby's "How to play" with the
lobby's language, every paragraph in that language (no English left in Croatian or
Russian), its language switched in place, readable on a phone without sideways scrolling,
and offered at the table in a tab of its own, so reading it leaves no seat."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

from tests.browser.support import save
from tests.browser.test_firstminute import PHONE, english_left
from tests.browser.test_screens_and_dialogs import LAPTOP


def texts(page: object, lang: str) -> dict[str, tuple[str, str]]:
    """Each marked element's key → (its text, the catalogue's text for it)."""
    return page.evaluate(  # type: ignore[attr-defined, no-any-return]
        """async (lang) => {
          const cat = (await import(`/i18n/${lang}.mjs`)).default;
          const out = {};
          for (const e of document.querySelectorAll('main [data-i18n]')) {
            const key = e.getAttribute('data-i18n');
            out[key] = [e.textContent.trim(), cat[key]];
          }
          return out;
        }""",
        lang,
    )


def test_the_lobby_leads_to_the_rules_in_its_language(open_client) -> None:  # type: ignore[no-untyped-def]
    english: dict[str, tuple[str, str]] = {}
    for lang in ("en", "hr", "ru"):
        ana = open_client("Ana", lang=lang, **LAPTOP)
        link = ana.page.locator("#rules-link")
        link.scroll_into_view_if_needed()
        assert link.is_visible()
        box = link.bounding_box()
        ana.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        ana.page.wait_for_url(re.compile(r"/rules\?"))
        address = urlparse(ana.page.url)
        assert address.path == "/rules" and parse_qs(address.query)["lang"] == [lang]
        ana.page.wait_for_function(
            "(l) => document.documentElement.lang === l && document.querySelector('h1').textContent"
            " && document.title === document.querySelector('h1').textContent",
            arg=lang,
        )
        shown = texts(ana.page, lang)
        # Five sections, every paragraph and heading there and in the page's language.
        assert len(ana.page.query_selector_all("main section h2")) == 5
        assert len(shown) >= 30
        for key, (text, catalogued) in shown.items():
            assert text and text == catalogued, (lang, key, text)
        if lang == "en":
            english = shown
        else:
            assert english_left(ana) == [], (lang, english_left(ana))
            same = [key for key, (text, _) in shown.items() if text == english[key][0]]
            assert same == [], (lang, same)
        # The contents lead to their sections.
        ana.page.click("nav a[href='#fouls']")
        ana.page.wait_for_function("location.hash === '#fouls'")
        fouls = ana.page.locator("#fouls h2").bounding_box()
        assert 0 <= fouls["y"] < LAPTOP["height"] / 2
        save(ana, f"rules-{lang}.png", full_page=True)
        # Back to the lobby, in the same language.
        back = urlparse(ana.page.locator("#rules-back").get_attribute("href"))
        assert back.path == "/" and parse_qs(back.query)["lang"] == [lang]
        assert ana.problems() == []


def test_the_rules_switch_language_in_place_and_fit_a_phone(open_client) -> None:  # type: ignore[no-untyped-def]
    ana = open_client("Ana", lang="hr", **PHONE)
    ana.page.goto(ana.page.url.split("/?")[0] + "/rules?lang=hr")
    ana.page.wait_for_function("document.documentElement.lang === 'hr'")
    croatian = ana.page.locator("h1").text_content()
    ana.page.select_option("#lang", "ru")
    ana.page.wait_for_function("document.documentElement.lang === 'ru'")
    russian = texts(ana.page, "ru")
    assert russian["rules.title"][0] == russian["rules.title"][1] != croatian
    assert ana.page.title() == russian["rules.title"][0]
    assert parse_qs(urlparse(ana.page.url).query)["lang"] == ["ru"]
    assert english_left(ana) == []
    # No line wider than the phone: nothing to scroll sideways; the top bar on one line
    # (its one row of finger-sized controls, 44 px, and its padding).
    assert ana.page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    assert ana.page.locator(".topbar").bounding_box()["height"] < 64
    save(ana, "rules-phone-ru.png", full_page=True)
    assert ana.problems() == []


def test_the_table_offers_the_rules_in_a_tab_of_its_own(open_client) -> None:  # type: ignore[no-untyped-def]
    """The table's menu opens the rules in a tab of their own, whose way back closes that
    tab: its lobby link opened the game there, which took the seat from the table's tab
    ("Playing in another tab") and showed the player's match in the rules' tab."""
    ana = open_client("Ana", lang="ru")
    more = ana.page.locator("#more-rules")
    assert more.get_attribute("target") == "_blank"
    assert more.get_attribute("href") == "/rules?from=table"
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.room")
    ana.page.click("#more summary")
    with ana.context.expect_page() as opened:
        ana.page.click("#more-rules")
    rules = opened.value
    rules.wait_for_function("document.documentElement.lang === 'ru'")
    assert urlparse(rules.url).path == "/rules"
    back = rules.locator("#rules-back")
    back.wait_for()
    assert back.inner_text() == "Назад к столу"
    # Worded again in another language, still the way back to the table.
    rules.select_option("#lang", "hr")
    rules.wait_for_function(
        "document.getElementById('rules-back').textContent === 'Natrag za stol'"
    )
    # The table is still there, its seat kept.
    assert ana.state("a.room") and ana.state("a.role") == "player"
    # A section read from the contents first (a step in the tab's history).
    rules.click("a[href='#fouls']")
    rules.wait_for_function("location.hash === '#fouls'")
    with rules.expect_event("close"):
        back.click()
    assert rules.is_closed()
    # The table's tab never lost its connection to another tab.
    assert ana.state("a.room") and ana.state("a.role") == "player"
    assert ana.page.locator("#play-here").is_hidden()
    assert ana.state("window.ninepool.conn.replaced") is False
    assert ana.problems() == []


def test_a_page_loads_its_script_as_one_bundled_file(open_client, open_page) -> None:  # type: ignore[no-untyped-def]
    """Served as `make setup` bundles them (server/edge/bundle.py), the game and the rules
    page each fetch one script, not the ~80 modules it is made of."""
    ana = open_client("Ana")
    rules = open_page("rules", "/rules?lang=ru")
    rules.page.wait_for_function("document.documentElement.lang === 'ru'")
    for page, script in ((ana, "/app.mjs"), (rules, "/rules.mjs")):
        fetched = page.page.evaluate(
            "performance.getEntriesByType('resource')"
            ".map((r) => new URL(r.name).pathname).filter((p) => p.endsWith('.mjs'))"
        )
        assert fetched == [script], fetched
    assert ana.problems() == []

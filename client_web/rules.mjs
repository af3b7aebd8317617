// The rules page (/rules): the rules of nine-ball as the server's referee applies them,
// told to a player in the page's language. The words are all in the page's markup
// (`data-i18n`, from `rules.<lang>.mjs`); this only picks the language and keeps the
// title and the links in it.

import { t, wordAs } from "./i18n/index.mjs";
import { startPageLanguage } from "./pagelang.mjs";

startPageLanguage(/** @type {HTMLSelectElement} */ (document.getElementById("lang")), () => {
  document.title = t("rules.title");
});
document.title = t("rules.title");

/**
 * Opened from a table's menu (a tab of its own, `?from=table`), the way back is to close
 * this tab: the table plays on in the one it came from. Its lobby link opened the game
 * here, which said hello as the same player and took the seat from that tab ("Playing
 * in another tab"). A tab the browser will not let a script close is left where it
 * is, its link saying where the table is.
 */
const back = /** @type {HTMLAnchorElement | null} */ (document.getElementById("rules-back"));
if (back && new URLSearchParams(location.search).get("from") === "table") {
  wordAs(back, "rules.backTable"); // (worded again with the page on a change of language)
  back.removeAttribute("href");
  back.setAttribute("role", "button");
  back.tabIndex = 0;
  const leave = (/** @type {Event} */ e) => {
    e.preventDefault();
    window.close();
    // (A browser that keeps the tab open says nothing: the link does.)
    setTimeout(() => {
      if (!window.closed) wordAs(back, "rules.tableElsewhere");
    }, 150);
  };
  back.addEventListener("click", leave);
  // (The brand leads home the same way: to the table, in its own tab.)
  document.querySelector(".brand")?.addEventListener("click", leave);
  back.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && leave(e));
}

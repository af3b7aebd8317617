// The language of a page that is not the game (a bracket, the list of tournaments, the
// rules): its picker in the top bar, and its own links carrying `?lang=` when the address
// it was opened at did, so a link shared in one language stays in it from page to page.

import { LANGUAGES, initLanguage, keepLang, lang, onLanguage, setLanguage } from "./i18n/index.mjs";

/** The page's own links (the lobby, the list, the form, the game) with its language. */
export function keepLangInLinks() {
  for (const link of document.querySelectorAll("a[href^='/']")) {
    const path = link.getAttribute("data-path") ?? /** @type {string} */ (link.getAttribute("href"));
    link.setAttribute("data-path", path);
    link.setAttribute("href", keepLang(path));
  }
}

/**
 * Chooses the page's language (`initLanguage`), fills the picker `select` with the
 * languages offered and switches on a pick; `changed` runs after every change, once the
 * page's marked words and links are in the new language.
 * @param {HTMLSelectElement} select @param {() => void} changed
 */
export function startPageLanguage(select, changed) {
  initLanguage();
  keepLangInLinks();
  select.replaceChildren(...LANGUAGES.map(([code, name]) => new Option(name, code, false, code === lang())));
  select.value = lang();
  // (An address with `?lang=` takes the language picked: `setLanguage`.)
  select.addEventListener("change", () => setLanguage(select.value));
  onLanguage(() => {
    select.value = lang();
    keepLangInLinks();
    changed();
  });
}

// The rules page (/rules): the rules of nine-ball as the server's referee applies them,
// told to a player in the page's language. The words are all in the page's markup
// (`data-i18n`, from `rules.<lang>.mjs`); this only picks the language and keeps the
// title and the links in it.

import { t } from "./i18n/index.mjs";
import { startPageLanguage } from "./pagelang.mjs";

startPageLanguage(/** @type {HTMLSelectElement} */ (document.getElementById("lang")), () => {
  document.title = t("rules.title");
});
document.title = t("rules.title");

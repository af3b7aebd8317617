// The client's words in English, Croatian and Russian: one catalogue module per language
// (`en.mjs`, `hr.mjs`, `ru.mjs`; each spreads in the words of the pages apart from the
// game, `tournament.<lang>.mjs` and `rules.<lang>.mjs`, and the referee's words,
// `referee.<lang>.mjs`), the language chosen from `?lang=`, then the one the player picked
// (kept in localStorage), then `navigator.languages`. Plurals go through Intl.PluralRules
// (Croatian and Russian have three forms), numbers through Intl.NumberFormat, lists
// through Intl.ListFormat.
//
// A catalogue value is a string with `{name}` placeholders (`{nameMin}` and `{nameMax}` are
// the name rule's bounds, filled in unasked), or for plurals an object of
// Intl plural categories (`one`, `few`, `many`, `other`) chosen by the `n` parameter.
// A plural may add a `fraction` form for an `n` that is not whole, where the language's
// grammar parts from the category Intl gives it: Croatian says "2½ duljine" (the noun
// follows "pol", genitive singular) while Intl files 2.5 with "5 duljina" under `other`.
// Markup in the page says which key it shows: `data-i18n="key"` for the text,
// `data-i18n-attr="placeholder:key;aria-label:key"` for attributes.

import { NAME_MAX, NAME_MIN } from "../namerule.mjs";
import en from "./en.mjs";
import hr from "./hr.mjs";
import ru from "./ru.mjs";

/** @typedef {string | Record<string, string>} Entry */
/** @typedef {Record<string, Entry>} Catalogue */

/** @type {Record<string, Catalogue>} */
export const CATALOGUES = { en, hr, ru };
/** Placeholders every text may use without being given them: the name rule's bounds
 * (`namerule.mjs`), so the words for the rule say its numbers in every language. */
const FIXED = /** @type {Record<string, number>} */ ({ nameMin: NAME_MIN, nameMax: NAME_MAX });
/** The languages offered, each named in itself. */
export const LANGUAGES = /** @type {const} */ ([
  ["en", "English"],
  ["hr", "Hrvatski"],
  ["ru", "Русский"],
]);
const STORE_KEY = "ninepool.lang";

let current = "en";
/** @type {Set<() => void>} */
const listeners = new Set();

/**
 * A link to another page keeping this page's `?lang=`, if it has one (as the reader last
 * picked it): the language a link was shared in follows the reader from page to page —
 * the lobby, the list, a bracket, a table. Without one the next page reads the stored
 * choice, as this one did.
 * @param {string} path an address on this site: "/tournaments", "/#/room/<id>"
 */
export function keepLang(path) {
  if (!new URLSearchParams(location.search).has("lang")) return path;
  const url = new URL(path, location.origin);
  url.searchParams.set("lang", lang());
  return url.pathname + url.search + url.hash;
}

/** The language in use ("en", "hr" or "ru"). */
export function lang() {
  return current;
}

/**
 * The locale dates and times are written in: the page's language in the reader's own
 * region when the browser names one for that language — an "en-GB" browser reads
 * "6 December 2026, 14:05" and an "en-US" one "December 6, 2026, 2:05 PM", both on the
 * English page —, else the language alone. The words stay the page's.
 * @param {readonly string[]} [preferred] the browser's languages, most wanted first
 */
export function dateLocale(preferred = typeof navigator === "undefined" ? [] : navigator.languages ?? []) {
  const own = preferred.find((tag) => tag.toLowerCase().startsWith(`${current}-`));
  if (!own) return current;
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([own]).length ? own : current;
  } catch {
    return current; // a tag the browser lists but Intl will not parse
  }
}

/**
 * A sentence turned into a clause that follows a colon ("Not here: the cue ball…"): its
 * first letter in lower case, as all three languages write it there.
 * @param {string} sentence @returns {string}
 */
export function clause(sentence) {
  return sentence.charAt(0).toLocaleLowerCase(current) + sentence.slice(1);
}

/**
 * Which language to use: an explicit `?lang=` first, then the stored choice, then the
 * first of the browser's languages we speak (Serbian, Bosnian and Montenegrin readers get
 * Croatian; Ukrainian and Belarusian readers Russian), English otherwise.
 * @param {string | null | undefined} query @param {string | null | undefined} stored
 * @param {readonly string[]} browser
 */
export function pickLanguage(query, stored, browser) {
  for (const c of [query, stored]) if (c && c in CATALOGUES) return c;
  const near = /** @type {Record<string, string>} */ ({ sr: "hr", bs: "hr", sh: "hr", cnr: "hr", uk: "ru", be: "ru" });
  for (const tag of browser) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in CATALOGUES) return base;
    if (base in near) return near[base];
  }
  return "en";
}

/** Chooses the language at start-up (browser only). */
export function initLanguage() {
  let stored = null;
  try {
    stored = localStorage.getItem(STORE_KEY);
  } catch {
    /* no storage */
  }
  const query = new URLSearchParams(location.search).get("lang");
  setLanguage(pickLanguage(query, stored, navigator.languages ?? [navigator.language]), false);
}

/**
 * Switches the language, re-words the page and tells whoever listens.
 * @param {string} code @param {boolean} [remember] keep the choice for the next visit
 */
export function setLanguage(code, remember = true) {
  current = code in CATALOGUES ? code : "en";
  if (remember) {
    try {
      localStorage.setItem(STORE_KEY, current);
    } catch {
      /* no storage */
    }
  }
  if (typeof document !== "undefined") {
    document.documentElement.lang = current;
    translateDom(document);
  }
  // A language picked on a page opened with `?lang=` is the address's from then on: a
  // reload, or a link taken from the address bar, stayed in the one it was opened with.
  if (remember && typeof location !== "undefined" && new URLSearchParams(location.search).has("lang")) {
    const here = new URL(location.href);
    here.searchParams.set("lang", current);
    history.replaceState(history.state, "", here);
  }
  for (const f of listeners) f();
}

/** @param {() => void} f called after every change of language */
export function onLanguage(f) {
  listeners.add(f);
}

/** @type {Map<string, Intl.PluralRules>} */
const pluralRules = new Map();

/** @param {Record<string, string>} forms @param {number} n */
function plural(forms, n) {
  let rules = pluralRules.get(current);
  if (!rules) {
    rules = new Intl.PluralRules(current);
    pluralRules.set(current, rules);
  }
  if (!Number.isInteger(n) && forms.fraction) return forms.fraction;
  return forms[rules.select(n)] ?? forms.other ?? Object.values(forms)[0];
}

/**
 * The text of `key` in the current language, placeholders filled in. Numbers given as
 * parameters are written the language's way; `n` also picks the plural form.
 * @param {string} key @param {Record<string, string | number>} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  const entry = CATALOGUES[current][key] ?? en[key];
  if (entry === undefined) return key;
  const text = typeof entry === "string" ? entry : plural(entry, Number(params.n ?? 0));
  return text.replace(/\{(\w+)\}(\.?)/g, (whole, name, stop) => {
    const v = params[name] ?? FIXED[name];
    if (v === undefined) return whole;
    const said = typeof v === "number" ? num(v) : String(v);
    // A sentence that ends on a name ending in a full stop ("Marko K.") has one stop.
    return stop && said.endsWith(".") ? said : said + stop;
  });
}

/**
 * A seat's name as shown. A computer (`level` set) that the server named "Bot N" by its
 * level (in a tournament's field a second one of that level "Bot N B") is written the
 * reader's way ("Бот 5", "Бот 5 B"); any other name is the player's own, a person's even
 * if it reads "Bot 2".
 * @param {string} name @param {number | null | undefined} level the computer's level, if a computer
 */
export function seatName(name, level) {
  // "Bot 5", or in a tournament's field a second one of that level, "Bot 5 B" — its
  // letters the reader's alphabet's ("Бот 5 Б"), A to Z in turn.
  const numbered = level != null ? /^Bot (\d+)( [B-Z][A-Z]*)?$/.exec(name) : null;
  if (!numbered) return name;
  const alphabet = [...t("computer.marks")];
  const mark = [...(numbered[2] ?? "")].map((c) => (c === " " ? c : alphabet[c.charCodeAt(0) - 65] ?? c)).join("");
  return `${t("computer.name", { level: numbered[1] })}${mark}`;
}

/**
 * A number the language's way ("2.05" / "2,05").
 * @param {number} v @param {number} [digits] fixed fraction digits (default: as needed, up to 2)
 */
export function num(v, digits) {
  const opts = digits === undefined ? { maximumFractionDigits: 2 } : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return new Intl.NumberFormat(current, opts).format(v);
}

/** "3, 5 and 7" / "3, 5 i 7" / "3, 5 и 7". @param {(string | number)[]} items */
export function list(items) {
  return new Intl.ListFormat(current, { type: "conjunction" }).format(items.map(String));
}

/** A clock time "21:04" the language's way. @param {number} epochMs */
export function time(epochMs) {
  return new Intl.DateTimeFormat(dateLocale(), { hour: "2-digit", minute: "2-digit" }).format(new Date(epochMs));
}

/** A day and a time "1 Dec, 21:04" the language's way (a match in a profile). @param {number} epochMs */
export function when(epochMs) {
  return new Intl.DateTimeFormat(dateLocale(), { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }).format(new Date(epochMs));
}

/** Whole seconds as a clock reads them: "1:05" (the table's and a bracket's countdowns). @param {number} s */
export function minutesAndSeconds(s) {
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Seconds as "0:27" or "27 s" for short waits. @param {number} seconds */
export function seconds(seconds) {
  return t("unit.seconds", { s: num(Math.max(0, Math.round(seconds)), 0) });
}

/**
 * Words an element by a key and its values, and keeps both on it (`data-i18n`,
 * `data-i18n-args`), so that a change of language words it again the same way rather
 * than by the markup's own key ("Replay of game 2" had become "Replay of this game").
 * @param {HTMLElement} el @param {string} key @param {Record<string, string | number>} [params]
 */
export function wordAs(el, key, params = {}) {
  el.dataset.i18n = key;
  el.dataset.i18nArgs = JSON.stringify(params);
  el.textContent = t(key, params);
}

/**
 * Words every element under `root` that names a key.
 * @param {ParentNode} root
 */
export function translateDom(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(/** @type {string} */ (el.getAttribute("data-i18n")), JSON.parse(el.getAttribute("data-i18n-args") ?? "{}"));
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of (el.getAttribute("data-i18n-attr") ?? "").split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}

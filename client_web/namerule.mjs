// The one rule for a name a player chooses now, a guest's at the table and an account's
// alike: NAME_MIN to NAME_MAX characters, counted as the server counts them (code points
// once NFKC), of the letters, digits, spaces, dots, dashes and underscores a name holds.
// One rule, so a guest can always sign up under the name they play under.
//
// The rule is declared in protocol/text.py (`NAME_MIN`, `NAME_MAX`). The browser cannot
// read Python and the client's bundler only joins its files, so the two numbers stand here, and
// tests/protocol/test_name_rule.py fails, printing the lines to paste, if they ever part.
// Everything else in the page takes them from here: the name fields' bounds
// (`boundNameField`) and the catalogues' words for the rule (`{nameMin}`, `{nameMax}`,
// filled in by `i18n/index.mjs`).
//
// A name chosen before the rule (a guest's could be 1 to 24 characters) still loads and
// goes out in `hello` (`NAME_PATTERN`, the protocol's `Name`); the page holds only a name
// typed anew to the rule (`nameTaken`). The server keeps an old name only for a player
// coming back to the seat that carries it, and refuses it anywhere else (`bad_name`: the
// page says why and plays on under a name made up for it).

export const NAME_MIN = 3;
export const NAME_MAX = 20;

/** Names the server takes in `hello` (protocol `Name`; Python's `\w` takes any letter or digit): new ones and those chosen before the rule. */
export const NAME_PATTERN = /^[\p{L}\p{N}_.\-](?:[\p{L}\p{N}_ .\-]{0,22}[\p{L}\p{N}_.\-])?$/u;

// Letters are told apart by script as the server tells them (`server.players.names`):
// a name keeps to one, but Chinese characters go with kana or with hangul. A letter of
// a script not listed here counts as one more script of its own kind ("other").
const SCRIPTS = ["Latin", "Cyrillic", "Greek", "Armenian", "Georgian", "Hebrew", "Arabic", "Devanagari", "Thai", "Hangul", "Han", "Hiragana", "Katakana", "Common"].map(
  (name) => /** @type {[string, RegExp]} */ ([name, new RegExp(`\\p{Script=${name}}`, "u")]),
);
// ("Common": the kana's prolonged sound mark, a letter shared by hiragana and katakana.)
const MIXES = [new Set(["Han", "Hiragana", "Katakana", "Common"]), new Set(["Han", "Hangul"])];
/** @param {string} letter */
const scriptOf = (letter) => SCRIPTS.find(([, re]) => re.test(letter))?.[0] ?? "other";

/**
 * `name` as the server will show it (`server.players.names.shown`): NFKC, every run of
 * spaces one space, none at either end. What a name field holds is read through it, so
 * the browser keeps and says the name the server answers with ("Ana  Marija" typed is
 * "Ana Marija" back; kept as typed, every visit asked again for a name it already had).
 * @param {string} name
 */
export function tidyName(name) {
  return name.normalize("NFKC").replace(/\s+/gu, " ").trim();
}

/**
 * Whether `name` may be chosen now, as the server decides it (`server.players.names.
 * check_new`, the reserved words apart): once NFKC and its spaces tidied, NAME_MIN to
 * NAME_MAX characters — letters, digits 0–9, spaces, dots, dashes, underscores —, a
 * letter or digit at each end, at least one letter, and the letters of one script.
 * @param {string} name
 */
export function fitsNameRule(name) {
  const cleaned = tidyName(name);
  const length = [...cleaned].length;
  if (length < NAME_MIN || length > NAME_MAX) return false;
  if (!/^[\p{L}0-9](?:[\p{L}0-9_. \-]*[\p{L}0-9])?$/u.test(cleaned)) return false;
  const scripts = new Set([...cleaned].filter((c) => /\p{L}/u.test(c)).map(scriptOf));
  if (scripts.size === 0) return false;
  return scripts.size === 1 || MIXES.some((mix) => [...scripts].every((s) => mix.has(s)));
}

/**
 * Whether a form may take `name`: the name the player has already (`kept`, stored before
 * the rule perhaps) as it is, any other only if it fits the rule.
 * @param {string} name @param {string | null | undefined} kept
 */
export function nameTaken(name, kept) {
  // (compared tidied: a field's name is read through `tidyName`, a kept one is as stored)
  return kept != null && tidyName(name) === tidyName(kept) ? NAME_PATTERN.test(kept) : fitsNameRule(name);
}

/**
 * A name field bounded by the rule: the browser stops a new name at NAME_MAX as it is
 * typed, and calls one under NAME_MIN too short; a name put there from before is left
 * as it is (the browser holds only what the player typed to the bounds).
 * @param {HTMLInputElement} input
 */
export function boundNameField(input) {
  input.minLength = NAME_MIN;
  input.maxLength = NAME_MAX;
}

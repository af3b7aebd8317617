// The one rule for a name a player chooses now, a guest's at the table and an account's
// alike: NAME_MIN to NAME_MAX characters, counted as the server counts them (code points
// once NFKC), of the letters, digits, spaces, dots, dashes and underscores a name holds.
// One rule, so a guest can always sign up under the name they play under.
//
// The rule is declared in protocol/text.py (`NAME_MIN`, `NAME_MAX`). The browser cannot
// read Python and the client has no build step, so the two numbers stand here as well, and
// tests/protocol/test_name_rule.py fails, printing the lines to paste, if they ever part.
// Everything else in the page takes them from here: the name fields' bounds
// (`boundNameField`) and the catalogues' words for the rule (`{nameMin}`, `{nameMax}`,
// filled in by `i18n/index.mjs`).
//
// Names chosen before the rule (a guest's could be 1 to 24 characters) still load and
// still go out in `hello` (`NAME_PATTERN`, the protocol's `Name`): only a name typed anew
// is held to the rule (`nameTaken`).

export const NAME_MIN = 3;
export const NAME_MAX = 20;

/** Names the server takes in `hello` (protocol `Name`; Python's `\w` takes any letter or digit): new ones and those chosen before the rule. */
export const NAME_PATTERN = /^[\p{L}\p{N}_.\-](?:[\p{L}\p{N}_ .\-]{0,22}[\p{L}\p{N}_.\-])?$/u;

/** Whether `name` may be chosen now (`protocol.text.fits_name_rule`). @param {string} name */
export function fitsNameRule(name) {
  // As the server cleans it first: a letter typed with its accent apart is one letter.
  const cleaned = name.normalize("NFKC");
  const length = [...cleaned].length;
  return NAME_PATTERN.test(cleaned) && length >= NAME_MIN && length <= NAME_MAX;
}

/**
 * Whether a form may take `name`: the name the player has already (`kept`, stored before
 * the rule perhaps) as it is, any other only if it fits the rule.
 * @param {string} name @param {string | null | undefined} kept
 */
export function nameTaken(name, kept) {
  return name === kept ? NAME_PATTERN.test(name) : fitsNameRule(name);
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

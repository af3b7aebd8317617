// The one rule for a new name, and the names from before it that still load.
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLanguage, t } from "../i18n/index.mjs";
import { NAME_MAX, NAME_MIN, NAME_PATTERN, fitsNameRule, nameTaken, tidyName } from "../namerule.mjs";

test("a new name is NAME_MIN to NAME_MAX characters, counted once NFKC", () => {
  assert.deepEqual([NAME_MIN, NAME_MAX], [3, 20]);
  assert.ok(fitsNameRule("Ana") && fitsNameRule("x".repeat(20)) && fitsNameRule("Đurđa") && fitsNameRule("Борис"));
  assert.ok(!fitsNameRule("Al") && !fitsNameRule("x".repeat(21)) && !fitsNameRule("Ana!"));
  assert.ok(fitsNameRule("\ufb00a"), "ﬀa is three letters once NFKC, as the server counts it");
  // As the server holds a new name: a letter in it, a letter or digit at each end, one script.
  assert.ok(!fitsNameRule("007") && !fitsNameRule("Ana_") && !fitsNameRule("\u0412oris"));
  assert.ok(fitsNameRule("Ана") && fitsNameRule("Ana  Marija") && fitsNameRule("山田たろう"));
});

test("a name from before the rule still loads; only a new one is held to it", () => {
  const old = "Grandmaster of the cue"; // 22 characters: a guest's name before the rule
  assert.ok(NAME_PATTERN.test(old) && NAME_PATTERN.test("Al"));
  assert.ok(nameTaken(old, old) && nameTaken("Al", "Al"));
  assert.ok(!nameTaken(old, "Ana") && !nameTaken("Al", null));
  assert.ok(nameTaken("Marta", "Al"));
});

test("the rule's words say its numbers in every language", () => {
  for (const [lang, words] of [
    ["en", "A name is 3 to 20 characters"],
    ["hr", "Ime ima od 3 do 20 znakova"],
    ["ru", "Имя — от 3 до 20 символов"],
  ]) {
    setLanguage(lang, false);
    // One wording wherever the rule is said: the lobby's refusal is the account's rule.
    assert.ok(t("account.nameRule").startsWith(words), t("account.nameRule"));
    for (const key of ["lobby.nameHelp", "account.nameRule", "account.rules"]) assert.ok(t(key).includes(String(NAME_MAX)) && !t(key).includes("24"), t(key));
  }
  setLanguage("en", false);
});

test("a name kept from before the rule is taken as it is, read from a field tidied", () => {
  // The field is read through tidyName; the kept name is as stored, two spaces and all.
  const kept = "Grandmaster of the  cue";
  assert.ok(nameTaken(tidyName(kept), kept));
  assert.ok(nameTaken(tidyName(` ${kept} `), kept));
  // Another long name is held to the rule.
  assert.ok(!nameTaken("Grandmaster of the pool", kept));
});

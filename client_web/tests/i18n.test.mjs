// Every key in every language, with the same placeholders and every plural form the
// language needs; every key the page and the modules use exists.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import { CATALOGUES, clause, pickLanguage, setLanguage, t } from "../i18n/index.mjs";

const root = new URL("../", import.meta.url);
const en = CATALOGUES.en;

/** @param {string | Record<string, string>} v */
const placeholders = (v) => {
  const texts = typeof v === "string" ? [v] : Object.values(v);
  return new Set(texts.flatMap((s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1])));
};

for (const [code, cat] of Object.entries(CATALOGUES)) {
  test(`${code}: the same keys as English, no more and no fewer`, () => {
    const missing = Object.keys(en).filter((k) => !(k in cat));
    const extra = Object.keys(cat).filter((k) => !(k in en));
    assert.deepEqual(missing, [], `missing in ${code}`);
    assert.deepEqual(extra, [], `unknown in ${code}`);
  });

  test(`${code}: plurals have every form Intl.PluralRules picks, placeholders match English`, () => {
    const needed = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
    for (const [key, value] of Object.entries(cat)) {
      assert.ok(typeof value === "string" || typeof value === "object", key);
      if (typeof value === "object") {
        for (const form of needed) assert.ok(form in value, `${code} ${key} lacks the "${form}" form`);
      }
      for (const p of placeholders(value)) assert.ok(placeholders(en[key]).has(p), `${code} ${key}: {${p}} is not in English`);
      for (const p of placeholders(en[key])) {
        if (p === "n" && typeof value === "object") continue; // the count may be implied by the form
        assert.ok(placeholders(value).has(p), `${code} ${key}: {${p}} is missing`);
      }
    }
  });
}

test("hr and ru are translated, not English copies", () => {
  for (const code of ["hr", "ru"]) {
    const same = Object.keys(en).filter((k) => typeof en[k] === "string" && CATALOGUES[code][k] === en[k] && /[a-z]{3}/.test(en[k].replace(/\{\w+\}/g, "")));
    // Names and symbols may stay as they are ("ninepool", "Push-out" is not one of them).
    assert.deepEqual(same.filter((k) => !["meta.title"].includes(k)), [], `${code} keeps English for`);
  }
});

test("every key used by the page and the modules is in the catalogue", () => {
  const used = new Set();
  for (const page of readdirSync(root).filter((f) => f.endsWith(".html"))) {
    const html = readFileSync(new URL(page, root), "utf8");
    for (const m of html.matchAll(/data-i18n="([^"]+)"/g)) used.add(m[1]);
    for (const m of html.matchAll(/data-i18n-attr="([^"]+)"/g)) for (const pair of m[1].split(";")) used.add(pair.split(":")[1]);
  }
  for (const file of readdirSync(root).filter((f) => f.endsWith(".mjs"))) {
    const src = readFileSync(new URL(file, root), "utf8");
    for (const m of src.matchAll(/\bt\(\s*"([a-zA-Z0-9_.]+)"/g)) used.add(m[1]);
  }
  const missing = [...used].filter((k) => !(k in en));
  assert.deepEqual(missing, []);
});

test("the language: ?lang= first, then the stored choice, then the browser's", () => {
  assert.equal(pickLanguage("ru", "hr", ["en-GB"]), "ru");
  assert.equal(pickLanguage(null, "hr", ["ru-RU"]), "hr");
  assert.equal(pickLanguage("xx", null, ["de-DE", "hr-HR", "en"]), "hr");
  assert.equal(pickLanguage(null, null, ["sr-Latn-RS"]), "hr");
  assert.equal(pickLanguage(null, null, ["uk-UA"]), "ru");
  assert.equal(pickLanguage(null, null, ["de-DE"]), "en");
});

test("three plural forms in Russian and Croatian; numbers written the language's way", () => {
  setLanguage("ru", false);
  assert.deepEqual([1, 2, 5, 21].map((n) => t("tag.fouls", { n })), ["1 фол подряд", "2 фола подряд", "5 фолов подряд", "21 фол подряд"]);
  assert.equal(t("unit.speed", { v: 2.05 }), "2,05 м/с");
  setLanguage("hr", false);
  assert.deepEqual([1, 2, 5, 21].map((n) => t("tag.fouls", { n })), ["1 faul zaredom", "2 faula zaredom", "5 faulova zaredom", "21 faul zaredom"]);
  setLanguage("en", false);
  assert.deepEqual([1, 2].map((n) => t("tag.fouls", { n })), ["1 foul in a row", "2 fouls in a row"]);
  assert.equal(t("tag.oneFoul"), "1 foul");
});

test("the rules vocabulary of the catalogue headers is used wherever English names the term", () => {
  /** @param {string | Record<string, string>} v */
  const words = (v) => (typeof v === "string" ? v : Object.values(v).join(" | ")).replace(/\{\w+\}/g, "");
  // English term, then the Croatian and the Russian word for it (any inflected form).
  /** @type {[RegExp, RegExp, RegExp][]} */
  const terms = [
    [/\blag\b/i, /blišk/i, /раскат/i],
    [/push-?out/i, /push out/i, /пуш-аут/i],
    [/\bfouls?\b/i, /faul/i, /фол/i],
    [/ball in hand/i, /bijel\p{L}* u ruci/iu, /с руки/i],
    [/cushion/i, /mantinel/i, /борт/i],
    [/head string/i, /head linij/i, /передн\p{L}* лини/iu],
    [/stalemate/i, /neriješen/i, /ничь/i],
    [/cue ball/i, /bijel/i, /бит[ок]/i],
  ];
  const off = [];
  for (const [english, croatian, russian] of terms) {
    for (const key of Object.keys(en)) {
      if (!english.test(words(en[key]))) continue;
      if (!croatian.test(words(CATALOGUES.hr[key]))) off.push(`hr ${key}: ${croatian}`);
      if (!russian.test(words(CATALOGUES.ru[key]))) off.push(`ru ${key}: ${russian}`);
    }
  }
  assert.deepEqual(off, []);
});

test("quotation marks are the language's own: „…“ in Croatian, «…» in Russian, never straight ones", () => {
  /** @param {string} code */
  const texts = (code) => Object.entries(CATALOGUES[code]).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : Object.values(v).map((s) => [k, s])));
  // « and » with a space on the inner side are the replay's arrows, not quotes.
  assert.deepEqual(texts("hr").filter(([, s]) => /["”]|«\S|\S»/.test(s)).map(([k]) => k), []);
  assert.deepEqual(texts("ru").filter(([, s]) => /["„“”]/.test(s)).map(([k]) => k), []);
});

test("a player's name is never bent into a case or a gender in Croatian", () => {
  // A name cannot be declined by a template, and a woman is not "igrač": "bijela u ruci za
  // igrača Ivana Horvat" read wrong (for "igračicu Ivanu"). A name stands as the subject,
  // or after a colon; "Stol igrača {name}" (whose, a label) is the one form kept.
  const bent = Object.entries(CATALOGUES.hr).filter(
    ([, v]) => typeof v === "string" && /\{(name|winner|loser|player)\}/.test(v) && (/\b(za|od|s|sa|protiv) igrača \{|[Ii]graču \{|[Ii]gračem \{/.test(v) || /\b(mu|joj|njemu)\b/.test(v)),
  );
  assert.deepEqual(bent.map(([k]) => k), []);
  // A seat's tags name a player of either sex: no "spreman" for Ivana ("čeka početak").
  const tags = Object.entries(CATALOGUES.hr).filter(([k, v]) => k.startsWith("tag.") && typeof v === "string" && /\bspreman\b|\bspremna\b/.test(v));
  assert.deepEqual(tags.map(([k]) => k), []);
  setLanguage("hr");
  assert.equal(t("v.foulBih", { fouler: "Marko", reasons: "bijela je upala", name: "Ivana Horvat" }), "Marko čini faul: bijela je upala — Ivana Horvat igra s bijelom u ruci");
  setLanguage("en");
});

test("a sentence after a colon starts in lower case, in every language", () => {
  setLanguage("hr");
  assert.equal(t("prompt.notHere", { why: clause(t("place.outside")) }), "Ne ovdje: bijela mora biti na stolu.");
  setLanguage("ru");
  assert.match(t("prompt.notHere", { why: clause(t("place.outside")) }), /^Сюда нельзя: [а-яё]/);
  setLanguage("en");
  assert.equal(t("prompt.notHere", { why: clause(t("place.outside")) }), "Not here: the cue ball must be on the table.");
});

test("a computer's name is written the reader's way, a tournament's second of a level too", async () => {
  const { seatName } = await import("../i18n/index.mjs");
  setLanguage("ru", false);
  assert.equal(seatName("Bot 5", 5), "Бот 5");
  assert.equal(seatName("Bot 5 B", 5), "Бот 5 Б");
  assert.equal(seatName("Bot 3 BA", 3), "Бот 3 БА"); // (the 27th of a level)
  assert.equal(seatName("Bot 3 Z", 3), "Бот 3 Ю");
  // A person's name stays theirs, whatever it reads.
  assert.equal(seatName("Bot 5 B", null), "Bot 5 B");
  assert.equal(seatName("Bot 5 x", 5), "Bot 5 x");
  setLanguage("hr", false);
  assert.equal(seatName("Bot 5 C", 5), "Bot 5 C");
  setLanguage("en", false);
});

test("a sentence that ends on a name ending in a full stop has one stop", () => {
  setLanguage("ru");
  assert.equal(t("prompt.waitOther", { name: "Marko K." }), "Вы готовы — ждём игрока Marko K.");
  assert.equal(t("prompt.waitOther", { name: "Marko" }), "Вы готовы — ждём игрока Marko.");
  // A stop that is not the sentence's stays: "{name}" followed by anything else.
  assert.equal(t("lagwin.give", { name: "Marko K." }), "Пусть разбивает Marko K.");
  setLanguage("en");
});

test("a number's ending is joined to it by a hyphen no line breaks at ({rack}\u2011ю)", () => {
  for (const [code, cat] of Object.entries(CATALOGUES)) {
    for (const [key, value] of Object.entries(cat)) {
      const texts = typeof value === "string" ? [value] : Object.values(value);
      for (const text of texts) assert.ok(!/\}-\p{L}/u.test(text), `${code} ${key}: ${text}`);
    }
  }
});

test("a ball's number never starts a line alone (a space no line breaks at)", () => {
  // "…первым попадите в шар / 1." broke so in the prompt's narrow column. (A computer's
  // name keeps its plain space: a person's typed name is told apart from it as written.)
  for (const [code, cat] of Object.entries(CATALOGUES)) {
    for (const [key, value] of Object.entries(cat)) {
      const texts = typeof value === "string" ? [value] : Object.values(value);
      for (const text of texts) assert.ok(!/ \{ball\}/u.test(text), `${code} ${key}: ${text}`);
    }
  }
});

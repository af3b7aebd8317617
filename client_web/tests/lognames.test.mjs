// The log's lines keep the names they were written with (`lognames.mjs`): a rename line
// and a line before it say the same after a second rename, a reload or another language.

import assert from "node:assert/strict";
import { test } from "node:test";

import { setLanguage, t } from "../i18n/index.mjs";
import { namesAsWritten, renamesBetween, seatsOf } from "../lognames.mjs";

const view = (/** @type {string} */ first, /** @type {string | null} */ second = "Bob") => ({
  room: "r1",
  seats: [{ player: "p_a", name: first, computer: null }, second ? { player: "p_b", name: second, computer: null } : null],
});

/** A rename line as the log words it, from what it kept. @param {{ seat: number, was: string, name: string }} r @param {string[]} now */
const renamedLine = (r, now) => t("ev.renamed", { was: r.was, name: r.name ?? now[r.seat] });

test("a rename line keeps both names through a second rename", () => {
  setLanguage("en");
  const guest = view("Player-4821");
  const marta = view("Marta");
  const mara = view("Mara");
  const first = renamesBetween(marta, guest);
  assert.deepEqual(first, [{ seat: 0, was: "Player-4821", name: "Marta" }]);
  const second = renamesBetween(mara, marta);
  assert.deepEqual(second, [{ seat: 0, was: "Marta", name: "Mara" }]);
  // Worded again now, with the names of now (Mara): the first line still says Marta.
  const now = namesAsWritten(seatsOf(mara), []);
  assert.equal(renamedLine(first[0], now), "Player-4821 plays on as Marta");
  assert.equal(renamedLine(second[0], now), "Marta plays on as Mara");
});

test("a line written before a rename names the player as then, in any language", () => {
  const written = seatsOf(view("Player-4821"));
  const now = namesAsWritten(seatsOf(view("Marta")), []);
  assert.deepEqual(namesAsWritten(written, now), ["Player-4821", "Bob"]);
  setLanguage("hr");
  assert.equal(t("ev.renamed", { was: "Player-4821", name: "Marta" }), "Player-4821 dalje igra kao Marta");
  setLanguage("en");
});

test("a seat empty when the line was written is named as it is now", () => {
  const written = seatsOf(view("Ana", null));
  assert.deepEqual(namesAsWritten(written, ["Ana", "Bob"]), ["Ana", "Bob"]);
  assert.deepEqual(namesAsWritten(undefined, ["Ana", "Bob"]), ["Ana", "Bob"]);
  // Another room, or the first snapshot: nobody was renamed.
  assert.deepEqual(renamesBetween(view("Mara"), null), []);
  assert.deepEqual(renamesBetween(view("Mara"), { ...view("Ana"), room: "r2" }), []);
});

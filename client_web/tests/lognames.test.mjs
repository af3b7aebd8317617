// The log's lines keep the names they were written with (`lognames.mjs`): a rename line
// and a line before it say the same after a second rename, a reload or another language.

import assert from "node:assert/strict";
import { test } from "node:test";

import { setLanguage, t } from "../i18n/index.mjs";
import { namesAsWritten, renamesBetween, seatingBetween, seatsOf } from "../lognames.mjs";

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

test("the seats' changes: who sat down, who got up (the one who left first), none for a rename", () => {
  const alone = view("Ana", null);
  const withBob = view("Ana");
  assert.deepEqual(seatingBetween(withBob, alone), [{ kind: "sits", seat: 1, who: { name: "Bob", computer: null } }]);
  assert.deepEqual(seatingBetween(alone, withBob), [{ kind: "leaves", seat: 1, who: { name: "Bob", computer: null } }]);
  // Another player in Bob's seat in one snapshot: Bob leaves, then Cleo sits.
  const cleo = { ...withBob, seats: [withBob.seats[0], { player: "p_c", name: "Cleo", computer: 3 }] };
  assert.deepEqual(
    seatingBetween(cleo, withBob).map((c) => [c.kind, c.who.name, c.who.computer]),
    [["leaves", "Bob", null], ["sits", "Cleo", 3]],
  );
  // The same players renamed, the first view of a room, another room: nothing.
  assert.deepEqual(seatingBetween(view("Marta"), withBob), []);
  assert.deepEqual(seatingBetween(withBob, null), []);
  assert.deepEqual(seatingBetween({ ...withBob, room: "r2" }, alone), []);
});

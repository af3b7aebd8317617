// What losing a tournament's match costs each of its players, said where they may
// concede it or leave it: out, the losers' bracket, a deciding match, the title.

import assert from "node:assert/strict";
import { test } from "node:test";

import { stakeOf } from "../kept.mjs";

/** A tournament of four with the matches given (only what `stakeOf` reads). @param {string} format @param {object[]} matches */
function doc(format, matches) {
  return { format, entrants: ["p0", "p1", "p2", "p3"].map((player) => ({ player })), matches };
}

test("a single elimination puts its losers out, and its final's loser loses the title", () => {
  const first = { bracket: "winners", round: 1, seeds: [1, 4] };
  const final = { bracket: "winners", round: 2, seeds: [1, 2] };
  const single = doc("single", [first, { bracket: "winners", round: 1, seeds: [2, 3] }, final]);
  assert.deepEqual(["p0", "p3"].map((p) => stakeOf(single, first, p)), ["out", "out"]);
  assert.deepEqual(["p0", "p1"].map((p) => stakeOf(single, final, p)), ["title", "title"]);
});

test("a double elimination sends the winners' side down, puts the losers' side out, and the grand final's unbeaten player to a decider", () => {
  const winners = { bracket: "winners", round: 1, seeds: [1, 4] };
  const losers = { bracket: "losers", round: 1, seeds: [4, 3] };
  const gf1 = { bracket: "final", round: 1, seeds: [1, 3] };
  const gf2 = { bracket: "final", round: 2, seeds: [3, 1] };
  const double = doc("double", [winners, losers, gf1, gf2]);
  assert.deepEqual(["p0", "p3"].map((p) => stakeOf(double, winners, p)), ["losers", "losers"]);
  assert.deepEqual(["p3", "p2"].map((p) => stakeOf(double, losers, p)), ["out", "out"]);
  assert.deepEqual(["p0", "p2"].map((p) => stakeOf(double, gf1, p)), ["decider", "title"]);
  assert.deepEqual(["p2", "p0"].map((p) => stakeOf(double, gf2, p)), ["title", "title"]);
});

test("a double elimination of two has no losers' bracket: its first match's loser meets the winner again in the grand final", () => {
  const first = { id: "W1-1", bracket: "winners", round: 1, seeds: [1, 2] };
  const gf1 = { id: "GF1", bracket: "final", round: 1, seeds: [null, null], feeds: [["winner", "W1-1"], ["loser", "W1-1"]] };
  const two = { format: "double", entrants: [{ player: "p0" }, { player: "p1" }], matches: [first, gf1] };
  assert.deepEqual(["p0", "p1"].map((p) => stakeOf(two, first, p)), ["grandFinal", "grandFinal"]);
  // With a losers' bracket, a winners' match's loser goes down to it.
  const l1 = { id: "L1-1", bracket: "losers", round: 1, seeds: [null, null], feeds: [["loser", "W1-1"], ["loser", "W1-2"]] };
  const four = { ...two, matches: [first, l1, gf1] };
  assert.equal(stakeOf(four, first, "p0"), "losers");
});

test("a player who is not in the match, or not in the tournament, has nothing at stake", () => {
  const winners = { bracket: "winners", round: 1, seeds: [1, 4] };
  const single = doc("single", [winners]);
  assert.equal(stakeOf(single, winners, "p1"), null);
  assert.equal(stakeOf(single, winners, "stranger"), null);
  assert.equal(stakeOf(single, winners, undefined), null);
});

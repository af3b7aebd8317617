// The rack a shot was played in, as the server numbers `game_over`'s rack.

import assert from "node:assert/strict";
import { test } from "node:test";

import { shotRack } from "../state.mjs";

test("the shot that ends a rack counts in that rack, not in the next one it brings", () => {
  assert.equal(shotRack({ table: { rack: 2 }, verdict: { new_rack: true } }), 1);
  assert.equal(shotRack({ table: { rack: 2 }, verdict: { new_rack: false } }), 2);
  assert.equal(shotRack({ table: { rack: 3 } }), 3);
});

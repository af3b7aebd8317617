// Which way the table is drawn: upright on a phone held upright whatever the scoreboard
// above it leaves, lying down on a wide window.

import assert from "node:assert/strict";
import { test } from "node:test";

import { objectPathColour } from "../cuepath.mjs";
import { View } from "../render.mjs";

test("a phone held upright keeps the table upright when the scoreboard grows", () => {
  // 390 px wide: the canvas left under a tall scoreboard and a TV banner (~370 px) would
  // draw a lying table a little larger, and it used to turn on every tag that came.
  for (const h of [620, 460, 400, 370, 340]) {
    assert.equal(new View(390, h, true).portrait, true, `height ${h}`);
  }
  // Lying down wins only when it draws the table a quarter larger (a very short canvas).
  assert.equal(new View(390, 220, true).portrait, false);
});

test("a window not held upright lies the table down unless upright is clearly larger", () => {
  assert.equal(new View(390, 370).portrait, false);
  assert.equal(new View(390, 620).portrait, true);
  assert.equal(new View(1280, 640).portrait, false);
  assert.equal(new View(1280, 640, true).portrait, false);
});

test("the chosen way draws the whole table inside the canvas", () => {
  for (const [w, h, up] of [[390, 370, true], [390, 620, true], [1280, 640, false], [390, 220, true]]) {
    const v = new View(w, h, /** @type {boolean} */ (up));
    for (const [x, y] of [[0, 0], [2.54, 1.27], [0, 1.27], [2.54, 0]]) {
      const [sx, sy] = v.toScreen(x, y);
      assert.ok(sx >= 0 && sx <= w && sy >= 0 && sy <= h, `${w}x${h}: ${sx},${sy}`);
    }
  }
});

test("the object ball's path is green into a pocket, but not when the line meets a wrong ball first", () => {
  const green = objectPathColour(true, false);
  assert.notEqual(green, objectPathColour(false, false));
  // A red ghost ball (the wrong ball first: a foul) over a green path read as a good shot.
  assert.equal(objectPathColour(true, true), objectPathColour(false, false));
});

// Table geometry shared by the renderer, the aiming helpers and the ball-in-hand checks.
//
// The numbers mirror the server's `server.physics.TABLE` (WPA 9-ft table): metres,
// origin where the head-rail nose meets the y = 0 side-rail nose, x toward the foot
// rail. The server stays the referee; these values only decide what the client draws
// and what it warns about before a placement is sent.

/** Ball radius in metres (2.25 in diameter). */
export const BALL_RADIUS = 0.028575;

/**
 * @typedef {{ id: string, x: number, y: number, mouth: number, corner: boolean }} Pocket
 * `x`, `y` is the pocket's centre on the cushion-nose line; `mouth` the opening between
 * the jaw points in metres.
 */

/**
 * @typedef {object} TableGeometry
 * @property {number} length playing surface along x, nose to nose
 * @property {number} width playing surface along y
 * @property {number} ballRadius
 * @property {number} headStringX the kitchen is x <= headStringX
 * @property {[number, number]} footSpot
 * @property {[number, number]} headSpot
 * @property {number} railWidth cushion + wood rail width drawn around the bed
 * @property {number} cushionWidth rubber cushion width inside the rail
 * @property {Pocket[]} pockets
 */

const LENGTH = 2.54;
const WIDTH = 1.27;
const CORNER_MOUTH = 0.1143;
const SIDE_MOUTH = 0.127;

/** @type {TableGeometry} */
export const TABLE = Object.freeze({
  length: LENGTH,
  width: WIDTH,
  ballRadius: BALL_RADIUS,
  headStringX: LENGTH / 4,
  footSpot: /** @type {[number, number]} */ ([(3 * LENGTH) / 4, WIDTH / 2]),
  headSpot: /** @type {[number, number]} */ ([LENGTH / 4, WIDTH / 2]),
  railWidth: 0.1,
  cushionWidth: 0.045,
  pockets: [
    { id: "H0", x: 0, y: 0, mouth: CORNER_MOUTH, corner: true },
    { id: "H1", x: 0, y: WIDTH, mouth: CORNER_MOUTH, corner: true },
    { id: "S0", x: LENGTH / 2, y: 0, mouth: SIDE_MOUTH, corner: false },
    { id: "S1", x: LENGTH / 2, y: WIDTH, mouth: SIDE_MOUTH, corner: false },
    { id: "F0", x: LENGTH, y: 0, mouth: CORNER_MOUTH, corner: true },
    { id: "F1", x: LENGTH, y: WIDTH, mouth: CORNER_MOUTH, corner: true },
  ],
});

/** Human names for the rails and pockets, used in verdict texts and labels. */
export const POCKET_NAMES = Object.freeze({
  H0: "head corner (near side)",
  H1: "head corner (far side)",
  S0: "side pocket (near)",
  S1: "side pocket (far)",
  F0: "foot corner (near side)",
  F1: "foot corner (far side)",
});

/**
 * Standard ball colours (solid 1–8, the 9 yellow-striped). Index = ball number.
 * @type {readonly string[]}
 */
export const BALL_COLOURS = Object.freeze([
  "#f8f6ee", // cue
  "#f2c200", // 1 yellow
  "#1c3fb8", // 2 blue
  "#d4231b", // 3 red
  "#5b2a86", // 4 purple
  "#f06a00", // 5 orange
  "#157a3a", // 6 green
  "#7a1f1f", // 7 maroon
  "#141414", // 8 black
  "#f2c200", // 9 yellow stripe
]);

/** @param {number} n @returns {boolean} */
export function isStriped(n) {
  return n >= 9;
}

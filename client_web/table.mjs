// Table geometry shared by the renderer, the aiming helpers and the ball-in-hand checks.
//
// The numbers mirror the server's `server.physics.TABLE` (WPA 9-ft table): metres,
// origin where the head-rail nose meets the y = 0 side-rail nose, x toward the foot
// rail. The server stays the referee; these values only decide what the client draws
// and what it warns about before a placement is sent.

/** Ball radius in metres (2.25 in diameter). */
export const BALL_RADIUS = 0.028575;

/**
 * @typedef {{ id: string, x: number, y: number, mouth: number, corner: boolean, hole: [number, number], holeRadius: number, jaws: [[number, number], [number, number]], tips: [[number, number], [number, number]] }} Pocket
 * `x`, `y` is where the pocket meets the cushion-nose lines (the corner, or the middle
 * of the side rail); `mouth` the opening between the jaw points in metres; `hole` and
 * `holeRadius` the circle a ball drops into (a shelf depth past the mouth line); `jaws`
 * the two jaw points on the nose lines, and `tips` the centres of their rounded points
 * (radius `JAW_TIP_RADIUS`), which a ball that drops cleanly passes without touching.
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
 * @property {number} diamondOffset from the cushion nose out to the diamond sights
 * @property {Pocket[]} pockets
 */

const LENGTH = 2.54;
const WIDTH = 1.27;
const CORNER_MOUTH = 0.1159;
const SIDE_MOUTH = 0.1286;
const CORNER_HOLE = 0.07;
const SIDE_HOLE = 0.065;
/** Mouth line to the hole's edge along the pocket axis. */
const CORNER_SHELF = 0.03;
const SIDE_SHELF = 0.0095;
/** How far the corner holes sit out from the corner along the diagonal, per axis. */
const CORNER_HOLE_OFFSET = (CORNER_SHELF + CORNER_HOLE) / Math.SQRT2 - CORNER_MOUTH / (2 * Math.SQRT2);
const SIDE_HOLE_OFFSET = SIDE_SHELF + SIDE_HOLE;

/** Degrees between the cushion nose and the jaw's facing, through the cushion (WPA). */
const CORNER_JAW_ANGLE = 142;
const SIDE_JAW_ANGLE = 103;
/** The rounded point of a jaw, in metres. */
export const JAW_TIP_RADIUS = 0.004;

/**
 * The centre of a jaw's rounded point, as the server builds it: a circle tangent to the
 * nose (running `along`, away from the pocket) and to the facing cut back into the rail
 * (`out`) at `angle` degrees. @param {[number, number]} point
 * @param {[number, number]} along @param {[number, number]} out @param {number} angle
 * @returns {[number, number]}
 */
function tipCentre(point, along, out, angle) {
  const a = (angle * Math.PI) / 180;
  const facing = [Math.cos(a) * along[0] + Math.sin(a) * out[0], Math.cos(a) * along[1] + Math.sin(a) * out[1]];
  const bx = along[0] + facing[0];
  const by = along[1] + facing[1];
  const k = JAW_TIP_RADIUS / Math.sin(a / 2) / Math.hypot(bx, by);
  return [point[0] + bx * k, point[1] + by * k];
}

/**
 * @param {string} id @param {number} x @param {number} y @param {number} dx @param {number} dy
 * @returns {Pocket}
 */
function corner(id, x, y, dx, dy) {
  const k = CORNER_HOLE_OFFSET;
  const d = CORNER_MOUTH / Math.SQRT2;
  /** @type {[number, number]} */ const alongX = [x - dx * d, y];
  /** @type {[number, number]} */ const alongY = [x, y - dy * d];
  return {
    id, x, y, mouth: CORNER_MOUTH, corner: true, hole: [x + dx * k, y + dy * k], holeRadius: CORNER_HOLE,
    jaws: [alongX, alongY],
    tips: [tipCentre(alongX, [-dx, 0], [0, dy], CORNER_JAW_ANGLE), tipCentre(alongY, [0, -dy], [dx, 0], CORNER_JAW_ANGLE)],
  };
}

/** @param {string} id @param {number} y @param {number} dy @returns {Pocket} */
function side(id, y, dy) {
  const x = LENGTH / 2;
  const s = SIDE_MOUTH / 2;
  /** @type {[number, number]} */ const head = [x - s, y];
  /** @type {[number, number]} */ const foot = [x + s, y];
  return {
    id, x, y, mouth: SIDE_MOUTH, corner: false, hole: [x, y + dy * SIDE_HOLE_OFFSET], holeRadius: SIDE_HOLE,
    jaws: [head, foot],
    tips: [tipCentre(head, [-1, 0], [0, dy], SIDE_JAW_ANGLE), tipCentre(foot, [1, 0], [0, dy], SIDE_JAW_ANGLE)],
  };
}

/** @type {TableGeometry} */
export const TABLE = Object.freeze({
  length: LENGTH,
  width: WIDTH,
  ballRadius: BALL_RADIUS,
  headStringX: LENGTH / 4,
  footSpot: /** @type {[number, number]} */ ([(3 * LENGTH) / 4, WIDTH / 2]),
  headSpot: /** @type {[number, number]} */ ([LENGTH / 4, WIDTH / 2]),
  railWidth: 0.135,
  cushionWidth: 0.045,
  diamondOffset: 0.0935,
  pockets: [
    corner("H0", 0, 0, -1, -1),
    corner("H1", 0, WIDTH, -1, 1),
    side("S0", 0, -1),
    side("S1", WIDTH, 1),
    corner("F0", LENGTH, 0, 1, -1),
    corner("F1", LENGTH, WIDTH, 1, 1),
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

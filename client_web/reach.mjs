// How far a shot carries, in the unit players think in: table lengths.
//
// A speed in m/s means little to someone who has never measured one; "about two table
// lengths" is how players talk about speed (a lag is two lengths, a soft stop shot less
// than half). The figures are the server's own physics, not a formula of the client's:
// `REACH` holds, for a level centre-ball stroke, how many lengths the cue ball travels
// straight up and down the table, cushions included, before it stops — what
// `server.physics.simulate` gives with the default coefficients.
// `tests/browser/test_reach_parity.py` runs the engine on the same speeds and fails (printing
// the new table) if they ever part.

import { num, t } from "./i18n/index.mjs";

/**
 * [speed (m/s), lengths] for a level centre-ball stroke from one end cushion straight to the
 * other: the ball's centre travels (2.54 m − 2 radii) for one length.
 * @type {ReadonlyArray<readonly [number, number]>}
 */
export const REACH = [
  [0.2, 0.044], [0.3, 0.099], [0.4, 0.176], [0.5, 0.274], [0.6, 0.395], [0.7, 0.538], [0.8, 0.702],
  [0.9, 0.889], [1, 1.041], [1.1, 1.130], [1.2, 1.224], [1.3, 1.323], [1.4, 1.427], [1.5, 1.536],
  [1.6, 1.651], [1.7, 1.771], [1.8, 1.895], [1.9, 2.010], [2, 2.064], [2.1, 2.117], [2.2, 2.171],
  [2.3, 2.224], [2.4, 2.279], [2.5, 2.334], [2.6, 2.390], [2.7, 2.447], [2.8, 2.504], [2.9, 2.562],
  [3, 2.621], [3.25, 2.772], [3.5, 2.925], [3.75, 3.034], [4, 3.097], [4.25, 3.158], [4.5, 3.247],
  [4.75, 3.409], [5, 3.554], [5.25, 3.696], [5.5, 3.834], [5.75, 3.968], [6, 4.041], [6.5, 4.141],
  [7, 4.233], [7.5, 4.320], [8, 4.410], [8.5, 4.597], [9, 4.739], [9.5, 4.874], [10, 5.000],
  [10.5, 5.050], [11, 5.095], [11.5, 5.136], [12, 5.176],
];

/**
 * Table lengths a level centre-ball stroke at `speed` carries (linear between the
 * tabulated speeds; 0 for no speed).
 * @param {number} speed m/s
 */
export function tableLengths(speed) {
  if (!(speed > 0)) return 0;
  const first = REACH[0];
  if (speed <= first[0]) return (first[1] * speed) / first[0];
  for (let i = 1; i < REACH.length; i++) {
    const [v1, l1] = REACH[i];
    if (speed <= v1) {
      const [v0, l0] = REACH[i - 1];
      return l0 + ((l1 - l0) * (speed - v0)) / (v1 - v0);
    }
  }
  return REACH[REACH.length - 1][1];
}

const QUARTERS = ["", "¼", "½", "¾"];

/**
 * In words, as a player would say it: quarters below one length, halves up to five, whole
 * lengths beyond. "≈ ¾ of a table length", "≈ 1½ table lengths", "≈ 7 table lengths";
 * `short` drops "table" (and "of a") where space is tight: "≈ 1½ lengths".
 * @param {number} speed m/s
 * @param {{ short?: boolean }} [options]
 */
export function describeReach(speed, options = {}) {
  const lengths = tableLengths(speed);
  const long = !options.short;
  if (lengths < 0.125) return t(long ? "reach.underLong" : "reach.under");
  if (lengths < 0.875) return t(long ? "reach.fracLong" : "reach.frac", { v: QUARTERS[Math.round(lengths * 4)] });
  const step = lengths < 5 ? 2 : 1;
  const rounded = Math.round(lengths * step) / step;
  const whole = Math.floor(rounded);
  const text = `${num(whole, 0)}${rounded > whole ? "½" : ""}`;
  return t(long ? "reach.approxLong" : "reach.approx", { n: rounded, v: text });
}

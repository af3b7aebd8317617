// The lag's two balls, named: while they roll and where they stop, at the table and in a
// replay (O6). One place for where they rest, their name tags and the seats' colours.

import { t } from "./i18n/index.mjs";
import { ShotPlayback, normaliseTracks } from "./playback.mjs";
import { TABLE } from "./table.mjs";
import { decodeTracks } from "./trajectory.mjs";

/** @typedef {import("./playback.mjs").BallFrame} BallFrame */
/** @typedef {Record<string, any>} Msg */

/** Colours that tell the two seats' lag balls apart. */
const SEAT_COLOURS = ["#f2c200", "#7fb4ff"];

/** @typedef {{ seat: number, pos: [number, number] }} LagBall */

/**
 * Where a lag's balls stopped, each with its seat (a ball that fell has no rest).
 * @param {Msg} lag a `lag_result` @returns {LagBall[]}
 */
export function lagRest(lag) {
  return (lag.lags ?? []).filter((/** @type {Msg} */ l) => l.final && l.fault_code !== "late").map((/** @type {Msg} */ l) => ({ seat: l.seat, pos: l.final }));
}

/**
 * One lag's ball as it rolls (a `lag_result`'s `lags[i]`): its tracks, none for a lag not
 * played in time (O6: `traj` empty) — a ball never played is not drawn, rolling or after.
 * @param {Msg} l
 */
export function lagTracks(l) {
  return l.traj?.length ? normaliseTracks(decodeTracks(l.traj)) : new Map();
}

/** One lag played back (nothing, for a lag not played in time). @param {Msg} l */
export function lagPlayback(l) {
  return new ShotPlayback(lagTracks(l), l.duration, null);
}

/**
 * Where a seat's lag ball waits to be played, as the server places it (`lag_spot` in
 * `server/physics/lag.py`): 10 cm behind the head string, in the middle of its half.
 * @param {number} seat @returns {[number, number]}
 */
export function lagSpot(seat) {
  return [TABLE.headStringX - 0.1, TABLE.width * (seat === 0 ? 0.25 : 0.75)];
}

/** Both lag balls at their spots, each with its seat: the table before the lag is played. @returns {LagBall[]} */
export function lagStarts() {
  return [0, 1].map((seat) => ({ seat, pos: lagSpot(seat) }));
}

/** The resting lag balls as drawn, each marked with its seat. @param {LagBall[]} rest @returns {BallFrame[]} */
export function lagFrames(rest) {
  return rest.map((l) => ({ n: 0, x: l.pos[0], y: l.pos[1], wx: 0, wy: 0, wz: 0, seat: l.seat }));
}

/**
 * The name tags of the balls that carry a seat (the lag's), in its player's colour.
 * @param {BallFrame[]} balls @param {readonly string[]} names
 */
export function lagTags(balls, names) {
  return balls.filter((b) => b.seat !== undefined).map((b) => ({ x: b.x, y: b.y, text: t("lag.ball", { name: names[b.seat ?? 0] }), colour: SEAT_COLOURS[b.seat ?? 0] }));
}

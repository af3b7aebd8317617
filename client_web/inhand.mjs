// The cue ball in hand put down at the table: by a drag, once, as it is let go; by the
// keys (W/A/S/D, `input.mjs`), once they rest — each placement is a line of the game's
// record, and a replay listed one for every press. A shot asked for meanwhile (Space, the
// Shoot button, a pull on the cue, the phone's strip) puts down the ball the keys are still
// moving, waits for the placement on its way, and is struck from where that put the ball —
// or not at all if it was refused (it was struck from the old place).

import { round6 } from "./aim.mjs";
import { app, handled } from "./state.mjs";

/** How long the keys must rest before the cue ball they moved is put down (ms). */
export const KEY_PLACE_MS = 400;

/** @typedef {[number, number]} Vec */

/** @param {(msg: Record<string, unknown>) => Promise<unknown>} act sends a request; null when refused */
export function inHand(act) {
  /** The placement on its way, if any. @type {Promise<boolean> | null} */
  let sending = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  /** Sends a placement; resolves with whether the server took it. @param {Vec} pos */
  function place(pos) {
    app.placedPending = pos;
    const sent = (async () => {
      const ok = await act({ t: "place", pos: [round6(pos[0]), round6(pos[1])] });
      if (!ok) {
        if (app.placedPending === pos) app.placedPending = null;
        return false;
      }
      app.movedInHand = true;
      handled();
      // Accepted: the ball is there, whether its `placed` has come yet or not.
      if (app.placedPending === pos && app.table) {
        app.table = { ...app.table, balls: [[round6(pos[0]), round6(pos[1])], ...app.table.balls.slice(1)] };
        if (app.view) app.view.table = app.table;
        app.placedPending = null;
      }
      return true;
    })();
    sending = sent;
    void sent.finally(() => {
      if (sending === sent) sending = null;
    });
    return sent;
  }

  /** The keys moved the ball to `pos`: shown at once, put down once they rest. @param {Vec} pos */
  function nudge(pos) {
    app.keyPlace = pos;
    clearTimeout(timer);
    timer = setTimeout(() => {
      const at = take();
      if (at) void place(at);
    }, KEY_PLACE_MS);
  }

  /** The keys' position, no longer to be sent (a drag or a new turn takes over). */
  function take() {
    clearTimeout(timer);
    const at = app.keyPlace;
    app.keyPlace = null;
    return at;
  }

  /** Before a shot: the keys' ball put down, any placement answered. False: refused. */
  async function settled() {
    const at = take();
    if (at) void place(at);
    return sending ? sending : true;
  }

  return { place, nudge, take, settled };
}

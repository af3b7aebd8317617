// Where each rack of a match lies in its replay's events. Pure (no DOM), so the replay
// page and the tests share one reading of the log.

/** @typedef {Record<string, any>} Msg */

/** Events that hold no play: a table's state, chat, players coming and going. @param {Msg} e */
function aside(e) {
  return e.t === "snapshot" || e.t === "chat" || e.t === "presence";
}

/**
 * Where rack 1 starts: at its first event of play, or, where that event rolls on the table
 * (a lag, a break), at the table just before it, so that it is the next step and is seen
 * rolling. The room waiting for its players before that is the whole match's, not the
 * rack's.
 * @param {Msg[]} events
 */
function firstRackStart(events) {
  const play = events.findIndex((e) => !aside(e));
  if (play < 0) {
    // Nothing played yet: from the first table no longer waiting, else all there is.
    return Math.max(0, events.findIndex((e) => e.t === "snapshot" && e.view?.status !== "waiting"));
  }
  const first = events[play];
  const rolls = first.t === "shot_result" || (first.t === "lag_result" && first.lags?.length > 0);
  if (!rolls) return play; // a draw for the break: nothing to watch roll
  for (let i = play - 1; i >= 0; i--) if (events[i].t === "snapshot") return i;
  return play;
}

/**
 * The events of one rack: rack 1 runs from the start of play (the lag included) to its
 * `game_over`, each later rack from the event after the previous `game_over`; a rack still
 * being played runs to the last event.
 * @param {Msg[]} events @param {number} rack
 * @returns {[number, number] | null} its first and last index, null for a rack never reached
 */
export function rackBounds(events, rack) {
  let current = 1;
  let lo = -1;
  const start = rack === 1 ? firstRackStart(events) : 0;
  for (let i = start; i < events.length; i++) {
    const e = events[i];
    if (current === rack && lo < 0) lo = i;
    if (e.t === "game_over") {
      if (current === rack) return [lo, i];
      current = Number(e.rack) + 1;
    }
  }
  return lo >= 0 ? [lo, events.length - 1] : null;
}

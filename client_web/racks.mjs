// Where each rack of a match lies in its replay's events. Pure (no DOM), so the replay
// page and the tests share one reading of the log.

/** @typedef {Record<string, any>} Msg */

/**
 * Before rack 1's play: the table waiting for its players (its `waiting` snapshots) and
 * whatever was said or who came and went meanwhile.
 * @param {Msg} e
 */
function beforePlay(e) {
  return (e.t === "snapshot" && e.view?.status === "waiting") || e.t === "chat" || e.t === "presence";
}

/**
 * Where rack 1 starts: at its first event of play, or, where that event plays out on the
 * table (a lag, a break), at the last table before it (both players at it) so that it is
 * the next step and is seen rolling. The waiting room before that is the whole match's,
 * not the rack's.
 * @param {Msg[]} events
 */
function firstRackStart(events) {
  const play = events.findIndex((e) => !beforePlay(e));
  if (play < 0) return 0; // a room that never began play: all it has is its rack 1
  const first = events[play];
  const rolls = first.t === "shot_result" || (first.t === "lag_result" && first.lags?.length > 0);
  if (!rolls) return play; // a table as play begins, a draw for the break: nothing to watch roll
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

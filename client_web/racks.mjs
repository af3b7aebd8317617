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
 * Where match `match` lies in a room's events: from the event after the previous match's
 * `match_over` (a rematch's waiting and lag included) to its own `match_over`, or to the
 * last event while it is played. @param {Msg[]} events @param {number} match
 * @returns {[number, number] | null} null for a match never begun
 */
export function matchBounds(events, match) {
  let lo = 0;
  let current = 1;
  for (let i = 0; i < events.length; i++) {
    if (events[i].t !== "match_over") continue;
    if (current === match) return [lo, i];
    current += 1;
    lo = i + 1;
  }
  if (current !== match || lo >= events.length) return null;
  // A rematch starts where it is begun, not at the finished table's last words (asking for
  // it, chatting, leaving): those are the match before's.
  if (match > 1) {
    while (lo < events.length - 1 && aside(events[lo]) && (events[lo].t !== "snapshot" || events[lo].view?.status === "finished")) lo++;
  }
  // A rematch asked for but never begun (players chatting, leaving) is no match: the first
  // shows whatever the room has.
  return match === 1 || events.slice(lo).some((e) => !aside(e)) ? [lo, events.length - 1] : null;
}

/**
 * The events of one rack of one match (the room's first unless told: a rematch's racks
 * are numbered from 1 again): rack 1 runs from the start of play (the lag included) to its
 * `game_over`, each later rack from the event after the previous `game_over`; a rack still
 * being played, or conceded with the match, runs to the match's last event.
 * @param {Msg[]} events @param {number} rack @param {number} [match]
 * @returns {[number, number] | null} its first and last index, null for a rack never reached
 */
export function rackBounds(events, rack, match = 1) {
  const within = matchBounds(events, match);
  if (!within) return null;
  const [from, to] = within;
  const part = events.slice(from, to + 1);
  let current = 1;
  let lo = -1;
  const start = rack === 1 ? firstRackStart(part) : 0;
  for (let i = start; i < part.length; i++) {
    const e = part[i];
    if (current === rack && lo < 0) lo = i;
    if (e.t === "game_over") {
      if (current === rack) return [from + lo, from + i];
      current = Number(e.rack) + 1;
    }
  }
  // A later rack with nothing played in it (the match ended with the game before) is none.
  const played = lo >= 0 && part.slice(lo).some((e) => !aside(e) && e.t !== "match_over");
  return lo >= 0 && (rack === 1 || played) ? [from + lo, to] : null;
}

/**
 * A rack's place in the replay addresses (`/replay/…`, `#/replay/…`): the room and the
 * rack, with the match before the rack from the second on (a rematch's racks count from 1
 * again). @param {string} room @param {number} rack @param {number} [match]
 */
export function rackAddress(room, rack, match = 1) {
  return `${encodeURIComponent(room)}/${match > 1 ? `${match}/` : ""}${rack}`;
}

/**
 * Where "Last" goes in events `lo`…`hi`: the last event of play (the match's result, say),
 * not the players leaving or chatting after it; `hi` when nothing was played.
 * @param {Msg[]} events @param {number} lo @param {number} hi
 */
export function lastPlay(events, lo, hi) {
  for (let i = hi; i >= lo; i--) if (!aside(events[i])) return i;
  return hi;
}

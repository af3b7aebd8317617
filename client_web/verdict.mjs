// Verdicts in plain words, each with the rule it comes from.
//
// The server is the referee and sends the reasons as `[rule_id, sentence]`; this module
// only puts them into one line a player can read at a glance ("Foul: no rail after
// contact (R9) — ball in hand for Bob") plus the details underneath. Pure functions.

/** Short plain names of the rules, used when the server gives a rule id without a sentence. */
export const RULE_WORDS = Object.freeze({
  R1: "the lowest ball must be hit first",
  R2: "racking and the kitchen",
  R4: "illegal break: hit the 1 first and pocket a ball or drive four balls to a rail",
  R6: "push-out",
  R7: "foul",
  R8: "wrong ball first",
  R9: "no rail after contact",
  R10: "ball in hand",
  R11: "ball off the table",
  R13: "three consecutive fouls",
  R14: "stalemate",
  G1: "scratch: the cue ball went in or off the table",
  G3: "the 9 is spotted",
  G4: "the 9 pocketed on a foul is spotted",
  G5: "the 9 pocketed on a legal shot wins",
  O3: "the shot clock ran out",
  O4: "conceded",
  O5: "forfeit after a disconnect",
});

/**
 * @typedef {object} Verdict the wire `VerdictView`, read leniently
 * @property {boolean} foul
 * @property {string[]} [fouls]
 * @property {Array<[string, string] | string>} [reasons]
 * @property {Array<[string, string] | string>} [notes]
 * @property {number[]} [spotted]
 * @property {boolean} [game_over]
 * @property {number | null} [game_winner]
 * @property {string | null} [game_end]
 * @property {boolean} [match_over]
 * @property {number | null} [match_winner]
 * @property {boolean} [new_rack]
 * @property {number[] | number | null} [warned]
 * @property {boolean} [stalemate]
 */

/**
 * @typedef {object} Described
 * @property {string} headline the one line that says what happened
 * @property {"foul" | "good" | "neutral" | "win"} tone
 * @property {string[]} details the rest, each ending with its rule id
 */

/** @param {readonly string[]} names @param {number | null | undefined} seat */
function who(names, seat) {
  if (seat === null || seat === undefined) return "nobody";
  return names[seat] || `Player ${seat + 1}`;
}

/** "the 3", "the 3 and the 5", "the 1, the 3 and the 5" @param {readonly number[]} balls */
export function ballList(balls) {
  const parts = balls.map((b) => (b === 0 ? "the cue ball" : `the ${b}`));
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/**
 * Pairs of [rule, sentence] from the verdict's reasons, falling back on the rule ids.
 * @param {Verdict} v @returns {[string, string][]}
 */
export function foulReasons(v) {
  /** @type {[string, string][]} */
  const out = [];
  for (const r of v.reasons ?? []) {
    if (Array.isArray(r) && r.length >= 2) out.push([String(r[0]), String(r[1])]);
    else if (typeof r === "string") out.push(["", r]);
  }
  if (out.length === 0) {
    for (const id of v.fouls ?? []) out.push([id, /** @type {Record<string, string>} */ (RULE_WORDS)[id] ?? "foul"]);
  }
  return out;
}

/** @param {[string, string]} pair */
function withRule([rule, sentence]) {
  return rule ? `${sentence} (${rule})` : sentence;
}

/** @param {Verdict} v @returns {string[]} */
function noteLines(v) {
  /** @type {string[]} */
  const out = [];
  for (const n of v.notes ?? []) {
    if (Array.isArray(n) && n.length >= 2) out.push(withRule([String(n[0]), String(n[1])]));
    else if (typeof n === "string") out.push(n);
  }
  if (out.length === 0 && (v.spotted ?? []).includes(9)) out.push("The 9 is spotted on the foot spot (G3)");
  return out;
}

/** @param {string} s */
function capitalise(s) {
  return s.length ? s[0].toUpperCase() + s.slice(1) : s;
}

/**
 * @param {Verdict} v @param {readonly string[]} names
 * @param {{ turn?: number | null, ball_in_hand?: string | null, choice_pending?: boolean } | null} next
 *   the table after the action
 */
function foulHeadline(v, names, next) {
  const reasons = foulReasons(v).map(withRule).join("; ");
  let tail = "";
  if (next && next.turn !== null && next.turn !== undefined && !v.game_over) {
    tail = next.ball_in_hand ? ` — ball in hand for ${who(names, next.turn)}` : ` — ${who(names, next.turn)} to shoot`;
  }
  return `Foul: ${reasons}${tail}`;
}

/** @param {Verdict} v @param {readonly string[]} names */
function gameOverHeadline(v, names) {
  const end = v.game_end;
  if (v.stalemate || end === "stalemate") return "Stalemate (R14): the rack is replayed, the same player breaks";
  const winner = who(names, v.game_winner);
  const how =
    end === "three_fouls"
      ? "three consecutive fouls by the opponent (R13)"
      : end === "concede"
        ? "the opponent conceded (O4)"
        : end === "forfeit"
          ? "the opponent forfeited (O5)"
          : "the 9 pocketed on a legal shot (G5)";
  const prefix = v.match_over ? `${winner} wins the match` : `${winner} wins the rack`;
  return `${prefix}: ${how}`;
}

/**
 * Describes a `shot_result`.
 * @param {{ shooter: number, shot: { push_out?: boolean }, miscue?: boolean,
 *   report: { pocketed: number[], first: number | null },
 *   verdict: Verdict, table: { turn: number | null, ball_in_hand: string | null, choice_pending: boolean } }} result
 * @param {readonly string[]} names seat → display name
 * @returns {Described}
 */
export function describeShot(result, names) {
  const v = result.verdict;
  const shooter = who(names, result.shooter);
  const details = [];
  if (result.miscue) details.push("Miscue: the tip slipped off the cue ball (tip offset past 0.5, O2)");
  const pocketed = (result.report.pocketed ?? []).filter((b) => b !== 0);
  if (v.foul) {
    const foulsDetails = noteLines(v);
    const headline = v.game_over ? gameOverHeadline(v, names) : foulHeadline(v, names, result.table);
    if (v.game_over) details.unshift(foulHeadline(v, names, null));
    return { headline, tone: v.game_over ? "win" : "foul", details: [...details, ...foulsDetails] };
  }
  if (v.game_over) {
    return { headline: gameOverHeadline(v, names), tone: "win", details: [...details, ...noteLines(v)] };
  }
  const next = result.table;
  if (result.shot.push_out) {
    const down = pocketed.length ? `; ${ballList(pocketed)} stay${pocketed.length === 1 ? "s" : ""} down (R6)` : "";
    return {
      headline: `${shooter} pushes out (R6)${down} — ${who(names, next.turn)} chooses: shoot or pass`,
      tone: "neutral",
      details: [...details, ...noteLines(v)],
    };
  }
  if (pocketed.length > 0 && next.turn === result.shooter) {
    return {
      headline: `${shooter} pockets ${ballList(pocketed)} — ${shooter} shoots again`,
      tone: "good",
      details: [...details, ...noteLines(v)],
    };
  }
  const nextName = who(names, next.turn);
  const what = result.report.first === null ? "no ball hit" : "no ball pocketed";
  return {
    headline: `${capitalise(what)} — ${nextName} to shoot`,
    tone: "neutral",
    details: [...details, ...noteLines(v)],
  };
}

/**
 * Describes a `ruling` (a referee decision that is not a shot).
 * @param {{ by: number | null, action: string, verdict: Verdict | null,
 *   table: { turn: number | null, ball_in_hand: string | null, choice_pending: boolean, breaker?: number } }} ruling
 * @param {readonly string[]} names
 * @returns {Described}
 */
export function describeRuling(ruling, names) {
  const by = who(names, ruling.by);
  const v = ruling.verdict;
  const details = v ? noteLines(v) : [];
  const next = ruling.table;
  const other = ruling.by === null ? null : 1 - ruling.by;
  switch (ruling.action) {
    case "choose_shoot":
      return { headline: `${by} chooses to shoot from the position left (R6)`, tone: "neutral", details };
    case "choose_pass":
      return { headline: `${by} passes the shot back — ${who(names, next.turn)} to shoot (R6)`, tone: "neutral", details };
    case "concede_game":
    case "concede_match": {
      const what = ruling.action === "concede_match" ? "match" : "game";
      const head = v && v.game_over ? ` — ${gameOverHeadline(v, names)}` : "";
      return { headline: `${by} concedes the ${what} (O4)${head}`, tone: "win", details };
    }
    case "stalemate_propose":
      return {
        headline: `${by} proposes a stalemate (R14) — ${who(names, other)} may accept`,
        tone: "neutral",
        details,
      };
    case "stalemate_accept":
      return {
        headline: `${by} accepts: stalemate warning in force (R14) — three more innings each without a ball pocketed and the rack is replayed`,
        tone: "neutral",
        details,
      };
    case "clock_expired":
      return {
        headline: v && v.foul ? foulHeadline(v, names, next) : `Shot clock ran out for ${by} (O3)`,
        tone: "foul",
        details,
      };
    case "forfeit":
      return {
        headline: `${by} stayed away too long and forfeits (O5)${v && v.game_over ? ` — ${gameOverHeadline(v, names)}` : ""}`,
        tone: "win",
        details,
      };
    case "extension":
      return { headline: `${by} takes a shot-clock extension (O3)`, tone: "neutral", details };
    case "lag_choice":
      return {
        headline:
          next.breaker === ruling.by
            ? `${by} chooses to break the first game (R3)`
            : `${by} lets ${who(names, next.breaker ?? null)} break the first game (R3)`,
        tone: "neutral",
        details,
      };
    default:
      return { headline: `${by}: ${ruling.action}`, tone: "neutral", details };
  }
}

/**
 * The lag result in words.
 * @param {{ method: string, winner: number | null, lags: { seat: number, distance: number | null, fault: string }[] }} lag
 * @param {readonly string[]} names
 */
export function describeLag(lag, names) {
  if (lag.method === "draw") {
    return lag.winner === null ? "Draw for the break: no result" : `${who(names, lag.winner)} wins the draw and chooses who breaks (R3, O6)`;
  }
  const parts = lag.lags.map((l) =>
    l.distance === null
      ? `${who(names, l.seat)}: ${l.fault || "does not count"}`
      : `${who(names, l.seat)}: ${(l.distance * 100).toFixed(1)} cm from the head rail`,
  );
  const head = lag.winner === null ? "Lag again — no winner (O6)" : `${who(names, lag.winner)} wins the lag and chooses who breaks (R3, O6)`;
  return `${head}. ${parts.join(", ")}`;
}

// Verdicts in plain words, each with the rule it comes from, in the reader's language.
//
// The server is the referee and sends rule ids with English sentences; this module words
// each one itself from the rule id and the shot's facts (which ball was hit first, which
// went down or off), so every language reads alike. A line is the plain words first
// (`headline`), with the rule ids apart (`rules`), shown in small print. Pure functions
// of the event, the names and the language.

import { clause, list, num, seatName, t } from "./i18n/index.mjs";

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
 * @property {string[]} [reason_codes] one code per reason (`protocol/verdicts.py`)
 * @property {string[]} [note_codes] one code per note
 */

/** @typedef {{ text: string, rule: string }} Line */

/**
 * @typedef {object} Described
 * @property {string} headline the one line that says what happened, in plain words
 * @property {string[]} rules the rule ids behind it, for the small print
 * @property {"foul" | "good" | "neutral" | "win"} tone
 * @property {Line[]} details the rest, each with its rule id
 * @property {number | null} [next] the seat the headline names as the one to shoot next
 *   ("— Bob to shoot", "ball in hand for Bob", "… and shoots again"), if it names one
 */

/**
 * @typedef {object} ShotFacts what the wording of a foul needs from the shot
 * @property {number | null} [first] the first ball the cue ball touched
 * @property {number[]} [rails] balls that reached a cushion
 * @property {number[]} [pocketed]
 * @property {number[]} [off_table]
 */

/** @param {readonly string[]} names @param {number | null | undefined} seat */
function who(names, seat) {
  if (seat === null || seat === undefined) return t("v.nobody");
  return names[seat] || t("v.playerN", { n: seat + 1 });
}

/**
 * A line's key in the "you" form when the player it names is the reader (`me`, their
 * seat): a player's own page says "ball in hand for you", not their own name (a newcomer
 * did not know the made-up "Igrač-8108" was them). @param {string} key
 * @param {number | null | undefined} seat @param {number | null | undefined} me
 */
function yours(key, seat, me) {
  return me !== null && me !== undefined && seat === me ? `${key}You` : key;
}

/**
 * A line that names two players, the one who acted (`actor`) and the one it turns to
 * (`other`): on the actor's own page the "mine" form ("You push out — Bob chooses"), on
 * the other's the "you" form; a player did not know their own name said back to them
 * ("Marko igra push out" on Marko's page). @param {string} key
 * @param {number | null | undefined} actor @param {number | null | undefined} other
 * @param {number | null | undefined} me
 */
function mine(key, actor, other, me) {
  return me !== null && me !== undefined && actor === me ? `${key}Mine` : yours(key, other, me);
}

/** "3", "3 and 5", "1, 3 and 5": object balls by number, the cue ball by name. @param {readonly number[]} balls */
export function ballList(balls) {
  return list(balls.map((b) => (b === 0 ? t("v.cueBall") : num(b))));
}

/** The server's sentences for notes, and the key each is worded by here. */
const NOTE_KEYS = /** @type {Record<string, string>} */ ({
  "The 9 was pocketed on a legal shot: the game is won": "note.G5",
  "The 9 was pocketed on the break: the game is won": "note.G5.break",
  "The 9 left the table: it is spotted (G3)": "note.R11.nine",
  "The 9 went down on a foul: it is spotted (G3) and does not win": "note.G4",
  "The 9 went down on a push-out: it is spotted (G3)": "note.R6.nine",
  "Legal push-out: the incoming player may shoot or pass the shot back": "note.R6.legal",
  "Legal break: the next shot may be played as a push-out": "note.R5",
  "The break passes to the opponent, cue ball in hand in the kitchen": "note.O3.break",
  "The match was conceded": "note.O4.match",
  "The game was conceded": "note.O4.game",
  "The match was forfeited after a disconnect": "note.O5.match",
  "The game was forfeited after a disconnect": "note.O5.game",
  "Third consecutive foul: the game is lost": "note.R13.third",
  "Second consecutive foul: a third in a row loses the game": "note.R13.second",
  "A ball was pocketed: the stalemate warning is lifted": "note.R14.lifted",
  "Stalemate: the game is re-racked and broken again by the same player": "note.R14.stalemate",
  "A stalemate warning was proposed; the opponent may accept it": "note.R14.proposed",
  "The lag is decided; its winner chose who breaks the first game": "note.O6.decided",
  "The lag goes to the opponent of the player who gave up": "note.O6.gaveUp",
  "The winner of the game breaks the next rack": "note.R3.winner",
  "The loser of the game breaks the next rack": "note.R3.loser",
  "The players break in turn": "note.R3.alternate",
  "The player behind in the match breaks the next rack": "note.R3.behind",
  "The score is level: the previous breaker's opponent breaks the next rack": "note.R3.level",
});

/**
 * A note in the reader's language: a sentence the server is known to send is worded
 * here; the R14 warning by its opening; anything else by its rule's plain name.
 * @param {string} rule @param {string} sentence @param {string} [code] the server's code for it, worded first
 */
function noteText(rule, sentence, code = "") {
  if (code && t(`note.${code}`) !== `note.${code}`) return t(`note.${code}`);
  const key = NOTE_KEYS[sentence] ?? (rule === "R14" && sentence.startsWith("Stalemate warning") ? "note.R14.warning" : null);
  if (key) return t(key);
  return capitalise(t(`rule.${rule}`) === `rule.${rule}` ? sentence : t(`rule.${rule}`));
}

/**
 * One foul in words, from its rule id and the shot's facts.
 * @param {string} rule @param {string} sentence the server's (English) sentence, read only for the balls it names
 * @param {ShotFacts | null} facts @param {number | null | undefined} lowest the lowest ball before the shot
 */
function foulText(rule, sentence, facts, lowest) {
  switch (rule) {
    case "R8": {
      const first = facts?.first ?? numberIn(sentence, /contacted the (\d)/);
      if (first === null || first === undefined) return t("foul.R8.none");
      const low = lowest ?? numberIn(sentence, /\(the (\d)\)/);
      return low === null ? t("rule.R8") : t("foul.R8.wrong", { first: num(first), lowest: num(low) });
    }
    case "R4": {
      const rails = facts?.rails ? new Set(facts.rails.filter((b) => b !== 0)).size : numberIn(sentence, /only (\d)/) ?? 0;
      return rails === 0 ? t("foul.R4.zero") : t("foul.R4", { n: rails });
    }
    case "R9":
      return t("foul.R9");
    case "R11": {
      const off = (facts?.off_table ?? []).filter((b) => b !== 0);
      return off.length ? t("foul.R11", { n: off.length, balls: ballList(off) }) : t("rule.R11");
    }
    case "G1":
      if (facts?.pocketed?.includes(0) || /pocketed/.test(sentence)) return t("foul.G1.pocket");
      return t("foul.G1.off");
    case "O3":
      return t("foul.O3");
    default: {
      const words = t(`rule.${rule}`);
      return words === `rule.${rule}` ? t("foul.other") : words;
    }
  }
}

/** @param {string} s @param {RegExp} re @returns {number | null} */
function numberIn(s, re) {
  const m = re.exec(s);
  return m ? Number(m[1]) : null;
}

/**
 * The fouls of a verdict as [rule, words] pairs: the server's reasons in order, or the
 * rule ids alone when it gave none.
 * @param {Verdict} v @param {ShotFacts | null} [facts] @param {number | null} [lowest]
 * @returns {[string, string][]}
 */
export function foulReasons(v, facts = null, lowest = null) {
  /** @type {[string, string][]} */
  const out = [];
  for (const [i, r] of (v.reasons ?? []).entries()) {
    if (!Array.isArray(r) || r.length < 2) continue;
    const code = v.reason_codes?.[i] ?? "";
    // Without the shot's facts, a code that needs none is worded as it stands.
    const plain = !facts && ["R8.none", "R9", "G1.pocket", "G1.off", "R4.zero"].includes(code);
    out.push([String(r[0]), plain ? t(`foul.${code}`) : foulText(String(r[0]), String(r[1]), facts, lowest)]);
  }
  if (out.length === 0) for (const id of v.fouls ?? []) out.push([id, foulText(id, "", facts, lowest)]);
  return out;
}

/**
 * The verdict's notes in words. After the room's draw (`draw`: no lag was played) the O6
 * note that the lag is decided says the draw instead.
 * @param {Verdict} v @param {boolean} [draw] @returns {Line[]}
 */
function noteLines(v, draw = false) {
  /** @type {Line[]} */
  const out = [];
  for (const [i, n] of (v.notes ?? []).entries()) {
    if (!Array.isArray(n) || n.length < 2) continue;
    let code = v.note_codes?.[i] ?? "";
    // Who gets the lag matters to a match that goes on: after a match ended by a no-show
    // or a concession it read as a riddle ("the lag goes to the opponent of the player
    // who conceded or never came").
    if (v.match_over && code === "O6.gaveUp") continue;
    if (draw && (code === "O6.decided" || NOTE_KEYS[String(n[1])] === "note.O6.decided")) code = "O6.decidedDraw";
    out.push({ text: noteText(String(n[0]), String(n[1]), code), rule: String(n[0]) });
  }
  if (out.length === 0 && (v.spotted ?? []).includes(9)) out.push({ text: t("note.spotted"), rule: "G3" });
  return out;
}

/**
 * The notes but those of the headline's own rules: under "Ana wins the game: Bob's third
 * foul in a row (R13)" the note "Third foul in a row: the game is lost" says it twice.
 * @param {Verdict} v @param {readonly string[]} headlineRules @returns {Line[]}
 */
function notesBesides(v, headlineRules) {
  return noteLines(v).filter((line) => !headlineRules.includes(line.rule));
}

/** @param {string} s */
function capitalise(s) {
  return s.length ? s[0].toLocaleUpperCase() + s.slice(1) : s;
}

/**
 * The foul in one line: who fouled, the first reason (the rules list them most telling
 * first), then who plays on; any further reasons go under it, each with its rule. (It
 * named only who plays on: whoever came to watch had to work out who had fouled.) The
 * player given ball in hand reads no name: it can only be their opponent's foul, and on
 * a phone the line would no longer fit.
 * @param {Verdict} v @param {readonly string[]} names
 * @param {{ turn?: number | null, ball_in_hand?: string | null } | null} next the table after the action
 * @param {ShotFacts | null} facts @param {number | null} lowest
 * @param {number | null} [me] the reader's seat (their foul: "your foul"; the next shot theirs: "you")
 * @param {number | null} [fouler] the seat that fouled
 * @returns {{ text: string, rules: string[], more: Line[] }}
 */
function foulHeadline(v, names, next, facts, lowest, me = null, fouler = null) {
  const pairs = foulReasons(v, facts, lowest);
  const [rule, reasons] = pairs[0] ?? ["", t("foul.other")];
  const rules = rule ? [rule] : [];
  const more = pairs.slice(1).map(([r, words]) => ({ text: capitalise(words), rule: r }));
  if (next && next.turn !== null && next.turn !== undefined && !v.game_over) {
    // (a foul passes the turn: who fouled is the other seat, when not given)
    const by = fouler ?? 1 - next.turn;
    const key = mine(next.ball_in_hand ? "v.foulBih" : "v.foulNext", by, next.turn, me);
    return { text: t(key, { reasons, name: who(names, next.turn), fouler: who(names, by) }), rules, more };
  }
  return { text: t("v.foul", { reasons }), rules, more };
}

/**
 * Who won the game (or the match) and how. `bare`: who alone, after a headline that has
 * said how already ("Ana concedes the game — Bob wins the game", not "…: the opponent
 * conceded" again).
 * @param {Verdict} v @param {readonly string[]} names @param {boolean} [bare]
 * @param {number | null} [me] the reader's seat (their win: "you")
 * @returns {{ text: string, rules: string[] }}
 */
function gameOverHeadline(v, names, bare = false, me = null) {
  const end = v.game_end;
  if (v.stalemate || end === "stalemate") return { text: t("v.stalemate"), rules: ["R14"] };
  const winner = who(names, v.game_winner);
  const rule = end === "three_fouls" ? "R13" : end === "concede" ? "O4" : end === "forfeit" ? "O5" : "G5";
  // (after a dash: "Ana concedes the match — you win the match")
  if (bare) {
    const key = yours(v.match_over ? "v.winsMatchBare" : "v.winsRackBare", v.game_winner, me);
    const text = t(key, { name: winner });
    return { text: key.endsWith("You") ? clause(text) : text, rules: [rule] };
  }
  // How, naming who lost it: "by the opponent" read, on the loser's own screen, as if the
  // winner had fouled (the loser reads "your three fouls in a row").
  const kind = end === "three_fouls" || end === "concede" || end === "forfeit" ? end : "nine";
  const loser = v.game_winner === null || v.game_winner === undefined ? null : 1 - v.game_winner;
  // The 9 on the break is said as such: "the 9 pocketed on a legal shot" hid the break.
  const nine = (v.note_codes ?? []).includes("G5.break") ? "v.how.nineBreak" : "v.how.nine";
  const how = kind === "nine" ? t(nine) : t(loser !== null && loser === me ? `v.how.${kind}You` : `v.how.${kind}`, { loser: who(names, loser) });
  return { text: t(yours(v.match_over ? "v.winsMatch" : "v.winsRack", v.game_winner, me), { name: winner, how }), rules: [rule] };
}

/**
 * Describes a `shot_result`.
 * @param {{ shooter: number, shot: { push_out?: boolean }, miscue?: boolean,
 *   report: { pocketed: number[], first: number | null, rails?: number[], off_table?: number[] },
 *   verdict: Verdict, table: { turn: number | null, ball_in_hand: string | null, choice_pending: boolean } }} result
 * @param {readonly string[]} names seat → display name
 * @param {number | null} [lowest] the lowest ball on the table before the shot (for "hit the 5, not the 2")
 * @param {number | null} [me] the reader's seat (lines naming them say "you")
 * @returns {Described}
 */
export function describeShot(result, names, lowest = null, me = null) {
  const v = result.verdict;
  const shooter = who(names, result.shooter);
  /** @type {Line[]} */
  const details = [];
  if (result.miscue) details.push({ text: t("v.miscue"), rule: "O2" });
  // By number, not in the order they dropped: "balls 1 and 8" reads as a list, "8 and 1" as a slip.
  const pocketed = (result.report.pocketed ?? []).filter((b) => b !== 0).sort((a, b) => a - b);
  const facts = result.report;
  if (v.foul) {
    const foul = foulHeadline(v, names, v.game_over ? null : result.table, facts, lowest, me, result.shooter);
    if (v.game_over) {
      const over = gameOverHeadline(v, names, false, me);
      return { headline: over.text, rules: over.rules, tone: "win", details: [{ text: foul.text, rule: foul.rules.join(", ") }, ...foul.more, ...details, ...notesBesides(v, over.rules)] };
    }
    // Balls made on the foul stay down (R7; the 9 is spotted, its own note says so): said,
    // or a player looked for the 2 that had gone. ("too" read oddly after a wrong ball
    // first that dropped alone: the line says only that it stays down.)
    const down = pocketed.filter((b) => b !== 9);
    if (down.length) details.push({ text: t("v.foulDown", { n: down.length, balls: ballList(down) }), rule: "R7" });
    return { headline: foul.text, rules: foul.rules, tone: "foul", details: [...foul.more, ...details, ...noteLines(v)], next: result.table.turn };
  }
  if (v.game_over) {
    const over = gameOverHeadline(v, names, false, me);
    return { headline: over.text, rules: over.rules, tone: "win", details: [...details, ...notesBesides(v, over.rules)] };
  }
  const next = result.table;
  if (result.shot.push_out) {
    const params = { name: shooter, next: who(names, next.turn), n: pocketed.length, balls: ballList(pocketed) };
    return {
      headline: t(mine(pocketed.length ? "v.pushOutDown" : "v.pushOut", result.shooter, next.turn, me), params),
      rules: ["R6"],
      tone: "neutral",
      details: [...details, ...noteLines(v)],
      next: next.turn,
    };
  }
  // A legal break (the referee's R5 note: a push-out may follow) is said to be the break:
  // a replay's first line read "No ball pocketed — Bob to shoot", the break never named.
  const broke = (v.notes ?? []).some(([rule]) => rule === "R5");
  if (pocketed.length > 0 && next.turn === result.shooter) {
    return {
      headline: t(yours(broke ? "v.breakPockets" : "v.pockets", result.shooter, me), { name: shooter, n: pocketed.length, balls: ballList(pocketed) }),
      rules: [],
      tone: "good",
      details: [...details, ...noteLines(v)],
      next: result.shooter,
    };
  }
  const key = broke && result.report.first !== null ? "v.breakNoPocket" : result.report.first === null ? "v.noHit" : "v.noPocket";
  // Who missed, named (two misses in a row read the same, word for word: a player who had
  // looked away could not tell the opponent had played).
  return { headline: t(mine(key, key === "v.noHit" ? null : result.shooter, next.turn, me), { name: who(names, next.turn), breaker: shooter, shooter }), rules: [], tone: "neutral", details: [...details, ...noteLines(v)], next: next.turn };
}

/**
 * A shot or ruling as the table's log words it: when its verdict warned a player of two
 * fouls in a row, the warning's own line follows it (R13), so its note is not said twice.
 * @param {Described} d @param {Verdict | null | undefined} v @returns {Described}
 */
export function forLog(d, v) {
  const warned = v?.warned;
  if (warned === null || warned === undefined || (Array.isArray(warned) && warned.length === 0)) return d;
  return { ...d, details: d.details.filter((line) => line.rule !== "R13") };
}

/**
 * Describes a `ruling` (a referee decision that is not a shot).
 * @param {{ by: number | null, action: string, verdict: Verdict | null,
 *   table: { turn: number | null, ball_in_hand: string | null, choice_pending: boolean, breaker?: number }, late?: boolean }} ruling
 * @param {readonly string[]} names
 * @param {boolean} [draw] the first breaker was drawn by the room, not lagged for
 * @param {number | null} [me] the reader's seat (lines naming them say "you")
 * @returns {Described}
 */
export function describeRuling(ruling, names, draw = false, me = null) {
  const by = who(names, ruling.by);
  const v = ruling.verdict;
  const details = v ? noteLines(v) : [];
  const next = ruling.table;
  const other = ruling.by === null ? null : 1 - ruling.by;
  /** @param {string} headline @param {string[]} rules @param {Described["tone"]} tone @returns {Described} */
  const d = (headline, rules, tone) => ({ headline, rules, tone, details });
  switch (ruling.action) {
    case "choose_shoot":
      return d(t(yours("r.chooseShoot", ruling.by, me), { name: by }), ["R6"], "neutral");
    case "choose_pass":
      // It ends "— Ana to shoot" or "— your shot": the line under it need not say so again.
      return { ...d(t(mine("r.choosePass", ruling.by, next.turn, me), { name: by, next: who(names, next.turn) }), ["R6"], "neutral"), next: next.turn };
    case "concede_game":
    case "concede_match": {
      const head = t(yours(ruling.action === "concede_match" ? "r.concedeMatch" : "r.concedeGame", ruling.by, me), { name: by });
      // The referee's own note ("The match was conceded", O4) says the headline again.
      const said = { details: v ? notesBesides(v, ["O4"]) : [] };
      if (v && v.game_over) {
        const over = gameOverHeadline(v, names, true, me);
        return { ...d(t("r.concedeThen", { head, rest: over.text }), ["O4"], "win"), ...said };
      }
      return { ...d(head, ["O4"], "win"), ...said };
    }
    case "stalemate_propose":
      return d(t(mine("r.stalePropose", ruling.by, other, me), { name: by, other: who(names, other) }), ["R14"], "neutral");
    case "stalemate_accept":
      return d(t(mine("r.staleAccept", ruling.by, null, me), { name: by }), ["R14"], "neutral");
    case "clock_expired": {
      if (v && v.foul) {
        const foul = foulHeadline(v, names, v.game_over ? null : next, null, null, me, ruling.by);
        // A third foul in a row by time loses the game: headed so, as a shot's would be
        // (the time-out read as the next game's breaker's foul).
        if (v.game_over) {
          const over = gameOverHeadline(v, names, false, me);
          return { headline: over.text, rules: over.rules, tone: "win", details: [{ text: foul.text, rule: foul.rules.join(", ") }, ...foul.more, ...notesBesides(v, over.rules)] };
        }
        return { headline: foul.text, rules: foul.rules, tone: "foul", details: [...foul.more, ...details] };
      }
      return d(t(yours("r.clock", ruling.by, me), { name: by }), ["O3"], "foul");
    }
    case "forfeit": {
      // Forfeited before the lag (which the referee then gives the opponent, O6): the
      // player never played — a tournament's no-show among them —, not one who "stayed
      // away too long".
      const unplayed = (v?.note_codes ?? []).includes("O6.gaveUp");
      const head = t(yours(unplayed ? "r.noShow" : "r.forfeit", ruling.by, me), { name: by });
      if (v && v.game_over) return d(t("r.concedeThen", { head, rest: gameOverHeadline(v, names, true, me).text }), ["O5"], "win");
      return d(head, ["O5"], "win");
    }
    case "extension":
      return d(t(yours("r.extension", ruling.by, me), { name: by }), ["O3"], "neutral");
    case "lag_choice": {
      // No choice in time (O6): the winner breaks, and chose nothing (nor does a note say so).
      if (ruling.late) return { headline: t(yours("r.lagLate", ruling.by, me), { name: by }), rules: ["O6"], tone: "neutral", details: [] };
      const lines = v ? noteLines(v, draw) : [];
      const head = next.breaker === ruling.by ? t(yours("r.lagBreak", ruling.by, me), { name: by }) : t(me !== null && ruling.by === me ? "r.lagGiveMine" : yours("r.lagGive", next.breaker, me), { name: by, other: who(names, next.breaker ?? null) });
      return { headline: head, rules: ["R3"], tone: "neutral", details: lines };
    }
    default:
      return d(t("r.other", { name: by, action: ruling.action }), [], "neutral");
  }
}

/**
 * The lag result in words: who won (or "lag again"), then where each ball stopped.
 * @param {{ method: string, winner: number | null, reason?: string | null, lags: { seat: number, distance: number | null, fault: string, fault_code?: string }[] }} lag
 * @param {readonly string[]} names
 * @param {number | null} [me] the reader's seat (the lag they won says "you")
 * @returns {Described}
 */
export function describeLag(lag, names, me = null) {
  if (lag.method === "draw") {
    const head = lag.winner === null ? t("lag.drawNone") : t(yours(lag.reason === "late" ? "lag.drawLate" : "lag.draw", lag.winner, me), { name: who(names, lag.winner) });
    return { headline: head, rules: ["R3", "O6"], tone: "neutral", details: [] };
  }
  /** @type {Line[]} */
  const details = lag.lags.map((l) => {
    // (the reader's own ball: "You: 5.8 cm from the cushion")
    const name = me !== null && l.seat === me ? t("v.youLabel") : who(names, l.seat);
    if (l.distance !== null) return { text: t("lag.dist", { name, cm: t("unit.cm", { v: num(l.distance * 100, 1) }) }), rule: "" };
    const byCode = { off_table: "lag.fault.off", short: "lag.fault.rail", late: "lag.fault.late" }[l.fault_code ?? ""] ?? null;
    const key = byCode ?? (/pocketed|left the table/.test(l.fault) ? "lag.fault.off" : /foot rail/.test(l.fault) ? "lag.fault.rail" : "lag.fault.other");
    return { text: t(key, { name }), rule: "" };
  });
  // A lag played again says why: equal to 0.1 mm, or neither lag counting (O6).
  const again = lag.reason === "tie" ? t("lag.tie") : lag.reason === "both_faults" ? t("lag.bothFaults") : t("lag.again");
  const head = lag.winner === null ? again : t(yours("lag.wins", lag.winner, me), { name: who(names, lag.winner) });
  const counted = lag.lags.filter((l) => l.distance !== null);
  if (lag.winner !== null && counted.length === 2) {
    // From the centimetres as shown, so the difference adds up on screen.
    const cm = counted.map((l) => Math.round(/** @type {number} */ (l.distance) * 1000) / 10);
    const gap = Math.abs(cm[0] - cm[1]);
    details.push({ text: t(yours("lag.closer", lag.winner, me), { winner: who(names, lag.winner), d: t("unit.cm", { v: num(gap, 1) }) }), rule: "" });
  }
  return { headline: head, rules: ["R3", "O6"], tone: "neutral", details };
}

/**
 * A room `warning` in words, from its kind and seat.
 * @param {{ kind: string, seat: number | null, seconds?: number }} w @param {readonly string[]} names @param {number | null} [turn]
 * @param {number | null} [me] the reader's seat: their own clock's warning speaks to them
 */
export function describeWarning(w, names, turn = null, me = null) {
  const seat = w.seat ?? turn;
  const name = who(names, seat);
  if (w.kind === "three_fouls") return { text: me !== null && seat === me ? t("warn.three_foulsYou") : t("warn.three_fouls", { name }), rule: "R13" };
  if (w.kind === "stalemate") return { text: t("warn.stalemate"), rule: "R14" };
  if (me !== null && seat === me) return { text: t("warn.clockYou", { s: w.seconds ?? 10 }), rule: "O3" };
  return { text: t("warn.clock", { name, s: w.seconds ?? 10 }), rule: "O3" };
}

/** Who lost to `winner` (null: nobody won). @param {number | null} winner @param {readonly string[]} names */
export function loserOf(winner, names) {
  return winner === null ? null : names[1 - winner];
}

/** The reasons that name the player who lost by them (each has an `end.<reason>By`; a
 * concession `end.concedeGameBy` and `end.concedeMatchBy`). */
const LOST_BY = ["three_fouls", "concede", "forfeit"];

/**
 * Why a game or a match ended, from the server's reason code ("nine", "race", …). Where
 * the loser's name is known, a lost-by reason names them: "the opponent" would be wrong
 * on the screen of the one who conceded, and means nothing to a spectator.
 * @param {string} reason @param {number} [raceTo] @param {string | null} [loser]
 * @param {boolean} [mine] the loser is the reader ("You conceded the game.")
 * @param {boolean} [match] the match's end, not a game's
 */
export function describeEnd(reason, raceTo = 0, loser = null, mine = false, match = false) {
  if (reason === "race") return t("end.race", { n: raceTo });
  // A concession says what was given up: "You conceded." under a game's result read as the match.
  const what = reason === "concede" ? (match ? "Match" : "Game") : "";
  if (loser && LOST_BY.includes(reason)) return t(`end.${reason}${what}By${mine ? "You" : ""}`, { name: loser });
  if (["nine", "nineBreak", "three_fouls", "concede", "forfeit", "stalemate"].includes(reason)) return t(`end.${reason}`);
  return t("end.other");
}

/** A line as plain text, its rule ids in brackets (for the replay list and screen readers). @param {string} text @param {string[]} rules */
export function withRules(text, rules) {
  return rules.length ? `${text} (${rules.join(", ")})` : text;
}

/**
 * What a room snapshot changed since the one before it (`before`; null: the first), in
 * words: who sat down or left, who became ready, took another name or asked for a rematch, and the room's new
 * stage. A replay lists every snapshot; "table state" alone said nothing of why it came.
 * Falls back to the stage when nothing a reader sees changed (a grace period's timer, say).
 * @param {Record<string, any>} view the wire `RoomView` @param {Record<string, any> | null} before
 * @returns {string}
 */
export function describeSnapshot(view, before) {
  /** @type {string[]} */
  const lines = [];
  /** @param {Record<string, any>} seat */
  const nameOf = (seat) => seatName(seat.name, seat.computer ?? null);
  for (const s of [0, 1]) {
    const now = view.seats?.[s] ?? null;
    const then = before?.seats?.[s] ?? null;
    if (then && (!now || now.player !== then.player)) lines.push(t("ev.leaves", { name: nameOf(then) }));
    if (now && (!then || now.player !== then.player)) lines.push(t("ev.sits", { name: nameOf(now) }));
    else if (now && then && now.ready && !then.ready) lines.push(t("ev.ready", { name: nameOf(now) }));
    // The same player under another name: a guest who made an account mid-match.
    if (now && then && now.player === then.player && now.name !== then.name) lines.push(t("ev.renamed", { was: nameOf(then), name: nameOf(now) }));
    if (now && (view.rematch ?? []).includes(s) && !(before?.rematch ?? []).includes(s)) lines.push(t("ev.rematch", { name: nameOf(now) }));
    if (now && view.status === "lag" && (view.lagged ?? []).includes(s) && !(before?.lagged ?? []).includes(s)) lines.push(t("ev.lagged", { name: nameOf(now) }));
  }
  // "Waiting for players" only while a seat is empty: with both taken the lines above say it.
  const open = view.status === "waiting" && (view.seats?.[0] == null || view.seats?.[1] == null);
  // The lag's stage also holds its winner's choice of who breaks (R3, O6).
  const choosing = view.status === "lag" ? (view.lag_choice ?? null) : null;
  if (choosing !== null && choosing !== (before?.lag_choice ?? null)) {
    const seat = view.seats?.[choosing];
    if (seat) lines.push(t("ev.choosing", { name: nameOf(seat) }));
  } else if (choosing === null && (!before || before.status !== view.status) && (view.status !== "waiting" || open)) {
    // The match over heads what came with it ("… asks for a rematch" read before it).
    if (view.status === "finished") lines.unshift(t("ev.to.finished"));
    else lines.push(t(`ev.to.${view.status}`));
  }
  return lines.length ? lines.join(". ") : t("ev.snapshot", { status: t(`status.${view.status}`) });
}

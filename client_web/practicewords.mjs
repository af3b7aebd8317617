// What the practice table says: the banner over it, the last shot's result, a preview's
// outcome. Pure functions of the table's view and the shot's report (no DOM), so the words
// are chosen in one place and the banner over the table — all a phone shows without
// scrolling — never contradicts the panel beside or below it.

import { isMiscueZone } from "./aim.mjs";
import { MISCUE_LIMIT } from "./controls.mjs";
import { num, t } from "./i18n/index.mjs";
import { foulReasons } from "./verdict.mjs";

/** @typedef {Record<string, any>} Msg */

/** Drills whose goal has words of its own (`practice.drillHelp.<drill>`). */
const DRILL_HELP = /** @type {const} */ (["three_ball", "nine_ghost", "break", "kick", "spot_shot"]);

/** A ball's name: "cue ball", "the 7". @param {number} n */
export function ballName(n) {
  return n === 0 ? t("practice.cueBall") : t("practice.ballN", { n });
}

/** A drill's goal, "" for none. @param {string | null | undefined} drill */
export function drillGoal(drill) {
  return drill && /** @type {readonly string[]} */ (DRILL_HELP).includes(drill) ? t(`practice.drillHelp.${drill}`) : "";
}

/**
 * Whether a shot kept a run going: a ball pocketed off the lowest ball, no foul, no
 * scratch. @param {Msg} m a `practice_shot` @param {number | null} lowestBefore
 */
export function keptRun(m, lowestBefore) {
  const pocketed = m.report.pocketed ?? [];
  const scratch = pocketed.includes(0) || (m.report.off_table ?? []).includes(0);
  return !m.verdict?.foul && !scratch && pocketed.length > 0 && m.report.first === lowestBefore;
}

/** Every object ball is off the table (a rack run, a drill done). @param {readonly unknown[]} balls a table view's */
function tableCleared(balls) {
  return !balls.some((b, n) => n > 0 && b);
}

/**
 * Whether the object balls stand otherwise in `after` than in `before` (a drill set up, a
 * ball added, moved or taken off, a shot taken back): where a run starts afresh.
 * @param {Msg | null | undefined} before @param {Msg} after table views
 */
export function setOutAgain(before, after) {
  return !before || after.balls.some((/** @type {number[] | null} */ b, /** @type {number} */ n) => n > 0 && String(b) !== String(before.balls[n]));
}

/**
 * A drill's run (`clean`: no shot of it has missed) after a change of the table that is
 * not a shot: set out afresh when the drill is set up, a link's position opened or an
 * object ball put on or taken off the table; no longer one run once a shot is played
 * again or taken back (retry, or an undo or redo that moves object balls); else as it
 * was (the rules switched, the cue ball placed before the run's first shot); once the run
 * is under way (`started`: a shot of it played), moving the cue ball by hand ends it.
 * @param {boolean} clean @param {string} cause the change's (`practice_state`)
 * @param {Msg | null | undefined} before @param {Msg} after table views
 * @param {boolean} [started] a shot of the run has been played
 */
export function runAfterChange(clean, cause, before, after, started = false) {
  if (cause === "drill" || cause === "layout" || cause === "open") return true;
  if (cause === "retry") return false;
  if (cause === "undo" || cause === "redo") return clean && !setOutAgain(before, after);
  if (cause === "put" || cause === "remove") {
    if (setOutAgain(before, after)) return true;
    // The cue ball moved by hand once the run is under way: a ball in hand it did not
    // earn (put right for each ball, the run was "without a miss" every time).
    return clean && !(started && cueMoved(before, after));
  }
  return clean;
}

/** Whether the cue ball stands elsewhere in `after` than in `before`. @param {Msg | null | undefined} before @param {Msg} after */
function cueMoved(before, after) {
  return !!before && String(before.balls[0]) !== String(after.balls[0]);
}

/**
 * What the shot just played means for the drill set up, in words ("" for nothing): its
 * goal met — the spot shot's 1 pocketed, the kick's 1 reached first, the three-ball
 * run's table cleared without a miss — or, short of it, what was missed; after the break
 * drill's break, how to break again. A foul or a scratch meets no goal (the foul says
 * why). Said with the shot's result: "Pocketed: 1" alone did not tell a player who did
 * it that it was done. (The ghost keeps its own score.)
 * @param {string | null | undefined} drill @param {Msg} m a `practice_shot`
 * @param {number | null} lowestBefore the lowest ball before the shot
 * @param {{ wasBreak?: boolean, clean?: boolean }} [run] the shot was a break; every
 * shot of the run before it kept it going (`keptRun`)
 * @returns {{ text: string, done: boolean }}
 */
export function drillWords(drill, m, lowestBefore, run = {}) {
  const none = { text: "", done: false };
  if (drill === "break" && run.wasBreak) return { text: t("practice.breakAgain"), done: false };
  const pocketed = m.report.pocketed ?? [];
  if (m.verdict?.foul || pocketed.includes(0) || (m.report.off_table ?? []).includes(0)) return none;
  if (drill === "spot_shot" && pocketed.includes(1)) return { text: t("practice.done.spot_shot"), done: true };
  if (drill === "kick" && lowestBefore === 1) {
    if (m.report.first !== 1) return { text: t("practice.miss.kick"), done: false };
    return { text: t(pocketed.includes(1) ? "practice.done.kickPot" : "practice.done.kick"), done: true };
  }
  const cleared = tableCleared(m.view?.balls ?? []);
  // The first miss of a clean run says the run is over (only "Nothing pocketed" was said).
  if (drill === "three_ball" && run.clean !== false && !keptRun(m, lowestBefore)) return { text: t("practice.miss.runOver"), done: false };
  if (drill === "three_ball" && cleared && keptRun(m, lowestBefore)) {
    return run.clean === false ? { text: t("practice.miss.three_ball"), done: false } : { text: t("practice.done.three_ball"), done: true };
  }
  return none;
}

/** A banner with nothing said first (`Practice.note`). */
export const silent = () => ({ text: "", tone: "" });

/**
 * The result of a shot just played: a foul and why, the rack won, what was pocketed (the 9
 * on a break said for what it is, with the rules off too: it wins a match's rack), and a
 * drill's goal met.
 * @param {Msg} m a `practice_shot` @param {number | null} lowestBefore the lowest ball before it
 * @param {boolean} [wasBreak] the shot was a break
 * @param {boolean} [clean] every shot of the drill's run before it kept the run going
 * @returns {{ text: string, tone: "foul" | "good" | "" }}
 */
export function shotWords(m, lowestBefore, wasBreak = false, clean = true) {
  const pocketed = (m.report.pocketed ?? []).filter((/** @type {number} */ b) => b !== 0);
  const scratch = (m.report.pocketed ?? []).includes(0) || (m.report.off_table ?? []).includes(0);
  const v = m.verdict;
  // A miscue is said first, as at the table: it is why the shot went as it did.
  const miscue = m.miscue ? `${t("v.miscue")}. ` : "";
  /** @type {{ text: string, tone: "foul" | "good" | "" }} */
  let said;
  if (v && v.foul) {
    const reasons = foulReasons(v, m.report, lowestBefore).map(([rule, words]) => `${words} (${rule})`);
    said = { text: `${t("practice.foul")}: ${reasons.join("; ")}`, tone: "foul" };
  } else if (v && v.game_over) {
    said = { text: t("practice.rackWon"), tone: "good" };
  } else if (wasBreak && pocketed.includes(9) && !scratch && m.report.first === lowestBefore) {
    said = { text: t("practice.nineOnBreak", { n: pocketed.length, balls: pocketed.join(", ") }), tone: "good" };
  } else if (pocketed.length) {
    said = { text: t("practice.pocketed", { n: pocketed.length, balls: pocketed.join(", ") }), tone: v && !scratch ? "good" : "" };
  } else if (scratch) {
    said = { text: "", tone: "foul" }; // the scratch says it all (not "nothing pocketed")
  } else {
    said = { text: v ? t("practice.legal") : t("practice.nothing"), tone: "" };
  }
  // "Pocketed: 3" ends without a stop: one goes between it and the scratch.
  if (scratch && !(v && v.foul)) said.text = [said.text && !/[.!?]$/.test(said.text) ? `${said.text}.` : said.text, t("practice.scratch")].filter(Boolean).join(" ");
  said.text = miscue + said.text;
  const drill = drillWords(m.view?.drill, m, lowestBefore, { wasBreak, clean });
  // Done with nothing pocketed (the kick): its words alone, not "Nothing pocketed. … well done!".
  if (drill.done && !pocketed.length && !m.miscue) said.text = "";
  if (drill.text) said = { text: [said.text && !/[.!?]$/.test(said.text) ? `${said.text}.` : said.text, drill.text].filter(Boolean).join(" "), tone: drill.done ? "good" : said.tone };
  return said;
}

/** What a previewed shot would do. @param {Msg} m a `practice_preview` answer @param {number | null} lowest */
export function previewWords(m, lowest) {
  const pocketed = (m.report.pocketed ?? []).filter((/** @type {number} */ b) => b !== 0);
  // A miscue the preview foresees is said as a preview ("would"), not as one just made;
  // it is all there is to say of that shot.
  if (m.miscue) return t("practice.previewMiscue");
  if (m.verdict?.foul) return t("practice.previewFoul", { why: foulReasons(m.verdict, m.report, lowest).map(([, w]) => w).join("; ") });
  return pocketed.length ? t("practice.previewPots", { n: pocketed.length, balls: pocketed.join(", ") }) : t("practice.previewNothing");
}

/**
 * The banner over the table, in two parts as at a match: `note`, what just happened (the
 * last shot's result, or a drill's goal when it is set up), and `next`, what to do now —
 * a ball being placed, the cue ball to put down, the ghost's rack decided, a preview's
 * outcome, or how to shoot. A drill's goal says what to do itself: nothing follows it.
 * @param {Msg | null} v the table's view
 * @param {{ player: boolean, picked: number | null, touch: boolean, note: string, goal: boolean, preview: string }} at
 * @returns {{ note: string, next: string }}
 */
export function statusWords(v, at) {
  if (!v) return { note: "", next: t("practice.opening") };
  if (!at.player) return { note: "", next: t("practice.watching", { name: v.player }) };
  if (at.picked !== null) {
    const key = v.balls[at.picked] ? "practice.pickedOn" : "practice.pickedTray";
    return { note: "", next: t(at.touch ? `${key}Touch` : key, { ball: ballName(at.picked) }) };
  }
  // A drill's goal says what to do itself: only a preview's outcome may follow it.
  if (at.note && at.goal) return { note: at.note, next: at.preview };
  return { note: at.note, next: nextStep(v, at) };
}

/** @param {Msg} v @param {{ touch: boolean, note: string, preview: string }} at */
function nextStep(v, at) {
  // The ghost's rack just decided by the shot: said, not "aim and shoot" at a rack that is
  // over (after an undo, the shot is there to practise again: how to shoot it).
  // The score first: on a phone the panel that keeps it is screens below, and a long line is cut at its end.
  if (at.note && v.ghost && v.ghost.rack !== "playing") return `${t("practice.ghost.score", v.ghost)}. ${t(`practice.ghost.${v.ghost.rack}`)}`;
  if (!v.balls[0]) return t("practice.needCue");
  // "kitchen" (a break, the spot shot) is where the shot is played from; the referee holds
  // the ball there only with rules on, but the drill is played from there either way.
  const inHand = v.in_hand && !v.is_break ? t(v.in_hand === "kitchen" ? "practice.inHandKitchen" : "practice.inHand") : "";
  // Ball in hand after the shot just played: placing it is the next thing to do, before
  // any preview of where the shot as aimed would go.
  if (inHand && at.note) return inHand;
  // A break says how to break (the preview's outcome of a break is no guide).
  if (v.is_break) return t(at.touch ? "practice.breakTouch" : "practice.break");
  if (at.preview) return at.preview;
  if (inHand) return inHand;
  // Every object ball down (a drill done): how to play it again, not "aim" at nothing.
  if (tableCleared(v.balls)) return t(v.drill === "three_ball" ? "practice.allDownRun" : "practice.allDown");
  return t(at.touch ? "practice.readyTouch" : "practice.ready");
}

/**
 * The button the banner offers beside a shot's result, if any: the ghost's next rack once
 * this one is decided; the three-ball run set up again once it has missed or the table is
 * clear (a drill of one shot is set up again by "Retry shot", as its words say). On a
 * phone the drill's own controls are screens below the table, where a newcomer never
 * found "Next rack"; and choosing the drill that is set already does nothing: the way to
 * "set the drill up again" was to pick another and back.
 * @param {Msg | null} v the table
 * @param {{ player: boolean, shot: boolean, clean: boolean }} at the reader plays here; a
 * shot's result is shown (not a drill's goal); the run has not missed (`keptRun`)
 * @returns {{ label: string, drill: string } | null}
 */
export function bannerAction(v, at) {
  if (!v || !at.player || !at.shot || !v.drill) return null;
  if (v.drill === "nine_ghost") return v.ghost && v.ghost.rack !== "playing" ? { label: "practice.ghost.next", drill: "nine_ghost" } : null;
  return v.drill === "three_ball" && (!at.clean || tableCleared(v.balls)) ? { label: "practice.drillAgain", drill: v.drill } : null;
}

/**
 * The tip's place in words, each slider's own: follow or draw, and side. Both at once can
 * take the tip past where it holds the ball: said as at the table, on both sliders'
 * words, as either slider may be the one that went too far.
 * @param {number} height -1 (draw) to 1 (follow) @param {number} side -1 (left) to 1 (right)
 */
export function tipWords(height, side) {
  const spin = height === 0 ? t("practice.centre") : height > 0 ? t("practice.follow", { n: num(Math.round(height * 100)) }) : t("practice.draw", { n: num(Math.round(-height * 100)) });
  const sideways = side === 0 ? t("practice.noSide") : t(side > 0 ? "practice.right" : "practice.left", { n: num(Math.round(Math.abs(side) * 100)) });
  const risky = isMiscueZone(side, height, MISCUE_LIMIT);
  return { spin: risky ? t("spin.miscue", { text: spin }) : spin, side: risky ? t("spin.miscue", { text: sideways }) : sideways };
}

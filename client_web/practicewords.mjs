// What the practice table says: the banner over it, the last shot's result, a preview's
// outcome. Pure functions of the table's view and the shot's report (no DOM), so the words
// are chosen in one place and the banner over the table — all a phone shows without
// scrolling — never contradicts the panel beside or below it.

import { t } from "./i18n/index.mjs";
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
 * The result of a shot just played: a foul and why, the rack won, what was pocketed.
 * @param {Msg} m a `practice_shot` @param {number | null} lowestBefore the lowest ball before it
 * @returns {{ text: string, tone: "foul" | "good" | "" }}
 */
export function shotWords(m, lowestBefore) {
  const pocketed = (m.report.pocketed ?? []).filter((/** @type {number} */ b) => b !== 0);
  const scratch = (m.report.pocketed ?? []).includes(0) || (m.report.off_table ?? []).includes(0);
  const v = m.verdict;
  /** @type {{ text: string, tone: "foul" | "good" | "" }} */
  let said;
  if (v && v.foul) {
    const reasons = foulReasons(v, m.report, lowestBefore).map(([rule, words]) => `${words} (${rule})`);
    said = { text: `${t("practice.foul")}: ${reasons.join("; ")}`, tone: "foul" };
  } else if (v && v.game_over) {
    said = { text: t("practice.rackWon"), tone: "good" };
  } else if (pocketed.length) {
    said = { text: t("practice.pocketed", { n: pocketed.length, balls: pocketed.join(", ") }), tone: v ? "good" : "" };
  } else {
    said = { text: v ? t("practice.legal") : t("practice.nothing"), tone: "" };
  }
  if (scratch && !(v && v.foul)) said.text += ` ${t("practice.scratch")}`;
  return said;
}

/** What a previewed shot would do. @param {Msg} m a `practice_preview` answer @param {number | null} lowest */
export function previewWords(m, lowest) {
  const pocketed = (m.report.pocketed ?? []).filter((/** @type {number} */ b) => b !== 0);
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
  return { note: at.note, next: at.note && at.goal ? "" : nextStep(v, at) };
}

/** @param {Msg} v @param {{ touch: boolean, preview: string }} at */
function nextStep(v, at) {
  // The ghost's rack decided: the banner says so, not "aim and shoot" at a rack that is over.
  if (v.ghost && v.ghost.rack !== "playing") return t(`practice.ghost.${v.ghost.rack}`);
  if (!v.balls[0]) return t("practice.needCue");
  if (at.preview) return at.preview;
  if (v.is_break) return t("practice.break");
  // "kitchen" (a break, the spot shot) is where the shot is played from; the referee holds
  // the ball there only with rules on, but the drill is played from there either way.
  if (v.in_hand) return t(v.in_hand === "kitchen" ? "practice.inHandKitchen" : "practice.inHand");
  return t(at.touch ? "practice.readyTouch" : "practice.ready");
}

// A player's name on a seat, whole wherever it fits at all. A phone's seat is half of a
// narrow screen beside a score, and a name has up to 20 characters (`namerule.mjs`):
// "Борис Спасск…" was all a seat showed of "Борис Спасский-Петров".

import { tipAttrs } from "./tip.mjs";

/**
 * The ways a name is set, tried in order until one shows it whole: one line, a little
 * smaller; two lines (broken where the name breaks, at a space or a hyphen), then smaller
 * down to a size still read without a squint; two lines broken anywhere.
 * @type {{ fit: number, wrap: "" | "wrap" | "anywhere" }[]}
 */
const STEPS = [
  { fit: 1, wrap: "" },
  { fit: 0.9, wrap: "" },
  { fit: 1, wrap: "wrap" },
  { fit: 0.9, wrap: "wrap" },
  { fit: 0.8, wrap: "wrap" },
  { fit: 0.72, wrap: "wrap" },
  { fit: 0.72, wrap: "anywhere" },
];

/** The step that fitted each name in its place (the seats are drawn anew every second). @type {Map<string, number>} */
const fitted = new Map();

/** @param {HTMLElement} el @param {number} step (-1: none fitted: cut, the whole name in a tip) */
function setStep(el, step) {
  const s = STEPS[step < 0 ? STEPS.length - 1 : step];
  el.style.setProperty("--fit", String(s.fit));
  el.classList.toggle("wrap", s.wrap !== "");
  el.classList.toggle("anywhere", s.wrap === "anywhere");
  el.classList.toggle("cut", step < 0);
}

/** Whether the name is all in sight as set. @param {HTMLElement} el */
const whole = (el) => el.scrollWidth <= el.clientWidth + 0.5 && el.scrollHeight <= el.clientHeight + 0.5;

/**
 * Sets a seat's name (already in the page) the first way that shows it whole; where none
 * does, it is cut on its second line and the whole name is a tap (or the mouse) away.
 * `key` names the seat for the tip, and `where` what the name's room depends on besides the
 * window (the score beside it).
 * @param {HTMLElement} el @param {string} key @param {string} where
 */
export function fitName(el, key, where) {
  if (el.getClientRects().length === 0) return; // not shown: nothing to measure
  const id = `${el.textContent}|${window.innerWidth}x${window.innerHeight}|${where}`;
  let step = fitted.get(id);
  if (step === undefined) {
    step = -1;
    for (let i = 0; i < STEPS.length; i++) {
      setStep(el, i);
      if (whole(el)) {
        step = i;
        break;
      }
    }
    if (fitted.size > 64) fitted.clear();
    fitted.set(id, step);
  }
  setStep(el, step);
  if (step < 0) {
    for (const [name, value] of Object.entries(tipAttrs(el.textContent ?? "", key))) el.setAttribute(name, value);
  }
}

// The power strip at the screen's edge (touch screens, narrow windows): a cue to pull down,
// as a cue is drawn back before a stroke. The cue waits at the strip's top; wherever a
// finger takes hold of it, the pull from there is the power — a short pull a soft shot, a
// long one a hard shot —, and letting go shoots.

import { powerPercent } from "./controls.mjs";
import { $ } from "./dom.mjs";
import { t } from "./i18n/index.mjs";
import { app, canShoot } from "./state.mjs";

/** The share of the strip's height the cue's tip travels from nothing to full power. */
const TRAVEL = 0.9;
/**
 * A pull this long (CSS px) at the least is full power: a strip squeezed shorter than its
 * layouts give it is never touchier than this (a few pixels once made a big difference).
 */
const MIN_FULL_PULL = 160;
/** The least pull (a share of full power) that shoots: less, let go, is no shot. */
const MIN_PULL = 0.03;

/** The pull (CSS px) that is full power on this strip. @param {HTMLElement} track */
export function fullPull(track) {
  return Math.max(track.getBoundingClientRect().height * TRAVEL, MIN_FULL_PULL);
}

/**
 * Draws a power strip at power `p` (0–1), the number under it and, for the keys, its
 * value. Where the cue is drawn is the style sheet's: pulled back to `p` while a finger
 * pulls it, and on a strip not the player's to pull (the opponent's power as they aim);
 * the player's own strip, waiting for the pull, has its cue at the top and `p` — what the
 * keys and Shoot would play, the break's power, the last shot's — marked beside it.
 * @param {string} prefix its elements' id prefix: "" the match table's, "p-" the practice table's
 * @param {number} p @param {string} text the power in words ("40 %")
 */
export function drawStrip(prefix, p, text) {
  const track = $(`${prefix}strip-track`);
  track.style.setProperty("--power", String(Math.max(0, Math.min(100, p * 100))));
  // Held short of a pull, the strip says "no shot" (`attachStrip`), whatever else redraws it.
  if (!track.closest(".no-shot")) $(`${prefix}strip-out`).textContent = text;
  track.setAttribute("aria-valuenow", String(powerPercent(p)));
}

/**
 * Listens to the strip: a finger (or any pointer) taking hold of the cue and drawing it
 * down sets the power by how far it has been drawn from where the finger went down, at
 * one scale for the whole strip (`fullPull`: its height, so the cue follows the finger).
 * Letting go after a pull shoots; sliding back up to where it went down, letting go
 * without pulling, or a gesture the browser takes over, shoots nothing. A flick does not
 * shoot either, nor a strip partly scrolled out of sight (a finger there scrolls the page
 * back). Arrow keys move the power, Space or Enter shoots.
 * @param {HTMLElement} track
 * @param {{ shoot: () => void, setPower: (p: number) => void, canShoot?: () => boolean, power?: () => number }} actions
 *   `canShoot` and `power`: the table's own (the match's) unless a practice table says its
 */
export function attachStrip(track, actions) {
  const mayShoot = actions.canShoot ?? canShoot;
  const power = actions.power ?? (() => app.aim.power);
  /** @type {{ id: number, y0: number, at: number, before: number } | null} */
  let grab = null;
  /** The power a pull of `dy` pixels makes. @param {number} dy */
  const travel = (dy) => dy / fullPull(track);
  // A strip partly scrolled out of sight (the practice page scrolls on a phone) is not a
  // strip to pull: a finger drawn down it is scrolling the page back up, and must not
  // shoot. It then lets the browser scroll (`.strip.scrolled`), and a press takes nothing.
  const strip = track.closest(".strip") ?? track;
  const inSight = () => track.getBoundingClientRect().top >= -1; // its top, where a pull begins
  const follow = () => strip.classList.toggle("scrolled", !inSight());
  document.addEventListener("scroll", follow, { capture: true, passive: true });
  addEventListener("resize", follow);
  /** The power now: the pull from where the finger went down (`y0`).
   * @param {PointerEvent} e @param {{ y0: number }} g */
  const powerAt = (e, g) => Math.min(1, Math.max(0, travel(e.clientY - g.y0)));
  // Held short of a pull (or slid back up to where it went down), the strip says that
  // letting go shoots nothing, not "0 %" and a speed as if a shot that soft were played
  // (before the power is set: `drawStrip` leaves the words of a strip saying so).
  const out = strip.querySelector(".strip-out");
  /** @param {number} p the power the finger holds now */
  const sayPull = (p) => {
    const none = p < MIN_PULL;
    strip.classList.toggle("no-shot", none);
    if (none && out) out.textContent = t("power.noShot");
  };
  track.addEventListener("pointerdown", (e) => {
    app.touch = e.pointerType === "touch";
    if (!mayShoot() || !inSight()) return;
    grab = { id: e.pointerId, y0: e.clientY, at: performance.now(), before: power() };
    track.setPointerCapture(e.pointerId);
    track.classList.add("pulling");
    sayPull(0);
    actions.setPower(0);
    e.preventDefault();
  });
  track.addEventListener("pointermove", (e) => {
    if (!grab || grab.id !== e.pointerId) return;
    const p = powerAt(e, grab);
    sayPull(p);
    actions.setPower(p);
  });
  /** @param {PointerEvent} e */
  const end = (e) => {
    if (!grab || grab.id !== e.pointerId) return;
    const g = grab;
    grab = null;
    track.classList.remove("pulling");
    strip.classList.remove("no-shot");
    const quick = performance.now() - g.at < 120;
    const p = powerAt(e, g);
    // A pull, not a touch: the finger went down the strip (a press let go where it went
    // down, or slid back up to it, is not a shot).
    if (e.type === "pointerup" && !quick && p >= MIN_PULL && mayShoot()) {
      actions.setPower(p);
      actions.shoot();
    } else {
      actions.setPower(g.before);
    }
  };
  track.addEventListener("pointerup", end);
  track.addEventListener("pointercancel", end);
  track.addEventListener("keydown", (e) => {
    if (!mayShoot()) return;
    if (e.key === "ArrowUp" || e.key === "ArrowRight") actions.setPower(Math.min(1, power() + 0.02));
    else if (e.key === "ArrowDown" || e.key === "ArrowLeft") actions.setPower(Math.max(0.01, power() - 0.02));
    else if (e.key === " " || e.key === "Enter") actions.shoot();
    else return;
    e.preventDefault();
    e.stopPropagation();
  });
}

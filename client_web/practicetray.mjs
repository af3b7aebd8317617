// The practice table's tray of balls off the table: a ball dragged from it onto the table,
// picked by a click or a tap (then put where the next one lands), or picked with Enter.
//
// On a touch screen the tray sits at the foot of the first screen, just where a thumb
// starts a swipe to scroll down to Undo: a ball that followed every finger from there was
// dropped on the table by a scroll. So a finger takes a ball along only once it has held it
// a moment (`HOLD_MS`, as a long press); a quick swipe scrolls the page (the tray's balls
// let the browser pan vertically) and leaves the ball where it was. A mouse or a pen drags
// at once, as before.

import { BALL_COLOURS, isStriped } from "./table.mjs";

/** How long a finger holds a tray ball before the ball follows it (ms). */
export const HOLD_MS = 200;

/**
 * What the tray needs of the practice table.
 * @typedef {object} TrayHost
 * @property {() => boolean} mine the table is the reader's to change
 * @property {(ball: number, x: number, y: number) => void} grab a press on a tray ball (a drag or a pick begins)
 * @property {(e: PointerEvent) => void} move the pointer moved while a ball is held
 * @property {(e: PointerEvent) => void} drop the pointer is up: put the ball there, or pick it
 * @property {() => void} cancel the press came to nothing (the page scrolled instead)
 * @property {(ball: number) => void} pick a ball picked with the keyboard
 */

/**
 * Wires the tray's pointers and keys.
 * @param {HTMLElement} tray @param {TrayHost} host
 */
export function wireTray(tray, host) {
  /** The finger on a tray ball, and whether it has held it long enough to drag it. */
  /** @type {{ id: number, armed: boolean, timer: ReturnType<typeof setTimeout> } | null} */
  let finger = null;
  const release = () => {
    if (finger) clearTimeout(finger.timer);
    finger = null;
  };
  tray.addEventListener("pointerdown", (e) => {
    const b = /** @type {HTMLElement} */ (e.target).closest("button[data-ball]");
    if (!b || !host.mine()) return;
    release();
    /** @type {HTMLElement} */ (b).setPointerCapture(e.pointerId);
    host.grab(Number(/** @type {HTMLElement} */ (b).dataset.ball), e.clientX, e.clientY);
    if (e.pointerType === "touch") {
      const held = { id: e.pointerId, armed: false, timer: setTimeout(() => (held.armed = true), HOLD_MS) };
      finger = held;
      return; // no preventDefault: a swipe may still scroll the page
    }
    e.preventDefault();
  });
  tray.addEventListener("pointermove", (e) => {
    if (finger && finger.id === e.pointerId && !finger.armed) return; // not held yet: no drag
    host.move(e);
  });
  tray.addEventListener("pointerup", (e) => {
    release();
    host.drop(e);
  });
  tray.addEventListener("pointercancel", () => {
    // The browser took the finger for a scroll.
    release();
    host.cancel();
  });
  // A finger that has held its ball keeps the page still while it drags it.
  tray.addEventListener(
    "touchmove",
    (e) => {
      if (finger?.armed && e.cancelable) e.preventDefault();
    },
    { passive: false },
  );
  tray.addEventListener("keydown", (e) => {
    const b = /** @type {HTMLElement} */ (e.target).closest("button[data-ball]");
    if (b && (e.key === "Enter" || e.key === " ")) {
      host.pick(Number(/** @type {HTMLElement} */ (b).dataset.ball));
      e.preventDefault();
    }
  });
}

/** A tray ball's look: its colour, a stripe as a band. @param {number} n */
export function trayStyle(n) {
  const c = BALL_COLOURS[n];
  return isStriped(n) ? `background: linear-gradient(#f8f6ee 25%, ${c} 25%, ${c} 75%, #f8f6ee 75%)` : `background: ${c}`;
}

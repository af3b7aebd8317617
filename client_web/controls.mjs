// Input widgets that are not plain form controls: the cue-tip (spin) selector with its
// miscue zone, and the power curve shared by the slider and the drag on the table.

import { isMiscueZone } from "./aim.mjs";
import { num, t } from "./i18n/index.mjs";

/** Fastest cue-ball speed the server accepts (m/s, O2). */
export const MAX_SPEED = 12;
/**
 * The hardest stroke's impulse per unit mass (m/s): a raised cue drives part of it into
 * the bed, so the cue ball gets at most this times cos(elevation) (the server refuses more).
 */
export const MAX_IMPULSE_SPEED = 13;
const MIN_SPEED = 0.2;
/** The steepest cue the client offers (degrees); 13·cos(89°) ≈ 0.23 m/s still beats MIN_SPEED. */
export const MAX_ELEVATION = 89;
/** The tip offset the selector reaches (ball radii); past 0.5 is the miscue zone. */
export const TIP_LIMIT = 0.9;
export const MISCUE_LIMIT = 0.5;

/**
 * Fastest cue-ball speed the server accepts at this cue elevation (degrees), rounded down
 * to the centimetre per second so that a full-power shot is never refused: 12 m/s up to
 * 22.6°, 6.49 at 60°, 2.25 at 80°.
 * @param {number} elevation
 */
export function maxSpeedAt(elevation) {
  const e = Math.min(MAX_ELEVATION, Math.max(0, elevation || 0));
  const limit = MAX_IMPULSE_SPEED * Math.cos((e * Math.PI) / 180);
  // The small margin keeps the rounded value strictly inside the limit even where the two
  // ends' cosines differ in the last bit.
  return Math.min(MAX_SPEED, Math.floor(limit * 100 - 1e-6) / 100);
}

/**
 * Power 0…1 to cue-ball speed at a cue elevation: the slider spans what the cue can give
 * there, so raising the cue lowers the speed of the same power. Quadratic, so the soft shots
 * that need precision get most of the slider and a full break (≈ 10.7 m/s, level cue) sits
 * near 94 %.
 * @param {number} power
 * @param {number} [elevation] degrees
 */
export function speedFromPower(power, elevation = 0) {
  const p = Math.min(1, Math.max(0, power || 0));
  const top = maxSpeedAt(elevation);
  return Math.min(top, Math.round((MIN_SPEED + (top - MIN_SPEED) * p * p) * 100) / 100);
}

/**
 * Inverse of `speedFromPower` at the same elevation.
 * @param {number} speed
 * @param {number} [elevation] degrees
 */
export function powerFromSpeed(speed, elevation = 0) {
  const top = maxSpeedAt(elevation);
  return Math.min(1, Math.sqrt(Math.max(0, speed - MIN_SPEED) / (top - MIN_SPEED)));
}

/** Plain words for a tip offset. @param {number} side @param {number} height */
export function describeTip(side, height) {
  const parts = [];
  if (Math.abs(height) >= 0.02) parts.push(t(height > 0 ? "spin.follow" : "spin.draw", { v: num(Math.abs(height), 2) }));
  if (Math.abs(side) >= 0.02) parts.push(t(side > 0 ? "spin.right" : "spin.left", { v: num(Math.abs(side), 2) }));
  // (each way under 0.02, though not both at 0: the centre, not an empty clause — a
  // computer's tip at 0.015 and 0.015 read "Bot 1 aims: power 26 %, .")
  if (parts.length === 0) return t("spin.centreBall");
  const text = parts.join(", ");
  return isMiscueZone(side, height, MISCUE_LIMIT) ? t("spin.miscue", { text }) : text;
}

/**
 * A tip offset in words alone, for those who watch a shot being aimed ("Bot 5 is aiming:
 * power 55 %, follow"): "follow 0.04" was a number a watcher could not read, and an offset
 * under 0.15 of the radius is the centre to them.
 * @param {number} side @param {number} height
 */
export function describeTipWords(side, height) {
  const parts = [];
  // (off the centre by 0.15 in all, each way that takes 0.1 of it: the tip as drawn)
  const off = Math.hypot(side, height) >= 0.15;
  if (off && Math.abs(height) >= 0.1) parts.push(t(height > 0 ? "spin.followWord" : "spin.drawWord"));
  if (off && Math.abs(side) >= 0.1) parts.push(t(side > 0 ? "spin.rightWord" : "spin.leftWord"));
  const text = parts.length ? parts.join(", ") : t("spin.centreBall");
  return isMiscueZone(side, height, MISCUE_LIMIT) ? t("spin.miscue", { text }) : text;
}

/** Power 0…1 as the whole percentage shown to the player. @param {number} power */
export function powerPercent(power) {
  return Math.max(0, Math.min(100, Math.round((power || 0) * 100)));
}

/**
 * The power a break starts from: 87 % (9.1 m/s with a level cue), a legal break (R4: the
 * 1 first, then a ball down or four to a cushion) from the head spot on every seeded rack
 * tried, where the everyday default (40 %, 2.05 m/s) barely moves the rack.
 */
export const BREAK_POWER = 0.87;
/** The power every other shot starts from. */
export const DEFAULT_POWER = 0.4;

/**
 * Draws a small cue ball with the tip's point on it (the spin button on narrow screens).
 * @param {HTMLCanvasElement} canvas @param {number} side @param {number} height
 */
export function drawTipBall(canvas, side, height) {
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  const w = canvas.width;
  const half = w / 2;
  const R = half - 2;
  ctx.clearRect(0, 0, w, w);
  const g = ctx.createRadialGradient(half * 0.75, half * 0.7, R * 0.1, half, half, R);
  g.addColorStop(0, "#ffffff");
  g.addColorStop(1, "#c9c7bd");
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.arc(half, half, R, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = "rgba(200, 40, 30, 0.6)";
  ctx.setLineDash([3, 3]);
  ctx.beginPath();
  ctx.arc(half, half, R * MISCUE_LIMIT, 0, Math.PI * 2);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = isMiscueZone(side, height, MISCUE_LIMIT) ? "#d8281e" : "#1d5fb0";
  ctx.beginPath();
  ctx.arc(half + side * R, half - height * R, Math.max(3, R * 0.16), 0, Math.PI * 2);
  ctx.fill();
}

/** How near an axis (a fraction of the ball's radius) a pointer is put on it (`fromPointer`). */
const SNAP = 0.05;

/**
 * The cue ball seen from behind, with the point the tip strikes. Drag or click to move
 * it; arrow keys nudge it, 0 or Home centres it.
 */
export class SpinSelector {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(side: number, height: number) => void} onChange
   */
  constructor(canvas, onChange) {
    this.canvas = canvas;
    this.onChange = onChange;
    this.side = 0;
    this.height = 0;
    this.enabled = true;
    const dpr = window.devicePixelRatio || 1;
    // Its drawn size; while hidden (no box yet), the size its style gives it, so that the
    // ball is drawn at the pixels it is shown at (104 px beside a wide screen's panel).
    const css = canvas.getBoundingClientRect().width || parseFloat(getComputedStyle(canvas).width) || 120;
    canvas.width = Math.round(css * dpr);
    canvas.height = Math.round(css * dpr);
    canvas.addEventListener("pointerdown", (e) => {
      if (!this.enabled) return;
      canvas.setPointerCapture(e.pointerId);
      this.fromPointer(e);
    });
    canvas.addEventListener("pointermove", (e) => {
      if (this.enabled && canvas.hasPointerCapture(e.pointerId)) this.fromPointer(e);
    });
    canvas.addEventListener("keydown", (e) => this.key(e));
    this.draw();
  }

  /** A point a finger or the mouse puts within `SNAP` of an axis is on it: a tap straight
   * below the centre (for draw) gave 2 % of side spin nobody asked for. (The keys still
   * set any amount.) @param {PointerEvent} e */
  fromPointer(e) {
    const r = this.canvas.getBoundingClientRect();
    const half = r.width / 2;
    const side = ((e.clientX - r.left - half) / half) * 1.0;
    const height = (-(e.clientY - r.top - half) / half) * 1.0;
    this.set(Math.abs(side) < SNAP ? 0 : side, Math.abs(height) < SNAP ? 0 : height);
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (!this.enabled) return;
    const step = e.shiftKey ? 0.01 : 0.05;
    let { side, height } = this;
    if (e.key === "ArrowLeft") side -= step;
    else if (e.key === "ArrowRight") side += step;
    else if (e.key === "ArrowUp") height += step;
    else if (e.key === "ArrowDown") height -= step;
    else if (e.key === "0" || e.key === "Home") side = height = 0;
    else return;
    e.preventDefault();
    e.stopPropagation();
    this.set(side, height);
  }

  /** Sets the tip, kept inside the reachable circle. @param {number} side @param {number} height */
  set(side, height) {
    const r = Math.hypot(side, height);
    if (r > TIP_LIMIT) {
      side *= TIP_LIMIT / r;
      height *= TIP_LIMIT / r;
    }
    this.side = Math.round(side * 100) / 100;
    this.height = Math.round(height * 100) / 100;
    this.canvas.setAttribute("aria-valuenow", Math.hypot(this.side, this.height).toFixed(2));
    this.canvas.setAttribute("aria-valuetext", describeTip(this.side, this.height));
    this.draw();
    this.onChange(this.side, this.height);
  }

  /** Shows a tip chosen elsewhere (another selector), without telling the listener. @param {number} side @param {number} height */
  show(side, height) {
    this.side = side;
    this.height = height;
    this.canvas.setAttribute("aria-valuenow", Math.hypot(side, height).toFixed(2));
    this.canvas.setAttribute("aria-valuetext", describeTip(side, height));
    this.draw();
  }

  /** @param {boolean} on */
  setEnabled(on) {
    this.enabled = on;
    this.canvas.setAttribute("aria-disabled", String(!on));
  }

  draw() {
    const c = this.canvas;
    const ctx = /** @type {CanvasRenderingContext2D} */ (c.getContext("2d"));
    const w = c.width;
    const half = w / 2;
    const R = half - 2;
    ctx.clearRect(0, 0, w, w);
    const g = ctx.createRadialGradient(half * 0.75, half * 0.7, R * 0.1, half, half, R);
    g.addColorStop(0, "#ffffff");
    g.addColorStop(1, "#c9c7bd");
    ctx.fillStyle = g;
    ctx.beginPath();
    ctx.arc(half, half, R, 0, Math.PI * 2);
    ctx.fill();
    // The miscue zone: past half a radius the tip slips off.
    ctx.fillStyle = "rgba(220, 50, 40, 0.28)";
    ctx.beginPath();
    ctx.arc(half, half, R, 0, Math.PI * 2);
    ctx.arc(half, half, R * MISCUE_LIMIT, 0, Math.PI * 2, true);
    ctx.fill("evenodd");
    ctx.strokeStyle = "rgba(200, 40, 30, 0.8)";
    ctx.lineWidth = Math.max(1, w / 120);
    ctx.setLineDash([w / 40, w / 40]);
    ctx.beginPath();
    ctx.arc(half, half, R * MISCUE_LIMIT, 0, Math.PI * 2);
    ctx.stroke();
    ctx.setLineDash([]);
    // Cross hairs.
    ctx.strokeStyle = "rgba(0,0,0,0.25)";
    ctx.beginPath();
    ctx.moveTo(half, half - R);
    ctx.lineTo(half, half + R);
    ctx.moveTo(half - R, half);
    ctx.lineTo(half + R, half);
    ctx.stroke();
    // The tip.
    const x = half + this.side * R;
    const y = half - this.height * R;
    const miscue = isMiscueZone(this.side, this.height, MISCUE_LIMIT);
    ctx.fillStyle = miscue ? "#d8281e" : "#1d5fb0";
    ctx.beginPath();
    ctx.arc(x, y, R * 0.13, 0, Math.PI * 2);
    ctx.fill();
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = Math.max(1, w / 80);
    ctx.stroke();
  }
}

/** From this cue elevation (degrees) a firm stroke lifts the cue ball off the cloth (the
 * slate gives back half the push down into it): the preview, drawn on the cloth, then
 * says where the cue is pointed, not what the ball will meet first — it may jump it. */
export const RAISED = 20;

// Canvas renderer: the table in true 9-ft proportions and the balls as lit, textured
// spheres whose numbers and stripes turn as they roll.
//
// The static table (rails, diamonds, cushions with cut jaws, pockets, cloth, head
// string, spots) is drawn once per size into an offscreen layer. Each ball is shaded
// per pixel into its own small sprite, re-rendered only when its orientation changes,
// so a frame is one layer copy, ten sprite copies and the overlays.

import { cushionContact, objectRun } from "./aim.mjs";
import { cueBallPath, objectPathColour, pathToCushion } from "./cuepath.mjs";
import { BallSprite, rackOrientation, rotateOrientation } from "./balls.mjs";
import { TABLE } from "./table.mjs";

/** The largest part of a ball's radius the white disc under its number may cover. */
const NUMBER_DISC = 0.66;

/** @typedef {import("./aim.mjs").Vec} Vec */
/** @typedef {import("./table.mjs").TableGeometry} TableGeometry */

/** Everything drawn around the bed: cushion rubber plus wood. */
export const MARGIN = TABLE.railWidth;

/** A phone held upright: a window at least half again as tall as it is wide (a tablet
 * held upright is not: its table lies down when that draws it larger). */
export function uprightScreen() {
  return typeof window !== "undefined" && window.innerHeight >= 1.5 * window.innerWidth;
}

/**
 * World (table metres, y up) to screen (CSS pixels, y down). Landscape puts the head
 * rail on the left; portrait (narrow screens) turns the table a quarter turn with the
 * head rail at the bottom. Both are rotations of a view from above, so spin and
 * handedness look right in either.
 */
export class View {
  /**
   * @param {number} cssWidth @param {number} cssHeight
   * @param {boolean} [upright] the screen is a phone held upright (see `uprightScreen`)
   */
  constructor(cssWidth, cssHeight, upright = false) {
    const fullL = TABLE.length + 2 * MARGIN;
    const fullW = TABLE.width + 2 * MARGIN;
    // A little room around the rails: the table is never flush with the window's edge.
    const pad = Math.max(4, Math.min(14, 0.025 * Math.min(cssWidth, cssHeight)));
    const w = Math.max(1, cssWidth - 2 * pad);
    const h = Math.max(1, cssHeight - 2 * pad);
    const landscapeScale = Math.min(w / fullL, h / fullW);
    const portraitScale = Math.min(w / fullW, h / fullL);
    /** Upright when that draws the table larger by a twentieth, never a window a little
     * taller than wide; on a phone held upright, unless lying down draws it a quarter
     * larger — the scoreboard's tags come and go as a match goes on, and a table that
     * turned a quarter turn whenever they did (on the TV, a watcher's table lay sideways
     * under bots' tags) is one no one can follow.
     * @type {boolean} */
    this.portrait = portraitScale > landscapeScale * (upright ? 0.8 : 1.05);
    /** pixels per metre */
    this.scale = this.portrait ? portraitScale : landscapeScale;
    const drawnW = (this.portrait ? fullW : fullL) * this.scale;
    const drawnH = (this.portrait ? fullL : fullW) * this.scale;
    this.cssWidth = cssWidth;
    this.cssHeight = cssHeight;
    /** top-left of the drawn table (outer rail corner) in CSS px */
    this.ox = (cssWidth - drawnW) / 2;
    this.oy = (cssHeight - drawnH) / 2;
  }

  /** @param {number} x @param {number} y @returns {Vec} */
  toScreen(x, y) {
    const s = this.scale;
    if (this.portrait) {
      return [this.ox + (MARGIN + TABLE.width - y) * s, this.oy + (MARGIN + TABLE.length - x) * s];
    }
    return [this.ox + (MARGIN + x) * s, this.oy + (MARGIN + TABLE.width - y) * s];
  }

  /** @param {number} sx @param {number} sy @returns {Vec} */
  toWorld(sx, sy) {
    const s = this.scale;
    if (this.portrait) {
      return [MARGIN + TABLE.length - (sy - this.oy) / s, MARGIN + TABLE.width - (sx - this.ox) / s];
    }
    return [(sx - this.ox) / s - MARGIN, MARGIN + TABLE.width - (sy - this.oy) / s];
  }

  /**
   * A screen-pixel offset turned into a world direction (unit scale): used to shade the
   * ball sprites, which are drawn in screen orientation.
   * @param {number} dx @param {number} dy @returns {Vec}
   */
  screenDirToWorld(dx, dy) {
    return this.portrait ? [-dy, -dx] : [dx, -dy];
  }

  /** Applies the world→screen transform to a context (for paths in metres). @param {CanvasRenderingContext2D} ctx */
  applyWorld(ctx) {
    const s = this.scale;
    if (this.portrait) {
      // sx = ox + (M + W − y)s, sy = oy + (M + L − x)s
      ctx.transform(0, -s, -s, 0, this.ox + (MARGIN + TABLE.width) * s, this.oy + (MARGIN + TABLE.length) * s);
    } else {
      ctx.transform(s, 0, 0, -s, this.ox + MARGIN * s, this.oy + (MARGIN + TABLE.width) * s);
    }
  }
}

// --- the static table -----------------------------------------------------------------

const JAW_CORNER = (142 * Math.PI) / 180;
const JAW_SIDE = (103 * Math.PI) / 180;

/**
 * The cushion polygons (metres), one per rail segment between pockets, with the jaw
 * faces cut at the pockets' angles (142° corners, 103° sides).
 * @param {TableGeometry} t @returns {Vec[][]}
 */
export function cushionPolygons(t) {
  const cw = t.cushionWidth;
  const L = t.length;
  const W = t.width;
  const corner = t.pockets.find((p) => p.corner)?.mouth ?? 0.1143;
  const side = t.pockets.find((p) => !p.corner)?.mouth ?? 0.127;
  const dc = corner / Math.SQRT2; // jaw point distance from the corner along each rail
  const ds = side / 2;
  // Distance along the rail the jaw face runs back by, over the cushion depth.
  const backCorner = cw / Math.tan(Math.PI - JAW_CORNER);
  const backSide = cw / Math.tan(Math.PI - JAW_SIDE);
  /** Segment along y = 0 (near rail) from a to b, cushion extending to y = −cw. */
  const along = (/** @type {number} */ a, /** @type {number} */ b, /** @type {number} */ backA, /** @type {number} */ backB) => [
    /** @type {Vec} */ ([a, 0]),
    /** @type {Vec} */ ([b, 0]),
    /** @type {Vec} */ ([b + backB, -cw]),
    /** @type {Vec} */ ([a - backA, -cw]),
  ];
  const near1 = along(dc, L / 2 - ds, backCorner, backSide);
  const near2 = along(L / 2 + ds, L - dc, backSide, backCorner);
  /** @param {Vec[]} poly */
  const mirrorY = (poly) => poly.map(([x, y]) => /** @type {Vec} */ ([x, W - y]));
  // Short rails: along x = 0 from y = dc to W − dc, extending to x = −cw.
  const head = [
    /** @type {Vec} */ ([0, dc]),
    /** @type {Vec} */ ([0, W - dc]),
    /** @type {Vec} */ ([-cw, W - dc + backCorner]),
    /** @type {Vec} */ ([-cw, dc - backCorner]),
  ];
  const foot = head.map(([x, y]) => /** @type {Vec} */ ([L - x, y]));
  return [near1, near2, mirrorY(near1), mirrorY(near2), head, foot];
}

/**
 * Draws the static table into `ctx` (device pixels already scaled to CSS pixels).
 * @param {CanvasRenderingContext2D} ctx @param {View} view
 */
function drawTable(ctx, view) {
  const t = TABLE;
  const L = t.length;
  const W = t.width;
  const cw = t.cushionWidth;
  ctx.save();
  view.applyWorld(ctx);
  const px = 1 / view.scale;

  // Wood rail with rounded outer corners.
  const m = MARGIN;
  const woodGrad = ctx.createLinearGradient(0, -m, 0, W + m);
  woodGrad.addColorStop(0, "#5a2f17");
  woodGrad.addColorStop(0.5, "#6e3a1c");
  woodGrad.addColorStop(1, "#4a2512");
  ctx.fillStyle = woodGrad;
  roundRect(ctx, -m, -m, L + 2 * m, W + 2 * m, 0.05);
  ctx.fill();
  ctx.strokeStyle = "rgba(0,0,0,0.5)";
  ctx.lineWidth = 2 * px;
  ctx.stroke();

  // Cloth under the cushions and the bed.
  ctx.fillStyle = "#0d6b4f";
  ctx.fillRect(-cw, -cw, L + 2 * cw, W + 2 * cw);
  const bed = ctx.createRadialGradient(L / 2, W / 2, 0.1, L / 2, W / 2, L * 0.62);
  bed.addColorStop(0, "#168a66");
  bed.addColorStop(1, "#0e6d50");
  ctx.fillStyle = bed;
  ctx.fillRect(0, 0, L, W);

  // Pockets: dark holes with a leather rim, set just outside the nose line.
  for (const p of t.pockets) {
    const r = p.holeRadius;
    const [cx, cy] = p.hole;
    ctx.fillStyle = "#2a1a10";
    ctx.beginPath();
    ctx.arc(cx, cy, r + 0.012, 0, Math.PI * 2);
    ctx.fill();
    const hole = ctx.createRadialGradient(cx, cy, 0, cx, cy, r);
    hole.addColorStop(0, "#000");
    hole.addColorStop(0.8, "#050505");
    hole.addColorStop(1, "#1a1a1a");
    ctx.fillStyle = hole;
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, Math.PI * 2);
    ctx.fill();
  }

  // Cushions with their jaws.
  for (const poly of cushionPolygons(t)) {
    ctx.beginPath();
    poly.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
    ctx.closePath();
    ctx.fillStyle = "#0b5c43";
    ctx.fill();
    ctx.strokeStyle = "rgba(0,0,0,0.35)";
    ctx.lineWidth = 1 * px;
    ctx.stroke();
    // Nose highlight.
    ctx.beginPath();
    ctx.moveTo(poly[0][0], poly[0][1]);
    ctx.lineTo(poly[1][0], poly[1][1]);
    ctx.strokeStyle = "rgba(255,255,255,0.18)";
    ctx.lineWidth = 1.5 * px;
    ctx.stroke();
  }

  // Diamonds: six on each long rail, three on each short rail, mid-wood.
  const mid = t.diamondOffset;
  const dsz = Math.max(0.012, 3.2 * px);
  ctx.fillStyle = "#f3ead2";
  /** @param {number} x @param {number} y */
  const diamond = (x, y) => {
    ctx.beginPath();
    ctx.moveTo(x - dsz, y);
    ctx.lineTo(x, y + dsz * 0.7);
    ctx.lineTo(x + dsz, y);
    ctx.lineTo(x, y - dsz * 0.7);
    ctx.closePath();
    ctx.fill();
  };
  for (const k of [1, 2, 3, 5, 6, 7]) {
    diamond((k * L) / 8, -mid);
    diamond((k * L) / 8, W + mid);
  }
  for (const k of [1, 2, 3]) {
    diamond(-mid, (k * W) / 4);
    diamond(L + mid, (k * W) / 4);
  }

  // Head string and spots.
  ctx.strokeStyle = "rgba(255,255,255,0.28)";
  ctx.lineWidth = 1.2 * px;
  ctx.setLineDash([6 * px, 6 * px]);
  ctx.beginPath();
  ctx.moveTo(t.headStringX, 0);
  ctx.lineTo(t.headStringX, W);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = "rgba(255,255,255,0.55)";
  for (const [x, y] of [t.footSpot, t.headSpot]) {
    ctx.beginPath();
    ctx.arc(x, y, Math.max(0.006, 2.2 * px), 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
}

/**
 * @param {CanvasRenderingContext2D} ctx @param {number} x @param {number} y
 * @param {number} w @param {number} h @param {number} r
 */
function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.lineTo(x + w - r, y);
  ctx.arcTo(x + w, y, x + w, y + r, r);
  ctx.lineTo(x + w, y + h - r);
  ctx.arcTo(x + w, y + h, x + w - r, y + h, r);
  ctx.lineTo(x + r, y + h);
  ctx.arcTo(x, y + h, x, y + h - r, r);
  ctx.lineTo(x, y + r);
  ctx.arcTo(x, y, x + r, y, r);
  ctx.closePath();
}

// --- the renderer -----------------------------------------------------------------

const motionQuery = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;
/** Whether the reader asks for reduced motion. */
export function reduceMotion() {
  return !!motionQuery?.matches;
}

/**
 * @typedef {object} BallDraw
 * @property {number} n
 * @property {number} x
 * @property {number} y
 * @property {number} [alpha] 0…1, for balls dropping into a pocket
 * @property {number} [scale] 0…1, for balls dropping into a pocket
 * @property {number} [z] height of the ball's bottom above the cloth (m): a ball in flight
 */

/** How far above the cloth the table is seen from (m): sets how much a flying ball grows. */
const EYE_HEIGHT = 1.5;

/**
 * How a ball at height `z` looks from above: nearer the eye it is drawn larger, and its
 * shadow falls further away and fainter (the light is above and a little to the side).
 * Below the cloth (over a pocket's hole) it shrinks and casts no shadow on the cloth.
 * @param {number} z metres
 */
export function heightLook(z) {
  const h = Math.max(-0.5, Math.min(z, 1.0));
  return {
    scale: EYE_HEIGHT / (EYE_HEIGHT - h),
    shadowShift: 1 + Math.max(0, h) / TABLE.ballRadius,
    shadowAlpha: h < 0 ? 0 : 1 / (1 + (2 * h) / TABLE.ballRadius),
  };
}

/**
 * @typedef {object} Overlay
 * @property {number | null} [lowest] ball to ring as the one to hit first
 * @property {{ cue: Vec, angle: number, power: number, speed?: number, height?: number, elevation?: number, preview: import("./aim.mjs").BallContact | import("./aim.mjs").CushionContact, remote?: boolean, wrong?: boolean, aid?: "full" | "ghost" | "none" } | null} [aim]
 *   `wrong`: the line meets another ball before the ball to hit (drawn red)
 *   `speed` (m/s) and `height` (tip height, radii) shape the cue ball's path after contact
 * @property {{ pos: Vec, ok: boolean } | null} [placing]
 * @property {boolean} [kitchenHint] shade the kitchen (ball in hand behind the head string)
 * @property {{ side: number, height: number } | null} [tip] where the cue strikes the cue ball: a dot on it
 * @property {{ x: number, y: number, r: number } | null} [handle] the ball-in-hand handle (CSS px)
 * @property {{ x: number, y: number, text: string, colour: string }[]} [labels] name tags beside balls (lag)
 * @property {boolean} [numbers] flat, legible numbers on the object balls (at rest)
 * @property {boolean} [calm] the table has been at rest a while: the ring holds still
 */

export class Renderer {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
    this.layer = document.createElement("canvas");
    this.view = new View(1, 1);
    this.dpr = 1;
    this.blank = true; // the canvas cleared (resized, its context restored) and not drawn since
    canvas.addEventListener("contextrestored", () => void (this.dpr = 0));
    /** What the last frame drew of the aim ("line", "ghost", "departures"). @type {string[]} */
    this.aimParts = [];
    this.sprites = /** @type {Map<number, BallSprite>} */ (new Map());
    this.orientation = /** @type {Map<number, Float64Array>} */ (new Map());
    for (let n = 0; n <= 9; n++) {
      this.sprites.set(n, new BallSprite(n));
      this.orientation.set(n, rackOrientation(n));
    }
  }

  /** Fits the backing store to the element's CSS size × devicePixelRatio. */
  resize() {
    const rect = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(rect.width));
    const h = Math.max(1, Math.round(rect.height));
    if (
      this.canvas.width === Math.round(w * dpr) &&
      this.canvas.height === Math.round(h * dpr) &&
      this.dpr === dpr
    ) {
      return false;
    }
    this.dpr = dpr;
    this.blank = true;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.view = new View(w, h, uprightScreen());
    // What stands over the table by its rails follows the way it lies (`lying`: its long
    // rails along the screen), not the screen's: a side pocket is in a long rail's middle.
    this.canvas.parentElement?.classList.toggle("lying", !this.view.portrait);
    this.layer.width = this.canvas.width;
    this.layer.height = this.canvas.height;
    const lctx = /** @type {CanvasRenderingContext2D} */ (this.layer.getContext("2d"));
    lctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawTable(lctx, this.view);
    for (const s of this.sprites.values()) s.dirty = true;
    return true;
  }

  /** Turns ball `n` by its angular velocity over `dt` seconds (world frame, rad/s).
   * @param {number} n @param {number} wx @param {number} wy @param {number} wz @param {number} dt */
  spin(n, wx, wy, wz, dt) {
    const m = this.orientation.get(n);
    const s = this.sprites.get(n);
    if (m && s && rotateOrientation(m, wx, wy, wz, dt)) s.dirty = true;
  }

  /** Resets the orientations for a new rack. */
  newRack() {
    for (let n = 0; n <= 9; n++) {
      this.orientation.set(n, rackOrientation(n));
      const s = this.sprites.get(n);
      if (s) s.dirty = true;
    }
  }

  /**
   * Draws one frame.
   * @param {BallDraw[]} balls @param {Overlay} overlay
   */
  draw(balls, overlay) {
    this.blank = false;
    const ctx = this.ctx;
    const view = this.view;
    const dpr = this.dpr;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.drawImage(this.layer, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const R = TABLE.ballRadius;
    const rPx = R * view.scale;

    if (overlay.kitchenHint) {
      ctx.save();
      view.applyWorld(ctx);
      ctx.fillStyle = "rgba(255,255,255,0.07)";
      ctx.fillRect(0, 0, TABLE.headStringX, TABLE.width);
      ctx.restore();
    }

    // Shadows first, so no ball's shadow falls across another ball.
    for (const b of balls) {
      const [sx, sy] = view.toScreen(b.x, b.y);
      const k = b.scale ?? 1;
      const look = heightLook(b.z ?? 0);
      const d = look.shadowShift;
      ctx.fillStyle = `rgba(0,0,0,${0.28 * (b.alpha ?? 1) * look.shadowAlpha})`;
      ctx.beginPath();
      ctx.ellipse(sx + rPx * 0.22 * d, sy + rPx * 0.28 * d, rPx * 1.02 * k, rPx * 0.9 * k, 0, 0, Math.PI * 2);
      ctx.fill();
    }

    if (overlay.lowest != null) {
      const low = balls.find((b) => b.n === overlay.lowest);
      if (low) {
        const [sx, sy] = view.toScreen(low.x, low.y);
        // The ring pulses, unless the reader asks for less motion or the table is calm.
        const pulse = reduceMotion() || overlay.calm ? 1 : 0.5 + 0.5 * Math.sin(performance.now() / 260);
        ctx.strokeStyle = `rgba(255, 236, 120, ${0.55 + 0.4 * pulse})`;
        ctx.lineWidth = Math.max(1.5, rPx * 0.16);
        ctx.beginPath();
        ctx.arc(sx, sy, rPx * (1.32 + 0.08 * pulse), 0, Math.PI * 2);
        ctx.stroke();
      }
    }

    const sizePx = Math.max(4, Math.ceil(2 * rPx * dpr) + 2);
    // A ball in flight passes over the others: draw the highest last.
    const byHeight = balls.some((b) => b.z) ? [...balls].sort((a, b) => (a.z ?? 0) - (b.z ?? 0)) : balls;
    for (const b of byHeight) {
      const sprite = this.sprites.get(b.n);
      const m = this.orientation.get(b.n);
      if (!sprite || !m) continue;
      sprite.update(sizePx, m, view);
      const [sx, sy] = view.toScreen(b.x, b.y);
      const k = (b.scale ?? 1) * heightLook(b.z ?? 0).scale;
      const half = (sizePx / dpr / 2) * k;
      ctx.globalAlpha = b.alpha ?? 1;
      ctx.drawImage(sprite.canvas, sx - half, sy - half, 2 * half, 2 * half);
      ctx.globalAlpha = 1;
    }

    if (overlay.numbers) this.drawNumbers(balls, rPx);
    if (overlay.labels) this.drawLabels(overlay.labels, rPx);
    if (overlay.placing) this.drawPlacing(overlay.placing);
    if (overlay.aim) this.drawAim(overlay.aim);
    else this.aimParts = [];
    if (overlay.tip && overlay.aim) this.drawTip(overlay.aim.cue, overlay.aim.angle, overlay.tip, rPx);
    if (overlay.handle) this.drawHandle(overlay.handle, overlay.placing?.pos ?? overlay.aim?.cue ?? null);
  }

  /**
   * Each object ball's number, flat and upright over the ball so it reads at any size
   * (the number painted on a small rolling ball is too small on a phone). The white disc
   * under it never covers more than `NUMBER_DISC` of the ball's radius, so the ball's
   * colour always shows around it: on a small ball (a phone) the number shrinks to fit
   * its disc rather than spill over the colour (an outlined number hid it: the balls read
   * as bare numbers).
   * @param {BallDraw[]} balls @param {number} rPx
   */
  drawNumbers(balls, rPx) {
    const ctx = this.ctx;
    const disc = Math.min(Math.max(rPx * 1.05 * 0.62, rPx * 0.56), rPx * NUMBER_DISC);
    const size = Math.min(Math.max(8, rPx * 1.05), disc * 1.6);
    ctx.font = `700 ${size}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (const b of balls) {
      if (b.n === 0 || (b.scale ?? 1) < 1) continue;
      const [sx, sy] = this.view.toScreen(b.x, b.y);
      ctx.fillStyle = "rgba(255,255,255,0.92)";
      ctx.beginPath();
      ctx.arc(sx, sy, disc, 0, Math.PI * 2);
      ctx.fill();
      ctx.fillStyle = "#111";
      ctx.fillText(String(b.n), sx, sy + size * 0.04);
    }
  }

  /** @param {{ x: number, y: number, text: string, colour: string }[]} labels @param {number} rPx */
  drawLabels(labels, rPx) {
    const ctx = this.ctx;
    ctx.font = "600 13px system-ui, sans-serif";
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    /** The tags drawn so far: a tag that would cover one moves down (or up) clear of it. */
    /** @type {{ x: number, y: number, w: number }[]} */
    const placed = [];
    const rings = labels.map((l) => this.view.toScreen(l.x, l.y));
    const clear = rPx * 1.6; // a ringed ball's reach
    const [[ax, ay], [bx, by]] = [this.view.toScreen(0, 0), this.view.toScreen(TABLE.length, TABLE.width)];
    const cloth = [Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)];
    for (const [k, l] of labels.entries()) {
      const [sx, sy] = rings[k];
      ctx.strokeStyle = l.colour;
      ctx.lineWidth = Math.max(2, rPx * 0.25);
      ctx.beginPath();
      ctx.arc(sx, sy, rPx * 1.45, 0, Math.PI * 2);
      ctx.stroke();
      const w = ctx.measureText(l.text).width + 10;
      // Beside the ball, else across from it, above or below it: the first place that stays
      // on the cloth (past the rail a tag covered a corner pocket), else on the canvas, and
      // covers no ringed ball nor another tag.
      const fits = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number[]} */ [l, tp, r, b]) =>
        x >= l && x + w <= r && y - 10 >= tp && y + 10 <= b &&
        !rings.some(([bx, by]) => bx > x - clear && bx < x + w + clear && by > y - 10 - clear && by < y + 10 + clear) &&
        !placed.some((p) => x < p.x + p.w && p.x < x + w && Math.abs(y - p.y) < 22);
      const spots = [[sx + rPx * 1.8, sy], [sx - rPx * 1.8 - w, sy], [sx - w / 2, sy - rPx * 1.8 - 12], [sx - w / 2, sy + rPx * 1.8 + 12]];
      const canvas = [2, 2, this.view.cssWidth - 2, this.view.cssHeight - 2];
      let [x, y] = [cloth, canvas].map((box) => spots.find(([cx, cy]) => fits(cx, cy, box))).find(Boolean) ?? spots[0];
      if (!spots.some(([cx, cy]) => fits(cx, cy, canvas))) {
        if (x + w > this.view.cssWidth - 2) x = sx - rPx * 1.8 - w;
        for (const p of placed) {
          if (x < p.x + p.w && p.x < x + w && Math.abs(y - p.y) < 22) y = p.y + (y >= p.y || p.y + 44 > this.view.cssHeight ? 22 : -22);
        }
      }
      placed.push({ x, y, w });
      /** @type {any} */ (l).box = { x, y: y - 10, w, h: 20 }; // where it went, for the tests' eyes
      ctx.fillStyle = "rgba(10, 14, 16, 0.85)";
      ctx.fillRect(x, y - 10, w, 20);
      ctx.fillStyle = l.colour;
      ctx.fillRect(x, y - 10, 3, 20);
      ctx.fillStyle = "#fff";
      ctx.fillText(l.text, x + 6, y);
    }
  }

  /**
   * The tip's point as a dot on the cue ball, seen from above: side spin across the aim,
   * follow ahead of the centre, draw behind it.
   * @param {Vec} cue @param {number} angle @param {{ side: number, height: number }} tip @param {number} rPx
   */
  drawTip(cue, angle, tip, rPx) {
    if (Math.hypot(tip.side, tip.height) < 0.02) return;
    const ux = Math.cos(angle);
    const uy = Math.sin(angle);
    // Right english: to the right of the aim direction (world: (uy, −ux)).
    const wx = cue[0] + (ux * tip.height + uy * tip.side) * TABLE.ballRadius * 0.9;
    const wy = cue[1] + (uy * tip.height - ux * tip.side) * TABLE.ballRadius * 0.9;
    const [sx, sy] = this.view.toScreen(wx, wy);
    const ctx = this.ctx;
    ctx.fillStyle = Math.hypot(tip.side, tip.height) > 0.5 ? "#d8281e" : "#1d5fb0";
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.arc(sx, sy, Math.max(2.2, rPx * 0.22), 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
  }

  /**
   * The ball-in-hand handle: a ring with four arrows beside the ball, tied to it.
   * @param {{ x: number, y: number, r: number }} hd @param {Vec | null} ball
   */
  drawHandle(hd, ball) {
    const ctx = this.ctx;
    if (ball) {
      const [bx, by] = this.view.toScreen(ball[0], ball[1]);
      ctx.strokeStyle = "rgba(255,255,255,0.55)";
      ctx.lineWidth = 1.5;
      ctx.setLineDash([3, 3]);
      ctx.beginPath();
      ctx.moveTo(bx, by);
      ctx.lineTo(hd.x, hd.y);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.fillStyle = "rgba(20, 90, 160, 0.85)";
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(hd.x, hd.y, hd.r, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    const a = hd.r * 0.62;
    const k = hd.r * 0.25;
    ctx.beginPath();
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      ctx.moveTo(hd.x, hd.y);
      ctx.lineTo(hd.x + dx * a, hd.y + dy * a);
      ctx.moveTo(hd.x + dx * a, hd.y + dy * a);
      ctx.lineTo(hd.x + dx * (a - k) + dy * k, hd.y + dy * (a - k) + dx * k);
      ctx.moveTo(hd.x + dx * a, hd.y + dy * a);
      ctx.lineTo(hd.x + dx * (a - k) - dy * k, hd.y + dy * (a - k) - dx * k);
    }
    ctx.stroke();
  }

  /** @param {{ pos: Vec, ok: boolean }} placing */
  drawPlacing(placing) {
    const ctx = this.ctx;
    const [sx, sy] = this.view.toScreen(placing.pos[0], placing.pos[1]);
    const rPx = TABLE.ballRadius * this.view.scale;
    ctx.lineWidth = Math.max(2, rPx * 0.18);
    ctx.strokeStyle = placing.ok ? "rgba(120, 255, 160, 0.95)" : "rgba(255, 70, 70, 0.95)";
    ctx.setLineDash(placing.ok ? [] : [4, 3]);
    ctx.beginPath();
    ctx.arc(sx, sy, rPx * 1.35, 0, Math.PI * 2);
    ctx.stroke();
    ctx.setLineDash([]);
    if (!placing.ok) {
      const d = rPx * 0.7;
      ctx.beginPath();
      ctx.moveTo(sx - d, sy - d);
      ctx.lineTo(sx + d, sy + d);
      ctx.moveTo(sx + d, sy - d);
      ctx.lineTo(sx - d, sy + d);
      ctx.stroke();
    }
  }

  /**
   * Aim line, ghost ball, the object ball's and the cue ball's departures, the cushion
   * point, and the cue stick pulled back by the power.
   * @param {NonNullable<Overlay["aim"]>} aim
   */
  drawAim(aim) {
    const aid = aim.aid ?? "full";
    /** What this frame drew of the aim (for the tests' hook): "line", "ghost", "departures". @type {string[]} */
    const parts = [];
    this.aimParts = parts;
    const ctx = this.ctx;
    const view = this.view;
    const R = TABLE.ballRadius;
    const rPx = R * view.scale;
    const [cx, cy] = view.toScreen(aim.cue[0], aim.cue[1]);
    const p = aim.preview;
    const end = p.kind === "ball" ? p.ghost : p.point;
    const [ex, ey] = view.toScreen(end[0], end[1]);
    const colour = aim.wrong ? "rgba(255, 90, 80, 0.95)" : aim.remote ? "rgba(160, 200, 255, 0.9)" : "rgba(255, 255, 255, 0.9)";
    ctx.lineWidth = Math.max(1, rPx * 0.08);
    ctx.strokeStyle = colour;
    if (aid === "full") {
      ctx.beginPath();
      ctx.moveTo(cx, cy);
      ctx.lineTo(ex, ey);
      ctx.stroke();
      parts.push("line");
    }
    /** @param {Vec} from @param {Vec} dir @param {number} len @param {string} style */
    const ray = (from, dir, len, style) => {
      const [ax, ay] = view.toScreen(from[0], from[1]);
      const [bx, by] = view.toScreen(from[0] + dir[0] * len, from[1] + dir[1] * len);
      ctx.strokeStyle = style;
      ctx.beginPath();
      ctx.moveTo(ax, ay);
      ctx.lineTo(bx, by);
      ctx.stroke();
    };
    // Lines past the cue ball stay on the cloth.
    ctx.save();
    const [bx0, by0] = view.toScreen(0, 0);
    const [bx1, by1] = view.toScreen(TABLE.length, TABLE.width);
    ctx.beginPath();
    ctx.rect(Math.min(bx0, bx1), Math.min(by0, by1), Math.abs(bx1 - bx0), Math.abs(by1 - by0));
    ctx.clip();
    // The room's aim aid (a match format): "ghost" draws the ghost ball alone, "none"
    // nothing but the cue stick.
    if (aid === "none") {
      // nothing on the cloth
    } else if (p.kind === "ball") {
      parts.push("ghost");
      ctx.strokeStyle = colour;
      if (aim.wrong) {
        // The first ball hit would be the wrong one (a foul): a red ghost ball with a cross.
        ctx.fillStyle = "rgba(255, 60, 50, 0.35)";
        ctx.beginPath();
        ctx.arc(ex, ey, rPx, 0, Math.PI * 2);
        ctx.fill();
        ctx.lineWidth = Math.max(1.5, rPx * 0.14);
        ctx.stroke();
        const d = rPx * 0.55;
        ctx.beginPath();
        ctx.moveTo(ex - d, ey - d);
        ctx.lineTo(ex + d, ey + d);
        ctx.moveTo(ex + d, ey - d);
        ctx.lineTo(ex - d, ey + d);
        ctx.stroke();
      } else {
        ctx.setLineDash([3, 3]);
        ctx.beginPath();
        ctx.arc(ex, ey, rPx, 0, Math.PI * 2);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      if (aid === "full") {
        // The object ball's path to the cushion, green when it runs into a pocket; to the
        // ball in its way, if one is, with that meeting's ghost ball dashed.
        const objFrom = /** @type {Vec} */ ([p.ghost[0] + p.objectDir[0] * 2 * R, p.ghost[1] + p.objectDir[1] * 2 * R]);
        const objPath = p.run ?? objectRun(p, []);
        const objColour = objectPathColour(!!objPath.pocket, !!aim.wrong);
        parts.push("departures");
        ctx.lineWidth = Math.max(1.5, rPx * 0.12);
        ray(objFrom, p.objectDir, objPath.distance, objColour);
        if (objPath.blocker !== null) {
          const [px, py] = view.toScreen(objPath.point[0], objPath.point[1]);
          ctx.strokeStyle = objColour;
          ctx.setLineDash([3, 3]);
          ctx.beginPath();
          ctx.arc(px, py, rPx, 0, Math.PI * 2);
          ctx.stroke();
          ctx.setLineDash([]);
        }
        if (objPath.pocket) {
          const [px, py] = view.toScreen(objPath.point[0], objPath.point[1]);
          ctx.strokeStyle = objColour;
          ctx.beginPath();
          ctx.arc(px, py, rPx, 0, Math.PI * 2);
          ctx.stroke();
        }
        ctx.lineWidth = Math.max(1, rPx * 0.07);
        if (aim.speed) {
          // The cue ball after contact, with the draw or follow on it: the sliding curve,
          // then the roll (to the first cushion, at most 60 cm of it).
          const path = pathToCushion(cueBallPath(p, aim.angle, aim.speed, aim.height ?? 0, aim.elevation ?? 0), 0.6);
          if (path.length > 1) {
            ctx.strokeStyle = "rgba(255,255,255,0.45)";
            ctx.beginPath();
            path.forEach(([x, y], i) => {
              const [sx, sy] = view.toScreen(x, y);
              if (i === 0) ctx.moveTo(sx, sy);
              else ctx.lineTo(sx, sy);
            });
            ctx.stroke();
          }
        } else if (p.cueDir[0] !== 0 || p.cueDir[1] !== 0) {
          const cuePath = cushionContact(p.ghost, Math.atan2(p.cueDir[1], p.cueDir[0]));
          ray(p.ghost, p.cueDir, Math.min(cuePath.distance, 0.25 + 0.5 * aim.power), "rgba(255,255,255,0.45)");
        }
      }
    } else {
      parts.push("ghost");
      ctx.strokeStyle = p.pocket ? "rgba(120,255,160,0.95)" : colour;
      ctx.beginPath();
      ctx.arc(ex, ey, rPx, 0, Math.PI * 2);
      ctx.stroke();
      ctx.lineWidth = Math.max(1, rPx * 0.06);
      if (!p.pocket && aid === "full") ray(p.point, p.reflected, 0.3, "rgba(255,255,255,0.35)");
    }
    ctx.restore();
    // The cue stick behind the cue ball.
    const back = rPx * (1.4 + 5 * aim.power);
    const ang = Math.atan2(ey - cy, ex - cx);
    const ux = Math.cos(ang);
    const uy = Math.sin(ang);
    // A raised butt shortens the cue as seen from above.
    const stickLen = Math.min(view.scale * 1.45, 600) * Math.cos(((aim.elevation ?? 0) * Math.PI) / 180);
    const tipX = cx - ux * back;
    const tipY = cy - uy * back;
    const buttX = tipX - ux * stickLen;
    const buttY = tipY - uy * stickLen;
    const grad = ctx.createLinearGradient(tipX, tipY, buttX, buttY);
    grad.addColorStop(0, "#e8e8f0");
    grad.addColorStop(0.012, "#2f6fb5");
    grad.addColorStop(0.03, "#f1deb0");
    grad.addColorStop(0.65, "#d9b77a");
    grad.addColorStop(0.7, "#1a1a1a");
    grad.addColorStop(1, "#3b1f10");
    ctx.strokeStyle = grad;
    ctx.lineCap = "round";
    ctx.lineWidth = Math.max(3, rPx * 0.42);
    ctx.beginPath();
    ctx.moveTo(tipX, tipY);
    ctx.lineTo(tipX - ux * stickLen * 0.5, tipY - uy * stickLen * 0.5);
    ctx.stroke();
    ctx.lineWidth = Math.max(4, rPx * 0.62);
    ctx.beginPath();
    ctx.moveTo(tipX - ux * stickLen * 0.5, tipY - uy * stickLen * 0.5);
    ctx.lineTo(buttX, buttY);
    ctx.stroke();
    ctx.lineCap = "butt";
  }
}

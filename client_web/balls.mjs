// The balls as the renderer draws them: each ball's orientation (a rotation turned by its
// spin, so numbers and stripes roll as the ball does) and its sprite, shaded per pixel
// into a small canvas of its own and re-rendered only when its orientation changes.

import { BALL_COLOURS, isStriped } from "./table.mjs";

/** @typedef {import("./render.mjs").View} View */

// --- ball orientation ---------------------------------------------------------------

/** A 3×3 rotation, body → world, row-major. @returns {Float64Array} */
export function identityOrientation() {
  return new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);
}

/**
 * Turns `m` in place by the rotation vector `w·dt` (world frame), Rodrigues' formula.
 * @param {Float64Array} m @param {number} wx @param {number} wy @param {number} wz @param {number} dt
 * @returns {boolean} whether anything turned
 */
export function rotateOrientation(m, wx, wy, wz, dt) {
  const ax = wx * dt;
  const ay = wy * dt;
  const az = wz * dt;
  const th = Math.hypot(ax, ay, az);
  if (th < 1e-7) return false;
  const kx = ax / th;
  const ky = ay / th;
  const kz = az / th;
  const c = Math.cos(th);
  const s = Math.sin(th);
  const t = 1 - c;
  const r = [
    t * kx * kx + c, t * kx * ky - s * kz, t * kx * kz + s * ky,
    t * kx * ky + s * kz, t * ky * ky + c, t * ky * kz - s * kx,
    t * kx * kz - s * ky, t * ky * kz + s * kx, t * kz * kz + c,
  ];
  const out = new Float64Array(9);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      out[i * 3 + j] = r[i * 3] * m[j] + r[i * 3 + 1] * m[3 + j] + r[i * 3 + 2] * m[6 + j];
    }
  }
  // Re-orthonormalise the columns so thousands of small turns do not drift.
  for (let j = 0; j < 3; j++) {
    if (j === 1) {
      const d = out[0] * out[1] + out[3] * out[4] + out[6] * out[7];
      out[1] -= d * out[0];
      out[4] -= d * out[3];
      out[7] -= d * out[6];
    }
    const n = Math.hypot(out[j], out[3 + j], out[6 + j]);
    out[j] /= n;
    out[3 + j] /= n;
    out[6 + j] /= n;
  }
  // Third column = first × second.
  out[2] = out[3] * out[7] - out[6] * out[4];
  out[5] = out[6] * out[1] - out[0] * out[7];
  out[8] = out[0] * out[4] - out[3] * out[1];
  m.set(out);
  return true;
}

/**
 * A fresh, pleasant orientation for a ball that is racked: its number facing up and
 * turned a little by its number, so the rack does not look stamped.
 * @param {number} n @returns {Float64Array}
 */
export function rackOrientation(n) {
  const m = identityOrientation();
  rotateOrientation(m, 0, 0, 1, 0.35 * n);
  if (isStriped(n)) rotateOrientation(m, 0, 1, 0, Math.PI / 2 - 0.25);
  return m;
}

// --- ball sprites -------------------------------------------------------------------

/** @param {string} hex @returns {[number, number, number]} */
function rgb(hex) {
  const v = Number.parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

const GLYPH_SIZE = 64;
/** @type {Map<number, Uint8ClampedArray>} */
const glyphCache = new Map();

/** The ball number as an alpha mask, GLYPH_SIZE². @param {number} n */
function glyph(n) {
  const cached = glyphCache.get(n);
  if (cached) return cached;
  const c = document.createElement("canvas");
  c.width = GLYPH_SIZE;
  c.height = GLYPH_SIZE;
  const g = /** @type {CanvasRenderingContext2D} */ (c.getContext("2d", { willReadFrequently: true }));
  g.fillStyle = "#000";
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.font = `bold ${Math.round(GLYPH_SIZE * 0.86)}px system-ui, sans-serif`;
  g.fillText(String(n), GLYPH_SIZE / 2, GLYPH_SIZE / 2 + GLYPH_SIZE * 0.02);
  if (n === 6 || n === 9) {
    // As on real balls: a bar under the 6 and the 9 tells them apart upside down.
    g.fillRect(GLYPH_SIZE * 0.3, GLYPH_SIZE * 0.86, GLYPH_SIZE * 0.4, GLYPH_SIZE * 0.07);
  }
  const data = g.getImageData(0, 0, GLYPH_SIZE, GLYPH_SIZE).data;
  const alpha = new Uint8ClampedArray(GLYPH_SIZE * GLYPH_SIZE);
  for (let i = 0; i < alpha.length; i++) alpha[i] = data[i * 4 + 3];
  glyphCache.set(n, alpha);
  return alpha;
}

const LIGHT = (() => {
  const v = [-0.35, 0.45, 1];
  const n = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / n, v[1] / n, v[2] / n];
})();
const HALF = (() => {
  const h = [LIGHT[0], LIGHT[1], LIGHT[2] + 1];
  const n = Math.hypot(h[0], h[1], h[2]);
  return [h[0] / n, h[1] / n, h[2] / n];
})();
/** cos of the number circle's angular radius (33°: a little larger than real, to stay legible). */
const DISC_COS = Math.cos(0.58);
const DISC_SIN = Math.sin(0.58);
/** Stripe half-height as the body z it reaches. */
const STRIPE = 0.56;

/**
 * Shades ball `n` into `img` (size × size pixels) with orientation `m`.
 * @param {ImageData} img @param {number} n @param {Float64Array} m @param {View} view
 */
function shadeBall(img, n, m, view) {
  const size = img.width;
  const r = size / 2 - 1;
  const cx = size / 2;
  const data = img.data;
  const base = rgb(BALL_COLOURS[n]);
  const white = [250, 248, 240];
  const striped = isStriped(n);
  const g = n > 0 ? glyph(n) : null;
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const sx = (i + 0.5 - cx) / r;
      const sy = (j + 0.5 - cx) / r;
      const d2 = sx * sx + sy * sy;
      const o = (j * size + i) * 4;
      const edge = (1 - Math.sqrt(d2)) * r + 0.5;
      if (edge <= 0) {
        data[o + 3] = 0;
        continue;
      }
      const [wx, wy] = view.screenDirToWorld(sx, sy);
      const wz = Math.sqrt(Math.max(0, 1 - d2));
      // Body coordinates: b = Mᵀ w.
      const bx = m[0] * wx + m[3] * wy + m[6] * wz;
      const by = m[1] * wx + m[4] * wy + m[7] * wz;
      const bz = m[2] * wx + m[5] * wy + m[8] * wz;
      /** @type {ArrayLike<number>} */
      let col = base;
      let ink = 0;
      if (n === 0) {
        // The cue ball carries six small dots so its spin can be seen.
        const ax = Math.abs(bx);
        const ay = Math.abs(by);
        const az = Math.abs(bz);
        const top = Math.max(ax, ay, az);
        col = top > 0.975 ? [200, 40, 40] : white;
      } else {
        // Number circles on body ±x for stripes (inside the band), ±z for solids.
        const axis = striped ? bx : bz;
        const u = striped ? by : bx;
        const v = striped ? bz : by;
        if (striped) col = Math.abs(bz) < STRIPE ? base : white;
        if (Math.abs(axis) > DISC_COS) {
          col = white;
          if (g) {
            const flip = axis > 0 ? 1 : -1;
            const tu = ((u * flip) / DISC_SIN) * 0.5 + 0.5;
            const tv = 0.5 - (v / DISC_SIN) * 0.5;
            const gx = Math.min(GLYPH_SIZE - 1, Math.max(0, Math.floor(tu * GLYPH_SIZE)));
            const gy = Math.min(GLYPH_SIZE - 1, Math.max(0, Math.floor(tv * GLYPH_SIZE)));
            ink = g[gy * GLYPH_SIZE + gx] / 255;
          }
        }
      }
      const lam = Math.max(0, wx * LIGHT[0] + wy * LIGHT[1] + wz * LIGHT[2]);
      const spec = Math.pow(Math.max(0, wx * HALF[0] + wy * HALF[1] + wz * HALF[2]), 60) * 0.75;
      const shade = 0.38 + 0.7 * lam;
      const rim = 0.75 + 0.25 * wz;
      for (let k = 0; k < 3; k++) {
        const c = col[k] * (1 - ink) + 20 * ink;
        data[o + k] = Math.min(255, c * shade * rim + 255 * spec);
      }
      data[o + 3] = Math.min(1, edge) * 255;
    }
  }
}

export class BallSprite {
  /** @param {number} n */
  constructor(n) {
    this.n = n;
    this.canvas = document.createElement("canvas");
    this.ctx = /** @type {CanvasRenderingContext2D} */ (this.canvas.getContext("2d"));
    /** @type {ImageData | null} */
    this.img = null;
    this.dirty = true;
  }

  /** @param {number} sizePx @param {Float64Array} m @param {View} view */
  update(sizePx, m, view) {
    if (this.canvas.width !== sizePx) {
      this.canvas.width = sizePx;
      this.canvas.height = sizePx;
      this.img = this.ctx.createImageData(sizePx, sizePx);
      this.dirty = true;
    }
    if (!this.dirty || !this.img) return;
    shadeBall(this.img, this.n, m, view);
    this.ctx.putImageData(this.img, 0, 0);
    this.dirty = false;
  }
}

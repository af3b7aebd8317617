// Sound, made on the spot with Web Audio from what the server's trajectory says happened:
// the cue strike, balls meeting, balls meeting a cushion, a ball dropping into a pocket,
// each as loud as the impact was hard. Nothing is downloaded. Muting is remembered.
//
// `shotSounds` is pure (tested in node): it reads the decoded tracks and lists the
// impacts with their times and speeds. `Sound` plays them in step with the animation.

import { TABLE } from "./table.mjs";

/** @typedef {import("./playback.mjs").Seg} Seg */
/** @typedef {{ t: number, kind: "cue" | "ball" | "cushion" | "pocket", speed: number }} Impact */

const MUTE_KEY = "ninepool.muted";
/** Velocity changes smaller than this (m/s) are friction and roll, not impacts. */
const MIN_KICK = 0.05;

/** @param {Seg} s @param {number} t the velocity of segment `s` at time `t` @returns {[number, number]} */
function velocityAt(s, t) {
  const tau = Math.max(0, t - s.t0);
  return [s.vx + s.ax * tau, s.vy + s.ay * tau];
}

/** @param {Seg} s @param {number} t @returns {[number, number]} */
function positionAt(s, t) {
  const tau = Math.max(0, t - s.t0);
  return [s.x + s.vx * tau + 0.5 * s.ax * tau * tau, s.y + s.vy * tau + 0.5 * s.ay * tau * tau];
}

/**
 * The impacts of one shot, in time order: where a ball's velocity jumps between two
 * segments it was struck (the first moving segment of the cue ball at the start), met a
 * ball (another ball's velocity jumps at the same instant) or a cushion (it is by a rail);
 * a ball whose segment says "pocketed" drops.
 * @param {Map<number, Seg[]>} tracks
 * @returns {Impact[]}
 */
export function shotSounds(tracks) {
  /** @type {{ t: number, n: number, kick: number, pos: [number, number] }[]} */
  const kicks = [];
  /** @type {Impact[]} */
  const out = [];
  for (const [n, track] of tracks) {
    for (let i = 0; i < track.length; i++) {
      const s = track[i];
      if (s.state === 4) {
        const prev = track[i - 1];
        const v = prev ? Math.hypot(...velocityAt(prev, s.t0)) : 1;
        out.push({ t: s.t0, kind: "pocket", speed: v });
        break;
      }
      if (s.state === 5) break;
      const before = i > 0 ? velocityAt(track[i - 1], s.t0) : [0, 0];
      const kick = Math.hypot(s.vx - before[0], s.vy - before[1]);
      if (kick < MIN_KICK) continue;
      if (i === 0 && n === 0) out.push({ t: s.t0, kind: "cue", speed: Math.hypot(s.vx, s.vy) });
      else if (i > 0 || n !== 0) kicks.push({ t: s.t0, n, kick, pos: positionAt(s, s.t0) });
    }
  }
  const r = TABLE.ballRadius;
  const used = new Set();
  kicks.sort((a, b) => a.t - b.t);
  for (let i = 0; i < kicks.length; i++) {
    if (used.has(i)) continue;
    const k = kicks[i];
    // Another ball kicked at the same instant, touching this one: the two met.
    let partner = -1;
    for (let j = i + 1; j < kicks.length && kicks[j].t - k.t < 1e-6; j++) {
      const o = kicks[j];
      if (!used.has(j) && o.n !== k.n && Math.hypot(o.pos[0] - k.pos[0], o.pos[1] - k.pos[1]) < 2 * r + 0.004) {
        partner = j;
        break;
      }
    }
    if (partner >= 0) {
      used.add(partner);
      out.push({ t: k.t, kind: "ball", speed: Math.max(k.kick, kicks[partner].kick) });
      continue;
    }
    const [x, y] = k.pos;
    const nearRail = x < r + 0.01 || x > TABLE.length - r - 0.01 || y < r + 0.01 || y > TABLE.width - r - 0.01;
    if (nearRail) out.push({ t: k.t, kind: "cushion", speed: k.kick / 2 });
  }
  return out.sort((a, b) => a.t - b.t);
}

/** Loudness 0…1 for an impact speed (m/s): soft touches are faint, a break is loud. @param {number} speed */
export function loudness(speed) {
  return Math.max(0.04, Math.min(1, Math.sqrt(Math.max(0, speed) / 8)));
}

export class Sound {
  constructor() {
    /** @type {AudioContext | null} */
    this.ctx = null;
    this.muted = false;
    try {
      this.muted = localStorage.getItem(MUTE_KEY) === "1";
    } catch {
      /* no storage */
    }
    /** @type {AudioBuffer | null} */
    this.noise = null;
  }

  /** @param {boolean} muted */
  setMuted(muted) {
    this.muted = muted;
    try {
      localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
    } catch {
      /* no storage */
    }
  }

  /** The audio context, made on the first user gesture (browsers start it suspended before one). */
  unlock() {
    if (this.muted) return;
    if (!this.ctx) {
      const Ctor = window.AudioContext ?? /** @type {any} */ (window).webkitAudioContext;
      if (!Ctor) return;
      this.ctx = new Ctor();
    }
    if (this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
  }

  /** @returns {AudioContext | null} */
  ready() {
    if (this.muted || !this.ctx || this.ctx.state !== "running") return null;
    return this.ctx;
  }

  /** @param {AudioContext} ctx */
  noiseBuffer(ctx) {
    if (!this.noise) {
      const len = Math.floor(ctx.sampleRate * 0.25);
      const buf = ctx.createBuffer(1, len, ctx.sampleRate);
      const d = buf.getChannelData(0);
      for (let i = 0; i < len; i++) d[i] = Math.random() * 2 - 1;
      this.noise = buf;
    }
    return this.noise;
  }

  /**
   * A short knock: a filtered noise burst and a decaying tone.
   * @param {AudioContext} ctx @param {number} freq @param {number} gain @param {number} decay @param {number} q
   */
  knock(ctx, freq, gain, decay, q) {
    const now = ctx.currentTime;
    const src = ctx.createBufferSource();
    src.buffer = this.noiseBuffer(ctx);
    const bp = ctx.createBiquadFilter();
    bp.type = "bandpass";
    bp.frequency.value = freq;
    bp.Q.value = q;
    const g = ctx.createGain();
    g.gain.setValueAtTime(gain, now);
    g.gain.exponentialRampToValueAtTime(0.0001, now + decay);
    src.connect(bp).connect(g).connect(ctx.destination);
    src.start(now);
    src.stop(now + decay + 0.02);
    const osc = ctx.createOscillator();
    osc.frequency.value = freq * 0.9;
    const og = ctx.createGain();
    og.gain.setValueAtTime(gain * 0.5, now);
    og.gain.exponentialRampToValueAtTime(0.0001, now + decay * 0.8);
    osc.connect(og).connect(ctx.destination);
    osc.start(now);
    osc.stop(now + decay);
  }

  /** @param {Impact} e */
  play(e) {
    const ctx = this.ready();
    if (!ctx) return;
    const v = loudness(e.speed);
    if (e.kind === "ball") this.knock(ctx, 2600, 0.5 * v, 0.07, 6);
    else if (e.kind === "cue") this.knock(ctx, 1500, 0.45 * v, 0.05, 3);
    else if (e.kind === "cushion") this.knock(ctx, 220, 0.55 * v, 0.12, 1.5);
    else {
      // The drop: a dull knock, then the ball rolling down the return.
      this.knock(ctx, 160, 0.6 * Math.max(0.3, v), 0.18, 2);
      setTimeout(() => this.ready() && this.knock(ctx, 380, 0.18, 0.25, 4), 110);
    }
  }

  /** A short rising fanfare: a game won (three notes) or a match (five, longer). @param {boolean} match */
  fanfare(match) {
    const ctx = this.ready();
    if (!ctx) return;
    const notes = match ? [523.25, 659.25, 783.99, 1046.5, 1318.5] : [523.25, 659.25, 783.99];
    const step = match ? 0.14 : 0.12;
    notes.forEach((f, i) => {
      const at = ctx.currentTime + i * step;
      const osc = ctx.createOscillator();
      osc.type = "triangle";
      osc.frequency.value = f;
      const g = ctx.createGain();
      const len = i === notes.length - 1 ? (match ? 0.9 : 0.5) : step * 1.4;
      g.gain.setValueAtTime(0.0001, at);
      g.gain.exponentialRampToValueAtTime(0.22, at + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, at + len);
      osc.connect(g).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + len + 0.05);
    });
  }
}

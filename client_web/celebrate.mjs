// A short celebration when a game or the match is won: a fanfare, and confetti over the
// result (none when the reader asks for reduced motion: the gold border says it then).

/**
 * @param {boolean} match the match, not just a game
 * @param {{ fanfare: (match: boolean) => void }} sound
 * @param {boolean} still prefers-reduced-motion
 */
export function celebrate(match, sound, still) {
  sound.fanfare(match);
  const canvas = /** @type {HTMLCanvasElement | null} */ (document.getElementById("confetti"));
  if (!canvas || still) return;
  const dlg = canvas.parentElement;
  if (!dlg) return;
  const w = dlg.clientWidth || 400;
  const h = dlg.clientHeight || 240;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const colours = ["#f2c200", "#1d5fb0", "#c8281e", "#5fd38d", "#ff8a00", "#7b2f9e"];
  const pieces = Array.from({ length: match ? 140 : 60 }, () => ({
    x: Math.random() * w,
    y: -Math.random() * h * 0.6,
    vx: (Math.random() - 0.5) * 60,
    vy: 60 + Math.random() * 120,
    r: Math.random() * Math.PI,
    vr: (Math.random() - 0.5) * 8,
    c: colours[Math.floor(Math.random() * colours.length)],
    s: 4 + Math.random() * 5,
  }));
  const start = performance.now();
  let last = start;
  const length = match ? 3200 : 1800;
  const step = (/** @type {number} */ now) => {
    const dt = Math.min(0.05, (now - last) / 1000);
    last = now;
    ctx.clearRect(0, 0, w, h);
    for (const p of pieces) {
      p.x += p.vx * dt;
      p.y += p.vy * dt;
      p.r += p.vr * dt;
      ctx.save();
      ctx.translate(p.x, p.y);
      ctx.rotate(p.r);
      ctx.fillStyle = p.c;
      ctx.fillRect(-p.s / 2, -p.s / 4, p.s, p.s / 2);
      ctx.restore();
    }
    if (now - start < length) requestAnimationFrame(step);
    else ctx.clearRect(0, 0, w, h);
  };
  requestAnimationFrame(step);
}

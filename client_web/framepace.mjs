// Asks the browser for a frame only when the page has something to draw.
//
// Every requestAnimationFrame keeps the browser's compositor at work for that display
// refresh, whether the page draws or not: a page that asks for one at every refresh only to
// find that nothing has moved costs about 6 % of a core (headless Chromium: an empty loop
// takes 0.65 s of CPU in 10 s, the same page without it 0.06 s) — a phone's battery spent
// in the lobby or at a table at rest. So the page's frame function says how long it can
// wait for the next frame: 0 for the next refresh while something moves, tens of
// milliseconds at a table at rest (the ball to hit pulses, the clock counts down), longer
// where no table is drawn. Meanwhile the page sleeps on a timer, and whatever can change
// the picture (a touch, a key, a message, a resize, a new route) wakes it at once.

/** The event that asks the page's pacer for a frame (`askFrame`), from code that changed what is drawn. */
const FRAME_WANTED = "ninepool-frame-wanted";

/** Asks for a frame at the next refresh, from code that does not hold the page's pacer. */
export function askFrame() {
  window.dispatchEvent(new Event(FRAME_WANTED));
}

/** The wait after a frame that threw: the page keeps drawing, without spinning on it. */
const AFTER_FAILURE_MS = 100;

export class FramePacer {
  /**
   * @param {() => number} frame draws a frame; returns how many milliseconds may pass
   *   before the next one (0 or less: the next display refresh)
   * @param {(f: FrameRequestCallback) => number} [ask] the browser's frame request
   * @param {(f: () => void, ms: number) => ReturnType<typeof setTimeout>} [later] a timer
   * @param {(t: ReturnType<typeof setTimeout>) => void} [cancel] cancels that timer
   */
  constructor(frame, ask = (f) => requestAnimationFrame(f), later = (f, ms) => setTimeout(f, ms), cancel = (t) => clearTimeout(t)) {
    this.frame = frame;
    this.ask = ask;
    this.later = later;
    this.cancel = cancel;
    /** Whether a frame has been asked for and not yet run. */
    this.asked = false;
    /** @type {ReturnType<typeof setTimeout> | null} the sleep until the next frame */
    this.timer = null;
  }

  /** A frame at the next display refresh (one, however often woken before it). */
  wake() {
    if (this.asked) return;
    if (this.timer !== null) {
      this.cancel(this.timer);
      this.timer = null;
    }
    this.asked = true;
    this.ask(() => this.run());
  }

  /**
   * Wakes the pacer on whatever can change the picture before its timer would: touch,
   * mouse, keys, clicks and wheel, a form control's change, a resize, a new route, `askFrame`.
   * @param {EventTarget} target the page's window
   */
  wakeOnInput(target) {
    for (const type of ["pointerdown", "pointermove", "pointerup", "keydown", "keyup", "click", "input", "change", "wheel", "resize", "hashchange", FRAME_WANTED]) {
      target.addEventListener(type, () => this.wake(), { capture: true, passive: true });
    }
  }

  /** Draws the frame asked for and sleeps for as long as it says it may. */
  run() {
    this.asked = false;
    let wait = AFTER_FAILURE_MS;
    try {
      wait = this.frame();
    } finally {
      this.sleep(wait);
    }
  }

  /** Sleeps `wait` ms before the next frame (none: the next refresh). @param {number} wait */
  sleep(wait) {
    // The frame may have woken the pacer itself: one chain of frames, never two.
    if (this.asked) return;
    if (this.timer !== null) this.cancel(this.timer);
    this.timer = null;
    if (wait <= 0) this.wake();
    else this.timer = this.later(() => {
      this.timer = null;
      this.wake();
    }, wait);
  }
}

/** The draw times (ms) of the last frames drawn, for the page's `frameStats()` hook. */
export class DrawTimes {
  constructor(keep = 600) {
    this.keep = keep;
    /** @type {number[]} */
    this.times = [];
    /** Frames drawn since the page loaded. */
    this.drawn = 0;
  }

  /** @param {number} ms */
  add(ms) {
    this.drawn += 1;
    this.times.push(ms);
    if (this.times.length > this.keep) this.times.shift();
  }

  /** Frames kept and drawn in all; the median, 95th percentile and longest of those kept. */
  stats() {
    const s = [...this.times].sort((x, y) => x - y);
    const at = (/** @type {number} */ q) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
    return { frames: s.length, drawn: this.drawn, median: at(0.5), p95: at(0.95), max: s[s.length - 1] ?? 0 };
  }
}

import assert from "node:assert/strict";
import { test } from "node:test";

import { DrawTimes, FramePacer } from "../framepace.mjs";

/**
 * A pacer on a fake clock: `refresh()` runs the display refresh's frame callbacks, `pass(ms)`
 * lets time pass and fires the timers that fall due; `asked` counts frame requests.
 * @param {(now: number) => number} draw the frame function, told the time
 */
function fakePage(draw) {
  let now = 0;
  /** @type {(() => void)[]} */
  let callbacks = [];
  /** @type {Map<number, {at: number, f: () => void}>} */
  const timers = new Map();
  let nextTimer = 1;
  const page = {
    asked: 0,
    drawn: /** @type {number[]} */ ([]),
    refresh() {
      const due = callbacks;
      callbacks = [];
      for (const f of due) f();
    },
    /** @param {number} ms */
    pass(ms) {
      const end = now + ms;
      for (;;) {
        const next = [...timers.entries()].sort((a, b) => a[1].at - b[1].at)[0];
        if (!next || next[1].at > end) break;
        now = next[1].at;
        timers.delete(next[0]);
        next[1].f();
      }
      now = end;
    },
    pendingTimers: () => timers.size,
  };
  const pacer = new FramePacer(
    () => {
      page.drawn.push(now);
      return draw(now);
    },
    (f) => {
      page.asked += 1;
      callbacks.push(() => f(now));
      return page.asked;
    },
    (f, ms) => {
      const id = nextTimer++;
      timers.set(id, { at: now + ms, f });
      return /** @type {any} */ (id);
    },
    (t) => void timers.delete(/** @type {any} */ (t)),
  );
  return { page, pacer };
}

test("while something moves, a frame at every refresh", () => {
  const { page, pacer } = fakePage(() => 0);
  pacer.wake();
  for (let i = 0; i < 5; i++) page.refresh();
  assert.equal(page.drawn.length, 5);
  assert.equal(page.asked, 6); // the sixth waits for the next refresh
  assert.equal(page.pendingTimers(), 0);
});

test("at rest it sleeps as long as the frame says, asking the browser for nothing meanwhile", () => {
  const { page, pacer } = fakePage(() => 50);
  pacer.wake();
  page.refresh();
  assert.equal(page.asked, 1);
  page.pass(49);
  page.refresh();
  assert.deepEqual(page.drawn, [0], "no frame before its time");
  assert.equal(page.asked, 1, "no frame asked for while it sleeps");
  page.pass(1);
  page.refresh();
  assert.deepEqual(page.drawn, [0, 50]);
  // A second of rest: twenty frames, not sixty.
  for (let t = 0; t < 20; t++) {
    page.pass(50);
    page.refresh();
  }
  assert.equal(page.drawn.length, 22);
});

test("a wake cuts the sleep short, and many wakes before a refresh ask for one frame", () => {
  const { page, pacer } = fakePage(() => 250);
  pacer.wake();
  page.refresh();
  page.pass(10);
  pacer.wake();
  pacer.wake();
  pacer.wake();
  assert.equal(page.asked, 2);
  assert.equal(page.pendingTimers(), 0, "the sleep was cancelled");
  page.refresh();
  assert.deepEqual(page.drawn, [0, 10]);
  assert.equal(page.pendingTimers(), 1, "asleep again");
});

test("a frame that wakes the pacer itself leaves one chain of frames, not two", () => {
  /** @type {FramePacer | null} */
  let self = null;
  let n = 0;
  const { page, pacer } = fakePage(() => {
    n += 1;
    if (n === 2) self?.wake(); // as a frame that refreshes the page's controls does
    return 250;
  });
  self = pacer;
  pacer.wake();
  page.refresh();
  page.pass(250);
  page.refresh(); // the second frame: it woke the pacer and asked for 250 ms
  page.refresh(); // the frame it woke for
  assert.equal(page.pendingTimers(), 1, "one sleep, not two");
  const before = page.drawn.length;
  for (let i = 0; i < 4; i++) {
    page.pass(250);
    page.refresh();
  }
  assert.equal(page.drawn.length - before, 4, "four frames a second, not eight");
});

test("a frame that throws does not stop the drawing", () => {
  let calls = 0;
  const { page, pacer } = fakePage(() => {
    calls += 1;
    if (calls === 1) throw new Error("broken frame");
    return 0;
  });
  pacer.wake();
  assert.throws(() => page.refresh(), /broken frame/);
  page.pass(100);
  page.refresh();
  page.refresh();
  assert.equal(calls, 3);
});

test("input wakes it", () => {
  const { page, pacer } = fakePage(() => 1000);
  const target = new EventTarget();
  pacer.wakeOnInput(target);
  pacer.wake();
  page.refresh();
  assert.equal(page.asked, 1);
  target.dispatchEvent(new Event("pointermove"));
  target.dispatchEvent(new Event("keydown"));
  assert.equal(page.asked, 2);
  page.refresh();
  assert.equal(page.drawn.length, 2);
});

test("draw times: the last ones kept for their median and 95th percentile, every frame counted", () => {
  const times = new DrawTimes(4);
  for (const ms of [9, 1, 2, 3, 4, 5]) times.add(ms);
  assert.deepEqual(times.stats(), { frames: 4, drawn: 6, median: 4, p95: 5, max: 5 });
  assert.deepEqual(new DrawTimes().stats(), { frames: 0, drawn: 0, median: 0, p95: 0, max: 0 });
});

// The page's heartbeat (`Connection.beat`): a `ping` that promises the next frame while
// the page is shown, and a connection whose `pong` does not come in time let go and made
// again — a phone's network gone leaves the socket open in the browser's eyes.

import assert from "node:assert/strict";
import { mock, test } from "node:test";

import { decode, encode } from "@msgpack/msgpack";

import { Connection } from "../net.mjs";

/** A WebSocket that records what is sent and answers only when told. */
class FakeSocket {
  static OPEN = 1;
  /** @type {FakeSocket[]} */
  static made = [];
  /** @param {string} url */
  constructor(url) {
    this.url = url;
    this.readyState = 1;
    /** @type {any[]} */
    this.sent = [];
    this.closed = false;
    /** @type {((ev: any) => void) | null} */
    this.onopen = null;
    /** @type {((ev: any) => void) | null} */
    this.onmessage = null;
    /** @type {((ev: any) => void) | null} */
    this.onclose = null;
    this.onerror = null;
    FakeSocket.made.push(this);
  }
  /** @param {Uint8Array} data */
  send(data) {
    this.sent.push(decode(data));
  }
  close() {
    this.closed = true;
  }
  /** @param {any} m */
  reply(m) {
    const b = encode(m);
    this.onmessage?.({ data: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) });
  }
}

/** A page's connection over `FakeSocket`s, `more` its options besides the defaults. @param {Record<string, any>} [more] */
function connection(more = {}) {
  FakeSocket.made = [];
  /** @type {any} */ (globalThis).WebSocket = FakeSocket;
  return new Connection({ url: "ws://unused", name: () => "Ana", onMessage: () => {}, onState: () => {}, onWelcome: () => {}, session: { token: () => null, setToken: () => {} }, ...more });
}

/** Runs `body` on mocked timers; the connection it gives back stops reconnecting after. @param {() => Promise<any>} body */
async function onMockedTimers(body) {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const conn = await body();
    if (conn) conn.closedByUs = true;
  } finally {
    mock.timers.reset();
  }
}

function connected() {
  /** @type {string[]} */
  const states = [];
  const conn = connection({ heartbeat: 4, onState: (/** @type {string} */ s) => states.push(s) });
  conn.open();
  const ws = FakeSocket.made[0];
  ws.onopen?.({});
  const hello = ws.sent[0];
  ws.reply({ t: "welcome", id: hello.id, v: 1, player: "p", name: "Ana", token: "x", now: 0, room: null });
  return { conn, ws, states };
}

test("while the page is shown a ping every 4 s promises the next frame; pongs keep it online", () =>
  onMockedTimers(async () => {
    const { conn, ws, states } = connected();
    await Promise.resolve();
    for (let beat = 0; beat < 3; beat++) {
      const ping = ws.sent.at(-1);
      assert.deepEqual([ping.t, ping.expect], ["ping", 4]);
      ws.reply({ t: "pong", id: ping.id, now: 0 });
      await Promise.resolve();
      mock.timers.tick(4000);
    }
    assert.equal(ws.sent.filter((m) => m.t === "ping").length, 4, "a beat every 4 s");
    assert.equal(conn.state, "online");
    assert.ok(!ws.closed && !states.includes("reconnecting"));
    return conn;
  }));

test("a pong that does not come in time: the connection is let go and made again", () =>
  onMockedTimers(async () => {
    const { conn, ws, states } = connected();
    await Promise.resolve();
    assert.equal(ws.sent.at(-1).t, "ping");
    mock.timers.tick(14999);
    assert.equal(conn.state, "online");
    mock.timers.tick(1);
    assert.ok(ws.closed, "the dead socket is closed");
    assert.equal(states.at(-1), "reconnecting");
    // A late answer on the dead socket changes nothing; the retry opens a new one.
    mock.timers.tick(5000);
    assert.equal(FakeSocket.made.length, 2);
    return conn;
  }));

test("a server that refuses the promise (older than it) is pinged without one", () =>
  onMockedTimers(async () => {
    const { conn, ws } = connected();
    await Promise.resolve();
    const first = ws.sent.at(-1);
    assert.equal(first.expect, 4);
    ws.reply({ t: "error", id: first.id, code: "bad_message", msg: "unknown field `expect`" });
    await new Promise((settled) => setImmediate(settled));
    mock.timers.tick(4000);
    const next = ws.sent.at(-1);
    assert.deepEqual([next.t, next.expect], ["ping", undefined]);
    ws.reply({ t: "pong", id: next.id, now: 0 });
    await Promise.resolve();
    mock.timers.tick(8000);
    assert.equal(conn.state, "online");
    return conn;
  }));

test("any frame heard after a ping says the line is up: a pong stuck behind room events is no drop", () =>
  onMockedTimers(async () => {
    const { conn, ws } = connected();
    await Promise.resolve();
    for (const until = performance.now() + 2; performance.now() < until; ); // (a real moment after the ping)
    ws.reply({ t: "chat", room: "R", seq: 1, name: "Ana", text: "hi" });
    mock.timers.tick(15000);
    assert.equal(conn.state, "online");
    assert.ok(!ws.closed);
    return conn;
  }));

test("a connection opened without `start` (a tab gone from the TV to a seat) listens to the network too", () =>
  onMockedTimers(async () => {
    const conn = connection({ heartbeat: 4 });
    let installs = 0;
    conn.watchNetwork = () => void (installs += 1);
    conn.open(); // (as `reconnectNow` opens it)
    assert.equal(installs, 1);
    const quiet = connection();
    let quietInstalls = 0;
    quiet.watchNetwork = () => void (quietInstalls += 1);
    quiet.open();
    assert.equal(quietInstalls, 0, "a page without a heartbeat (the overlay) does not");
    quiet.closedByUs = true;
    return conn;
  }));

// The connection to the server: one WebSocket of MessagePack frames (protocol/README.md),
// request/reply matching by `id`, room-event ordering by `seq`, and automatic reconnect
// with the session token so a reload or a dropped network puts the player back in the seat.

import { decode, encode } from "@msgpack/msgpack";

/** The protocol version this client speaks (`PROTOCOL_VERSION`). */
export const PROTOCOL_VERSION = 1;
export const TOKEN_KEY = "ninepool.token";
/** How long a reconnect keeps the old connection open for the new one's welcome (ms). */
const OUTGOING_GRACE_MS = 5000;
/** An account token (`POST /api/login`): said in `hello` instead of the guest's token. */
export const ACCOUNT_KEY = "ninepool.account";
const NAME_KEY = "ninepool.name";

/** Replies that answer a request by its `id`. */
/** A clock that only goes forward (ms). */
const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());

/** How long a heartbeat may go with nothing at all heard from the server before the
 * connection is taken for dead (ms): as long as the server waits for the page (3 × 4 s +
 * 3), so a pong queued behind a room's events on a slow link, or a server's busy moment,
 * is not a drop. */
const SILENCE_MS = 15000;
/** While the device says it has no network, how often a connection is tried all the same
 * (a device can be wrong about it: a VPN alone, say). */
const OFFLINE_RETRY_MS = 10000;
const REPLIES = new Set(["welcome", "ok", "joined", "error", "pong", "rooms", "practice_preview"]);
/** Room events carrying `seq`. */
const ROOM_EVENTS = new Set([
  "snapshot",
  "shot_result",
  "ruling",
  "placed",
  "chat",
  "warning",
  "game_over",
  "match_over",
  "presence",
  "lag_result",
]);

/** A refused request: `code` from the protocol's error table, `msg` for people. */
export class ServerError extends Error {
  /** @param {string} code @param {string} msg */
  constructor(code, msg) {
    super(msg);
    this.code = code;
    this.msg = msg;
  }
}

/** @typedef {"connecting" | "online" | "reconnecting" | "offline"} ConnState */
/** @typedef {Record<string, any>} Msg */

/** Stored session (token and display name) so a reload resumes. */
export const session = {
  /** @returns {string | null} */
  token() {
    try {
      return localStorage.getItem(TOKEN_KEY);
    } catch {
      return null;
    }
  },
  /** @param {string | null} token */
  setToken(token) {
    try {
      if (token) localStorage.setItem(TOKEN_KEY, token);
      else localStorage.removeItem(TOKEN_KEY);
    } catch {
      /* storage unavailable (private mode): the session lasts this page only */
    }
  },
  /** @returns {string | null} */
  accountToken() {
    try {
      return localStorage.getItem(ACCOUNT_KEY);
    } catch {
      return null;
    }
  },
  /** @param {string | null} token */
  setAccountToken(token) {
    try {
      if (token) localStorage.setItem(ACCOUNT_KEY, token);
      else localStorage.removeItem(ACCOUNT_KEY);
    } catch {
      /* storage unavailable: logged in for this page only */
    }
  },
  /** @returns {string} */
  name() {
    try {
      return localStorage.getItem(NAME_KEY) || "";
    } catch {
      return "";
    }
  },
  /** @param {string} name */
  setName(name) {
    try {
      localStorage.setItem(NAME_KEY, name);
    } catch {
      /* ignore */
    }
  },
};

/**
 * One logical connection that survives drops: it reconnects by itself, says hello with
 * the stored token, and tells its listener about every state change and message.
 */
export class Connection {
  /**
   * @param {object} opts
   * @param {string} opts.url WebSocket URL
   * @param {() => string} opts.name display name for `hello`
   * @param {(msg: Msg) => void} opts.onMessage every server message that is not a reply
   * @param {(state: ConnState) => void} opts.onState
   * @param {(welcome: Msg) => void} opts.onWelcome
   * @param {(code: string) => void} [opts.onNameTaken] the guest's name is refused (`name_taken`: an account's; `bad_name`: a new player's out of the rule): pick another
   * @param {{ token(): string | null, setToken(token: string | null): void, accountToken?: () => string | null, setAccountToken?: (token: string | null) => void }} [opts.session]
   *   where the tokens are kept; the page's stored session by default (an overlay keeps
   *   its own, so it never takes over a player's seat in the same browser)
   * @param {number} [opts.heartbeat] seconds between the `ping`s that promise the next
   *   frame (`ping.expect`) while the page is shown, and that find a dead connection
   *   (`beat`); none without it
   */
  constructor(opts) {
    this.opts = opts;
    this.heartbeat = opts.heartbeat ?? 0;
    /** The network's events are listened to (once, however the connection was started). */
    this.watching = false;
    /** When anything last came from the server (`now()`, ms). */
    this.heardAt = 0;
    /** The shortest round trip a pong has had on this connection (ms): its clock sample. */
    this.bestRtt = Infinity;
    /** This connection's server refused the promise (`beat`). */
    this.promiseRefused = false;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.beatTimer = null;
    this.session = opts.session ?? session;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.nextId = 1;
    /** @type {Map<number, { resolve: (m: Msg) => void, reject: (e: Error) => void }>} */
    this.pending = new Map();
    /** @type {ConnState} */
    this.state = "connecting";
    /** the name `hello` says instead of the page's (`helloAs`) @type {string | null} */
    this.helloName = null;
    /** whether `start` has been called (a tab opened at a replay has not, yet) */
    this.started = false;
    this.attempt = 0;
    /** @type {number | null} */
    this.seq = null;
    /** the room `seq` counts in */
    this.seqRoom = "";
    this.resyncing = false;
    this.closedByUs = false;
    /** the server refused this client for good (protocol version): reloading is the cure */
    this.fatal = false;
    /** the seat was taken over by a newer connection of the same player (another tab) */
    this.replaced = false;
    this.welcomed = false;
    /** The connection a reconnect lets go once the new one is welcomed (`reconnectNow`). @type {WebSocket | null} */
    this.outgoing = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.outgoingTimer = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.retryTimer = null;
    /** server clock − local clock, ms */
    this.clockOffset = 0;
  }

  /** Starts the connection unless it was started before (`start` again is the "Play
   * here" of a tab another one took the seat from). */
  startOnce() {
    if (this.started) return;
    this.start();
  }

  start() {
    this.started = true;
    this.closedByUs = false;
    this.replaced = false;
    this.open();
  }

  /** @param {ConnState} s */
  setState(s) {
    this.state = s;
    this.opts.onState(s);
  }

  open() {
    if (this.heartbeat) this.watchNetwork();
    this.setState(this.attempt === 0 ? "connecting" : "reconnecting");
    const ws = new WebSocket(this.opts.url);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => {
      this.hello().catch((err) => this.helloFailed(err));
    };
    ws.onmessage = (ev) => this.receive(ev.data);
    ws.onclose = (ev) => this.dropped(ws, ev);
    ws.onerror = () => {
      /* onclose follows; the state change is reported there */
    };
  }

  async hello() {
    // Logged in: the account token says who plays (and under which name).
    const token = this.session.accountToken?.() || this.session.token();
    const welcome = await this.request({ t: "hello", v: PROTOCOL_VERSION, name: this.helloName ?? this.opts.name(), token });
    this.attempt = 0;
    this.welcomed = true;
    this.promiseRefused = false;
    this.bestRtt = Infinity;
    this.seq = null;
    this.resyncing = false;
    if (welcome.account && this.session.setAccountToken) this.session.setAccountToken(welcome.token);
    else this.session.setToken(welcome.token);
    if (typeof welcome.now === "number") this.clockOffset = welcome.now - Date.now();
    this.setState("online");
    this.opts.onWelcome(welcome);
    this.beat();
  }

  /**
   * One heartbeat, then the next in `heartbeat` seconds: a `ping` that promises the next
   * frame (`expect`) while the page is shown — the server takes a connection silent past
   * its promise for dropped, and the player is seen away at once, their shot clock
   * stopped — and withdraws it while the page is hidden (the browser slows its timers
   * then). A `pong` that does not come in time means the connection is dead though the
   * browser has not noticed (a phone's network gone): it is let go and made again.
   */
  beat() {
    if (this.beatTimer !== null) clearTimeout(this.beatTimer);
    this.beatTimer = null;
    const ws = this.ws;
    if (!this.heartbeat || !ws || !this.welcomed) return;
    const shown = typeof document === "undefined" || document.visibilityState !== "hidden";
    // Dead only if nothing at all came since this ping (any frame says the line is up),
    // measured on a clock that a frozen page's timers do not outrun.
    const sent = now();
    const dead = setTimeout(() => {
      if (this.heardAt <= sent) this.lost(ws);
    }, SILENCE_MS);
    // A server older than the promise refuses it as a bad message (a rolling upgrade's
    // old node, a page newer than its server): pinged without it on that connection, or
    // the refusals in a row would have it closed.
    const promise = shown && !this.promiseRefused;
    this.request(promise ? { t: "ping", expect: this.heartbeat } : { t: "ping" })
      .then((pong) => {
        clearTimeout(dead);
        // The server's clock at the middle of the round trip, the best of the samples: a
        // pong taken as "now" moved the countdowns a second back and forth.
        const back = now();
        const rtt = back - sent;
        if (typeof pong.now === "number" && rtt <= this.bestRtt) {
          this.bestRtt = rtt;
          this.clockOffset = pong.now - (Date.now() - rtt / 2);
        }
      })
      .catch((/** @type {unknown} */ err) => {
        clearTimeout(dead);
        if (promise && err instanceof ServerError && err.code === "bad_message") this.promiseRefused = true;
      });
    this.beatTimer = setTimeout(() => this.beat(), this.heartbeat * 1000);
  }

  /** The connection `ws` is dead (no pong in time, the device offline): let go of it and
   * reconnect, as after a drop. @param {WebSocket} ws */
  lost(ws) {
    if (ws !== this.ws || this.closedByUs) return;
    try {
      ws.close();
    } catch {
      /* closing a dead socket may throw: it is let go all the same */
    }
    this.dropped(ws);
  }

  /** The device's own word on its network: offline, the connection is let go at once;
   * online again, it is made again now, not at the end of its back-off. */
  watchNetwork() {
    if (this.watching || typeof window === "undefined") return;
    this.watching = true;
    window.addEventListener("offline", () => {
      if (this.ws) this.lost(this.ws);
    });
    window.addEventListener("online", () => {
      if (this.state !== "reconnecting" || this.closedByUs || this.ws) return;
      if (this.retryTimer !== null) clearTimeout(this.retryTimer);
      this.retryTimer = null;
      this.open();
    });
    // Shown again: the promise at once (hidden, it was withdrawn).
    document.addEventListener("visibilitychange", () => this.beat());
  }

  /** @param {unknown} err */
  helloFailed(err) {
    if (err instanceof ServerError && err.code === "bad_token") {
      // A login that has ended (logged out elsewhere, expired): play on as a guest. Else a
      // token from another deployment or an expired secret: start a fresh session.
      if (this.session.accountToken?.()) this.session.setAccountToken?.(null);
      else this.session.setToken(null);
      this.hello().catch((e) => this.helloFailed(e));
      return;
    }
    if (err instanceof ServerError && (err.code === "name_taken" || err.code === "bad_name")) {
      // The guest's name is an account's, or a computer player's, or (a new player's) not
      // one the rule for a new name takes: another name, then hello again.
      session.setName("");
      this.opts.onNameTaken?.(err.code);
      this.hello().catch((e) => this.helloFailed(e));
      return;
    }
    if (err instanceof ServerError && (err.code === "bad_message" || err.code === "version_mismatch")) {
      // This page cannot talk to this server (an old page after an upgrade): stop trying.
      this.closedByUs = true;
      this.fatal = true;
      this.letGoOutgoing();
      this.setState("offline");
      return;
    }
  }

  /** @param {WebSocket} ws @param {CloseEvent} [ev] */
  dropped(ws, ev) {
    if (ws !== this.ws) return;
    this.ws = null;
    this.welcomed = false;
    for (const p of this.pending.values()) p.reject(new ServerError("disconnected", "the connection dropped"));
    this.pending.clear();
    if (!this.closedByUs && ev?.code === 1000) {
      // The server closed this connection on purpose: the same player sat down from
      // another tab or window. Reconnecting would take the seat back and forth.
      this.closedByUs = true;
      this.replaced = true;
    }
    if (this.closedByUs) {
      this.setState("offline");
      return;
    }
    this.attempt += 1;
    this.setState("reconnecting");
    // The device says it has no network: a slow attempt (`watchNetwork` opens at once when
    // it says it has), each one failing at once and said in red on the console.
    const offline = this.heartbeat && typeof navigator !== "undefined" && navigator.onLine === false;
    const delay = offline ? OFFLINE_RETRY_MS : Math.min(5000, 250 * 2 ** Math.min(this.attempt, 5));
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  /**
   * Says hello again at once as the player whose tokens `next` keeps: a tab that watched
   * the TV as nobody (its own session, in memory) going on to the game. Resolves with the
   * new `welcome`.
   * @param {{ token(): string | null, setToken(token: string | null): void, accountToken?: () => string | null, setAccountToken?: (token: string | null) => void }} next
   * @param {string | null} [name] the name said in `hello` under it (null: the page's own)
   * @returns {Promise<Msg>}
   */
  helloAs(next, name = null) {
    this.session = next;
    this.helloName = name;
    return this.reconnectNow();
  }

  /**
   * Reconnects at once (a new `hello` with the same token), e.g. after the player picks
   * another display name. Resolves with the new `welcome`.
   * @returns {Promise<Msg>}
   */
  reconnectNow() {
    this.started = true;
    return new Promise((resolve) => {
      const onWelcome = this.opts.onWelcome;
      // The old connection is let go only once the new one has said hello: a seated
      // player is taken over by the new connection, never seen gone from the table. Until
      // then the room's events still come in on it, in order. Without a welcome within a
      // few seconds (or when the page gives up) it goes all the same, so the seat is not
      // held by a connection nobody reads.
      this.letGoOutgoing();
      this.outgoing = this.ws;
      if (this.outgoing) this.outgoingTimer = setTimeout(() => this.letGoOutgoing(), OUTGOING_GRACE_MS);
      this.opts.onWelcome = (w) => {
        this.opts.onWelcome = onWelcome;
        this.letGoOutgoing();
        onWelcome(w);
        resolve(w);
      };
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.ws = null;
      this.welcomed = false;
      this.attempt = 0;
      this.open();
    });
  }

  /** Closes the connection a reconnect is replacing, if it is still open. */
  letGoOutgoing() {
    if (this.outgoingTimer) clearTimeout(this.outgoingTimer);
    this.outgoingTimer = null;
    const old = this.outgoing;
    this.outgoing = null;
    if (!old) return;
    old.onmessage = null;
    old.close(1000);
  }

  close() {
    this.closedByUs = true;
    this.letGoOutgoing();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.ws?.close(1000);
  }

  /** Drops the socket as a network failure would (used by the reload/resume tests too). */
  drop() {
    this.ws?.close(4000);
  }

  /**
   * Sends a request and resolves with its reply, or rejects with a `ServerError`.
   * @param {Msg} msg without `id` @returns {Promise<Msg>}
   */
  request(msg) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN || (!this.welcomed && msg.t !== "hello")) {
      // (replaced by another tab, it does not reconnect until the player says so)
      if (this.replaced) return Promise.reject(new ServerError("replaced", "another tab plays this seat"));
      return Promise.reject(new ServerError("offline", "not connected — reconnecting"));
    }
    const id = this.nextId;
    this.nextId = (this.nextId % 2147483647) + 1;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      ws.send(encode({ ...msg, id }));
    });
  }

  /**
   * Sends a message whose reply nobody waits for (the live aim preview).
   * @param {Msg} msg
   */
  fire(msg) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN || !this.welcomed) return;
    const id = this.nextId;
    this.nextId = (this.nextId % 2147483647) + 1;
    ws.send(encode({ ...msg, id }));
  }

  /** @param {unknown} data */
  receive(data) {
    this.heardAt = now(); // (anything heard: the line is up)
    if (!(data instanceof ArrayBuffer)) return;
    /** @type {Msg} */
    let msg;
    try {
      msg = /** @type {Msg} */ (decode(new Uint8Array(data)));
    } catch {
      return;
    }
    if (!msg || typeof msg !== "object") return;
    const t = msg.t;
    if (REPLIES.has(t) && typeof msg.id === "number" && this.pending.has(msg.id)) {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (t === "error") p?.reject(new ServerError(msg.code, msg.msg));
      else p?.resolve(msg);
      // A `joined` reply is also news for the app (the quick-match pairing arrives so).
      if (t === "joined") this.opts.onMessage(msg);
      return;
    }
    if (ROOM_EVENTS.has(t) && typeof msg.seq === "number") {
      if (t === "snapshot") {
        // A broadcast snapshot continues the sequence (`seq` + 1: a match began or
        // ended, a seat changed), or restates the room at the same `seq` (a readiness
        // toggle, a rating moved after a game: no game information); both wait their
        // turn behind what is queued. Any other (join, resync, reconnect, another
        // room) restarts the sequence and replaces whatever the client still had
        // queued — a restatement must not, or it would cut the last shot's animation
        // short and drop the game's and the match's results queued behind it.
        const continues = this.seq !== null && msg.room === this.seqRoom && (msg.seq === this.seq + 1 || msg.seq === this.seq);
        msg.reset = this.resyncing || !continues;
        this.seq = msg.seq;
        this.seqRoom = msg.room;
        this.resyncing = false;
      } else if (this.resyncing) {
        return; // the snapshot asked for replaces everything before it
      } else if (this.seq !== null && msg.seq !== this.seq + 1) {
        if (msg.seq <= this.seq) return; // an event already seen
        // A gap: ask for the whole room again and skip until the snapshot arrives.
        this.resync();
        return;
      } else {
        this.seq = msg.seq;
      }
    }
    this.opts.onMessage(msg);
  }

  /** Asks for a fresh snapshot (its reply is the snapshot itself) and ignores events until it comes. */
  resync() {
    this.resyncing = true;
    this.fire({ t: "resync" });
  }

  /** The server's clock now, in epoch ms. */
  serverNow() {
    return Date.now() + this.clockOffset;
  }
}

/** The WebSocket URL of the page's own server. */
export function defaultUrl() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws`;
}

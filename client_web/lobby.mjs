// The lobby's live parts: the room list, the quick match and the computer offered while
// it waits, and the tournament match kept for this player once its table is open. The
// room list's buttons carry `data-join` and their row `data-room`; `app.mjs` handles
// those clicks.

import { ratingText } from "./account.mjs";
import { lobbyNameReady } from "./askname.mjs";
import { ServerError, session } from "./net.mjs";
import { $, h, toast } from "./dom.mjs";
import { describeFormat, tableName } from "./formats.mjs";
import { minutesAndSeconds, num, seatName, t } from "./i18n/index.mjs";
import { readKept } from "./kept.mjs";
import { app } from "./state.mjs";
import { tipAttrs } from "./tip.mjs";

/** @typedef {import("./state.mjs").Msg} Msg */

/** Where the computer's level last chosen in the lobby is kept. */
const LEVEL_KEY = "ninepool.computerLevel";

/**
 * A lobby entry's players, each a computer said to be one (never passed off as a person).
 * @param {Msg} r
 */
function playerNames(r) {
  return r.players.map((/** @type {string} */ name, /** @type {number} */ i) => (r.computer?.[i] != null ? t("rooms.computerName", { name: seatName(name, r.computer[i]) }) : name));
}

/**
 * How a finished match ended, by name: who won, and who conceded it (a player who left a
 * running match conceded it and is gone from the seats; the entry still names them).
 * @param {Msg} r @returns {string}
 */
function resultLine(r) {
  if (r.status !== "finished" || !r.winner) return "";
  const shown = (/** @type {string} */ name) => {
    const i = r.players.indexOf(name);
    return i >= 0 && r.computer?.[i] != null ? t("rooms.computerName", { name: seatName(name, r.computer[i]) }) : name;
  };
  const winner = shown(r.winner);
  if (r.ended_by === "concede" && r.loser) return t("rooms.wonConceded", { winner, loser: shown(r.loser) });
  if (r.ended_by === "forfeit") return t("rooms.wonForfeit", { winner });
  return t("rooms.won", { winner });
}

export function renderRooms() {
  const body = $("rooms");
  body.replaceChildren();
  const rooms = [...app.rooms.values()].sort((a, b) => (a.status === "waiting" ? -1 : 1) - (b.status === "waiting" ? -1 : 1));
  for (const r of rooms) {
    const actions = h("td");
    const name = tableName(r);
    // A tournament's table keeps its seats for its two players: others may only watch.
    const reserved = r.settings?.reserved ?? [];
    if (r.players.length < 2 && r.status === "waiting" && (!reserved.length || reserved.includes(app.welcome?.player))) {
      actions.append(h("button", { type: "button", class: "primary", text: t("lobby.join"), "data-join": "player", "aria-label": t("rooms.joinLabel", { name: name }) }));
    }
    actions.append(h("button", { type: "button", text: t("lobby.watch"), "data-join": "spectator", "aria-label": t("rooms.watchLabel", { name: name }) }));
    if (r.status !== "waiting") {
      actions.append(h("a", { class: "button", href: `#/replay/${r.room}`, text: t("rooms.replay"), "aria-label": t("rooms.replayLabel", { name: name }) }));
    }
    body.append(
      h("tr", { "data-room": r.room }, [
        h("td", {}, [name, ...(r.settings ? [h("small", { class: "format", text: describeFormat(r.settings) })] : [])]),
        h("td", {}, playersCell(r)),
        h("td", {}, [
          `${t("rooms.scoreLine", { a: r.score[0], b: r.score[1], race: r.race_to })}${r.status === "playing" && r.rack > 0 ? ` · ${t("rooms.rack", { rack: r.rack })}` : ""}`,
          ...(resultLine(r) ? [h("small", { class: "result", text: resultLine(r) })] : []),
        ]),
        h("td", {}, [h("span", { class: `status-pill status-${r.status}`, text: `${t(statusKey(r))}${r.spectators ? ` · ${t("rooms.watching", { n: r.spectators })}` : ""}` })]),
        actions,
      ]),
    );
  }
  $("rooms-empty").hidden = rooms.length > 0;
  $("room-count").textContent = rooms.length ? `(${num(rooms.length)})` : "";
  renderMyMatch();
}

/** A room's state in a word; a first break drawn (a tournament's) is no lag while its
 * winner chooses. @param {Record<string, any>} r the lobby's room */
function statusKey(r) {
  return r.status === "lag" && r.settings?.first_break === "draw" ? "status.draw" : `status.${r.status}`;
}

/** Rooms whose "your match is ready" was said already in a toast (once each). */
const announced = new Set();

/**
 * A tournament's match whose seat is kept for this player (`settings.reserved`) and whose
 * table is open, unless the player is at it: the lobby says so above everything with the
 * way to the seat, another table in a banner over it (`renderNextMatch`), and a player
 * busy elsewhere (practice, a replay) hears it once in a toast.
 */
function renderMyMatch() {
  const mine = myMatch();
  $("my-match").hidden = !mine;
  // A tab in the background says it in its title too: the no-show's clock is running.
  document.title = mine ? `● ${t("tour.titleReady")} — ${t("meta.title")}` : t("meta.title");
  renderNextMatch();
  if (!mine) return;
  const text = t("lobby.myMatch", { name: tableName(mine) });
  learnBanner(mine);
  const opponent = bannerKept.room === mine.room ? bannerKept.opponent : null;
  $("my-match-text").textContent = opponent ? t("lobby.myMatchVs", { name: tableName(mine), opponent }) : text;
  tickBanner();
  $("my-match-sit").setAttribute("href", `#/play/${encodeURIComponent(mine.room)}`);
  // Said once where no banner says it (the lobby has its own, a table the one over it:
  // a toast as well said the same words twice at once). At start-up the page shows the
  // lobby before it goes to a linked table, so a room is marked told only when told.
  if (app.route !== "lobby" && app.route !== "table" && !announced.has(mine.room)) {
    toast(text, "info");
    announced.add(mine.room);
  }
}

/** What the tournament's page says of the banner's match, read once per room
 * (`readKept`): the opponent by name, and when a player who has not sat down forfeits. */
let bannerKept = { room: "", opponent: /** @type {string | null} */ (null), forfeitAt: /** @type {number | null} */ (null), readAt: 0 };
/** How often the banner's match is read again (ms): play begun, the organiser's walkover
 * or a tournament called off end the no-show time the banner counts down. */
const BANNER_REREAD_MS = 30000;
/** The banner's countdown, running while it shows. @type {ReturnType<typeof setInterval> | null} */
let bannerTimer = null;

/** Reads the opponent and the no-show time of the banner's match, once for its room. @param {Msg} mine the lobby's room */
function learnBanner(mine) {
  const since = Date.now() - bannerKept.readAt;
  const stale = since > BANNER_REREAD_MS || (bannerKept.forfeitAt !== null && app.serverNow() >= bannerKept.forfeitAt && since > 3000);
  if (bannerKept.room === mine.room && !stale) return;
  if (bannerKept.room !== mine.room) bannerKept = { room: mine.room, opponent: null, forfeitAt: null, readAt: 0 };
  bannerKept.readAt = Date.now();
  const me = app.welcome?.player;
  void readKept(mine).then((kept) => {
    if (!kept || bannerKept.room !== mine.room) return;
    const seat = (mine.settings?.reserved ?? []).indexOf(me);
    bannerKept = { room: mine.room, opponent: seat < 0 ? null : kept.names[1 - seat], forfeitAt: kept.forfeitAt, readAt: Date.now() };
    renderMyMatch();
  });
}

/** The banner's line of time: how long the player has to sit down before their match is
 * forfeited (the tournament's no-show time) — the banner said only that it was ready,
 * while that time ran out unseen. Hidden without one (play begun, or not yet read). */
function tickBanner() {
  const due = $("my-match-due");
  const mine = $("my-match").hidden ? null : bannerKept;
  const at = mine?.forfeitAt ?? null;
  // (at its end, or read again every half minute, `learnBanner` says what has become of it)
  const match = myMatch();
  if (match && at !== null) learnBanner(match);
  due.hidden = at === null || app.serverNow() >= at;
  if (at !== null) due.textContent = t("lobby.myMatchDue", { time: minutesAndSeconds(Math.max(0, Math.ceil((at - app.serverNow()) / 1000))) });
  if (at !== null && bannerTimer === null) bannerTimer = setInterval(tickBanner, 1000);
  if (at === null && bannerTimer !== null) {
    clearInterval(bannerTimer);
    bannerTimer = null;
  }
}

/** The tournament match kept for this player whose table is open, but not this page's table. */
function myMatch() {
  const me = app.welcome?.player;
  return me ? [...app.rooms.values()].find((r) => r.room !== app.room && r.status !== "finished" && (r.settings?.reserved ?? []).includes(me)) : undefined;
}

/**
 * The same at a table, where the lobby's banner is out of sight: a tournament's winner
 * who closed the result stayed at the finished table, their next match open and its
 * no-show clock running, with no word of it but a toast of four seconds.
 */
export function renderNextMatch() {
  const mine = app.route === "table" ? myMatch() : undefined;
  $("next-match").hidden = !mine;
  // The last match's result, over the banner, offers the seat too (its only way on was
  // the bracket, and its no-show time ran out behind the dialog).
  const fromResult = $("result-next-match");
  fromResult.hidden = !mine;
  $("result-tournament").classList.toggle("primary", !mine);
  if (!mine) return;
  fromResult.setAttribute("href", `#/play/${encodeURIComponent(mine.room)}`);
  $("next-match-text").textContent = t("lobby.myMatch", { name: tableName(mine) });
  $("next-match-sit").setAttribute("href", `#/play/${encodeURIComponent(mine.room)}`);
}

export function renderQuick() {
  $("quick").textContent = t(app.quickWaiting ? "lobby.quickCancel" : "lobby.quick");
  $("quick-status").textContent = app.quickWaiting ? t("lobby.quickWaiting") : "";
  const offered = app.quickWaiting && app.computerOffer !== null;
  $("computer-offer").hidden = !offered;
  // The box says what the next search is: a search under way keeps what it was asked.
  const box = /** @type {HTMLInputElement} */ ($("quick-rated"));
  box.disabled = app.quickWaiting;
  if (app.quickWaiting) box.checked = app.quickRated;
  // The offer stands in for the computer's own row meanwhile: one "Play the computer", not two.
  $("computer-row").hidden = offered;
  // A rated wait may go on alone while a guest waits for an unrated game, each offered
  // the computer: the rated one is offered the unrated queue too, where guests are.
  const rated = offered && app.quickRated;
  $("computer-offer-unrated").hidden = !rated;
  $("computer-offer-text").textContent = offered ? t(rated ? "lobby.computerOfferRated" : "lobby.computerOffer", { level: app.computerOffer ?? 1 }) : "";
}

/** @typedef {(msg: Msg) => Promise<Msg | null>} Act runs a request, showing its refusal */

/**
 * The quick match's buttons and the computer's: wait for an opponent (rated, for an
 * account holder who ticks it), call the wait off, play the computer (its own row, or the
 * offer made while waiting), or move a rated wait to the unrated queue.
 * @param {Act} act @param {() => Promise<void>} ensureName says a changed name first
 */
export function wireQuick(act, ensureName) {
  // (the next match's seat taken from the last one's result: the result goes)
  $("result-next-match").addEventListener("click", () => /** @type {HTMLDialogElement} */ ($("result-dialog")).close());
  const race = () => Number(/** @type {HTMLSelectElement} */ ($("quick-race")).value);
  /** @param {boolean} rated */
  const wait = async (rated) => {
    const ok = await act({ t: "quick", on: true, race_to: race(), rated });
    // Paired at once, the reply is `joined` (and the table opens) instead.
    if (ok && ok.t === "ok") Object.assign(app, { quickWaiting: true, quickRated: rated });
  };
  $("quick").addEventListener("click", async () => {
    if (!app.quickWaiting) {
      if (!lobbyNameReady()) return;
      await ensureName();
      await wait(!!session.accountToken() && /** @type {HTMLInputElement} */ ($("quick-rated")).checked);
    } else {
      const ok = await act({ t: "quick", on: false });
      if (ok && ok.t === "ok") app.quickWaiting = false;
    }
    if (!app.quickWaiting) app.computerOffer = null;
    renderQuick();
  });
  $("computer-offer-unrated").addEventListener("click", async () => {
    const ok = await act({ t: "quick", on: false });
    if (!ok || ok.t !== "ok") return;
    Object.assign(app, { quickWaiting: false, computerOffer: null });
    await wait(false);
    renderQuick();
  });

  /** Play the computer: a room of one's own against it, started at once (`joined`). @param {number} level */
  const playComputer = async (level) => {
    if (!lobbyNameReady()) return;
    await ensureName();
    // Rated only for a player logged in to an account (the server refuses a guest).
    const rated = !!session.accountToken() && /** @type {HTMLInputElement} */ ($("computer-rated")).checked;
    await act({ t: "computer", level, race_to: race(), rated });
  };
  // The level last chosen is the one offered next time (it went back to 2 on every visit).
  const level = /** @type {HTMLSelectElement} */ ($("computer-level"));
  try {
    const kept = localStorage.getItem(LEVEL_KEY);
    if (kept && [...level.options].some((o) => o.value === kept)) level.value = kept;
  } catch {
    // (storage refused: the page's own default)
  }
  level.addEventListener("change", () => {
    try {
      localStorage.setItem(LEVEL_KEY, level.value);
    } catch {
      // (storage refused: the choice holds for this page)
    }
  });
  $("computer").addEventListener("click", () => playComputer(Number(level.value)));
  $("computer-offer-take").addEventListener("click", () => playComputer(app.computerOffer ?? 1));
}

/**
 * The players of a lobby entry, each with their rating when they have one ("500?" while
 * provisional, as at the table); a rated player's name opens their profile.
 * @param {Record<string, any>} r @returns {(string | HTMLElement)[]}
 */
function playersCell(r) {
  // A finished match's player who has left the table (a tournament's frees the seat) is
  // still named: the row read one name beside "Ivo won — Marko conceded".
  const gone = r.status === "finished" ? [r.winner, r.loser].filter((n) => typeof n === "string" && n && !r.players.includes(n)) : [];
  // In the order of the score beside them, which is the seats' (the row read "Emma — Ivo
  // 2:0" when Ivo, who won 2:0, had left): the server says where the winner sat; an older
  // one's winner of a match played out is the seat with more games.
  const race = r.ended_by !== "concede" && r.ended_by !== "forfeit";
  const winnerFirst = typeof r.winner_seat === "number" ? r.winner_seat === 0 : race ? (r.score?.[0] ?? 0) >= (r.score?.[1] ?? 0) : null;
  const names = [...playerNames(r), ...gone];
  const order = gone.length && names.length === 2 && winnerFirst !== null && ((r.players[0] ?? names[0]) === r.winner) !== winnerFirst ? [1, 0] : [0, 1];
  /** @type {(string | HTMLElement)[][]} */
  const shown = order.filter((i) => i < names.length).map((i) => {
    const name = names[i];
    if (i >= r.players.length) return [h("span", { class: "muted gone", text: name, title: t("rooms.left") })];
    const provisional = !!r.provisional?.[i];
    const rating = ratingText(r.ratings?.[i], provisional);
    if (!rating) return [name];
    if (r.computer?.[i] != null) return [`${name} (${rating})`];
    // The question mark explained where it is shown, as at the table.
    const shown = h("span", provisional ? { text: ` (${rating})`, ...tipAttrs(t("account.provisionalHelp"), `${r.room}:${i}`) } : { text: ` (${rating})` });
    return [h("button", { type: "button", class: "link", "data-player": name, text: name, "aria-label": t("account.profileOf", { name }) }), shown];
  });
  /** @type {(string | HTMLElement)[]} */
  let cell = shown.flat();
  if (shown.length === 2) {
    // The language's "{a} vs {b}" with the names (and their buttons) in its places.
    cell = t("rooms.vs", { a: "\u0000a", b: "\u0000b" }).split(/(\u0000[ab])/).flatMap((part) => (part === "\u0000a" ? shown[0] : part === "\u0000b" ? shown[1] : part ? [part] : []));
  }
  if (!cell.length) cell = ["—"];
  return r.rated ? [...cell, ` · ${t("account.ratedTag")}`] : cell;
}

/** A table's id as its address shows it (`#/room/PwHlORi6`). */
const ROOM_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * The lobby's invite field: an invite code, a whole invite link pasted, or a table's id
 * read from its address or the other player's screen (a public table's invite is a link
 * with no code in it, so a friend told "table PwHlORi6" typed that and was told the code
 * was wrong). A table is looked for first: a code tried and wrong counts against the
 * guesses a connection and an address may make (the server's `bad_invite` budget), and
 * every table id has a code's shape. Only what is no open table is tried as a code.
 * @param {{ request(msg: Msg): Promise<Msg> }} conn
 * @param {(msg: Msg) => Promise<Msg | null>} act a request whose refusal is shown
 * @param {() => Promise<unknown>} ensureName
 * @param {(room: string, code: string | null, play: boolean) => Promise<unknown>} joinTable
 */
export function wireJoinCode(conn, act, ensureName, joinTable) {
  const joinCode = async (/** @type {"player" | "spectator"} */ role) => {
    const field = /** @type {HTMLInputElement} */ ($("join-code"));
    const raw = field.value.trim();
    // Nothing typed: the field is where to look (a toast at the top of a long page was missed).
    if (!raw) return field.focus(), toast(t("lobby.codeEmpty"));
    // A whole invite link pasted here: followed as a link (to sit), or its table watched.
    const link = raw.match(/#\/(?:play|room)\/([A-Za-z0-9_-]{1,32})(?:\/([A-Z0-9]{4,32}))?(?:\/[a-z0-9]{1,64})?$/);
    if (link) {
      if (role === "player") location.hash = link[0];
      else await ensureName().then(() => joinTable(link[1], link[2] ?? null, false));
      return;
    }
    const code = raw.toUpperCase();
    // The protocol's InviteCode: 4–32 letters and digits (the server issues 20).
    const isCode = /^[A-Z0-9]{4,32}$/.test(code);
    if (!isCode && !ROOM_ID.test(raw)) return toast(t("lobby.codeBad"));
    if (role === "player" && !lobbyNameReady()) return;
    await ensureName();
    if (ROOM_ID.test(raw)) {
      try {
        // (Exactly as typed: a table's id tells capitals from small letters.)
        return await conn.request({ t: "join", room: raw, role });
      } catch (err) {
        // Both seats taken: watch it, as a room link does.
        if (err instanceof ServerError && err.code === "room_full" && role === "player") return act({ t: "join", room: raw, role: "spectator" });
        if (!(err instanceof ServerError) || err.code !== "no_such_room" || !isCode) return toast(err);
      }
    }
    try {
      await conn.request({ t: "join", code, role });
    } catch (err) {
      // Neither a table nor a code: said with the way that works (pasting the link).
      toast(err instanceof ServerError && err.code === "bad_invite" ? t("lobby.codeWrong") : err);
    }
  };
  $("join-code-form").addEventListener("submit", (e) => {
    e.preventDefault();
    joinCode("player");
  });
  $("join-code-watch").addEventListener("click", () => joinCode("spectator"));
}

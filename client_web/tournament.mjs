// The live bracket of one tournament (/tournament/<id>): its facts, registration while
// it is open, both brackets and the grand final with a link to watch every match being
// played, and the standings. It reads the JSON API (`GET /api/tournaments/<id>`) again
// every few seconds; registering uses the session token the game keeps (net.mjs).
// /tournament/new is the organiser's form that creates one (`tournamentform.mjs`),
// computer players filling the empty places if the organiser allows them; its organiser
// may start it before its time. /tournaments lists them all (`GET /api/tournaments`).

import { makeUpName } from "./askname.mjs";
import { tournamentClock } from "./formats.mjs";
import { dateLocale, keepLang, minutesAndSeconds, num, seatName, t, wordAs } from "./i18n/index.mjs";
import { NAME_PATTERN, boundNameField, fitsNameRule, tidyName } from "./namerule.mjs";
import { Connection, defaultUrl, session } from "./net.mjs";
import { startPageLanguage } from "./pagelang.mjs";
import { installTips, tipAttrs } from "./tip.mjs";
import { rewordCreating, startCreating } from "./tournamentform.mjs";
import { feederOf, myEntry, placeWords, racesWords, roundTitle, startsInWords, whereYouStand } from "./tourstanding.mjs";

/** How often the bracket is read again (ms). */
const REFRESH_MS = 2000;

/** @typedef {{id: string, bracket: "winners" | "losers" | "final", round: number, players: (string | null)[], computers?: (number | null)[], seeds: (number | null)[], feeds?: [string, string | null][], status: string, winner: number | null, decided: string | null, no_show?: boolean[], score: number[], room: string | null, race: number, live?: {seated: boolean[], started: boolean, score: number[], forfeit_at?: number | null} | null}} MatchView */
/** @typedef {{id: string, name: string, format: "single" | "double", status: string, cap: number, players: number, starts_at: number, champion?: string | null, champion_level?: number | null, entered?: boolean, yours?: boolean, place?: string | null}} ListedView */
/** @typedef {{id: string, name: string, format: "single" | "double", status: string, cap: number, seeding: string, starts_at: number, races: {winners: number, losers: number, final: number}, shot_clock?: number | null, first_break?: "draw" | "lag", bots?: boolean, bot_level?: number | null, yours?: boolean, entered?: boolean, me?: number | null, removed?: boolean, account?: string | null, cancelled?: "too_few" | "organiser" | null, entrants: {name: string, player: string, rating?: number, provisional?: boolean, guest?: boolean, bot?: boolean, level?: number | null}[], matches: MatchView[], standings: {place: string, name: string, bot?: boolean, level?: number | null}[], champion: string | null}} TournamentView */

const id = decodeURIComponent(location.pathname.split("/").pop() ?? "");
/** The organiser's form, not a tournament (ids are 8 characters: never "new"). */
const creating = id === "new";
/** The list of tournaments, not one of them. */
const listing = /^\/tournaments\/?$/.test(location.pathname);
/** How often the list is read again (ms). */
const LIST_REFRESH_MS = 5000;
/** @type {TournamentView | null} */
let shown = null;
let missing = false;
let unavailable = false;
/** The server's clock less this one's (ms), from the API's `Date` header: a no-show's
 * deadline is the server's time. */
/** @type {number | null} */
let clockOffset = null;
/** How long to wait for the server's `welcome` when making a session (ms). */
const SESSION_WAIT_MS = 10_000;

/**
 * A session for a browser that has never opened the game — a bracket's or the
 * organiser's form's link shared with a newcomer —: one `hello`, as the game says it,
 * under the name the game would give this browser (made up and kept, as the game keeps
 * it). The API knows who registers or organises by that session's token. Resolves once
 * the token is kept, or when no welcome came in time (the page then asks to open the game).
 * @returns {Promise<void>}
 */
function ensureSession() {
  if (token()) return Promise.resolve();
  return new Promise((resolve) => {
    const name = NAME_PATTERN.test(session.name()) ? session.name() : makeUpName();
    session.setName(name);
    const done = () => {
      clearTimeout(timer);
      conn.close();
      resolve();
    };
    const conn = new Connection({
      url: defaultUrl(),
      name: () => session.name() || name,
      onNameTaken: () => session.setName(makeUpName()), // an account's name: another made up
      onMessage: () => {},
      onState: () => {},
      onWelcome: done,
    });
    const timer = setTimeout(done, SESSION_WAIT_MS);
    conn.start();
  });
}

/** @param {string} elementId */
function $(elementId) {
  return /** @type {HTMLElement} */ (document.getElementById(elementId));
}

/**
 * @param {string} tag @param {Record<string, string>} [attrs] @param {(Node | string)[]} [children]
 * @returns {HTMLElement}
 */
function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** Who this browser is to the API, as the game connects: the account's token while
 * logged in (its seat in a match is kept for the account), else the game's session token;
 * null before the game was ever opened here. */
function token() {
  return session.accountToken() || session.token();
}

/** That token as the API wants it. @returns {Record<string, string>} */
function authorization() {
  const held = token();
  return held ? { Authorization: `Bearer ${held}` } : {};
}

async function load() {
  try {
    // With the session's token the answer says whether the tournament is ours (we may
    // start it) and whether we are registered in it.
    const response = await fetch(`/api/tournaments/${encodeURIComponent(id)}`, { cache: "no-store", headers: authorization() });
    missing = response.status === 404;
    unavailable = !response.ok && !missing;
    // Whole seconds: the header's second began at most a second before it was sent, so the
    // largest offset seen is the nearest (a countdown never jumps back up a second).
    const serverNow = Date.parse(response.headers.get("Date") ?? "");
    if (!Number.isNaN(serverNow)) clockOffset = Math.max(clockOffset === null ? -Infinity : clockOffset, serverNow - Date.now());
    if (response.ok) shown = await response.json();
  } catch {
    unavailable = true;
  }
  render();
}

/** @param {number} epochMs */
function when(epochMs) {
  // The month in words ("5. prosinca 2026. u 08:06"): the short form's "5. pro 2026." reads
  // as no word. With the reader's time zone ("… u 10:00 CET", "… в 12:00 GMT+3"): the time
  // is shown in the reader's own, and a player elsewhere read the organiser's 10:00 as 12:00
  // with nothing to say why.
  const format = { year: "numeric", month: "long", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" };
  return new Intl.DateTimeFormat(dateLocale(), /** @type {Intl.DateTimeFormatOptions} */ (format)).format(new Date(epochMs));
}

function render() {
  const message = $("tour-message");
  if (missing || (!shown && unavailable)) {
    message.textContent = t(missing ? "tour.missing" : "tour.unavailable");
    message.hidden = false;
    $("tour-view").hidden = true;
    return;
  }
  if (!shown) return;
  const view = shown;
  // Whose page it is, in every state (from the start on the name had gone from the bar).
  showMe(view.account ?? null);
  message.hidden = !unavailable;
  if (unavailable) message.textContent = t("tour.unavailable");
  $("tour-view").hidden = false;
  document.title = `${view.name} — ${t("tour.title")}`;
  $("tour-name").textContent = view.name;
  const races = racesWords(view);
  // Drawn and played (a tournament cancelled while it was played among them): past its
  // start, not "Starts …" with computers that "fill the places still empty at the start".
  const begun = view.status !== "registering" && (view.status !== "cancelled" || view.matches.length > 0);
  $("tour-facts").textContent = [
    t(`tour.format.${view.format}`),
    // Registration open while every place is taken reads "open" beside "full" below it.
    t(view.status === "registering" && view.entrants.length >= view.cap ? "tour.status.full" : `tour.status.${view.status}`),
    // Under way or over: when it began (the server moves an early start's time to it).
    t(begun ? "tour.started" : "tour.starts", { time: when(view.starts_at) }),
    t(`tour.seeding.${view.seeding}`),
    races,
    tournamentClock(view.shot_clock ?? null),
    t(view.first_break === "lag" ? "tour.firstLag" : "tour.firstDraw"),
    t("tour.entrants", { n: view.entrants.length, cap: view.cap }),
  ].join(" · ");
  tickDeadlines();
  const note = $("tour-note");
  const why = view.status === "cancelled" ? view.cancelled ?? null : null;
  note.hidden = !why;
  note.textContent = why === "too_few" ? t("tour.cancelledFew") : why === "organiser" ? t("tour.cancelledOrganiser") : "";
  // What the organiser's last request did ("The tournament has begun.") stays in view
  // while the tournament runs; once it is over the champion or the note says the rest,
  // and a cancel's answer would only repeat the note.
  if (view.status === "finished" || view.status === "cancelled") $("tour-organiser-answer").textContent = "";
  const champion = $("tour-champion");
  champion.hidden = !view.champion;
  const won = view.entrants.find((e) => e.name === view.champion);
  champion.textContent = view.champion ? t("tour.champion", { name: seatName(view.champion, won?.bot ? won.level ?? 1 : null) }) : "";
  // Before the start, what the computers will do; after it, what they did (if any came).
  const bots = $("tour-bots");
  const computers = view.entrants.filter((e) => e.bot).length;
  const before = !begun;
  bots.hidden = !view.bots || (!before && computers === 0);
  bots.textContent = bots.hidden
    ? ""
    : !before
      ? computers === 1
        ? t("tour.botFilled")
        : t("tour.botsFilled", { n: computers })
      : view.bot_level
        ? t("tour.botsLevel", { level: view.bot_level })
        : t("tour.botsSpread");
  // The reader's own match, its table open: the way to its seat, above everything — or,
  // once they sit there (from another tab, say), the way back to it: not a call to sit
  // down that they have answered already.
  const mine = view.me ? view.matches.find((m) => m.status === "playing" && m.room && m.seeds.includes(view.me ?? null)) : undefined;
  $("tour-mine").hidden = !mine;
  const sitting = !!mine && seatedAt(mine, view.me ?? null);
  // (a call to sit down stays in sight as the page scrolls; once seated it is a link back)
  $("tour-mine").classList.toggle("calling", !!mine && !sitting);
  // A tab left in the background says so in its title: a no-show's clock is running.
  if (mine && !sitting) document.title = `● ${t("tour.titleReady")} — ${document.title}`;
  // (the opponent named, once known: the banner said only that a table was open)
  const slot = mine ? mine.seeds.indexOf(view.me ?? null) : -1;
  const versus = mine && slot >= 0 ? mine.players[1 - slot] : null;
  if (sitting || !mine || !versus) wordAs($("tour-mine-text"), sitting ? "tour.yourSeat" : "tour.yourMatch");
  else wordAs($("tour-mine-text"), "tour.yourMatchVs", { name: seatName(versus, mine.computers?.[1 - slot] ?? null) });
  wordAs($("tour-mine-sit"), sitting ? "tour.backToTable" : "tour.play");
  if (mine) $("tour-mine-sit").setAttribute("href", keepLang(`/#/play/${encodeURIComponent(mine.room ?? "")}`));
  const deadline = mine?.live && !mine.live.started ? mine.live.forfeit_at ?? null : null;
  // Seated, the clock is the opponent's, and says so: as the bare "No-show forfeit in
  // 4:26" it read as the seated player's own forfeit.
  const opponent = mine && sitting ? mine.players[mine.seeds.indexOf(view.me ?? null) === 0 ? 1 : 0] : null;
  $("tour-mine-deadline").replaceChildren(...(deadline ? [noShowClock(deadline, opponent)] : []));
  // Otherwise where they stand: their next match, or out and in which place.
  const where = whereYouStand(view, (name, level) => seatName(name, level ?? null));
  $("tour-where").hidden = !where;
  // (a status line: said again to a screen reader only when it says something new)
  if ($("tour-where").textContent !== (where ?? "")) $("tour-where").textContent = where ?? "";
  renderRegistration(view);
  renderOrganiser(view);
  renderBrackets(view);
  renderStandings(view);
}

/**
 * Whether the player of seed `me` holds their seat at the table of `match` (the room's
 * record says, through the API's `live`). @param {MatchView} match @param {number | null} me
 */
function seatedAt(match, me) {
  const slot = me === null ? -1 : match.seeds.indexOf(me);
  return slot >= 0 && !!match.live?.seated[slot];
}

/** @param {TournamentView} view */
function renderRegistration(view) {
  const open = view.status === "registering";
  $("tour-register").hidden = !open;
  if (!open) return;
  // The reader's own entry is marked (`me`: their place on the list, from 1).
  const mine = (/** @type {number} */ i) => view.me === i + 1;
  const you = (/** @type {number} */ i) => (mine(i) ? [" ", el("span", { class: "tour-you" }, [t("tour.you")])] : []);
  // The organiser may take anyone else off the list before the start (their own entry
  // they withdraw, as any entrant does).
  const remove = (/** @type {string} */ name, /** @type {number} */ i) => (view.yours && !mine(i) ? [el("button", { type: "button", class: "small tour-remove", "data-remove": name }, [t("tour.remove")])] : []);
  // Seeded by rating: the ratings the seeds will come from. A rating not yet a measure
  // (provisional) is marked as elsewhere. A guest has none: "(guest)", not the starting
  // rating it is seeded at, which read as a rating of its own (a tap opens the words).
  const rating = (/** @type {{name: string, rating?: number, provisional?: boolean, guest?: boolean}} */ e) =>
    view.seeding === "rating" && typeof e.rating === "number"
      ? [el("span", { class: "tour-rating", ...(e.provisional || e.guest ? tipAttrs(t(e.guest ? "tour.guestRating" : "account.provisionalHelp"), `entrant:${e.name}`) : {}) }, [` (${e.guest ? t("tour.guest") : e.provisional ? t("account.provisionalRating", { rating: num(e.rating, 0) }) : num(e.rating, 0)})`])]
      : [];
  const list = $("tour-entrants");
  list.classList.toggle("many", view.entrants.length > 8);
  list.replaceChildren(
    ...view.entrants.map((e, i) => el("li", { "data-name": e.name, class: mine(i) ? "mine" : "" }, [el("span", {}, [seatName(e.name, e.bot ? e.level ?? 1 : null)]), ...rating(e), ...you(i), ...computerTag(e.bot ? e.level ?? 1 : null), ...remove(e.name, i)])),
  );
  const entered = !!view.entered;
  // Every place taken: nothing to offer but to say so (an entrant may still withdraw).
  const full = !entered && view.entrants.length >= view.cap;
  $("tour-full").hidden = !full;
  const held = token();
  // Taken off the list by the organiser: not offered again (the server refuses it).
  const removed = !entered && !!view.removed;
  $("tour-form").hidden = !held || full || removed;
  $("tour-session").hidden = !!held || full;
  const input = /** @type {HTMLInputElement} */ ($("tour-player-name"));
  // Logged in, the account's name (the one it plays under); a guest, the game's name.
  if (!input.value) input.value = view.account || (session.accountToken() ? "" : session.name());
  showMe(view.account ?? null);
  // Registered: only withdrawing is offered; not yet: only registering (under a name).
  /** @type {HTMLElement} */ (input.closest("label")).hidden = entered;
  $("tour-join").hidden = entered;
  $("tour-leave").hidden = !entered;
  // Taken off the list by the organiser: said, where "You are registered." still stood
  // under the form that offered to register again.
  const answer = $("tour-answer");
  if (removed || (wasEntered && !entered && !withdrawing)) {
    const key = removed ? "tour.err.removed" : "tour.removedYou";
    answers.set(answer, () => t(key));
    answer.textContent = t(key);
    answer.classList.remove("ok");
  }
  wasEntered = entered;
}

/** Whether the reader was on the list when the page last showed it, and whether they are
 * withdrawing themselves now (that is said as their own doing). */
let wasEntered = false;
let withdrawing = false;

/** The organiser may start the tournament before its time (two players at least, unless
 * computer players fill the empty places), and cancel it — before the start, or while it
 * is played (said first what becomes of the matches at their tables). @param {TournamentView} view */
function renderOrganiser(view) {
  const box = $("tour-organiser");
  const running = view.status === "running";
  box.hidden = !view.yours || (view.status !== "registering" && !running);
  if (box.hidden) return;
  $("tour-start").hidden = running;
  $("tour-start-help").hidden = running;
  wordAs($("tour-yours-note"), running ? "tour.yoursRunning" : "tour.yoursNote");
  const enough = view.entrants.length >= 2 || !!view.bots;
  /** @type {HTMLButtonElement} */ ($("tour-start")).disabled = !enough;
  $("tour-start-help").textContent = t(enough ? "tour.startHelp" : "tour.startFew");
}

/**
 * One request that changes the tournament, by this session: its answer (the tournament)
 * is shown at once, and `answer` says what happened or, by the refusal's code, why not.
 * @param {"register" | "unregister" | "start" | "cancel" | "remove" | "walkover"} action
 * @param {HTMLElement} answer where to say it @param {() => string} done what to say once done
 * @param {Record<string, string | boolean>} [body] the JSON body, if the action takes one
 * @param {Record<string, string>} [codes] refusal codes worded otherwise for this action
 * @returns {Promise<boolean>} whether it was done
 */
async function change(action, answer, done, body, codes = {}) {
  if (!token()) return false;
  let ok = false;
  /** @type {() => string} */
  let said = () => t("tour.unavailable");
  try {
    const headers = body ? { ...authorization(), "Content-Type": "application/json" } : authorization();
    const init = { method: "POST", headers, body: body ? JSON.stringify(body) : undefined };
    const response = await fetch(`/api/tournaments/${encodeURIComponent(id)}/${action}`, init);
    const reply = await response.json();
    ok = response.ok;
    if (ok) {
      shown = reply;
      said = done;
    } else {
      const key = codes[reply.code] ?? `tour.err.${reply.code ?? "other"}`;
      said = () => (t(key) === key ? t("tour.err.other") : t(key));
    }
  } catch {
    ok = false;
  }
  answer.classList.toggle("ok", ok);
  // Kept as words to say, not as text: a change of language says it again in the new one.
  answers.set(answer, said);
  answer.textContent = said();
  render();
  return ok;
}

/** What each answer box says, by its words (said again on a change of language). */
/** @type {Map<HTMLElement, () => string>} */
const answers = new Map();

/**
 * One of the organiser's requests: start now, cancel, or take an entrant off the list.
 * @param {"start" | "cancel" | "remove"} action @param {() => string} done what to say once done
 * @param {Record<string, string | boolean>} [body]
 */
async function organise(action, done, body) {
  await change(action, $("tour-organiser-answer"), done, body, { not_registered: "tour.err.notOnList" });
  void load(); // a start's draw is made by the server's next round: read it as soon as it is
}

/** @type {ListedView[] | null} */
let listed = null;

async function loadList() {
  try {
    // With the session, the list marks the reader's own (entered, organised).
    const response = await fetch("/api/tournaments", { cache: "no-store", headers: authorization() });
    unavailable = !response.ok;
    if (response.ok) listed = await response.json();
  } catch {
    unavailable = true;
  }
  renderList();
}

/** The tournaments, newest first (a cancelled one only for its own): its name (a link to its page, marked when the reader
 * entered it or organises it), start, format, places taken and state (a finished one's
 * with its champion). */
function renderList() {
  const message = $("tour-message");
  document.title = t("tour.listTitle");
  message.hidden = !!listed && !unavailable;
  message.textContent = unavailable ? t("tour.unavailable") : t("tour.listLoading");
  $("tour-list").hidden = !listed;
  if (!listed) return;
  // A cancelled tournament is its organiser's and its entrants' business: kept from the
  // list of everyone else (the organiser's trials filled it), its page still at its link.
  const rows = listed.filter((row) => row.status !== "cancelled" || row.yours || row.entered);
  $("tour-list-empty").hidden = rows.length > 0;
  $("tour-list-table").hidden = rows.length === 0;
  $("tour-list-rows").replaceChildren(
    ...rows.map((row) =>
      el("tr", { "data-tournament": row.id }, [
        el("td", {}, [
          el("a", { href: keepLang(`/tournament/${encodeURIComponent(row.id)}`) }, [row.name]),
          ...(row.entered ? [" ", el("span", { class: "tour-you" }, [entryWords(row)])] : []),
          ...(row.yours ? [" ", el("span", { class: "tour-you" }, [t("tour.listYours")])] : []),
        ]),
        el("td", {}, [when(row.starts_at)]),
        el("td", {}, [t(`tour.format.${row.format}`)]),
        el("td", { "data-label": t("tour.col.players") }, [t("tour.players", { n: row.players, cap: row.cap })]),
        el("td", {}, [row.champion ? t("tour.listChampion", { status: t(`tour.status.${row.status}`), name: seatName(row.champion, row.champion_level ?? null) }) : t(row.status === "registering" && row.players >= row.cap ? "tour.status.full" : `tour.status.${row.status}`)]),
      ]),
    ),
  );
}

/** The mark on a tournament the reader entered: their final place once it is known (out,
 * or finished), else that they are in it — or played it, from a server that gives no
 * place. @param {ListedView} row */
function entryWords(row) {
  if (row.place) return t("tour.listPlace", { place: placeWords(row.place) });
  return t(row.status === "finished" ? "tour.listPlayed" : "tour.listEntered");
}

/**
 * The organiser's "are you sure?", asked on the page: true once they confirm with the
 * button that names the action, false for "Not now" or Esc.
 * @param {string} question @param {string} action the confirming button's words
 * @param {boolean} [undoable] false: the button is marked as one that cannot be undone
 * @returns {Promise<boolean>}
 */
function ask(question, action, undoable = true) {
  const dialog = /** @type {HTMLDialogElement} */ ($("tour-confirm"));
  $("tour-confirm-text").textContent = question;
  const yes = $("tour-confirm-yes");
  yes.textContent = action;
  yes.className = undoable ? "primary" : "danger";
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true }));
}

/** A computer player's name is never shown alone: a tag says it is one, and its level.
 * @param {number | null | undefined} level @returns {HTMLElement[]} */
function computerTag(level) {
  if (level === null || level === undefined) return [];
  return [el("span", { class: "tour-computer" }, [t("tag.computer", { level })])];
}

/** @param {TournamentView} view */
function renderBrackets(view) {
  const parts = [];
  const sides = view.format === "double" ? ["winners", "losers", "final"] : ["winners"];
  for (const side of sides) {
    const matches = view.matches.filter((m) => m.bracket === side);
    if (!matches.length) continue;
    const rounds = [...new Set(matches.map((m) => m.round))].sort((a, b) => a - b);
    const last = rounds[rounds.length - 1];
    const columns = rounds.map((round) =>
      el("div", { class: "tour-round" }, [
        el("h3", {}, [roundTitle(view, side, round, last)]),
        ...matches.filter((m) => m.round === round).map((m) => matchCard(view, m, view.me ?? null)),
      ]),
    );
    const title = view.format === "single" ? t("tour.bracket") : t(`tour.side.${side}`);
    parts.push(el("section", { class: "tour-bracket" }, [el("h2", {}, [title]), el("div", { class: "tour-rounds" }, columns)]));
  }
  $("tour-brackets").replaceChildren(...parts);
}

/**
 * A slot still to be filled, named by the match it waits for once that match's two are
 * known ("Winner of Cy – Di"), else "to be decided". (A deciding match not needed has
 * nobody in it: a dash, not the "bye" of a player who went through unplayed.)
 * @param {TournamentView} view @param {MatchView} match @param {number} slot
 */
function slotToCome(view, match, slot) {
  const from = feederOf(view, match, slot, (name, level) => seatName(name, level ?? null));
  return from ? t(from.kind === "winner" ? "tour.slotWinner" : "tour.slotLoser", { a: from.a, b: from.b }) : t("tour.tbd");
}

/** @param {TournamentView} view @param {MatchView} match @param {number | null} me the reader's seed, if an entrant */
function matchCard(view, match, me) {
  const done = match.status === "done";
  // Two byes meeting (a small field in the losers' bracket): nobody plays, nobody goes on.
  const empty = done && match.players.every((p) => p === null);
  const live = match.status === "playing" ? match.live ?? null : null;
  const slots = [0, 1].map((slot) => {
    const name = match.players[slot];
    const seed = match.seeds[slot];
    const state = done && !empty && match.winner !== null ? (match.winner === slot ? " won" : " lost") : "";
    const label = name ? seatName(name, match.computers?.[slot]) : match.status === "void" ? "—" : match.status === "waiting" ? slotToCome(view, match, slot) : t("tour.bye");
    const seedText = seed === null ? "" : String(seed);
    const own = me !== null && seed === me ? " mine" : "";
    // While the match is played its room's score shows, and who has not sat down yet.
    const score = done && match.decided === "played" ? String(match.score[slot]) : live?.started ? String(live.score[slot]) : "";
    const away = live && !live.started && name && !live.seated[slot];
    return el("div", { class: `tour-slot${state}${own}${away ? " away" : ""}` }, [
      el("span", { class: "tour-seed", title: seed === null ? "" : t("tour.seedTitle", { n: seed }) }, [seedText]),
      el("span", name ? {} : { class: "tour-empty" }, [el("span", { class: "tour-name", title: label }, [label]), ...(name ? computerTag(match.computers?.[slot]) : [])]),
      el("span", { class: `tour-score${live?.started ? " live" : ""}` }, [score]),
    ]);
  });
  const foot = [];
  if (match.status === "playing" && match.room && view.status === "cancelled") {
    // Called off while it was played: its table may play on, for nothing — no one
    // awaited, no no-show clock, no walkover, no seat to take; it can still be watched.
    foot.push(el("span", { class: "tour-state" }, [t("tour.notCounted")]));
    foot.push(el("a", { href: keepLang(`/#/room/${encodeURIComponent(match.room)}`) }, [t("tour.watch")]));
  } else if (match.status === "playing" && match.room) {
    const room = encodeURIComponent(match.room);
    const waiting = live && !live.started ? [0, 1].filter((slot) => match.players[slot] && !live.seated[slot]) : [];
    const status = live?.started
      ? t("tour.playing")
      : waiting.length > 0
        ? t("tour.waitingFor", { names: waiting.map((slot) => match.players[slot]).join(", ") })
        : t("tour.live");
    foot.push(el("span", { class: "tour-state" }, [status]));
    if (waiting.length > 0 && live?.forfeit_at) foot.push(noShowClock(live.forfeit_at));
    // The organiser need not wait out the no-show time once one of the two has come.
    // (named: "Walkover now" did not say to whom)
    if (view.yours && waiting.length === 1) {
      const came = match.players[1 - waiting[0]] ?? "";
      foot.push(el("button", { type: "button", class: "small danger", "data-walkover": match.id, "data-absent": match.players[waiting[0]] ?? "", "data-came": came }, [t("tour.walkover", { winner: came })]));
    }
    // Only the match's own players have a seat kept for them (once in it, the way back);
    // they are offered that, not to watch their own match.
    if (me !== null && match.seeds.includes(me)) foot.push(el("a", { href: keepLang(`/#/play/${room}`) }, [t(seatedAt(match, me) ? "tour.backToTable" : "tour.play")]));
    else foot.push(el("a", { href: keepLang(`/#/room/${room}`) }, [t("tour.watch")]));
  } else if (match.status === "ready") {
    foot.push(el("span", {}, [t("tour.ready")]));
  } else if (done && match.decided === "forfeit") {
    foot.push(el("span", { class: "tour-forfeit" }, [forfeitWords(match)]));
  } else if (done && match.decided === "played" && match.winner !== null && match.score[match.winner] < match.race) {
    // Won short of the race: the other player conceded (leaving a running match concedes
    // it). Said of the one who conceded: "Won" read as the reader's own win to the loser.
    const loser = 1 - match.winner;
    const name = match.players[loser];
    foot.push(el("span", {}, [name ? t("tour.concededBy", { name: seatName(name, match.computers?.[loser] ?? null) }) : t("tour.conceded")]));
  } else if (match.status === "void" || empty) {
    foot.push(el("span", {}, [t("tour.void")]));
  }
  // A match played (to its end or to a concession) can be watched again, every game of it
  // (in a tab of its own: this one may be waiting for the reader's next match).
  if (done && match.decided === "played" && match.room) foot.push(el("a", { class: "tour-replay", href: keepLang(`/#/replay/${encodeURIComponent(match.room)}`), target: "_blank", rel: "noopener" }, [t("tour.replay")]));
  if (match.status !== "void" && match.decided !== "bye") foot.push(el("span", {}, [t("match.line", { race: match.race })]));
  const classes = ["tour-match", match.status === "playing" ? "live" : "", match.status === "void" || empty ? "void" : ""];
  return el("div", { class: classes.filter(Boolean).join(" "), "data-match": match.id }, [...slots, el("div", { class: "tour-foot" }, foot)]);
}

/**
 * A match won by forfeit, said with its names: who won it and, when its no-show time
 * decided it, who was not at the table (both absent: the better seed went on). A bare
 * "Won by forfeit" read as the reader's own win to the player who lost it.
 * @param {MatchView} match @returns {string}
 */
function forfeitWords(match) {
  const named = (/** @type {number} */ slot) => {
    const name = match.players[slot];
    return name ? seatName(name, match.computers?.[slot] ?? null) : "";
  };
  const winner = match.winner === null ? "" : named(match.winner);
  if (!winner) return t("tour.forfeit");
  const loser = match.winner === null ? -1 : 1 - match.winner;
  const [first, second] = match.no_show ?? [false, false];
  if (first && second) return t("tour.forfeitBothAbsent", { winner });
  if ((loser === 0 ? first : second) && named(loser)) return t("tour.forfeitNoShow", { winner, absent: named(loser) });
  return t("tour.forfeitBy", { winner });
}

/**
 * How long until a player who has not sat down loses the match by not coming, counting
 * down (`tickDeadlines`) as the table's own clock does. @param {number} deadline server ms
 * @param {string | null} [awaited] the absent player, named to one who sits waiting
 */
function noShowClock(deadline, awaited = null) {
  // A timer: read when asked, not announced every second inside the page's status line.
  /** @type {Record<string, string>} */
  const attrs = { class: "tour-deadline", role: "timer", "data-deadline": String(deadline) };
  if (awaited) attrs["data-awaited"] = awaited;
  return el("span", attrs, [deadlineText(deadline, awaited)]);
}

/** @param {number} deadline server ms @param {string | null} [awaited] the absent player it runs against, named */
function deadlineText(deadline, awaited = null) {
  const left = Math.max(0, Math.ceil((deadline - (Date.now() + (clockOffset ?? 0))) / 1000));
  const time = minutesAndSeconds(left);
  return awaited ? t("tour.awaitedDue", { name: awaited, time }) : t("clock.forfeit", { time });
}

function tickDeadlines() {
  // Still taking entries: how long until it starts, by the server's clock.
  const countdown = $("tour-countdown");
  const startsAt = shown && !missing && shown.status === "registering" ? shown.starts_at : null;
  countdown.hidden = startsAt === null;
  if (startsAt !== null) countdown.textContent = startsInWords(startsAt - (Date.now() + (clockOffset ?? 0)));
  for (const span of document.querySelectorAll("[data-deadline]")) span.textContent = deadlineText(Number(span.getAttribute("data-deadline")), span.getAttribute("data-awaited"));
}

/** @param {TournamentView} view */
function renderStandings(view) {
  const rows = view.standings;
  // The reader's own row is marked, as their entry was on the list. A place is written as
  // the language writes one ("2.", "3.–4." in Croatian: a bare "2" read as a count).
  const mine = myEntry(view)?.name;
  const you = (/** @type {string} */ name) => (name === mine ? [" ", el("span", { class: "tour-you" }, [t("tour.you")])] : []);
  $("tour-standings").hidden = rows.length === 0;
  $("tour-standings-title").textContent = t(view.status === "finished" ? "tour.standingsFinal" : "tour.standings");
  $("tour-standings-rows").replaceChildren(
    ...rows.map((row) =>
      el("tr", {}, [el("td", {}, [placeWords(row.place)]), el("td", {}, [seatName(row.name, row.bot ? row.level ?? 1 : null), ...computerTag(row.bot ? row.level ?? 1 : null), ...you(row.name)])]),
    ),
  );
}

/** @param {"register" | "unregister"} action */
async function registration(action) {
  const name = tidyName(/** @type {HTMLInputElement} */ ($("tour-player-name")).value);
  const done = () => t(action === "register" ? "tour.registered" : "tour.withdrawn");
  if (action === "register" && !session.accountToken() && !fitsNameRule(name)) {
    // A name to enter under is chosen now (a guest's kept from before the rule too), and
    // follows the rule (`namerule.mjs`), said before anything is sent.
    const answer = $("tour-answer");
    answer.classList.remove("ok");
    answers.set(answer, () => t("tour.err.bad_name"));
    answer.textContent = t("tour.err.bad_name");
    return;
  }
  withdrawing = action === "unregister";
  const ok = await change(action, $("tour-answer"), done, action === "register" ? { name } : undefined).finally(() => (withdrawing = false));
  // A guest's name is kept for the game; an account plays under its own whatever this says.
  if (ok && action === "register" && !session.accountToken()) {
    session.setName(name);
    showMe(null);
  }
}

/**
 * Whose page this is, in the top bar as in the lobby's: the account's name (known once
 * the server has said it), else the guest's name the game keeps.
 * @param {string | null} account
 */
function showMe(account) {
  const me = /** @type {HTMLElement} */ (document.querySelector(".topbar .me"));
  me.textContent = account || (session.accountToken() ? "" : session.name());
  // A guest may sign up (or log in) from here, and comes back to this page signed in.
  const signIn = $("tour-signin");
  signIn.hidden = !!account || !!session.accountToken();
  signIn.setAttribute("href", keepLang(`/?account=1&back=${encodeURIComponent(location.pathname)}`));
}

async function start() {
  installTips();
  startPageLanguage(/** @type {HTMLSelectElement} */ ($("lang")), () => {
    if (creating) rewordCreating();
    for (const [box, said] of answers) box.textContent = said();
    if (listing) renderList();
    else render();
  });
  showMe(null);
  const nameField = /** @type {HTMLInputElement} */ ($("tour-player-name"));
  boundNameField(nameField);
  // The name offered is taken whole or typed over (a tap and typing wrote "Игрок-3819Дмитрий"):
  // selected as the field takes the focus, the click's own mouseup kept from undoing it (a
  // selection made a moment later came after the first letters typed, and took them).
  let selecting = false;
  nameField.addEventListener("focus", () => {
    nameField.select();
    selecting = true;
  });
  nameField.addEventListener("mouseup", (event) => {
    if (selecting) event.preventDefault();
    selecting = false;
  });
  nameField.addEventListener("blur", () => (selecting = false));
  $("tour-form").addEventListener("submit", (event) => {
    event.preventDefault();
    void registration("register");
  });
  $("tour-leave").addEventListener("click", () => void registration("unregister"));
  $("tour-start").addEventListener("click", async () => {
    // Computers to fill the empty places: said before they come (they are not undone).
    const empty = shown?.bots ? shown.cap - shown.entrants.length : 0;
    const question = empty > 0 ? (empty === 1 ? t("tour.startConfirmBot") : t("tour.startConfirmBots", { n: empty })) : t("tour.startConfirm");
    if (await ask(question, t("tour.startNow"))) void organise("start", () => t("tour.begun"));
  });
  $("tour-cancel").addEventListener("click", async () => {
    // Under way, the question says what becomes of the matches being played.
    const running = shown?.status === "running";
    if (await ask(t(running ? "tour.cancelRunningConfirm" : "tour.cancelConfirm"), t("tour.cancel"), false)) void organise("cancel", () => t("tour.cancelledOrganiser"), running ? { under_way: true } : undefined);
  });
  $("tour-entrants").addEventListener("click", async (event) => {
    const name = /** @type {HTMLElement} */ (event.target).closest("[data-remove]")?.getAttribute("data-remove");
    if (name && (await ask(t("tour.removeConfirm", { name }), t("tour.remove"), false))) void organise("remove", () => t("tour.removed", { name }), { name });
  });
  $("tour-brackets").addEventListener("click", async (event) => {
    const button = /** @type {HTMLElement} */ (event.target).closest("[data-walkover]");
    const match = button?.getAttribute("data-walkover");
    const name = button?.getAttribute("data-absent") ?? "";
    const winner = button?.getAttribute("data-came") ?? "";
    if (!match || !(await ask(t("tour.walkoverConfirm", { name, winner }), t("tour.walkover", { winner }), false))) return;
    await change("walkover", $("tour-bracket-answer"), () => t("tour.walkoverGiven", { name }), { match });
    void load();
  });
  $("tour-share").addEventListener("click", () => void share());
  if (listing) {
    $("tour-all").hidden = true;
    void loadList();
    setInterval(() => void loadList(), LIST_REFRESH_MS);
    return;
  }
  // The form has no link to itself, from its first frame (not after the session below).
  if (creating) $("tour-new").hidden = true;
  // Registering and organising need a session: a newcomer's is made here.
  await ensureSession();
  showMe(null);
  if (creating) {
    $("tour-message").hidden = true;
    startCreating({ token, authorization });
    return;
  }
  void load();
  setInterval(() => void load(), REFRESH_MS);
  setInterval(tickDeadlines, 1000);
}

/**
 * The organiser's (or anyone's) way to pass the tournament on: its address, copied, with
 * no `?lang=` (each reader gets their own language). Where the clipboard is not allowed
 * (a plain-http address) the link is shown to be copied by hand.
 */
async function share() {
  const link = `${location.origin}/tournament/${encodeURIComponent(id)}`;
  const answer = $("tour-share-answer");
  try {
    await navigator.clipboard.writeText(link);
    answer.textContent = t("tour.linkCopied");
  } catch {
    answer.textContent = link;
  }
}

start();

// Accounts in the page: sign up (claiming the name the guest plays under), log in, log out
// (here, or everywhere), a player's profile and the leaderboards. Talks to the JSON API
// (`/api/…`, docs/ACCOUNTS.md); the account token it keeps is said in `hello` from then on
// (net.mjs), so the connection plays as the account.

import { madeUp } from "./askname.mjs";
import { $, h, toast } from "./dom.mjs";
import { keepLang, num, t, when } from "./i18n/index.mjs";
import { boundNameField, fitsNameRule, tidyName } from "./namerule.mjs";
import { ACCOUNT_KEY, TOKEN_KEY, session } from "./net.mjs";
import { ratingChart } from "./ratingchart.mjs";
import { seatedAs } from "./state.mjs";

/** Where the browser keeps whether an account holder's quick match is rated. */
const QUICK_RATED_KEY = "ninepool.quickRated";
/** Set once this browser has been signed in to an account: its Enter logs in from then on. */
const HAD_ACCOUNT_KEY = "ninepool.hadAccount";

/**
 * What Enter in the account dialog does, and so which of its buttons is the highlighted
 * one: on a browser never signed in, signing up (a newcomer typing a name and a password
 * and pressing Enter was told "wrong name or password"); on one that has been, logging in
 * (a returning player's mistyped name would otherwise become an account of its own).
 * @returns {"signup" | "login"}
 */
function enterDoes() {
  try {
    return localStorage.getItem(HAD_ACCOUNT_KEY) === "yes" ? "login" : "signup";
  } catch {
    return "login"; // (storage refused: nothing is known of this browser; the safe one)
  }
}

/** This browser has been signed in to an account: its Enter logs in from then on. */
function rememberAccount() {
  try {
    localStorage.setItem(HAD_ACCOUNT_KEY, "yes");
  } catch {
    // (storage refused: `enterDoes` says "login" then anyway)
  }
}

/** Rated, unless the player unticked it before. */
function storedQuickRated() {
  try {
    return localStorage.getItem(QUICK_RATED_KEY) !== "no";
  } catch {
    return true;
  }
}

/** @typedef {Record<string, any>} Json */

/** Whether another tab of this browser has logged in or out since this page started. */
let changedElsewhere = false;

/** Whether the page's player has changed in another tab ("Play here" then starts afresh). */
export function accountChangedElsewhere() {
  return changedElsewhere;
}

/** A rating as shown next to a name: "512", or "512?" while provisional. @param {number | null | undefined} rating @param {boolean} [provisional] */
export function ratingText(rating, provisional = false) {
  if (rating === null || rating === undefined) return "";
  return provisional ? t("account.provisionalRating", { rating: num(rating, 0) }) : num(rating, 0);
}

/** @param {string} path @param {RequestInit & { token?: string | null }} [opts] @returns {Promise<{ status: number, body: Json | null }>} */
async function api(path, opts = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (opts.body) headers["Content-Type"] = "application/json";
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  const res = await fetch(path, { method: opts.method ?? "GET", body: opts.body, headers });
  const text = await res.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body };
}

/** The sentence for an API refusal. @param {number} status @param {Json | null} body */
function refusal(status, body) {
  if (status === 409) return t("account.taken");
  if (status === 401) return t("account.wrong");
  if (status === 429) return t("account.throttled");
  if (status === 400) return t("account.invalid", { reason: String(body?.error ?? "") });
  return t("account.failed");
}

/**
 * Where a page that sent the reader here to sign up goes back to once they are in: a
 * tournament's page or the list (`?back=`), nothing else (no way off the site). Null: none.
 */
export function sentBack() {
  const back = new URLSearchParams(location.search).get("back");
  return back && /^\/tournaments?(\/[A-Za-z0-9_-]{1,32})?$/.test(back) ? back : null;
}

/** This page's address without the query's `keys`. @param {string[]} keys */
function withoutQuery(...keys) {
  const rest = new URLSearchParams(location.search);
  for (const key of keys) rest.delete(key);
  const query = rest.toString();
  return `${location.pathname}${query ? `?${query}` : ""}${location.hash}`;
}

/**
 * @param {object} opts
 * @param {() => Promise<unknown>} opts.reconnect say hello again (with the new token)
 * @param {() => Json | null} opts.welcome the connection's latest `welcome`
 * @param {() => boolean} opts.live whether this page's connection plays as this browser's player now
 */
export function initAccounts(opts) {
  const dialog = /** @type {HTMLDialogElement} */ ($("account-dialog"));
  const form = /** @type {HTMLFormElement} */ ($("account-form"));
  const nameInput = /** @type {HTMLInputElement} */ ($("account-name"));
  const password = /** @type {HTMLInputElement} */ ($("account-password"));
  const error = $("account-error");
  const loggedIn = () => !!session.accountToken();
  boundNameField(nameInput);

  const quickRated = /** @type {HTMLInputElement} */ ($("quick-rated"));
  const refreshBar = () => {
    if (loggedIn()) rememberAccount(); // (a browser signed in before the flag was kept, too)
    $("account-open").hidden = loggedIn();
    $("account-menu").hidden = !loggedIn();
    // Rated play (quick match, against the computer) is for account holders only.
    $("computer-rated-field").hidden = !loggedIn();
    // An account holder's quick match is rated unless they said otherwise (their choice
    // kept): most sign up for a rating, and an unticked box played them unrated unawares.
    // (Against the computer it stays a choice to make: a practice game by default.)
    const offered = $("quick-rated-field").hidden && loggedIn();
    $("quick-rated-field").hidden = !loggedIn();
    if (offered) quickRated.checked = storedQuickRated();
  };
  refreshBar();
  // Logged in or out in another tab of this browser: this page's player is someone else
  // from now on. Its bar says so at once. A page still connected says hello again as that
  // player; one the other tab has replaced (or seated here) starts afresh as them on
  // "Play here" (it came back as a new guest still shown as the account, told its name
  // was taken).
  // Every hello renews an account's token (the same player: nothing to follow, or two
  // tabs would say hello in turn for ever); a log-out there is followed once that tab's
  // new guest is known (said at once, this tab would have become a second guest). A tab
  // seated in a match keeps its connection: its seat is its player's.
  let guestAwaited = false;
  const follow = () => {
    if (!loggedIn()) /** @type {HTMLInputElement} */ ($("name")).value = session.name();
    if (opts.live()) void opts.reconnect().catch(() => null);
    else changedElsewhere = true;
  };
  addEventListener("storage", (ev) => {
    if (ev.key === TOKEN_KEY) {
      if (guestAwaited && ev.newValue) {
        guestAwaited = false;
        follow();
      }
      return;
    }
    if (ev.key !== ACCOUNT_KEY && ev.key !== null) return;
    if (ev.key === ACCOUNT_KEY && !!ev.oldValue === !!ev.newValue) return;
    // A tab seated in a match plays on as who it was: its bar stays theirs (half guest,
    // half account, it offered a log-in for a seat that is the account's).
    if (opts.live() && seatedAs() !== null) return void (changedElsewhere = true);
    refreshBar();
    if (loggedIn()) follow();
    else guestAwaited = true;
  });
  quickRated.addEventListener("change", () => {
    try {
      localStorage.setItem(QUICK_RATED_KEY, quickRated.checked ? "yes" : "no");
    } catch {
      // (storage refused: the choice holds for this page)
    }
  });

  $("account-open").addEventListener("click", () => {
    error.textContent = "";
    // The name the player typed in the lobby, else the one the server gave the guest,
    // selected so that typing replaces it (it is not added to).
    const typed = /** @type {HTMLInputElement | null} */ (document.getElementById("name"))?.value.trim();
    const name = typed || opts.welcome()?.name || "";
    // Not a name made up for a guest ("Player-4821"): no one's name to keep, and a click
    // in the field put what the newcomer typed after it ("Игрок-5533Дмитрий Ко").
    nameInput.value = madeUp(name) ? "" : name;
    // (and the dialog then asks for a name of one's own, not to keep the one played under)
    const text = $("account-text");
    text.dataset.i18n = madeUp(name) ? "account.textNewName" : "account.text";
    text.textContent = t(text.dataset.i18n);
    password.value = "";
    const enter = enterDoes();
    $("account-signup").classList.toggle("primary", enter === "signup");
    $("account-login").classList.toggle("primary", enter === "login");
    dialog.showModal();
    nameInput.select();
  });
  $("account-cancel").addEventListener("click", () => dialog.close());

  const buttons = ["account-signup", "account-login"].map((id) => /** @type {HTMLButtonElement} */ ($(id)));
  /** One request at a time: a second press (or Enter) while one is out sends nothing. */
  let busy = false;
  /** @param {"signup" | "login"} kind */
  const submit = async (kind) => {
    if (busy) return;
    // The browser's own complaint comes in its own language: the page's words instead.
    // Each field says what is wrong with it (a short password is not told the name's rules).
    const rules = new Map([
      [nameInput, t("account.nameRule")],
      [password, t("account.passwordRule")],
    ]);
    for (const input of rules.keys()) input.setCustomValidity("");
    // The name whoever typed it (the guest's own is put there for them): a claim is a new
    // name, and every account's name fits the rule, so a login's does too.
    const fits = (/** @type {HTMLInputElement} */ input) => input !== nameInput || fitsNameRule(input.value.trim());
    const wrong = [...rules.keys()].filter((input) => !input.checkValidity() || !fits(input));
    for (const input of rules.keys()) input.setAttribute("aria-invalid", String(wrong.includes(input)));
    for (const input of wrong) input.setCustomValidity(rules.get(input) ?? "");
    if (wrong.length) {
      // Said once, under the fields: the browser's bubble said it again, over the rules,
      // and the dialog moved under the pointer as the words came.
      error.textContent = wrong.map((input) => rules.get(input)).join(" ");
      wrong[0].focus();
      return;
    }
    busy = true;
    for (const b of buttons) b.disabled = true;
    try {
      await attempt(kind);
    } finally {
      busy = false;
      for (const b of buttons) b.disabled = false;
    }
  };
  /** @param {"signup" | "login"} kind */
  const attempt = async (kind) => {
    error.textContent = "";
    const body = JSON.stringify({ name: tidyName(nameInput.value), password: password.value });
    if (kind === "signup") {
      // Claiming: the guest's session token makes the account take over this player.
      const made = await api("/api/accounts", { method: "POST", body, token: session.token() });
      if (made.status !== 201) {
        // A name taken may be the reader's own account, on a browser that has not seen it.
        error.textContent = refusal(made.status, made.body) + (made.status === 409 ? ` ${t("account.takenYours")}` : "");
        return;
      }
    }
    // The guest's session with it, their places in tournaments to go with them to the
    // account; not from a seat in a match, where the page keeps the guest (below).
    const login = await api("/api/login", { method: "POST", body, token: seatedAs() === null ? session.token() : undefined });
    if (login.status !== 200 || !login.body?.token) {
      // A login refused: the way to an account, in case the name is not one yet.
      const hint = kind === "login" && login.status === 401 ? ` ${t("account.newHere")}` : "";
      error.textContent = refusal(login.status, login.body) + hint;
      return;
    }
    // Another account is another player: the page would come back as them, a spectator,
    // and leave its seat empty until the match was lost. Not while seated in a match (the
    // account the guest is, or has just claimed, is the same player and sits on).
    const seated = seatedAs();
    if (seated !== null && login.body.player !== opts.welcome()?.player) {
      void api("/api/logout", { method: "POST", token: String(login.body.token) }).catch(() => null);
      error.textContent = t("account.seatedOther", { me: seated, name: String(login.body.name ?? "") });
      return;
    }
    password.value = "";
    rememberAccount();
    session.setAccountToken(String(login.body.token));
    dialog.close();
    refreshBar();
    await opts.reconnect();
    toast(t(kind === "signup" ? "account.welcomeNew" : "account.welcomeBack", { name: String(login.body.name ?? "") }), "info");
    // Sent here to sign up from a tournament's page: back to it, signed in.
    const back = sentBack();
    if (back) location.assign(keepLang(back));
  };
  // Sent from another page to sign up or log in (`/?account=1&back=…`, the tournament
  // page's link): the dialog opens at once.
  if (new URLSearchParams(location.search).get("account") === "1") {
    // (a reload does not ask again; signed in already, nothing to go back for)
    history.replaceState(history.state, "", loggedIn() ? withoutQuery("account", "back") : withoutQuery("account"));
    // Opened once the page is wired (its name field filled: a made-up name is not offered).
    if (!loggedIn()) setTimeout(() => $("account-open").click());
    // Closed without signing in: a later log-in from the lobby stays in the game.
    dialog.addEventListener("close", () => {
      if (!loggedIn() && sentBack()) history.replaceState(history.state, "", withoutQuery("back"));
    });
  }
  $("account-signup").addEventListener("click", () => void submit("signup"));
  // "Log in" is the form's submit button: its press arrives here, once.
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void submit("login");
  });
  // Enter in a field does what the highlighted button does (`enterDoes`), not always the
  // form's submit button's: it is kept from submitting the form, and sent once.
  form.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter" || !(ev.target instanceof HTMLInputElement) || ev.isComposing) return;
    ev.preventDefault();
    void submit(enterDoes());
  });

  /** @param {string} path */
  const logout = async (path) => {
    // Logged out, the page comes back as a new guest, another player: not while seated in
    // a match (the seat stood empty until it was given up, and someone else sat down).
    const seated = seatedAs();
    if (seated !== null) return void toast(t("account.logoutSeated", { me: seated }));
    const token = session.accountToken();
    if (token) await api(path, { method: "POST", token }).catch(() => null);
    // The page starts afresh as a new guest: the session it had was the account's player
    // (a claimed guest), and whoever uses the browser next is not them.
    session.setAccountToken(null);
    session.setToken(null);
    session.setName("");
    /** @type {HTMLInputElement} */ ($("name")).value = "";
    refreshBar();
    await opts.reconnect();
    toast(t("account.loggedOut"), "info"); // (nothing else on the page said it had happened; no error)
  };
  $("account-logout").addEventListener("click", () => void logout("/api/logout"));
  $("account-logout-all").addEventListener("click", () => {
    /** @type {HTMLDialogElement} */ ($("profile-dialog")).close();
    void logout("/api/logout-all");
  });
  /** Whether `name` is the signed-in player's own (their profile offers Log out everywhere). @param {string} name */
  const own = (name) => loggedIn() && name === opts.welcome()?.name;
  // Dialogs, not pages: the address names the table or the replay, and changing it
  // would take the player away from their table.
  $("account-profile").addEventListener("click", () => {
    const name = opts.welcome()?.name;
    $("account-logout-all").hidden = !name || !own(name);
    if (name) void showProfile(name);
  });
  /** The account's own name while logged in: the board then says where the player stands. */
  const me = () => (loggedIn() ? (opts.welcome()?.name ?? null) : null);
  $("leaders-open").addEventListener("click", () => void showLeaders("all", me()));
  $("leaders-all").addEventListener("click", () => void showLeaders("all", me()));
  $("leaders-month").addEventListener("click", () => void showLeaders("month", me()));
  // A rated player's name in the lobby's list opens their profile too.
  $("rooms").addEventListener("click", (ev) => {
    const player = /** @type {HTMLElement} */ (ev.target).closest("[data-player]");
    if (!player) return;
    const name = player.getAttribute("data-player") ?? "";
    $("account-logout-all").hidden = !own(name);
    void showProfile(name);
  });
  // A board still on its way when the dialog is closed does not open it again.
  $("leaders-dialog").addEventListener("close", () => void (leadersAsked += 1));
  for (const id of ["leaders-dialog", "profile-dialog"]) {
    const d = /** @type {HTMLDialogElement} */ ($(id));
    $(`${id}-close`).addEventListener("click", () => d.close());
    // A player's name opens their profile; a replay link closes the dialog on its way.
    d.addEventListener("click", (ev) => {
      const target = /** @type {HTMLElement} */ (ev.target);
      const player = target.closest("[data-player]");
      if (player) {
        ev.preventDefault();
        /** @type {HTMLDialogElement} */ ($("leaders-dialog")).close();
        const name = player.getAttribute("data-player") ?? "";
        $("account-logout-all").hidden = !own(name);
        void showProfile(name);
      } else if (target.closest("a[href^='#/replay/']")) {
        d.close();
      }
    });
  }
}

/** Boards asked for, and dialogs closed: a board answers only if nothing came after it. */
let leadersAsked = 0;

/**
 * The leaderboard (all time, or this month), and under it, for a logged-in player not on
 * it, their own rating and how many rated games they have of the 30 that list a player.
 * @param {"all" | "month"} period @param {string | null} me
 */
async function showLeaders(period, me) {
  const asked = ++leadersAsked;
  const dialog = /** @type {HTMLDialogElement} */ ($("leaders-dialog"));
  $("leaders-all").setAttribute("aria-pressed", String(period === "all"));
  $("leaders-month").setAttribute("aria-pressed", String(period === "month"));
  const body = $("leaders-rows");
  body.replaceChildren();
  const res = await api(`/api/leaderboard?limit=50${period === "month" ? "&period=month" : ""}`);
  if (asked !== leadersAsked) return; // closed, or another board asked for since
  const rows = Array.isArray(res.body) ? res.body : [];
  rows.forEach((row, i) => {
    body.append(
      h("tr", {}, [
        h("td", { text: num(i + 1) }),
        h("td", {}, [h("button", { type: "button", class: "link", "data-player": row.name, text: row.name })]),
        h("td", { class: "num", text: num(row.rating, 0) }),
        h("td", { class: "num", text: num(row.racks) }),
      ]),
    );
  });
  $("leaders-empty").hidden = rows.length > 0;
  const mine = $("leaders-mine");
  mine.hidden = true;
  if (me && period === "all" && !rows.some((row) => row.name === me)) {
    const own = await api(`/api/players/${encodeURIComponent(me)}`);
    if (asked !== leadersAsked) return;
    const p = own.status === 200 ? own.body : null;
    if (p && typeof p.rating === "number") {
      const rating = ratingText(p.rating, p.provisional);
      mine.textContent = p.provisional ? t("account.mineProvisional", { rating, n: num(p.racks) }) : t("account.mine", { rating });
      mine.hidden = false;
    }
  }
  // No header over nothing: an empty board is the sentence alone.
  /** @type {HTMLElement} */ (body.closest("table")).hidden = rows.length === 0;
  if (!dialog.open) dialog.showModal();
}

/** A player's profile: rating and its history, racks, recent matches with replays. @param {string} name */
async function showProfile(name) {
  const dialog = /** @type {HTMLDialogElement} */ ($("profile-dialog"));
  const res = await api(`/api/players/${encodeURIComponent(name)}`);
  const box = $("profile-body");
  box.replaceChildren();
  if (res.status !== 200 || !res.body) {
    $("profile-title").textContent = name;
    box.append(h("p", { text: t("account.noSuchPlayer") }));
    if (!dialog.open) dialog.showModal();
    return;
  }
  const p = res.body;
  $("profile-title").textContent = p.name;
  const stat = (/** @type {string} */ key, /** @type {string} */ value) => h("div", { class: "stat" }, [h("dt", { text: t(key) }), h("dd", { text: value })]);
  box.append(
    h("dl", { class: "stats", id: "profile-stats" }, [
      stat("account.rating", ratingText(p.rating, p.provisional)),
      stat("account.racks", num(p.racks)),
      stat("account.wonLost", t("account.wonLostValue", { won: num(p.won), lost: num(p.lost) })),
      stat("account.breakAndRuns", num(p.break_and_runs)),
      // (no rated rack yet: no rate of fouls, not "0.00")
      stat("account.foulsPerRack", p.racks ? num(p.fouls_per_rack, 2) : "—"),
      stat("account.ninesOnBreak", num(p.nines_on_break)),
    ]),
  );
  if (p.provisional) box.append(h("p", { class: "help", text: t("account.provisionalHelp") }));
  const history = /** @type {Json[]} */ (p.history ?? []);
  if (history.length > 1) box.append(ratingChart(history.map((point) => ({ at: Number(point.at), rating: Number(point.rating) }))));
  box.append(h("h3", { text: t("account.recent") }));
  const matches = /** @type {Json[]} */ (p.matches ?? []);
  if (!matches.length) box.append(h("p", { class: "help", text: t("account.noMatches") }));
  const list = h("ul", { class: "matches" });
  for (const match of matches) {
    const result = match.won === null ? t("account.noResult") : t(match.won ? "account.won" : "account.lost");
    // A computer is named in the page's language from its level (`opponent` is English).
    const opponent = match.opponent_level != null ? t("tag.computer", { level: num(match.opponent_level) }) : (match.opponent ?? t("account.anonymous"));
    list.append(
      h("li", {}, [
        h("span", { text: `${when(match.at)} · ${result} ${num(match.score[0])}–${num(match.score[1])}${endedText(match.ended_by)} · ${opponent}${match.rated ? ` · ${t("account.ratedTag")}` : ""}` }),
        " ",
        h("a", { href: match.match >= 1 ? `#/replay/${match.room}/${match.match}/all` : `#/replay/${match.room}`, text: t("rooms.replay") }),
      ]),
    );
  }
  box.append(list);
  if (!dialog.open) dialog.showModal();
}

/** How a match that did not end on the race ended, after its score ("Won 0–0" alone
 * hid that the match was conceded). @param {unknown} endedBy */
function endedText(endedBy) {
  return endedBy === "concede" ? ` (${t("account.endedConcede")})` : endedBy === "forfeit" ? ` (${t("account.endedForfeit")})` : "";
}

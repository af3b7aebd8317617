// The name a newcomer sits down under. Someone who opens a friend's invite link for the
// first time is seated at once, and the match starts: without this they would play it
// under the name the server made up for them ("Player-5327") and never be asked. And
// the name shown as theirs: in the lobby's field and the top bar.

import { decode } from "@msgpack/msgpack";

import { $, toast } from "./dom.mjs";
import { describeFormat } from "./formats.mjs";
import { CATALOGUES, t } from "./i18n/index.mjs";
import { boundNameField, nameTaken, tidyName } from "./namerule.mjs";
import { session } from "./net.mjs";
import { app, onTv } from "./state.mjs";

/** @typedef {import("./state.mjs").Msg} Msg */

/** Kept once the visitor has been asked: nobody is asked twice. */
const ASKED_KEY = "ninepool.nameAsked";

/** "Player-" in a catalogue's words, as a made-up name begins. @param {string} playerN its `v.playerN` */
const madeUpPrefix = (playerN) => `${playerN.replace("{n}", "").trim()}-`.replace(/[^\p{L}\p{N}_.\-]/gu, "");

/** A name for a guest who has not chosen one: "Player-5327" in the reader's language. */
export function makeUpName() {
  return `${madeUpPrefix(t("v.playerN"))}${Math.floor(1000 + Math.random() * 9000)}`;
}

/** Whether a name is one made up so (in any language). @param {string} name */
export function madeUp(name) {
  return Object.values(CATALOGUES).some((c) => {
    const prefix = madeUpPrefix(String(c["v.playerN"]));
    return name.startsWith(prefix) && /^\d{4}$/.test(name.slice(prefix.length));
  });
}

function asked() {
  try {
    return localStorage.getItem(ASKED_KEY) === "1";
  } catch {
    return true;
  }
}

/** Whether `askNameOnce` would ask. @param {Record<string, any> | null} welcome */
export function needsName(welcome) {
  return !!welcome && !welcome.account && !asked() && madeUp(String(welcome.name));
}

/**
 * Who sent the invite — the one player at the table — and the table's format, from the
 * lobby's list or else (a private table) from the room's record read with the link's
 * code; nulls if that is not known within a moment (the question then says "a friend").
 * @param {string} room @param {string | null} code
 * @returns {Promise<{ inviter: string | null, settings: Record<string, any> | null }>}
 */
async function inviteOf(room, code) {
  /** @param {Msg} known */
  const of = (known) => ({
    inviter: Array.isArray(known.players) && known.players.length === 1 && known.computer?.[0] == null ? String(known.players[0]) : null,
    settings: known.settings ?? null,
  });
  const info = app.rooms.get(room);
  if (info) return of(info);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 2000);
  try {
    const res = await fetch(`/replay/${encodeURIComponent(room)}${code ? `?code=${encodeURIComponent(code)}` : ""}`, { signal: abort.signal });
    if (!res.ok) return { inviter: null, settings: null };
    return of(/** @type {Msg} */ (decode(new Uint8Array(await res.arrayBuffer()))));
  } catch {
    return { inviter: null, settings: null };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Before an invite link seats a first-time visitor (playing under a made-up name, no
 * account, never asked in this browser), asks for their name, offering the one the server gave them; the answer
 * goes to the lobby's name field, from which the seat is taken (`ensureName`), and is
 * kept so nobody is asked twice. Esc keeps the name given.
 * The question names who invited them, and what is played there, when that is known.
 * @param {Record<string, any> | null} welcome the connection's `welcome`
 * @param {string} room the table invited to @param {string | null} code its invite code (private)
 * @returns {Promise<void>}
 */
export async function askNameOnce(welcome, room, code) {
  if (!welcome || !needsName(welcome)) return;
  const { inviter, settings } = await inviteOf(room, code);
  $("name-dialog-text").textContent = inviter ? t("askname.from", { name: inviter }) : t("askname.text");
  // What is played there (the race, who breaks, the shot clock): the guest knew nothing of
  // a 20 s clock until it ran.
  const format = $("name-dialog-format");
  format.hidden = !settings;
  format.textContent = settings ? `${t("match.line", { race: settings.race_to })} · ${describeFormat(settings)}` : "";
  const dialog = /** @type {HTMLDialogElement} */ ($("name-dialog"));
  const input = /** @type {HTMLInputElement} */ ($("name-dialog-input"));
  input.value = welcome.name;
  boundNameField(input);
  // The browser's own word for a name too short comes in the browser's language; the
  // page's rule, in the page's.
  input.setCustomValidity("");
  input.oninput = () => input.setCustomValidity(nameTaken(tidyName(input.value), welcome.name) ? "" : t("account.nameRule"));
  dialog.returnValue = "";
  dialog.showModal();
  input.select();
  await new Promise((resolve) => dialog.addEventListener("close", resolve, { once: true }));
  const typed = tidyName(input.value);
  const name = dialog.returnValue === "sit" && nameTaken(typed, welcome.name) ? typed : welcome.name;
  /** @type {HTMLInputElement} */ ($("name")).value = name;
  session.setName(name);
  try {
    localStorage.setItem(ASKED_KEY, "1");
  } catch {
    /* not kept: asked again next time */
  }
}

/**
 * The lobby's name field says the name this connection plays under. An account plays
 * under the account's name whatever is typed (the server decides it at `hello`), so the
 * field shows that name and cannot be edited until the player logs out.
 * @param {Msg} w the `welcome`
 */
export function showOwnName(w) {
  const input = /** @type {HTMLInputElement} */ ($("name"));
  const help = $("name-help");
  const account = !!w.account;
  input.readOnly = account;
  if (account) input.value = String(w.name);
  help.setAttribute("data-i18n", account ? "lobby.nameAccount" : "lobby.nameHelp");
  help.textContent = t(account ? "lobby.nameAccount" : "lobby.nameHelp");
}

/**
 * The name in the top bar: playing or watching under the name the server said; in the
 * lobby a guest's name as typed (the server hears it when the guest sits down).
 */
export function showMe() {
  const w = app.welcome;
  if (!w) return;
  const typed = tidyName(/** @type {HTMLInputElement} */ ($("name")).value);
  const lobbyName = !w.account && nameTaken(typed, session.name()) ? typed : w.name;
  // The TV watches under no name of its viewer's: the channel is what is on screen.
  $("me").textContent = onTv() ? "" : app.room && app.role === "spectator" ? t("top.watchingAs", { name: w.name }) : app.room ? t("top.playingAs", { name: w.name }) : lobbyName;
  // Cut short ("…") where the bar is full: the whole of it on hover.
  $("me").title = $("me").textContent ?? "";
  $("me").hidden = onTv();
}

/**
 * Whether the lobby's name field may be sat down with: an account's name, the guest's
 * kept name, or a new one that follows the rule. If not, it says so and the lobby's
 * action (quick match, the computer, a table made or joined) is not taken: it used to go
 * ahead under another name while the field still showed the refused one.
 */
export function lobbyNameReady() {
  if (app.welcome?.account) return true;
  const input = /** @type {HTMLInputElement} */ ($("name"));
  if (nameTaken(tidyName(input.value), session.name())) return true;
  toast(t("account.nameRule"));
  input.focus();
  return false;
}

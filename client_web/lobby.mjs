// The lobby's live parts: the room list and the quick-match state. The buttons carry
// `data-join` and their row `data-room`; `app.mjs` handles the clicks.

import { $, h } from "./dom.mjs";
import { num, t } from "./i18n/index.mjs";
import { app } from "./state.mjs";

/** @typedef {import("./state.mjs").Msg} Msg */

/**
 * A lobby entry's players, each a computer said to be one (never passed off as a person).
 * @param {Msg} r
 */
function playerNames(r) {
  return r.players.map((/** @type {string} */ name, /** @type {number} */ i) => (r.computer?.[i] != null ? t("rooms.computerName", { name }) : name));
}

/**
 * A table's name as listed: a table with a computer has none of its own, and is named by
 * who plays at it (an exhibition of two computers, or a person against the computer).
 * @param {Msg} r
 */
function tableName(r) {
  const computers = (r.computer ?? []).filter((/** @type {number | null} */ level) => level != null).length;
  if (r.name || !computers) return r.name || r.room;
  return t(computers === 2 ? "rooms.exhibition" : "rooms.againstComputer");
}

export function renderRooms() {
  const body = $("rooms");
  body.replaceChildren();
  const rooms = [...app.rooms.values()].sort((a, b) => (a.status === "waiting" ? -1 : 1) - (b.status === "waiting" ? -1 : 1));
  for (const r of rooms) {
    const actions = h("td");
    const name = tableName(r);
    const players = playerNames(r);
    if (r.players.length < 2 && r.status === "waiting") {
      actions.append(h("button", { type: "button", class: "primary", text: t("lobby.join"), "data-join": "player", "aria-label": t("rooms.joinLabel", { name }) }));
    }
    actions.append(h("button", { type: "button", text: t("lobby.watch"), "data-join": "spectator", "aria-label": t("rooms.watchLabel", { name }) }));
    if (r.status !== "waiting") {
      actions.append(h("a", { class: "button", href: `#/replay/${r.room}`, text: t("rooms.replay"), "aria-label": t("rooms.replayLabel", { name }) }));
    }
    body.append(
      h("tr", { "data-room": r.room }, [
        h("td", { text: name }),
        h("td", { text: players.length === 2 ? t("rooms.vs", { a: players[0], b: players[1] }) : players.join("") || "—" }),
        h("td", { text: t("rooms.scoreLine", { a: r.score[0], b: r.score[1], race: r.race_to }) }),
        h("td", {}, [h("span", { class: `status-pill status-${r.status}`, text: `${t(`status.${r.status}`)}${r.spectators ? ` · ${num(r.spectators)} 👁` : ""}` })]),
        actions,
      ]),
    );
  }
  $("rooms-empty").hidden = rooms.length > 0;
  $("room-count").textContent = rooms.length ? `(${num(rooms.length)})` : "";
}

export function renderQuick() {
  $("quick").textContent = t(app.quickWaiting ? "lobby.quickCancel" : "lobby.quick");
  $("quick-status").textContent = app.quickWaiting ? t("lobby.quickWaiting") : "";
  const offered = app.quickWaiting && app.computerOffer !== null;
  $("computer-offer").hidden = !offered;
  $("computer-offer-text").textContent = offered ? t("lobby.computerOffer", { level: app.computerOffer ?? 1 }) : "";
}

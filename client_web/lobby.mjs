// The lobby's live parts: the room list and the quick-match state. The buttons carry
// `data-join` and their row `data-room`; `app.mjs` handles the clicks.

import { $, h } from "./dom.mjs";
import { app } from "./state.mjs";

export function renderRooms() {
  const body = $("rooms");
  body.replaceChildren();
  const rooms = [...app.rooms.values()].sort((a, b) => (a.status === "waiting" ? -1 : 1) - (b.status === "waiting" ? -1 : 1));
  for (const r of rooms) {
    const actions = h("td");
    if (r.players.length < 2 && r.status === "waiting") {
      actions.append(h("button", { type: "button", class: "primary", text: "Join", "data-join": "player", "aria-label": `Join ${r.name || r.room}` }));
    }
    actions.append(h("button", { type: "button", text: "Watch", "data-join": "spectator", "aria-label": `Watch ${r.name || r.room}` }));
    if (r.status !== "waiting") {
      actions.append(h("a", { class: "button", href: `#/replay/${r.room}`, text: "Replay", "aria-label": `Replay ${r.name || r.room}` }));
    }
    body.append(
      h("tr", { "data-room": r.room }, [
        h("td", { text: r.name || r.room }),
        h("td", { text: r.players.join(" vs ") || "—" }),
        h("td", { text: `${r.score[0]}–${r.score[1]} (race to ${r.race_to})` }),
        h("td", {}, [h("span", { class: `status-pill status-${r.status}`, text: `${r.status}${r.spectators ? ` · ${r.spectators} 👁` : ""}` })]),
        actions,
      ]),
    );
  }
  $("rooms-empty").hidden = rooms.length > 0;
  $("room-count").textContent = rooms.length ? `(${rooms.length})` : "";
}

export function renderQuick() {
  $("quick").textContent = app.quickWaiting ? "Cancel search" : "Quick match";
  $("quick-status").textContent = app.quickWaiting ? "Looking for an opponent…" : "";
}

// Where the page's address leads: the hash routes of the game's page. Apart from the
// page so that what an address means is read in one place.

/** Kept for the tab (a reload keeps it, a new tab has none): this tab has said hello. */
export const CONNECTED_TAB = "ninepool.connected";

/**
 * `#/room/<id>` a table (a seat if one is free and the match has not begun, else a
 * spectator's place), `#/play/<id>[/<code>][/<invite>]` an invite (a seat if any is free;
 * the seat invite lets a spectator sit), `#/replay/<id>` a whole match,
 * `#/replay/<id>/[<match>/](<rack>|all)[/<code>]` one rack or match of it (the page `/replay/<id>/<rack>` leads
 * here), `#/tv` the channel that follows the best live table; anything else the lobby.
 * @returns {{ kind: string, id: string, code: string | null, invite: string | null, rack: number | null, match?: number }}
 */
export function parseHash() {
  if (/^#\/tv\/?$/.test(location.hash)) return { kind: "tv", id: "", code: null, invite: null, rack: null };
  const rack = location.hash.match(/^#\/replay\/([A-Za-z0-9_-]{1,32})\/(?:([1-9][0-9]{0,3})\/)?([1-9][0-9]{0,2}|all)(?:\/([A-Z0-9]{4,32}))?$/);
  if (rack) return { kind: "replay", id: rack[1], code: rack[4] ?? null, invite: null, rack: rack[3] === "all" ? null : Number(rack[3]), match: Number(rack[2] ?? 1) };
  const m = location.hash.match(/^#\/(room|replay|play)\/([A-Za-z0-9_-]{1,32})(?:\/([A-Z0-9]{4,32}))?(?:\/([a-z0-9]{1,64}))?$/);
  return m ? { kind: m[1], id: m[2], code: m[3] ?? null, invite: m[4] ?? null, rack: null } : { kind: "lobby", id: "", code: null, invite: null, rack: null };
}

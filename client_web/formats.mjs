// Match formats: the presets the create dialog offers, which one a room's settings are,
// the format in a few words for the lobby and the table, and a tournament table's name
// with its stage in the reader's language. The server keeps no presets:
// a preset is only a way to fill in the settings, so any room can be named from its own.

import { t } from "./i18n/index.mjs";

/**
 * A room's time to play the lag and then its winner's to choose who breaks (s), as the
 * server counts them (O6, `server/rooms/model.py`): the first shot's clock and the shot
 * clock; without a shot clock the lag is untimed (null) and the choice has 30 s.
 * @param {Record<string, any> | null | undefined} s the room's settings
 * @returns {{ lag: number | null, choice: number }}
 */
export function lagTimes(s) {
  const clock = s?.shot_clock ?? null;
  return { lag: clock === null ? null : Number(s?.first_shot_clock ?? clock), choice: clock === null ? 30 : Number(clock) };
}

/** The shot clocks a table may be given, in seconds a shot, besides none: what the lobby's
 * create dialog offers (`index.html`, `#c-clock`) and the organiser's form of a
 * tournament offers for its tables, in the same words. */
export const SHOT_CLOCKS = [20, 30, 45, 60];

/** The options a preset sets (the race, break order and the rest stay as chosen). */
export const PRESETS = {
  casual: { shot_clock: null, first_shot_clock: null, extensions: 1, extension_seconds: null, clock_warning: 10, aim_aid: "full" },
  // The professional format: 30 s a shot, 60 s after the break or a push-out, one 30 s
  // extension per player per rack, and no aim aid.
  pro: { shot_clock: 30, first_shot_clock: 60, extensions: 1, extension_seconds: 30, clock_warning: 10, aim_aid: "none" },
};

/**
 * Which preset `s` (a room's settings) is: "casual", "pro" or "custom".
 * @param {Record<string, any>} s @returns {"casual" | "pro" | "custom"}
 */
export function presetOf(s) {
  const clock = s.shot_clock ?? null;
  const aid = s.aim_aid ?? "full";
  if (clock === null && aid === "full") return "casual";
  const pro = PRESETS.pro;
  const ext = s.extension_seconds ?? clock;
  if (clock === pro.shot_clock && (s.first_shot_clock ?? clock) === pro.first_shot_clock && s.extensions === pro.extensions && ext === pro.extension_seconds && (s.clock_warning ?? 10) === pro.clock_warning && aid === pro.aim_aid) return "pro";
  return "custom";
}

/**
 * The shot clock in words: "off", or "30 s a shot, 60 s after the break or a push-out, 1 extension of 30 s".
 * @param {Record<string, any>} s
 */
export function describeClock(s) {
  if (s.shot_clock == null) return t("format.noClock");
  const parts = [t("format.clock", { s: s.shot_clock })];
  if (s.first_shot_clock != null && s.first_shot_clock !== s.shot_clock) parts.push(t("format.first", { s: s.first_shot_clock }));
  if (s.extensions > 0) parts.push(t("format.extensions", { n: s.extensions, s: s.extension_seconds ?? s.shot_clock }));
  return parts.join(", ");
}

/**
 * The shot clock of a tournament's tables in words: each is made as a table of the lobby
 * with that clock is (one extension a rack, as long as a shot), so it is said as the
 * table says it. @param {number | null} clock seconds a shot, or null for none
 */
export function tournamentClock(clock) {
  return clock === null ? t("tour.noClock") : describeClock({ shot_clock: clock, extensions: 1 });
}

/**
 * The whole format in one line: the preset's name, who breaks, the clock, the aim aid.
 * A format no preset names leads with its details: "Custom" would tell the players of a
 * quick match, who chose nothing, that someone did.
 * @param {Record<string, any>} s
 */
export function describeFormat(s) {
  const preset = presetOf(s);
  const parts = [t(`format.break.${s.break_order ?? "winner"}`), describeClock(s), t(`aid.${s.aim_aid ?? "full"}`)];
  // A tournament's table is named by its tournament and stage: "Casual" read as a friendly.
  return (preset === "custom" || s.tournament ? parts : [t(`preset.${preset}`), ...parts]).join(" · ");
}

/** The names the server gives the tables it opens for a quick match, and their keys. */
export const RATED_QUICK_NAME = "Rated quick match";
const QUICK_NAMES = new Map([
  ["Quick match", "rooms.quick"],
  [RATED_QUICK_NAME, "rooms.quickRated"],
]);

/**
 * A room's name as a reader sees it. A tournament's table is named by the server "<the
 * tournament> · <stage>", the stage a language-free code (`R2`, `W2`, `L3`, `F`, `GF1`,
 * `GF2`: `server/tournament/bracket.py`, `stage_label`), worded here as the bracket page
 * names it (a double elimination's rounds with their side); any other name is shown
 * as it is.
 * @param {string} name @param {Record<string, any> | null | undefined} settings
 */
export function roomName(name, settings) {
  // The server names the quick match's tables in English: said in the reader's language.
  const quick = QUICK_NAMES.get(name);
  if (quick) return t(quick);
  const m = settings?.tournament ? name.match(/^(.*) · (R\d+|W\d+|L\d+|F|GF1|GF2)$/) : null;
  if (!m) return name;
  const [, tournament, code] = m;
  return `${tournament} · ${stageWords(code)}`;
}

/**
 * A tournament stage's code (`server/tournament/bracket.py`, `stage_label`) in the reader's
 * words: a table's name and the bracket page's "your next match" say it alike.
 * @param {string} code `R2`, `W2`, `L3`, `F`, `GF1` or `GF2`
 */
export function stageWords(code) {
  const n = Number(code.slice(1));
  /** The stage's words by its code's letter (`F`, `GF1` and `GF2` whole). */
  const words = {
    F: () => t("tour.finalRound"),
    GF1: () => t("tour.gf1"),
    GF2: () => t("tour.gf2"),
    R: () => t("tour.round", { n }),
    W: () => t("tour.stage.winners", { n }),
    L: () => t("tour.stage.losers", { n }),
  };
  return (words[/** @type {keyof typeof words} */ (code)] ?? words[/** @type {"R" | "W" | "L"} */ (code[0])])();
}

/**
 * A table's name as the lobby shows it: its own; a table with a computer is named by who
 * plays at it (an exhibition of two computers, or a person against the computer); else
 * its host's ("Ana's table"), never the bare room id.
 * @param {Record<string, any>} r
 */
export function tableName(r) {
  if (r.name) return roomName(r.name, r.settings);
  const computers = (r.computer ?? []).filter((/** @type {number | null} */ level) => level != null).length;
  if (computers) return t(computers === 2 ? "rooms.exhibition" : "rooms.againstComputer");
  const host = r.players?.[0];
  return host ? t("rooms.tableOf", { name: host }) : t("rooms.tableOpen");
}

/**
 * Whether the game being played decides the match: each player a game from the race
 * (the table's header and the stream strip say so).
 * @param {number} race @param {readonly number[]} score @param {boolean} over the match is over
 */
export function isDecider(race, score, over) {
  return !over && race > 1 && score.length === 2 && score.every((s) => Number(s) === race - 1);
}

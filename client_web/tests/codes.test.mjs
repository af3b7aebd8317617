// The server's codes in the reader's language: verdict notes by `note_codes` (not the
// English sentence), a lag played again with its reason, and unnamed tables in the lobby.
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLanguage, t } from "../i18n/index.mjs";
import { tableName } from "../formats.mjs";
import { describeLag, describeRuling } from "../verdict.mjs";
import { lagPlayback, lagRest } from "../lagballs.mjs";

const names = ["Ana", "Bob"];

test("a note is worded from its code, whatever the sentence beside it says", () => {
  for (const lang of ["en", "hr", "ru"]) {
    setLanguage(lang, false);
    const ruling = {
      by: 0,
      action: "choose_shoot",
      verdict: { foul: false, fouls: [], reasons: [], notes: [["R6", "(a sentence this client has never seen)"]], note_codes: ["R6.shoot"], spotted: [] },
      table: { turn: 1, ball_in_hand: null, choice_pending: false, breaker: 0 },
    };
    const d = describeRuling(ruling, names);
    const text = [d.headline, ...d.details.map((l) => l.text)].join(" | ");
    assert.ok(text.includes(t("note.R6.shoot")), `${lang}: ${text}`);
    assert.ok(!text.includes("never seen"), `${lang}: ${text}`);
  }
  setLanguage("en", false);
});

test("a lag tie says why it is played again, in each language", () => {
  const lag = (reason, d0, d1) => ({
    method: "lag",
    winner: null,
    reason,
    lags: [
      { seat: 0, distance: d0, fault: "", fault_code: d0 === null ? "short" : "" },
      { seat: 1, distance: d1, fault: "", fault_code: d1 === null ? "off_table" : "" },
    ],
  });
  for (const lang of ["en", "hr", "ru"]) {
    setLanguage(lang, false);
    assert.equal(describeLag(lag("tie", 0.568, 0.568), names).headline, t("lag.tie"));
    const both = describeLag(lag("both_faults", null, null), names);
    assert.equal(both.headline, t("lag.bothFaults"));
    assert.deepEqual(
      both.details.map((l) => l.text),
      [t("lag.fault.rail", { name: "Ana" }), t("lag.fault.off", { name: "Bob" })],
    );
    assert.notEqual(t("lag.tie"), "lag.tie");
  }
  setLanguage("en", false);
  assert.match(describeLag(lag("tie", 0.5, 0.5), names).headline, /tenth of a millimetre/);
});

test("a lag not played in time is named so, and its ball is not drawn", () => {
  const late = { seat: 1, traj: new Uint8Array(0), duration: 0, final: [0.535, 0.9525], distance: null, fault: "", fault_code: "late" };
  for (const lang of ["en", "hr", "ru"]) {
    setLanguage(lang, false);
    const lost = describeLag({ method: "lag", winner: 0, reason: "fault", lags: [{ seat: 0, distance: 0.12, fault: "", fault_code: "" }, late] }, names);
    assert.equal(lost.headline, t("lag.wins", { name: "Ana" }));
    assert.equal(lost.details[1].text, t("lag.fault.late", { name: "Bob" }));
    assert.notEqual(t("lag.fault.late", { name: "Bob" }), t("lag.fault.other", { name: "Bob" }));
    // Neither played: the room drew, and says why it was not lagged for.
    const drawn = describeLag({ method: "draw", winner: 1, reason: "late", lags: [] }, names);
    assert.equal(drawn.headline, t("lag.drawLate", { name: "Bob" }));
    assert.notEqual(drawn.headline, t("lag.draw", { name: "Bob" }));
  }
  setLanguage("en", false);
  const still = lagPlayback(late);
  assert.deepEqual(still.frame(0), []);
  assert.ok(still.done(0));
  // Where the lags stopped: only the ball played.
  const played = { seat: 0, traj: new Uint8Array(0), duration: 0, final: [0.3, 0.3175], distance: 0.3, fault: "", fault_code: "" };
  assert.deepEqual(lagRest({ lags: [played, late] }), [{ seat: 0, pos: [0.3, 0.3175] }]);
});

test("an unnamed table is its host's, never its id", () => {
  setLanguage("en", false);
  assert.equal(tableName({ name: "", players: ["Ana"] }), "Ana's table");
  assert.equal(tableName({ name: "Friday", players: ["Ana"] }), "Friday");
  assert.equal(tableName({ name: "", players: [] }), "Open table");
  setLanguage("hr", false);
  assert.equal(tableName({ name: "", players: ["Ana"] }), "Stol igrača Ana");
  setLanguage("ru", false);
  assert.equal(tableName({ name: "", players: ["Ana"] }), "Стол игрока Ana");
  setLanguage("en", false);
});

// The match-format presets: which preset a room's settings are, and the format in words.

import assert from "node:assert/strict";
import { test } from "node:test";

import { PRESETS, describeClock, describeFormat, presetOf, roomName } from "../formats.mjs";
import { setLanguage } from "../i18n/index.mjs";

test("a preset's own values are that preset; anything else is custom", () => {
  assert.equal(presetOf({ race_to: 5, ...PRESETS.casual }), "casual");
  assert.equal(presetOf({ race_to: 9, ...PRESETS.pro }), "pro");
  // The extension's seconds left unset are the shot clock's: still the pro format.
  assert.equal(presetOf({ ...PRESETS.pro, extension_seconds: null }), "pro");
  assert.equal(presetOf({ ...PRESETS.pro, first_shot_clock: 90 }), "custom");
  assert.equal(presetOf({ ...PRESETS.pro, aim_aid: "ghost" }), "custom");
  assert.equal(presetOf({ ...PRESETS.casual, aim_aid: "none" }), "custom");
  // What older servers send: no aim aid, no first-shot clock.
  assert.equal(presetOf({ race_to: 3, shot_clock: null, extensions: 1 }), "casual");
});

test("the format in words names the preset, the break order, the clock and the aim aid", () => {
  setLanguage("en");
  const pro = { race_to: 9, break_order: "alternate", ...PRESETS.pro };
  assert.equal(describeClock(pro), "30 s a shot, 60 s after the break or a push-out, 1 extension of 30 s per rack");
  assert.equal(describeFormat(pro), `Pro · players break in turn · ${describeClock(pro)} · no aim aid`);
  assert.equal(describeFormat({ break_order: "winner", ...PRESETS.casual }), "Casual · winner breaks · no shot clock · full aim preview");
  setLanguage("ru");
  assert.match(describeFormat(pro), /^Профессиональный · разбивают по очереди · 30 с на удар/);
  setLanguage("hr");
  assert.match(describeFormat({ ...pro, aim_aid: "ghost" }), /samo zamišljena kugla$/);
  // A format no preset names (a quick match's) is not called "custom": its details lead.
  setLanguage("ru");
  const quick = { break_order: "winner", ...PRESETS.pro, aim_aid: "full" };
  assert.equal(presetOf(quick), "custom");
  assert.match(describeFormat(quick), /^разбивает победитель · 30 с на удар/);
  setLanguage("en");
});

test("a tournament table's stage is worded; other names stay as they are", () => {
  const cup = { tournament: "abc123" };
  assert.equal(roomName("Kup Zagreba · R2", cup), "Kup Zagreba · Round 2");
  // The quick match's tables, named by the server in English, in the reader's language.
  assert.equal(roomName("Rated quick match", {}), "Rated quick match");
  assert.equal(roomName("constructor", {}), "constructor");
  setLanguage("hr");
  assert.equal(roomName("Quick match", {}), "Brza igra");
  setLanguage("ru");
  assert.equal(roomName("Rated quick match", {}), "Быстрая игра на рейтинг");
  setLanguage("en");
  assert.equal(roomName("Kup Zagreba · L3", cup), "Kup Zagreba · Losers' bracket, round 3");
  // A double elimination's winners' round is named with its side, as the bracket page does.
  assert.equal(roomName("Kup Zagreba · W1", cup), "Kup Zagreba · Winners' bracket, round 1");
  setLanguage("hr");
  assert.equal(roomName("Kup Zagreba · W1", cup), "Kup Zagreba · Pobjednička grana, 1. kolo");
  assert.equal(roomName("Kup Zagreba · R1", cup), "Kup Zagreba · 1. kolo");
  setLanguage("ru");
  assert.equal(roomName("Kup Zagreba · W2", cup), "Kup Zagreba · Верхняя сетка, 2\u2011й раунд");
  setLanguage("en");
  assert.equal(roomName("Kup Zagreba · F", cup), "Kup Zagreba · Final");
  assert.equal(roomName("Kup Zagreba · GF1", cup), "Kup Zagreba · Grand final");
  assert.equal(roomName("Kup Zagreba · GF2", cup), "Kup Zagreba · Grand final, deciding match");
  // Not a tournament's room, or no stage code: the name as it was given.
  assert.equal(roomName("Ana · R2", {}), "Ana · R2");
  assert.equal(roomName("Kup · Rx", cup), "Kup · Rx");
  assert.equal(roomName("Petak", cup), "Petak");
});

test("a tournament's table is not called casual or pro: its name says what it is", () => {
  setLanguage("en");
  const settings = { race_to: 3, break_order: "winner", ...PRESETS.casual };
  assert.ok(describeFormat(settings).startsWith("Casual · "));
  assert.equal(describeFormat({ ...settings, tournament: "t1" }), "winner breaks · no shot clock · full aim preview");
});

// The create-table dialog: the settings it describes, the format presets (a preset fills
// in the shot clock and the aim aid; changing one of them by hand makes the format
// "custom", unless the values are a preset's again), and the format in words under it.

import { $, toast } from "./dom.mjs";
import { PRESETS, describeFormat, presetOf } from "./formats.mjs";
import { num, t } from "./i18n/index.mjs";

/** The value of a form field. @param {string} id */
function val(id) {
  return /** @type {HTMLInputElement} */ ($(id)).value;
}

/** A field's number, or null when it is empty ("off", "as any shot"). @param {string} id */
function numberOrNull(id) {
  const v = val(id);
  return v === "" ? null : Number(v);
}

/** The settings the dialog describes now (the protocol's `RoomSettings`). */
export function createSettings() {
  const clock = numberOrNull("c-clock");
  return {
    name: val("c-name").trim(),
    race_to: Number(val("c-race")),
    break_order: val("c-break"),
    shot_clock: clock,
    // Without a clock these mean nothing, and the server refuses them alone.
    first_shot_clock: clock === null ? null : numberOrNull("c-first-clock"),
    extensions: Number(val("c-ext")),
    extension_seconds: clock === null ? null : numberOrNull("c-ext-seconds"),
    clock_warning: Number(val("c-warning")),
    aim_aid: val("c-aid"),
    first_break: val("c-first"),
    private: /** @type {HTMLInputElement} */ ($("c-private")).checked,
    forfeit: val("c-forfeit"),
    stalemate_innings: Number(val("c-stale")),
    rated: /** @type {HTMLInputElement} */ ($("c-rated")).checked,
  };
}

/** Puts a preset's values in the dialog. @param {Record<string, any>} f */
function fillFormat(f) {
  const set = (/** @type {string} */ id, /** @type {unknown} */ v) => {
    /** @type {HTMLInputElement} */ ($(id)).value = v == null ? "" : String(v);
  };
  set("c-clock", f.shot_clock);
  set("c-first-clock", f.first_shot_clock);
  set("c-ext", f.extensions);
  set("c-ext-seconds", f.extension_seconds);
  set("c-warning", f.clock_warning);
  set("c-aid", f.aim_aid);
}

/** The chosen format in words, under the preset. */
function renderPresetHelp() {
  $("c-preset-help").textContent = describeFormat(createSettings());
}

/**
 * Wires the dialog; `create` sends the settings when it is submitted.
 * @param {(settings: Record<string, any>) => unknown} create
 */
export function wireCreateForm(create) {
  $("c-preset").addEventListener("change", () => {
    const preset = val("c-preset");
    if (preset === "casual" || preset === "pro") fillFormat(PRESETS[preset]);
    renderPresetHelp();
  });
  for (const el of document.querySelectorAll(".format-option")) {
    el.addEventListener("change", () => {
      /** @type {HTMLSelectElement} */ ($("c-preset")).value = presetOf(createSettings());
      renderPresetHelp();
    });
  }
  // The words follow every setting they name (who breaks next, the race…), not only the
  // format's own.
  $("create-form").addEventListener("change", renderPresetHelp);
  $("create-form").addEventListener("input", renderPresetHelp);
  $("create-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const settings = createSettings();
    // The server refuses it too; saying so here keeps the dialog open to fix it.
    if (settings.first_shot_clock !== null && settings.shot_clock !== null && settings.first_shot_clock < settings.shot_clock) {
      /** @type {HTMLDetailsElement} */ ($("create-form").querySelector("details.advanced")).open = true;
      toast(t("create.firstTooShort"));
      return;
    }
    create(settings);
  });
  /** @type {HTMLSelectElement} */ ($("c-preset")).value = presetOf(createSettings());
}

/** The dialog worded again in the language just chosen. */
export function rewordCreateForm() {
  for (const id of ["c-clock", "c-first-clock", "c-ext-seconds"]) {
    for (const opt of /** @type {HTMLSelectElement} */ ($(id)).options) {
      if (opt.value) opt.textContent = t("unit.seconds", { s: num(Number(opt.value), 0) });
    }
  }
  renderPresetHelp();
}

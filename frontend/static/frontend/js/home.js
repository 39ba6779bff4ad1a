// The home page: choose a game, its player count, set and options, and create the room. The
// games and their options come from their one declaration in games/ (frontend/rules_data.py).

import { createRoom } from "./api.js";
import { formatNumber, gettext, interpolate, ngettext } from "./i18n.js";
import { profile, saveProfile, saveRoomSeat } from "./store.js";
import { optionField } from "./options.js";
import { GRACE_CHOICES, GRACE_DEFAULT, TURN_CHOICES, decode, fillDuration } from "./timing.js";

const games = JSON.parse(document.getElementById("games-data").textContent);
const setNames = JSON.parse(document.getElementById("set-names").textContent);
const form = document.getElementById("create");
const players = document.getElementById("players");
const setSelect = document.getElementById("set");
const list = document.getElementById("option-list");
const error = document.getElementById("create-error");
const me = profile();

const current = () => games.find((g) => g.name === form.elements.game.value);

function fillSelect(select, values, label, chosen) {
  select.replaceChildren(
    ...values.map((v) => {
      const o = new Option(label(v), String(v));
      o.selected = String(v) === String(chosen);
      return o;
    }),
  );
}

function render() {
  const g = current();
  const chosen = g.players.includes(me.prefs.players) ? me.prefs.players : g.players[0];
  fillSelect(players, g.players, (n) => interpolate(ngettext("%(count)s player", "%(count)s players", n), { count: formatNumber(n) }), chosen);
  renderSets();
  renderOptions();
}

/** Only the sets that seat this many players; the game's own set when it does, else the first. */
function renderSets() {
  const g = current();
  const n = Number(players.value);
  const fits = g.sets.filter((s) => (g.set_players[s] || []).includes(n));
  const kept = Number(setSelect.value);
  const chosen = setSelect.dataset.game === g.name && fits.includes(kept) ? kept
    : fits.includes(g.default_set) ? g.default_set : fits[0];
  setSelect.dataset.game = g.name;
  const tiles = (s) => ((s + 1) * (s + 2)) / 2;
  // Translators: a domino set in the list of sets, e.g. "Double-six (28 tiles)".
  const setLabel = (s) => interpolate(ngettext("%(set)s (%(count)s tile)", "%(set)s (%(count)s tiles)", tiles(s)),
    { set: setNames[s], count: formatNumber(tiles(s)) });
  fillSelect(setSelect, fits, setLabel, chosen);
  document.getElementById("set-field").hidden = fits.length < 2;
}

/**
 * Only the options that apply to this game at this player count. A value already chosen for
 * this game stays when the player count changes; another game starts from its own defaults.
 */
function renderOptions() {
  const g = current();
  const n = Number(players.value);
  const sameGame = list.dataset.game === g.name;
  list.dataset.game = g.name;
  const before = new Map(sameGame ? [...list.querySelectorAll("[data-option]")].map((f) => [f.dataset.option, f.value]) : []);
  list.replaceChildren(...g.options.filter((o) => !o.players || o.players.includes(n)).map(optionField));
  for (const field of list.querySelectorAll("[data-option]")) {
    const value = before.get(field.dataset.option);
    if (value !== undefined && (field.tagName !== "SELECT" || [...field.options].some((o) => o.value === value))) {
      field.value = value;
    }
  }
  showRefinements();
}

/** Hide (and leave out) an option that refines another while that one is off. */
function showRefinements() {
  for (const field of list.querySelectorAll("[data-requires]")) {
    const on = list.querySelector(`[data-option="${field.dataset.requires}"]`)?.value === "true";
    field.disabled = !on;
    field.closest(".option").hidden = !on;
  }
}

function collectOptions() {
  const g = current();
  const options = {};
  if (g.sets.length > 1 && Number(setSelect.value) !== g.default_set) options.set = Number(setSelect.value);
  for (const field of list.querySelectorAll("[data-option]")) {
    const opt = g.options.find((o) => o.name === field.dataset.option);
    if (field.disabled) continue;
    if (opt.kind === "integer") {
      // An integer as typed; the server says what is out of range, naming the option.
      if (field.value.trim() !== "") options[opt.name] = Number(field.value);
    } else {
      const value = JSON.parse(field.value);
      if (value !== opt.default) options[opt.name] = value;
    }
  }
  return options;
}

form.elements.name.value = me.name || "";
if (me.prefs.game && games.some((g) => g.name === me.prefs.game)) form.elements.game.value = me.prefs.game;
form.addEventListener("change", (e) => {
  if (e.target.dataset?.option) showRefinements();
  if (e.target.name === "game") render();
  else if (e.target === players) {
    renderSets();
    renderOptions();
  }
});
render();
fillDuration(document.getElementById("grace"), GRACE_CHOICES, me.prefs.grace_seconds, GRACE_DEFAULT);
fillDuration(document.getElementById("turn"), TURN_CHOICES, me.prefs.turn_seconds, null);

const stats = document.getElementById("stats");
if (me.stats.played) {
  stats.hidden = false;
  stats.textContent = interpolate(ngettext("You have played %(played)s match here and won %(won)s.",
    "You have played %(played)s matches here and won %(won)s.", me.stats.played),
  { played: formatNumber(me.stats.played), won: formatNumber(me.stats.won) });
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  error.hidden = true;
  const name = form.elements.name.value.trim();
  if (!name) {
    error.textContent = gettext("Type your name first: the other players see it at the table.");
    error.hidden = false;
    form.elements.name.focus();
    return;
  }
  const body = {
    game: current().name, players: Number(players.value), options: collectOptions(), name,
    grace_seconds: decode(form.elements.grace_seconds.value), turn_seconds: decode(form.elements.turn_seconds.value),
  };
  saveProfile({ name, prefs: { game: body.game, players: body.players, grace_seconds: body.grace_seconds,
    turn_seconds: body.turn_seconds } });
  const button = document.getElementById("create-button");
  button.disabled = true;
  try {
    const room = await createRoom(body);
    saveRoomSeat(room.code, { token: room.token, seat: room.seat, host: true });
    location.assign(room.link);
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
    button.disabled = false;
  }
});

// The room page: the lobby (link, QR, seats, AIs, start) and then the table of whatever game
// the room plays. Everything arrives over the room socket; actions go back with an id.

import { freeSeat, getRoom, moveSeat, rematch, setSeatAI, startMatch, takeSeat, updateRoom } from "./api.js";
import { RoomSocket } from "./socket.js";
import {
  chooseLanguage, forgetRoomSeat, localSeats, prefs, profile, recordMatch, roomHistory, roomSeat, savePrefs, saveLocalSeats,
  saveProfile, saveRoomHistory, saveRoomSeat,
} from "./store.js";
import { formatDateTime, formatNumber, gettext, interpolate, lang, ngettext, pgettext } from "./i18n.js";
import { TurnAlert, askNotifications, notificationState } from "./alerts.js";
import { lobbyStatus, renderLobbySeats, seatsHelp } from "./lobby.js";
import { setupShare } from "./share.js";
import { GRACE_CHOICES, GRACE_DEFAULT, TURN_CHOICES, decode, durationLabel, fillDuration } from "./timing.js";
import { tileSVG, tileName } from "./tiles.js";
import * as common from "./table/common.js";
import * as line from "./table/line.js";
import * as texas42 from "./table/texas42.js";
import * as trains from "./table/trains.js";
import * as ends from "./table/ends.js";
import * as chicken from "./table/chicken.js";
import * as fiveup from "./table/fiveup.js";

const { h, orWords, seatName, setHidden, sideName, topOf } = common;
const alert = new TurnAlert(document.title);
const TABLES = { block: line, draw: line, allfives: line, texas42, mexican_train: trains, chicken_foot: chicken, fiveup };
const games = JSON.parse(document.getElementById("games-data").textContent);
const setNames = JSON.parse(document.getElementById("set-names").textContent);
const allOptions = games.flatMap((g) => g.options);

// "Large tiles, high contrast" (a preference of this browser) applies before the first drawing.
document.documentElement.classList.toggle("large-tiles", !!prefs().large);

const app = document.getElementById("app");
const code = app.dataset.code;
const $ = (id) => document.getElementById(id);

const stored = roomSeat(code);
const ctx = {
  code,
  room: null,
  view: null,
  version: -1,
  seat: stored?.seat ?? null,
  token: stored?.token ?? null,
  isHost: false,
  history: roomHistory(code),
  chosen: null,
  /** The hint asked for (`asked`: its version) or given (`version`, `action`, `why`). */
  hint: null,
  socket: null,
  lastLogLength: 0,
  /** The seat the host tapped first, to swap with the next one tapped. */
  selected: null,
  /** The seat whose player the host is asked to confirm removing. */
  confirmRemove: null,
  focusKey: null,
  /** Set while this browser frees its own seat, so the server's "kicked" is expected. */
  leaving: false,
  gone: false,
  /** A word for this browser alone, shown before the lobby's status until its next request. */
  note: "",
  /** Pass-and-play: every seat this device holds, shown or not: seat -> {token, socket, last}. */
  held: new Map(),
  /** The device's first seat (where the page returns when a match ends). */
  primarySeat: stored?.seat ?? null,
  /** The room revision at which `seat` was last learnt (-1: not yet from the server). */
  seatRevision: -1,
  /** The local seat whose player said "it is me" for the turn under way. */
  confirmed: null,
  act,
  /** Draw the table again from scratch (after a resize; also what a first state costs). */
  redraw: () => redraw(),
};
window.dominoes = ctx; // for the console and for tests that want to read the state

/** The server's refusals are lower-case phrases ("seat 2 is taken: ..."): shown as a sentence. */
function showError(message) {
  const box = $("error");
  box.textContent = message ? message[0].toUpperCase() + message.slice(1) : "";
  box.hidden = !message;
}

function setConnection(text, ok) {
  const el = $("connection");
  el.textContent = text;
  el.className = `connection ${ok ? "ok" : "down"}`;
}

/** The room's code leads nowhere: say so once, stop the socket, show nothing else. */
function noSuchRoom() {
  ctx.gone = true;
  ctx.socket?.close();
  $("lobby").hidden = true;
  $("table").hidden = true;
  setConnection(gettext("No such room"), false);
  showError(gettext("There is no room at this link. Check the link you were sent, or start a new table from the home page."));
}

async function refreshRoom() {
  if (ctx.gone) return;
  try {
    const room = await getRoom(code, ctx.token);
    // An answer older than what last placed this browser (a request sent before a move,
    // answered after its `welcome`) must not put it back in the seat it left.
    const revision = room.revision ?? 0;
    if (ctx.token && typeof room.you === "number" && room.you !== ctx.seat && revision > ctx.seatRevision) {
      setSeat(room.you, revision);
    }
    acceptRoom(room);
  } catch (err) {
    if (err.status === 404) noSuchRoom();
    else if (!err.offline) showError(err.message);
  }
}

/** Take room info from the API or a `room` frame, unless a newer revision is already shown. */
function acceptRoom(room) {
  if (ctx.room && ctx.room.code === room.code && (room.revision ?? 0) < (ctx.room.revision ?? 0)) return;
  ctx.room = room;
  onRoom();
}

/** This browser's seat changed (the host moved it, or it moved itself): remember the new one,
 * and the room revision it was learnt at (`refreshRoom` ignores an older `you`). */
function setSeat(seat, revision = ctx.room?.revision ?? 0) {
  ctx.seatRevision = Math.max(ctx.seatRevision, revision);
  for (const [was, held] of ctx.held) {
    if (held.socket === ctx.socket && was !== seat) {
      ctx.held.delete(was);
      held.seat = seat;
      ctx.held.set(seat, held);
    }
  }
  if (ctx.primarySeat === ctx.seat) ctx.primarySeat = seat;
  ctx.seat = seat;
  ctx.selected = null;
  if (ctx.token && seat !== null) saveRoomSeat(code, { seat });
}

/** The seat is no longer this browser's: forget its token and watch, free to sit down again. */
function becomeVisitor(message) {
  forgetRoomSeat(code);
  ctx.token = null;
  ctx.seat = null;
  ctx.isHost = false;
  ctx.selected = null;
  ctx.confirmRemove = null;
  ctx.leaving = false;
  showError(message || "");
  connect();
  onRoom();
}

function lostSeat(message) {
  if (!ctx.token || ctx.leaving) return;
  becomeVisitor(message);
}

/** One change asked of the server; the `room` frame that follows redraws every screen. */
async function ask(request) {
  showError("");
  ctx.note = "";
  try {
    await request();
    refreshRoom();
    return true;
  } catch (err) {
    showError(err.message);
    refreshRoom();
    return false;
  }
}

const lobbyActions = {
  pick(seat) {
    const room = ctx.room;
    const first = ctx.selected;
    ctx.confirmRemove = null;
    if (first === null || first === seat || !room.seats[first]) {
      ctx.selected = first === seat ? null : seat;
      renderLobby();
      return;
    }
    const a = room.seats[first];
    const b = room.seats[seat];
    if (a.free && b.free) {
      ctx.selected = seat;
      renderLobby();
      return;
    }
    // The occupied seat moves to the other one: two occupied seats swap.
    const [from, to] = a.free ? [seat, first] : [first, seat];
    ctx.selected = null;
    renderLobby();
    ask(() => moveSeat(code, from, to, ctx.token));
  },
  setAI(seat, level) {
    ctx.selected = null;
    ask(() => setSeatAI(code, seat, level, ctx.token));
  },
  confirmRemove(seat) {
    ctx.focusKey = seat === null ? `remove-${ctx.confirmRemove}` : `remove-no-${seat}`;
    ctx.confirmRemove = seat;
    renderLobby();
  },
  remove(seat) {
    ctx.confirmRemove = null;
    ctx.selected = null;
    ctx.focusKey = `pick-${seat}`;
    ask(() => freeSeat(code, seat, ctx.token));
  },
  moveTo(seat) {
    ask(() => moveSeat(code, ctx.seat, seat, ctx.token));
  },
  async leave() {
    ctx.leaving = true;
    showError("");
    try {
      await freeSeat(code, ctx.seat, ctx.token);
    } catch (err) {
      ctx.leaving = false;
      showError(err.message);
      return;
    }
    ctx.note = gettext("You left your seat.");
    becomeVisitor();
    $("join-name").focus();
  },
  sit(seat) {
    join(seat);
  },
};

function renderLobby() {
  const role = renderLobbySeats(ctx, $("seats"), lobbyActions);
  const help = seatsHelp(role);
  $("seats-help").textContent = help;
  $("seats-help").hidden = !help;
  $("lobby-status").textContent = [ctx.note, lobbyStatus(ctx, role)].filter(Boolean).join(" ");
  return role;
}

function renderSettings() {
  const room = ctx.room;
  const panel = $("table-settings");
  panel.hidden = !(ctx.isHost && !room.playing);
  if (panel.hidden) return;
  const grace = $("grace-select");
  const turn = $("turn-select");
  if (document.activeElement !== grace) fillDuration(grace, GRACE_CHOICES, room.grace_seconds, GRACE_DEFAULT);
  if (document.activeElement !== turn) fillDuration(turn, TURN_CHOICES, room.turn_seconds ?? null, null);
}

function onRoom() {
  const room = ctx.room;
  if (!room || ctx.gone) return;
  const number = room.match?.number;
  if (number !== undefined && ctx.history.match !== number) {
    ctx.history = ctx.history.match === undefined ? { ...ctx.history, match: number }
      : { match: number, dealt: {}, hands: {} };
    saveRoomHistory(code, ctx.history);
  }
  ctx.isHost = ctx.seat !== null && ctx.seat === room.host_seat && !!ctx.token;
  if (!ctx.isHost) ctx.selected = null;
  if (ctx.selected !== null && !room.seats[ctx.selected]) ctx.selected = null;
  if (ctx.confirmRemove !== null && !room.seats[ctx.confirmRemove]?.human) ctx.confirmRemove = null;
  const g = games.find((x) => x.name === room.game);
  // Translators: the table's title, e.g. "Mexican Train, 4 players".
  const title = interpolate(ngettext("%(game)s, %(count)s player", "%(game)s, %(count)s players", room.players),
    { game: g ? g.title : room.game, count: formatNumber(room.players) });
  $("room-game").textContent = `· ${title}`;
  if ($("table-title").textContent !== title) {
    $("table-title").textContent = title;
    // Translators: the browser tab's title at the table, e.g. "Mexican Train, 4 players · Dominoes".
    alert.setBase(interpolate(gettext("%(title)s · Dominoes"), { title }));
    $("print-heading").textContent = interpolate(gettext("%(title)s · score sheet printed %(date)s · room %(code)s"),
      { title, date: formatDateTime(new Date(), { dateStyle: "long" }), code });
  }
  const role = renderLobby();
  const free = room.seats.filter((s) => s.free).length;
  $("join").hidden = role !== "visitor";
  $("full-room").hidden = !(ctx.token === null && role === "watcher");
  $("add-local").hidden = !(ctx.token && !room.playing && !room.started && free > 0);
  const startBtn = $("start");
  startBtn.hidden = !(ctx.isHost && !room.playing && !room.started);
  startBtn.disabled = free > 0;
  renderSettings();
  const opts = $("options-list");
  const resolved = room.resolved_options || room.options || {};
  // Only the rules this game has: the engine resolves some it ignores (Draw's round_to_five).
  const applies = ([k]) => k === "set" || !g || g.options.some((x) => x.name === k);
  opts.replaceChildren(...Object.entries(resolved).filter(applies).flatMap(([k, v]) => {
    // Translators: the set of tiles a room plays with (double-six, double-nine...).
    if (k === "set") return [h("dt", { text: pgettext("domino set", "Set") }), h("dd", { text: setNames[v] || String(v) })];
    const o = g?.options.find((x) => x.name === k) || allOptions.find((x) => x.name === k);
    const choice = o?.choices?.find((c) => c.value === v);
    // Translators: a room option left at the game's own default.
    const text = choice ? choice.label : v === null ? gettext("default") : typeof v === "boolean" ? (v ? gettext("yes") : gettext("no"))
      : typeof v === "number" ? formatNumber(v) : String(v);
    return [h("dt", { text: o ? o.label : k.replace(/_/g, " ") }), h("dd", { text })];
  }),
  h("dt", { text: gettext("An AI plays for a player whose phone dropped out after") }),
  h("dd", { text: durationLabel(room.grace_seconds ?? GRACE_DEFAULT) }),
  h("dt", { text: gettext("Turn timer") }), h("dd", { text: durationLabel(room.turn_seconds ?? null) }));
  if (ctx.view) {
    common.renderSeats(ctx, $("table-seats"));
    if (tableOf(ctx.view).showsPlayers !== false) common.renderPlayersBar(ctx, $("players-bar"));
    renderRematch();
  }
}

function act(action) {
  if (!ctx.socket) return;
  showError("");
  ctx.chosen = null;
  // A module may add to the action what its own controls chose (Five-Up's claim of the points).
  const table = ctx.view ? tableOf(ctx.view) : null;
  ctx.socket.act(table?.outgoing ? table.outgoing(ctx, action) : action);
  ctx.waiting = true;
  renderTable();
}

/** Remember what this browser was dealt (for the shuffle check) and each hand's points. */
function remember(view) {
  const hist = ctx.history;
  let changed = false;
  if (view.hand && ctx.seat !== null && hist.dealt[view.hand_number] === undefined) {
    const touched = (view.log || []).some((e) => e.seat === ctx.seat && (e.type === "play" || e.type === "draw"));
    if (!touched) {
      hist.dealt[view.hand_number] = view.hand;
      // Whose hand it was: on a device shared by several seats, the one shown at the deal.
      hist.dealtSeat = { ...(hist.dealtSeat || {}), [view.hand_number]: ctx.seat };
      changed = true;
    }
  }
  const last = view.last_hand;
  if (last && !hist.hands[last.number]) {
    hist.hands[last.number] = { number: last.number, points: common.handPoints(tableOf(view), view, last),
      label: last.engine ? `${last.engine[0]}-${last.engine[1]}` : `${last.number + 1}` };
    changed = true;
  }
  if (changed) saveRoomHistory(code, hist);
}

function tableOf(view) {
  return TABLES[view.game] || ends;
}

function onState(msg) {
  if (ctx.view?.match_over && !msg.view.match_over) {
    // Only a new match follows a finished one; its number comes with the next room frame.
    ctx.history = { dealt: {}, hands: {} };
    saveRoomHistory(code, ctx.history);
    // Everything of the new match is news, from its first move.
    Object.assign(ann, { hand: msg.view.hand_number, count: 0, over: null, matchOver: false });
  }
  const fresh = !ctx.view || ctx.view.hand_number !== msg.view.hand_number;
  ctx.view = msg.view;
  ctx.version = msg.version;
  ctx.waiting = false;
  if (msg.view.seat !== undefined && msg.view.seat !== null) ctx.seat = msg.view.seat;
  remember(msg.view);
  if (fresh) ctx.chosen = null;
  if (!document.body.classList.contains("at-table")) {
    $("lobby").hidden = true;
    $("table").hidden = false;
    document.body.classList.add("at-table");
    window.scrollTo(0, 0); // the lobby may have been scrolled: the table starts at the top
    measure();
  }
  if (document.body.dataset.game !== msg.view.game) document.body.dataset.game = msg.view.game;
  renderTable();
  if (msg.view.match_over && msg.view.result) {
    recordMatch(code, ctx.room?.match?.number ?? 0,
      ctx.seat !== null && (msg.view.result.winning_seats || []).includes(ctx.seat));
  }
}

/** The plays the hand and the ends offer; a module may offer fewer than the legal list holds
 * (Five-Up with muggins lists each play twice, with and without the claim of its points). */
function legalPlays() {
  const plays = (ctx.view.legal || []).filter((a) => a.type === "play");
  const table = tableOf(ctx.view);
  return table.offered ? table.offered(ctx, plays) : plays;
}

const same = (a, b) => a[0] === b[0] && a[1] === b[1];

function chooseTile(tile) {
  const plays = legalPlays().filter((a) => same(a.tile, tile));
  if (!plays.length) return;
  if (plays.length === 1) {
    act(plays[0]);
    return;
  }
  ctx.chosen = ctx.chosen && same(ctx.chosen, tile) ? null : tile;
  renderTable();
  if (ctx.chosen) document.querySelector("#end-choice button")?.focus();
}

/** Drop the chosen tile; the keyboard goes back to it in the hand. */
function cancelChoice() {
  const tile = ctx.chosen;
  ctx.chosen = null;
  renderTable();
  if (tile) handButton(tile)?.focus();
}

function handButton(tile) {
  return $("hand").querySelector(`.tile-button[data-tile="${tile[0]}-${tile[1]}"]`)
    || $("hand").querySelector(`.tile-button[data-tile="${tile[1]}-${tile[0]}"]`);
}

function targets() {
  if (!ctx.chosen) return [];
  return legalPlays().filter((a) => same(a.tile, ctx.chosen) && a.end).map((a) => a.end);
}

function playOn(end) {
  const a = legalPlays().find((x) => ctx.chosen && same(x.tile, ctx.chosen) && x.end === end);
  if (a) act(a);
}

function isMine() {
  const view = ctx.view;
  return !!view && ctx.seat !== null && view.to_move === ctx.seat && !view.match_over && (view.legal || []).length > 0
    && !handHidden();
}

/* Pass-and-play (docs/frontend.md, "Pass-and-play"): a device that holds several seats keeps a
   socket open for each (each seat stays connected), shows one seat's view at a time, and shows
   a hand only to the player who said it is them, on their own turn. */

function passAndPlay() {
  return ctx.token !== null && ctx.held.size > 1;
}

/** No local hand is on show: between turns, and until the player to move says it is them. */
function handHidden() {
  if (!passAndPlay() || !ctx.view) return false;
  const v = ctx.view;
  return !(ctx.confirmed === ctx.seat && v.to_move === ctx.seat && !v.match_over);
}

/** A player's own name, as the hand-off screen calls them (not "you": the device is shared). */
function localName(seat) {
  return ctx.room?.seats?.[seat]?.name || common.seatLabel(seat);
}

/** A socket for one of the device's seats. Every socket of the device stays open (each seat
 * stays connected); only the frames of the seat shown reach the page, the others' latest
 * state is kept for when their player takes the device. */
function seatSocket(token, seat) {
  const held = { token, seat, socket: null, last: null };
  const shown = () => ctx.socket === held.socket;
  const gate = (fn) => (...args) => (shown() ? fn(...args) : undefined);
  held.socket = new RoomSocket(code, token, {
    ...socketHandlers(gate),
    state: (msg) => {
      held.last = msg;
      if (shown()) onState(msg);
    },
    status: (state, ...rest) => {
      if (shown()) onStatus(state, ...rest);
      else if (state === "refused") dropLocal(held.seat);
    },
    kicked: () => (shown() ? lostSeat(HOST_FREED) : dropLocal(held.seat)),
  });
  return held;
}

/** Open the socket of another seat of this device. */
function openLocal(entry) {
  if (ctx.held.has(entry.seat) || entry.seat === ctx.seat) return;
  const held = seatSocket(entry.token, entry.seat);
  ctx.held.set(entry.seat, held);
  held.socket.connect();
}

/** One of the device's other seats is gone (freed by the host, or its token refused). */
function dropLocal(seat) {
  const held = ctx.held.get(seat);
  if (!held || held.socket === ctx.socket) return;
  held.socket.close();
  ctx.held.delete(seat);
  saveLocalSeats(code, localSeats(code).filter((s) => s.seat !== seat));
  if (ctx.view) renderTable();
}

/** Show `seat`'s view: the page follows that seat's socket; the others stay open. */
function showSeat(seat) {
  const held = ctx.held.get(seat);
  if (!held || held.socket === ctx.socket) return;
  ctx.token = held.token;
  ctx.seat = seat;
  ctx.socket = held.socket;
  ctx.chosen = null;
  ctx.hint = null;
  ctx.waiting = false;
  if (held.last) {
    ctx.view = held.last.view;
    ctx.version = held.last.version;
  }
  onRoom();
}

/** The hand-off screen: when a seat of this device is to move, until its player says it is them. */
function renderHandoff() {
  const v = ctx.view;
  const mover = passAndPlay() && v && !v.match_over ? v.to_move : null;
  const local = mover !== null && mover !== undefined && ctx.held.has(mover);
  if (ctx.confirmed !== null && ctx.confirmed !== mover) ctx.confirmed = null;
  if (v?.match_over && ctx.seat !== ctx.primarySeat && ctx.held.has(ctx.primarySeat)) showSeat(ctx.primarySeat);
  const show = local && ctx.confirmed !== mover;
  const box = $("handoff");
  if (box.hidden === !show && box.dataset.seat === String(mover)) return;
  box.hidden = !show;
  box.dataset.seat = String(mover);
  $("table").inert = show;
  if (!show) return;
  const name = localName(mover);
  // Translators: pass-and-play: hand the device to this player.
  $("handoff-title").textContent = interpolate(gettext("Pass to %(name)s"), { name });
  $("handoff-text").textContent = interpolate(
    gettext("It is %(name)s's turn. Hand the device to %(name)s; the tiles show when %(name)s is holding it."), { name });
  const button = $("handoff-show");
  button.textContent = interpolate(gettext("I'm %(name)s: show my tiles"), { name });
  button.onclick = () => {
    showSeat(mover);
    ctx.confirmed = mover;
    box.hidden = true;
    $("table").inert = false;
    ctx.turnFocused = false;
    renderTable();
  };
  button.focus();
}

function statusText() {
  const view = ctx.view;
  if (view.match_over) {
    const r = view.result || {};
    if (r.winner === null || r.winner === undefined) return gettext("The match is over: a tie.");
    const name = sideName(ctx, r.winner);
    return (view.teams?.[r.winner] || []).length > 1 ? interpolate(gettext("The match is over: %(names)s win."), { names: name })
      : r.winner === ctx.seat ? gettext("The match is over: you win.")
        : interpolate(gettext("The match is over: %(name)s wins."), { name });
  }
  if (ctx.seat !== null && view.to_move === ctx.seat) return tableOf(view).statusWhy(ctx);
  const s = ctx.room?.seats?.[view.to_move];
  const name = seatName(ctx, view.to_move);
  if (s?.ai) return interpolate(gettext("Waiting for %(name)s (AI) to play."), { name });
  if (s && s.human && s.connected === false) return interpolate(gettext("Waiting for %(name)s (away: an AI will stand in) to play."), { name });
  return interpolate(gettext("Waiting for %(name)s to play."), { name });
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** The status bar: whose turn and why, the "Your turn" banner, and the last move in one line. */
function renderStatus(table, last) {
  const mine = isMine();
  const bar = $("status-bar");
  bar.classList.toggle("mine", mine);
  setHidden($("turn-flag"), !mine);
  setText($("status-text"), statusText());
  const lastBox = $("last-move");
  if (lastBox.dataset.key !== last.spoken) {
    lastBox.dataset.key = last.spoken;
    lastBox.replaceChildren(...(last.text ? common.shownAndSaid(last.text, last.spoken) : []));
  }
  alert.update(mine, statusText(), `turn-${code}`);
}

/** The hand box is a list of tiles ("Your hand") only while it holds tiles; otherwise a line of text. */
function handMode(box, mode, text) {
  box.dataset.mode = mode;
  if (mode === "hand") {
    box.setAttribute("role", "list");
    box.setAttribute("aria-labelledby", "hand-title");
    box.replaceChildren();
  } else {
    box.removeAttribute("role");
    box.removeAttribute("aria-labelledby");
    box.replaceChildren(h("span", { class: "hint", text }));
  }
}

/**
 * The hand: one button per tile in a list item, kept from one state to the next and only
 * changed as needed. A tile's name starts with its spoken name ("six four"), then what it can
 * do (", playable", ", playable on the left end or the right end"). The hand is one tab stop
 * (a roving tabindex): the arrow keys, Home and End move between its tiles.
 */
function renderHand(table) {
  const view = ctx.view;
  const box = $("hand");
  if (view.hand && handHidden()) {
    // Pass-and-play: no tile of any hand on this device, on screen or for a screen reader.
    if (box.dataset.mode !== "passed") {
      handMode(box, "passed", gettext("The tiles show on the turn of a player of this device, once they say it is them."));
    }
    return;
  }
  if (!view.hand) {
    if (box.dataset.mode !== "watch") handMode(box, "watch", gettext("You are watching: spectators see no hands."));
    return;
  }
  if (box.dataset.mode !== "hand") {
    handMode(box, "hand");
    ctx.handButtons = new Map();
  }
  const top = topOf(view);
  const legal = legalPlays();
  // Grouped by suit as players hold them: highest number first, then the other end.
  const sorted = [...view.hand].sort((a, b) => Math.max(...b) - Math.max(...a) || Math.min(...b) - Math.min(...a));
  const buttons = ctx.handButtons;
  const keep = new Set();
  const order = sorted.map((tile) => {
    const key = `${tile[0]}-${tile[1]}`;
    keep.add(key);
    let b = buttons.get(key);
    if (!b || b.top !== top) {
      const svg = tileSVG([Math.max(...tile), Math.min(...tile)], { top, size: 88, vertical: true });
      svg.setAttribute("aria-hidden", "true");
      const node = h("button", { type: "button", class: "tile-button", "data-tile": key, tabindex: "-1", onclick: () => onTile(tile) }, svg);
      const item = h("div", { role: "listitem", class: "hand-tile" }, node);
      b = { node, item, top, state: "" };
      buttons.set(key, b);
    }
    const ok = legal.some((a) => same(a.tile, tile)) && !ctx.waiting;
    const chosen = !!ctx.chosen && same(ctx.chosen, tile);
    const tileEnds = legal.filter((a) => same(a.tile, tile)).map((a) => a.end).filter(Boolean);
    const mark = table.handMark?.(ctx, tile) || null;
    const sending = pendingTile(tile);
    const state = `${ok}|${chosen}|${tileEnds.join(",")}|${mark}|${sending}|${ctx.room?.revision}`;
    if (b.state !== state) {
      b.state = state;
      const n = b.node;
      n.className = `tile-button${ok ? " legal" : ""}${chosen ? " chosen" : ""}${mark ? ` ${mark}` : ""}${sending ? " pending" : ""}`;
      if (ok) n.removeAttribute("aria-disabled");
      else n.setAttribute("aria-disabled", "true");
      const markText = mark ? (table.markWord ? table.markWord(mark) : mark) : "";
      const words = [tileName(tile)];
      if (markText) words.push(markText);
      if (ok) {
        words.push(tileEnds.length > 1
          ? interpolate(gettext("playable on %(ends)s"), { ends: orWords(tileEnds.map((e) => common.endName(table, ctx, e))) })
          : gettext("playable"));
      }
      // Translators: a tile of the hand chosen to be played, waiting for the end to play it on.
      if (chosen) words.push(gettext("chosen"));
      if (sending) words.push(gettext("played: sending"));
      n.setAttribute("aria-label", words.join(", "));
      // The word under a chosen or sending tile (the style sheet shows it: a word, not a colour).
      // Translators: under a tile of the hand played while the connection was down.
      n.dataset.word = sending ? gettext("sending") : chosen ? gettext("chosen") : "";
      n.querySelector(".trump-mark")?.remove();
      if (mark) n.append(h("span", { class: "trump-mark", "aria-hidden": "true", text: markText }));
    }
    return b.item;
  });
  for (const [key, b] of buttons) {
    if (!keep.has(key)) {
      b.item.remove();
      buttons.delete(key);
    }
  }
  order.forEach((node, i) => {
    if (box.children[i] !== node) box.insertBefore(node, box.children[i] || null);
  });
  // One tab stop: the tile last focused while it is still held, else the first.
  const roving = buttons.get(ctx.handFocus) || buttons.get(sorted.length ? `${sorted[0][0]}-${sorted[0][1]}` : "");
  for (const b of buttons.values()) {
    const want = b === roving ? "0" : "-1";
    if (b.node.getAttribute("tabindex") !== want) b.node.setAttribute("tabindex", want);
  }
}

/** The hand's keys: arrows, Home and End move between its tiles (Enter and Space are the buttons' own). */
$("hand").addEventListener("keydown", (e) => {
  const tiles = [...$("hand").querySelectorAll(".tile-button")];
  const at = tiles.indexOf(document.activeElement);
  if (at < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
  const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: tiles.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  focusTile(tiles[Math.max(0, Math.min(tiles.length - 1, to))]);
});
$("hand").addEventListener("focusin", (e) => {
  const key = e.target.closest?.(".tile-button")?.dataset.tile;
  if (key && key !== ctx.handFocus) focusTile(e.target);
});

/** Make `button` the hand's tab stop and focus it. */
function focusTile(button) {
  if (!button) return;
  ctx.handFocus = button.dataset.tile;
  for (const b of $("hand").querySelectorAll(".tile-button")) b.setAttribute("tabindex", b === button ? "0" : "-1");
  if (document.activeElement !== button) button.focus();
}

/** The arrow keys move between the buttons of a group (the ends to play on, the bids, trumps). */
function arrowKeys(group) {
  group.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: "first", End: "last" }[e.key];
    if (!step) return;
    const scope = e.target.closest("[role=group]") || group;
    const buttons = [...scope.querySelectorAll("button:not([disabled])")];
    const at = buttons.indexOf(document.activeElement);
    if (at < 0) return;
    e.preventDefault();
    const to = step === "first" ? 0 : step === "last" ? buttons.length - 1 : (at + step + buttons.length) % buttons.length;
    buttons[to].focus();
  });
}
arrowKeys($("end-choice"));
arrowKeys($("actions"));

/** Is `tile` in an action this page sent that the server has not yet acknowledged? */
function pendingTile(tile) {
  return !!ctx.socket && ctx.socket.pendingActions().some((a) => a.tile && same(a.tile, tile));
}

/** While the connection is down, what the player tapped is kept and shown as pending. */
function showConnection(text) {
  const kept = ctx.socket?.pendingActions().length ? ` ${gettext("Your move is kept and will be sent when the connection is back.")}` : "";
  setConnection(`${text}${kept}`, false);
  if (ctx.view) renderTable();
}

function onTile(tile) {
  const ok = legalPlays().some((a) => same(a.tile, tile)) && !ctx.waiting;
  if (ok) chooseTile(tile);
}

/** Where to play the chosen tile: a group of one button per legal end ("Left end, 6") and Cancel. */
function renderEndChoice(table) {
  const box = $("end-choice");
  const ts = targets();
  const key = ts.length ? `${ctx.chosen}|${ts.join(",")}|${ctx.room?.revision}` : "";
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  setHidden(box, !ts.length);
  if (ts.length) {
    box.setAttribute("aria-label", interpolate(gettext("Where to play %(tile)s"), { tile: tileName(ctx.chosen) }));
  } else {
    box.removeAttribute("aria-label");
  }
  box.replaceChildren(...(ts.length ? [h("span", { "aria-hidden": "true",
    text: interpolate(gettext("Play %(tile)s on:"), { tile: common.cap(tileName(ctx.chosen)) }) }),
  ...ts.map((end) => {
    const e = (ctx.view.ends || []).find((x) => x.id === end);
    return h("button", { type: "button", class: "primary", "data-end": end, onclick: () => playOn(end),
      text: common.endWithNumber(table, ctx, end, e?.value) });
  }), h("button", { type: "button", onclick: cancelChoice, text: gettext("Cancel") })] : []));
}

const LABELS = { draw: gettext("Draw a tile"), pass: gettext("Pass"), end_turn: gettext("End my turn") };

function renderActions(table) {
  const box = $("actions");
  const legal = ctx.view.legal || [];
  if (!box._extra) {
    box._extra = h("div", { class: "controls" });
    box._buttons = h("div", { class: "actions" });
    box.replaceChildren(box._extra, box._buttons);
  }
  if (table.controls) table.controls(ctx, box._extra);
  else if (box._extra.firstChild) box._extra.replaceChildren();
  const shown = ["draw", "pass", "end_turn"]
    .filter((t) => legal.some((a) => a.type === t))
    .map((t) => [t, table.actionLabel?.(ctx, t) === undefined ? LABELS[t] : table.actionLabel(ctx, t)])
    .filter(([, label]) => label);
  const key = JSON.stringify([shown, ctx.waiting]);
  if (box._buttons.dataset.key === key) return;
  box._buttons.dataset.key = key;
  box._buttons.replaceChildren(...shown.map(([t, label]) => h("button", { type: "button", class: "primary", "data-action": t,
    disabled: ctx.waiting, onclick: () => act({ type: t }), text: label })));
}

/** The Hint button (the room's `hints` option, this seat to move) and the hint it brought: the
 * suggested tile, bid or button outlined, and the sentence saying why. */
function renderHint() {
  const on = !!ctx.room?.resolved_options?.hints && isMine();
  setHidden($("hint-box"), !on);
  const hint = on && ctx.hint?.version === ctx.version && ctx.hint.action ? ctx.hint : null;
  setText($("hint-why"), hint ? hint.why : "");
  $("hint-button").disabled = !!ctx.waiting || ctx.hint?.asked === ctx.version || !!hint;
  for (const n of document.querySelectorAll(".hinted")) n.classList.remove("hinted");
  if (!hint) return;
  const a = hint.action;
  const selector = a.tile ? `#hand [data-tile="${Math.min(...a.tile)}-${Math.max(...a.tile)}"]`
    : a.type === "bid" ? `#actions [data-bid="${a.value}"]`
    : a.type === "trump" ? `#actions [data-trump="${a.suit}"]` : `#actions [data-action="${a.type}"]`;
  document.querySelector(selector)?.classList.add("hinted");
}

function askHint() {
  if (!ctx.socket || !isMine()) return;
  ctx.hint = { asked: ctx.version };
  ctx.socket.send({ type: "hint", id: `hint-${ctx.version}` });
  renderHint();
}

function onHint(msg) {
  const version = Number(String(msg.id).slice("hint-".length));
  ctx.hint = { version, action: msg.action, why: msg.why };
  renderHint();
}

function renderFlash(table) {
  const log = ctx.view.log || [];
  const box = $("points-flash");
  if (table.scoreFlash === false) {
    // The module tells each score in its own words (Five-Up: the last move and the count).
    if (box.firstChild) box.replaceChildren();
    return;
  }
  if (log.length < ctx.lastLogLength) ctx.lastLogLength = 0;
  const fresh = log.slice(ctx.lastLogLength).filter((e) => e.type === "score");
  ctx.lastLogLength = log.length;
  if (fresh.length) {
    // Translators: All Fives: a score flashed over the board, e.g. "Ann scores 10".
    box.replaceChildren(...fresh.map((e) => h("span", { class: "points-flash",
      text: interpolate(gettext("%(name)s scores %(points)s"), { name: seatName(ctx, e.seat), points: formatNumber(e.points) }) })));
  } else if (box.firstChild && !log.some((e) => e.type === "score")) {
    box.replaceChildren();
  }
}

function renderRematch() {
  const view = ctx.view;
  const panel = $("rematch-panel");
  setHidden(panel, !view.match_over);
  if (!view.match_over) return;
  setText($("match-result"), statusText());
  setHidden($("rematch"), !ctx.isHost);
}

function renderTable() {
  const view = ctx.view;
  if (!view) return;
  renderHandoff();
  const table = tableOf(view);
  // The board's size is read before anything is written, while the last frame's layout still
  // holds: read after the status below, it would lay the page out once more in this task.
  const boardBox = $("board");
  const size = { width: boardBox.clientWidth, height: boardBox.clientHeight };
  const last = common.lastMove(table, ctx);
  renderStatus(table, last);
  setHidden($("zoom"), !table.zoomable);
  setHidden($("players-bar"), table.showsPlayers === false);
  table.board(ctx, boardBox, { chosen: ctx.chosen, targets: targets(), onEnd: playOn, last: last.keys, size });
  renderHand(table);
  renderEndChoice(table);
  renderActions(table);
  renderHint();
  renderFlash(table);
  if (table.showsPlayers !== false) common.renderPlayersBar(ctx, $("players-bar"));
  common.renderSeats(ctx, $("table-seats"));
  if ($("moves-dialog").open || $("log").dataset.hand !== String(view.hand_number)) renderMoves(table);
  common.renderScorepad(table, ctx, $("scorepad"));
  const summaryNumber = view.last_hand?.number;
  if ($("summary").dataset.hand !== String(summaryNumber)) {
    $("summary").dataset.hand = String(summaryNumber);
    common.renderSummary(table, ctx, $("summary"));
  }
  renderRematch();
  const seated = ctx.seat !== null;
  if ($("phrases").hidden === seated) $("phrases").hidden = $("chat-form").hidden = !seated;
  announce(table);
  focusTurn();
}

/* The live region (docs/frontend.md, "Keyboard and screen readers"): every move by anyone, once,
   in words, a paragraph a turn; the end of a hand and of the match; "Your turn." when it comes.
   What is new is told by the log's length in the hand under way, so a resync repeats nothing. */

const ann = { hand: null, count: 0, over: null, matchOver: false, mine: false };

/** The events of a run of the log, a list per turn (a seat's events and those without a seat after them). */
function turns(events) {
  const out = [];
  let cur = null;
  for (const e of events) {
    if (e.type === "hand_end") continue;
    const seat = e.seat ?? null;
    if (!cur || (seat !== null && cur.seat !== null && seat !== cur.seat)) {
      cur = { seat, events: [] };
      out.push(cur);
    }
    if (cur.seat === null) cur.seat = seat;
    cur.events.push(e);
  }
  return out.map((t) => t.events);
}

function announce(table) {
  const view = ctx.view;
  const log = view.log || [];
  const last = view.last_hand;
  const paragraphs = [];
  // Every seat by its name, this one too ("Ann played six four on Tom's train."), as the table says it aloud.
  const opts = { spoken: true, nameOf: (seat) => seatName(ctx, seat, false) };
  const say = (events) => {
    for (const t of turns(events)) {
      const words = common.sentences(table, ctx, t, opts);
      if (words.length) paragraphs.push(words.join(" "));
    }
  };
  if (ann.hand === null) {
    // The page's first view: what happened before it came is not news.
    ann.hand = view.hand_number;
    ann.count = log.length;
    ann.over = last ? last.number : null;
    ann.matchOver = !!view.match_over;
  } else if (view.hand_number < ann.hand) {
    return; // an older view (another seat of this device, shown again): nothing in it is news
  } else {
    if (last && ann.over !== last.number && last.number >= ann.hand) {
      // The hand under way is over: its last moves, then its result.
      if (last.number === ann.hand) say((last.log || []).slice(ann.count));
      paragraphs.push(`${gettext("The hand is over.")} ${common.summaryText(table, ctx, last)}`);
      ann.over = last.number;
    }
    if (view.hand_number !== ann.hand) {
      ann.hand = view.hand_number;
      ann.count = 0;
    }
    if (!(last && last.number === view.hand_number)) {
      say(log.slice(ann.count));
      ann.count = Math.max(ann.count, log.length);
    }
    if (view.match_over && !ann.matchOver) paragraphs.push(statusText());
    ann.matchOver = !!view.match_over;
  }
  // A new decision: the turn came, or it goes on after this seat's own move (a double to
  // answer, the opening turn, trumps to name after the last bid).
  const mine = isMine() && !ctx.waiting;
  if (mine && !ann.mine) {
    // Translators: said to a screen reader when it becomes this player's turn.
    const yours = gettext("Your turn.");
    if (paragraphs.length) paragraphs[paragraphs.length - 1] += ` ${yours}`;
    else paragraphs.push(yours);
  }
  ann.mine = mine;
  for (const text of paragraphs) sayNow(text);
}

/** One paragraph more in the live region (the last 30 are kept). */
function sayNow(text) {
  const region = $("announcements");
  region.append(h("p", { text }));
  while (region.children.length > 30) region.firstChild.remove();
}

/* Focus: when this seat's turn starts, the keyboard goes to what it can do (the first tile it
   can play, its bid, its trumps, or the button to draw or pass); at no other moment. Not while
   a window is open or the player is typing. */

function turnTarget() {
  const actions = $("actions");
  return actions.querySelector(".trumps button:not([disabled])") || actions.querySelector(".bidbox button:not([disabled])")
    || $("hand").querySelector(".tile-button.legal") || actions.querySelector("button[data-action]:not([disabled])");
}

function focusTurn() {
  if (!isMine() || ctx.waiting) {
    ctx.turnFocused = false;
    return;
  }
  if (ctx.turnFocused) return;
  ctx.turnFocused = true;
  const active = document.activeElement;
  if (document.querySelector("dialog[open]") || !$("handoff").hidden
    || (active && active.matches("input:not([type=checkbox]):not([type=radio]), textarea, select, [contenteditable]"))) return;
  const target = turnTarget();
  if (!target) return;
  if (target.classList.contains("tile-button")) {
    ctx.handFocus = target.dataset.tile;
    for (const b of $("hand").querySelectorAll(".tile-button")) b.setAttribute("tabindex", b === target ? "0" : "-1");
  }
  target.focus({ preventScroll: true });
  // Only the box that scrolls it (the hand) moves to show it, never the page.
  const box = target.closest(".hand");
  if (box) {
    const r = target.getBoundingClientRect();
    const hr = box.getBoundingClientRect();
    if (r.top < hr.top) box.scrollTop -= hr.top - r.top + 4;
    else if (r.bottom > hr.bottom) box.scrollTop += r.bottom - hr.bottom + 4;
  }
}

function renderMoves(table) {
  common.renderLog(table, ctx, $("log"));
  const c = $("commitment");
  if (c.dataset.key !== ctx.view.commitment) {
    c.dataset.key = ctx.view.commitment || "";
    // Translators: followed by the hand's shuffle commitment (a long hexadecimal number).
    const before = interpolate(gettext("Hand %(number)s · shuffle commitment"), { number: formatNumber(ctx.view.hand_number + 1) });
    c.replaceChildren(`${before} `, h("code", { text: ctx.view.commitment || "" }),
      ` ${gettext("(SHA-256 of this hand's secret seed, revealed and checked when the hand ends)")}`);
  }
}

/** Forget what was drawn and draw the table again from the view (after a resize). */
function redraw() {
  common.resetBoard($("board"));
  renderTable();
}

/** The play area takes the height left under the status bar, so the board, the hand and the
 * status show together; measured whenever the bars above it change size. (An inline height
 * set through the CSSOM, which a style-src 'self' policy allows.) */
function measure() {
  const play = $("play");
  const top = Math.round(play.getBoundingClientRect().top + window.scrollY);
  if (ctx.playTop !== top) {
    // Set on the two boxes themselves: a property on the root would restyle the whole page.
    ctx.playTop = top;
    play.style.height = `calc(100dvh - ${top + 6}px)`;
    document.querySelector(".side").style.setProperty("--side-height", `calc(100dvh - ${top + 6}px)`);
  }
}

/** What the page says when the server closed the socket at one of its caps. */
const CAPPED = {
  4008: gettext("This page sent too many messages and was disconnected. Reload the page to join again."),
  4409: gettext("The room has as many spectators as it takes. Reload the page to try again later."),
  4429: gettext("Too many tables are open from this network. Close another tab or device, then reload."),
};

/** What the shown seat's socket says about its connection, in the connection line. */
function onStatus(state, attempt, wasRetry, closeCode, reason, delay) {
  if (state === "open") {
    setConnection(wasRetry ? gettext("Reconnected: back in sync with the table.") : gettext("Connected"), true);
    refreshRoom();
  } else if (state === "connecting") {
    if (attempt) showConnection(interpolate(gettext("Reconnecting (attempt %(attempt)s)…"), { attempt: formatNumber(attempt) }));
  } else if (state === "down") {
    showConnection(interpolate(gettext("Reconnecting: the connection was lost; next try in %(seconds)s s (attempt %(attempt)s)."),
      { seconds: formatNumber(Math.ceil(delay / 1000)), attempt: formatNumber(attempt) }));
  } else if (state === "refused" && closeCode === 4000) {
    setConnection(gettext("This seat was opened in another tab or device; this one has stopped."), false);
  } else if (state === "refused" && closeCode === 4003) {
    lostSeat(HOST_FREED);
  } else if (state === "refused" && closeCode === 4404) {
    noSuchRoom();
  } else if (state === "refused" && closeCode in CAPPED) {
    setConnection(CAPPED[closeCode], false);
  } else if (state === "refused") {
    lostSeat(gettext("This browser no longer holds a seat here. You can sit down again, or watch from here."));
  }
}

/** The frames of a room socket; `gate` lets through only those of the seat shown (pass-and-play). */
function socketHandlers(gate = (fn) => fn) {
  return {
    status: gate(onStatus),
    state: gate(onState),
    room: gate((msg) => {
      const number = msg.room.match?.number;
      if (ctx.room?.match && number !== undefined && number !== ctx.room.match.number) {
        // A new match (rematch) counts its versions from 0 again; a fresh connection makes
        // sure neither end still compares them with the old match's.
        ctx.socket.reopen();
      }
      acceptRoom(msg.room);
    }),
    chat: gate((msg) => onChat(msg)),
    hint: gate(onHint),
    replaced: gate((msg) => showError(msg.message || gettext("This seat was opened elsewhere."))),
    kicked: gate(() => lostSeat(HOST_FREED)),
    welcome: gate((msg) => {
      // Sent on connecting, and again when the host moves this player to another seat.
      if (msg.seat === undefined || msg.seat === ctx.seat || (msg.seat === null && ctx.token)) return;
      setSeat(msg.seat);
      onRoom();
    }),
    ack: gate(() => {
      if (ctx.view) renderTable(); // a tile shown as pending is pending no more
    }),
    error: gate((msg) => {
      if (msg.code === "not_found") {
        noSuchRoom();
        return;
      }
      ctx.waiting = false;
      showError(msg.message || interpolate(gettext("The server refused: %(code)s"), { code: msg.code }));
      if (msg.code === "stale_version" || msg.code === "not_your_turn") ctx.socket.send({ type: "sync" });
      renderTable();
    }),
  };
}

function connect() {
  ctx.socket?.close();
  for (const [seat, held] of ctx.held) if (held.socket === ctx.socket) ctx.held.delete(seat);
  if (ctx.token && ctx.seat !== null) {
    const held = seatSocket(ctx.token, ctx.seat);
    ctx.held.set(ctx.seat, held);
    ctx.socket = held.socket;
  } else {
    ctx.socket = new RoomSocket(code, ctx.token, socketHandlers());
  }
  ctx.socket.connect();
}

const HOST_FREED = gettext("The host freed your seat. You can sit down again, or watch from here.");

setupShare({
  link: app.dataset.link,
  panel: $("share-panel"),
  home: $("share-home"),
  dialog: $("share-dialog"),
  opener: $("open-share"),
  returnTo: $("open-menu"),
  title: () => interpolate(gettext("Dominoes: %(title)s"), { title: $("table-title").textContent }),
});

/** The name typed in field `id`, or "" after saying `missing` and focusing the field. */
function typedName(id, missing) {
  const name = $(id).value.trim();
  if (!name) {
    showError(missing);
    $(id).focus();
  }
  return name;
}

/** Sit down: in seat `seat` ("Sit here"), or in the first free one (the form's button). */
async function join(seat) {
  const name = typedName("join-name", gettext("Type your name first: the other players see it at the table."));
  if (!name) return;
  showError("");
  ctx.note = "";
  try {
    const taken = await takeSeat(code, name, seat);
    saveProfile({ name });
    saveRoomSeat(code, { token: taken.token, seat: taken.seat, host: false });
    ctx.token = taken.token;
    ctx.seat = taken.seat;
    ctx.primarySeat = taken.seat;
    connect();
    onRoom();
    // The form is gone: the seats, with this one marked "you", are what comes next.
    $("seats-title").focus();
  } catch (err) {
    showError(err.message);
    refreshRoom();
  }
}

/** Pass-and-play: another player on this device takes the first free seat, like any join. */
$("add-local").addEventListener("submit", async (e) => {
  e.preventDefault();
  const name = typedName("add-local-name", gettext("Type the other player's name first."));
  if (!name) return;
  showError("");
  try {
    const taken = await takeSeat(code, name);
    saveLocalSeats(code, [...localSeats(code), { token: taken.token, seat: taken.seat }]);
    openLocal({ token: taken.token, seat: taken.seat });
    $("add-local-name").value = "";
    ctx.note = interpolate(gettext("%(name)s plays on this device too: their tiles show on their turn only."), { name });
  } catch (err) {
    showError(err.message);
  }
  refreshRoom();
});

$("join-name").value = profile().name || "";
$("join").addEventListener("submit", (e) => {
  e.preventDefault();
  join();
});

for (const [id, field] of [["grace-select", "grace_seconds"], ["turn-select", "turn_seconds"]]) {
  $(id).addEventListener("change", (e) => {
    const value = decode(e.target.value);
    ask(() => updateRoom(code, { [field]: value }, ctx.token));
  });
}

async function start(again = false) {
  try {
    showError("");
    await (again ? rematch : startMatch)(code, ctx.token);
  } catch (err) {
    showError(err.message);
  }
}
$("start").addEventListener("click", () => start(false));
$("rematch").addEventListener("click", () => start(true));
$("print").addEventListener("click", () => window.print());
$("hint-button").addEventListener("click", askHint);

// Translators: the quick phrases of the table talk (a button each; the others read them in their own language).
const PHRASES = { hello: gettext("Hello!"), good_luck: gettext("Good luck!"), good_game: gettext("Good game!"),
  well_played: gettext("Well played!"), thanks: gettext("Thanks!"), oops: gettext("Oops!"), your_turn: gettext("Your turn!"),
  one_more: gettext("One more?") };
$("phrases").replaceChildren(...Object.entries(PHRASES).map(([key, text]) =>
  h("button", { type: "button", "data-phrase": key, onclick: () => ctx.socket?.send({ type: "chat", phrase: key }), text })));
$("chat-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("chat-text").value.trim();
  if (text && ctx.socket?.send({ type: "chat", text })) $("chat-text").value = "";
});

// Table talk: always open beside a wide table; on a phone it folds away and counts what arrived
// while folded, on the panel and on the top bar's Chat button.
const wide = window.matchMedia("(min-width: 960px) and (min-height: 561px)");
let unread = 0;
function chatOpen() {
  return $("chat-toggle").getAttribute("aria-expanded") === "true";
}
function showUnread() {
  for (const id of ["chat-unread", "chat-unread-2"]) {
    $(id).hidden = unread === 0;
    $(id).textContent = unread ? formatNumber(unread) : "";
  }
  const count = { count: formatNumber(unread) };
  $("open-chat").setAttribute("aria-label", unread
    ? interpolate(ngettext("Chat, %(count)s unread", "Chat, %(count)s unread", unread), count) : gettext("Chat"));
  $("chat-toggle").setAttribute("aria-label", unread
    ? interpolate(ngettext("Table talk, %(count)s unread", "Table talk, %(count)s unread", unread), count) : gettext("Table talk"));
}
function setChat(open) {
  const shown = open || wide.matches;
  $("chat-toggle").setAttribute("aria-expanded", String(shown));
  $("open-chat").setAttribute("aria-expanded", String(shown));
  $("chat-body").hidden = !shown;
  if (shown) unread = 0;
  showUnread();
}
setChat(wide.matches);
wide.addEventListener("change", () => setChat(chatOpen()));
$("chat-toggle").addEventListener("click", () => setChat(!chatOpen()));
$("open-chat").addEventListener("click", () => {
  setChat(true);
  $("chat-panel").scrollIntoView({ block: "start" });
  (ctx.seat !== null ? $("chat-text") : $("chat-toggle")).focus({ preventScroll: true });
});
function onChat(msg) {
  const list = $("chat");
  // A quick phrase is read in this page's language; what a player typed, as typed.
  const text = msg.phrase && PHRASES[msg.phrase] ? PHRASES[msg.phrase] : msg.text;
  list.append(h("li", {}, h("strong", { text: `${interpolate(gettext("%(name)s:"), { name: seatName(ctx, msg.seat) })} ` }), text));
  while (list.children.length > 50) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
  if (!chatOpen() && msg.seat !== ctx.seat) {
    unread += 1;
    showUnread();
  }
}

// The moves of this hand, opened from the status bar.
function openMoves() {
  if (ctx.view) renderMoves(tableOf(ctx.view));
  openDialog($("moves-dialog"));
  const log = $("log");
  log.scrollTop = log.scrollHeight;
}
$("open-moves").addEventListener("click", openMoves);

// The table menu: share, the turn alert's preferences, the site's links.
function showPrefs() {
  const p = prefs();
  $("pref-sound").checked = p.sound;
  $("pref-vibrate").checked = p.vibrate;
  $("mute").setAttribute("aria-pressed", String(!p.sound));
  const state = notificationState();
  const notify = $("allow-notify");
  notify.hidden = state === "unsupported";
  notify.textContent = p.notify && state === "granted" ? gettext("Stop notifying me") : gettext("Notify me while this tab is hidden");
  $("notify-state").textContent = state === "unsupported" ? gettext("This browser cannot show notifications.")
    : state === "denied" ? gettext("Notifications are blocked for this site in the browser's settings.")
      : p.notify && state === "granted" ? gettext("A notification tells you it is your turn while this tab is hidden.") : "";
  $("pref-large").checked = !!p.large;
  document.documentElement.classList.toggle("large-tiles", !!p.large);
}
$("open-menu").addEventListener("click", () => {
  showPrefs();
  openDialog($("menu-dialog"));
});
$("open-keys").addEventListener("click", () => openDialog($("keys-dialog")));
$("pref-large").addEventListener("change", (e) => {
  savePrefs({ large: e.target.checked });
  showPrefs();
  if (ctx.view && !$("table").hidden) redraw();
});
$("table-language").value = lang;
$("table-language").addEventListener("change", (e) => chooseLanguage(e.target.value));
$("pref-sound").addEventListener("change", (e) => {
  savePrefs({ sound: e.target.checked });
  showPrefs();
});
$("pref-vibrate").addEventListener("change", (e) => {
  savePrefs({ vibrate: e.target.checked });
  showPrefs();
});
$("mute").addEventListener("click", () => {
  savePrefs({ sound: !prefs().sound });
  showPrefs();
});
$("allow-notify").addEventListener("click", async () => {
  if (prefs().notify && notificationState() === "granted") {
    savePrefs({ notify: false });
  } else {
    const answer = await askNotifications();
    savePrefs({ notify: answer === "granted" });
  }
  showPrefs();
});
showPrefs();

// A tile that has slid in is an ordinary tile again (no layer of its own kept for it).
$("board").addEventListener("animationend", (e) => e.target.classList?.remove("arrive"));

// Zoom: the buttons over the board; each table module zooms its own drawing.
$("zoom").addEventListener("click", (e) => {
  const how = e.target.closest("button")?.dataset.zoom;
  if (how && ctx.view) tableOf(ctx.view).zoom?.($("board"), how);
});

/* The table's keys (the "Keyboard keys" dialog lists them): d draw, p pass, e end the turn,
   c the table talk, h a hint, m the moves, ? the keys. Not while typing, nor with a modifier. */

function tryAction(type, refusal) {
  const legal = isMine() && !ctx.waiting && (ctx.view.legal || []).find((a) => a.type === type);
  if (legal) act({ type });
  else sayNow(refusal);
}

const KEYS = {
  d: () => tryAction("draw", gettext("You cannot draw a tile now.")),
  p: () => tryAction("pass", gettext("You cannot pass now.")),
  e: () => tryAction("end_turn", gettext("You cannot end your turn now.")),
  c: () => {
    setChat(true);
    $("chat-panel").scrollIntoView({ block: "nearest" });
    (ctx.seat !== null ? $("chat-text") : $("chat-toggle")).focus({ preventScroll: true });
  },
  h: () => {
    if (!ctx.room?.resolved_options?.hints) sayNow(gettext("This table gives no hints."));
    else if ($("hint-box").hidden || $("hint-button").disabled) sayNow(gettext("No hint now."));
    else askHint();
  },
  m: () => openMoves(),
  "?": () => openDialog($("keys-dialog")),
};

document.addEventListener("keydown", (e) => {
  const open = document.querySelector("dialog[open]");
  if (e.key === "Escape" && ctx.chosen && !open) {
    e.preventDefault();
    cancelChoice();
    return;
  }
  if (e.ctrlKey || e.altKey || e.metaKey || e.isComposing || open) return;
  const run = KEYS[e.key];
  if (!run || (e.key !== "?" && (!ctx.view || $("table").hidden || $("table").inert))) return;
  if (e.target.closest?.("input:not([type=checkbox]):not([type=radio]), textarea, select, [contenteditable]")) return;
  e.preventDefault();
  run();
});

/** Open a dialog; when it closes, the keyboard goes back where it was. */
function openDialog(dialog) {
  const from = document.activeElement;
  dialog.addEventListener("close", () => {
    if (from && from.isConnected && from !== document.body) from.focus();
  }, { once: true });
  dialog.showModal();
}
setInterval(() => {
  if (ctx.room?.seats?.some((s) => s.human && s.connected === false)) {
    common.renderSeats(ctx, $("table-seats"));
    if (!ctx.view) renderLobby();
  }
}, 1000);

// A new size (a phone turned, a window resized): measure the bars again and redraw the board.
let sized = "";
const resized = new ResizeObserver(() => {
  measure();
  const board = $("board");
  const size = `${board.clientWidth}x${board.clientHeight}`;
  if (size !== sized && ctx.view && !$("table").hidden) {
    sized = size;
    requestAnimationFrame(renderTable);
  }
});
for (const id of ["status-bar", "board"]) resized.observe($(id));
window.addEventListener("resize", measure);

refreshRoom();
connect();
if (ctx.token) for (const entry of localSeats(code)) openLocal(entry);

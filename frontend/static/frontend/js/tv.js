// The table screen (/r/<code>/tv): the room seen from a TV across the living room. It is a
// spectator of the room: its socket and its requests never carry a seat's token (it reads no
// token from this browser's storage, even on the host's laptop), and a spectator's view holds
// no hand. Before the start it shows the room's link, its QR code and the seats as they fill;
// then the board, drawn by the game's own table module as at the table, every seat's tiles and
// score, whose turn it is and the last move in words, through hands and rematches, no click.

import { getRoom } from "./api.js";
import { formatNumber, gettext, interpolate, ngettext } from "./i18n.js";
import { RoomSocket } from "./socket.js";
import * as common from "./table/common.js";
import * as line from "./table/line.js";
import * as texas42 from "./table/texas42.js";
import * as trains from "./table/trains.js";
import * as ends from "./table/ends.js";
import * as chicken from "./table/chicken.js";
import * as fiveup from "./table/fiveup.js";

const { h, seatName, sideName } = common;
const TABLES = { block: line, draw: line, allfives: line, texas42, mexican_train: trains, chicken_foot: chicken, fiveup };
const $ = (id) => document.getElementById(id);
const app = $("tv");
const code = app.dataset.code;
const games = JSON.parse($("games-data").textContent);

/** What the table modules read: a spectator's context (no seat, no token). */
const ctx = { code, room: null, view: null, version: -1, seat: null, token: null, history: { dealt: {}, hands: {} }, moves: 0 };
window.tv = ctx; // for the console and for tests

const tableOf = (view) => TABLES[view.game] || ends;

function setConnection(text, ok) {
  const el = $("connection");
  if (el.textContent !== text) el.textContent = text;
  el.classList.toggle("down", !ok);
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = !text;
}

function gameTitle(room) {
  const g = games.find((x) => x.name === room.game);
  // Translators: the table screen's title, e.g. "Mexican Train, 4 players".
  return interpolate(ngettext("%(game)s, %(count)s player", "%(game)s, %(count)s players", room.players),
    { game: g ? g.title : room.game, count: formatNumber(room.players) });
}

/** The side (score column) a seat scores for: its team where the game has teams. */
function sideOf(view, seat) {
  if (!view.teams) return seat;
  const side = view.teams.findIndex((team) => team.includes(seat));
  return side < 0 ? seat : side;
}

function renderLobby() {
  const room = ctx.room;
  if (!room) return;
  const list = $("lobby-seats");
  const items = room.seats.map((s) => {
    const text = s.free ? gettext("waiting for a player…") : seatName(ctx, s.seat);
    // Translators: tags beside a seat's name on the table screen: an AI plays it, or the room's host.
    const tag = s.free ? "" : s.ai ? gettext("AI") : s.seat === room.host_seat ? gettext("host") : "";
    return h("li", { class: `tv-seat${s.free ? " free" : ""}`, "data-seat": s.seat },
      h("span", { class: "tv-seat-no", text: formatNumber(s.seat + 1) }), h("span", { class: "tv-seat-name", text }),
      tag ? h("span", { class: "tv-tag", text: tag }) : "");
  });
  const key = JSON.stringify(room.seats.map((s) => [s.free, s.name, s.ai, s.seat === room.host_seat]));
  if (list.dataset.key !== key) {
    list.dataset.key = key;
    list.replaceChildren(...items);
  }
}

/** One line per seat: name, tiles held, score (marks, points), marker; who is to play. */
function renderPlayers(table) {
  const view = ctx.view;
  const unit = table.scoreUnit ? table.scoreUnit(view) : "points";
  const items = Array.from({ length: view.players }, (_, seat) => {
    const held = view.hand_sizes?.[seat];
    const score = view.scores?.[sideOf(view, seat)];
    const train = view.trains?.find((t) => t.owner === seat);
    const toMove = view.to_move === seat && !view.match_over;
    const bits = [];
    if (held !== undefined) bits.push(interpolate(ngettext("%(count)s tile", "%(count)s tiles", held), { count: formatNumber(held) }));
    if (score !== undefined) bits.push(scoreWords(score, unit));
    // Translators: Mexican Train: this player's train is open to everyone.
    if (train?.marker) bits.push(gettext("marker out"));
    return h("li", { class: `tv-player${toMove ? " to-move" : ""}`, "data-seat": seat },
      h("span", { class: "tv-player-name" }, toMove ? h("span", { class: "tv-arrow", "aria-hidden": "true", text: "▶ " }) : "",
        seatName(ctx, seat)),
      h("span", { class: "tv-player-info", text: bits.join(" · ") }));
  });
  const list = $("players");
  const key = JSON.stringify(items.map((li) => [li.className, li.textContent]));
  if (list.dataset.key !== key) {
    list.dataset.key = key;
    list.replaceChildren(...items);
  }
  const extra = [];
  if (view.boneyard !== undefined && view.boneyard !== null && view.game !== "texas42") {
    extra.push(interpolate(gettext("Boneyard: %(count)s"), { count: formatNumber(view.boneyard) }));
  }
  if (view.teams?.some((team) => team.length > 1)) {
    // Translators: between the teams' scores, e.g. "Ann & Cy 3 vs Bob & Di 5".
    const vs = ` ${gettext("vs")} `;
    const teams = view.teams.map((_, side) => `${sideName(ctx, side)} ${formatNumber(view.scores?.[side] ?? 0)}`).join(vs);
    extra.push(interpolate(gettext("Teams: %(teams)s"), { teams }));
  }
  const target = table.targetText ? table.targetText(view, unit)
    : view.target ? interpolate(gettext("Playing to %(score)s."), { score: scoreWords(view.target, unit) }) : "";
  if (target) extra.push(target);
  $("extra").textContent = extra.join(" · ");
}

/** Mexican Train's rows at the largest tile size that shows every train in the board's height
 * (two trains a row on a TV), through the module's own zoom. */
const ROW_SIZES = [40, 48, 56, 68, 84, 100];
function fitRows(board) {
  const rows = Math.ceil(board.querySelectorAll(".train").length / 2) || 1;
  const room = board.clientHeight - (board.querySelector(".hub")?.offsetHeight || 0)
    - (board.querySelector(".open-trains")?.offsetHeight || 0) - 24;
  const fits = [...ROW_SIZES].reverse().find((s) => rows * (Math.max(56, s + 16) + 6) <= room) ?? ROW_SIZES[0];
  const now = Number(board.dataset.t) || 56;
  if (fits !== now) trains.zoom(board, fits / now);
}

/** "12 points", "1 mark": `unit` is the table module's key, "points" or "marks". */
function scoreWords(score, unit) {
  const count = { count: formatNumber(score) };
  return unit === "marks" ? interpolate(ngettext("%(count)s mark", "%(count)s marks", score), count)
    : interpolate(ngettext("%(count)s point", "%(count)s points", score), count);
}

function resultWords(view) {
  const winner = view.result?.winner;
  const who = winner === null || winner === undefined ? null : sideName(ctx, winner);
  const scores = (view.scores || []).map((s, side) => `${sideName(ctx, side)} ${formatNumber(s)}`).join(", ");
  const result = who ? interpolate(gettext("%(name)s won the match!"), { name: who }) : gettext("The match ended in a tie.");
  return `${result} ${interpolate(gettext("Final score: %(scores)s."), { scores })}`;
}

function renderTable() {
  const view = ctx.view;
  if (!view) return;
  const table = tableOf(view);
  const board = $("board");
  const last = common.lastMove(table, ctx);
  table.board(ctx, board, { chosen: null, targets: [], onEnd: () => {}, last: last.keys,
    size: { width: board.clientWidth, height: board.clientHeight } });
  if (table === trains) fitRows(board);
  else table.tvFit?.(board);
  renderPlayers(table);
  let turn;
  const hand = { number: formatNumber(view.hand_number + 1) };
  if (view.match_over) turn = gettext("The match is over.");
  else if (view.to_move === null || view.to_move === undefined) turn = interpolate(gettext("Hand %(number)s"), hand);
  else if (view.phase === "bidding") turn = interpolate(gettext("%(name)s to play (bidding)"), { name: seatName(ctx, view.to_move) });
  else turn = interpolate(gettext("%(name)s to play"), { name: seatName(ctx, view.to_move) });
  if ($("turn").textContent !== turn) $("turn").textContent = turn;
  // Translators: %(move)s is one or more whole sentences ("Ann played 6|4 on the left end.").
  const lastText = last.text ? interpolate(gettext("Last move: %(move)s"), { move: last.text })
    : interpolate(gettext("Hand %(number)s: the tiles are dealt."), hand);
  const lastBox = $("last-move");
  if (lastBox.textContent !== lastText) {
    lastBox.textContent = lastText;
    lastBox.classList.remove("fresh");
    void lastBox.offsetWidth; // restart the short highlight
    lastBox.classList.add("fresh");
  }
  const result = $("result");
  result.hidden = !view.match_over;
  if (view.match_over) result.textContent = `${resultWords(view)} ${gettext("A rematch shows here as soon as it starts.")}`;
}

function show() {
  const playing = !!ctx.view;
  $("waiting").hidden = playing;
  $("table").hidden = !playing;
  document.body.classList.toggle("tv-playing", playing);
  if (ctx.room) {
    const title = gameTitle(ctx.room);
    if ($("tv-title").textContent !== title) {
      $("tv-title").textContent = title;
      document.title = interpolate(gettext("%(title)s · table screen · Dominoes"), { title });
    }
  }
  if (playing) renderTable();
  else renderLobby();
  keepAwake(playing && !ctx.view.match_over);
}

function acceptRoom(room) {
  if (ctx.room && (room.revision ?? 0) < (ctx.room.revision ?? 0)) return;
  const number = room.match?.number;
  if (ctx.room?.match && number !== undefined && number !== ctx.room.match.number) {
    // A rematch counts its versions from 0 again: a fresh connection compares them afresh.
    ctx.socket.reopen();
  }
  ctx.room = room;
  show();
}

async function refreshRoom() {
  try {
    acceptRoom(await getRoom(code)); // no token: the table screen is never a seat
  } catch (err) {
    if (err.status === 404) noSuchRoom();
    else showError(err.message);
  }
}

function noSuchRoom() {
  ctx.socket?.close();
  setConnection(gettext("No such room"), false);
  $("waiting").hidden = true;
  $("table").hidden = true;
  showError(gettext("There is no room at this link. Check the link, or start a new table from the home page."));
}

function onState(msg) {
  if (msg.view.hand !== undefined) delete msg.view.hand; // never kept, never shown (a spectator gets none)
  ctx.view = msg.view;
  ctx.version = msg.version;
  ctx.moves += 1;
  show();
}

// The Screen Wake Lock API where the browser has it: the TV's screen stays on during a match.
let wakeLock = null;
async function keepAwake(on) {
  if (!("wakeLock" in navigator)) return;
  try {
    if (on && !wakeLock && document.visibilityState === "visible") {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
    } else if (!on && wakeLock) {
      await wakeLock.release();
      wakeLock = null;
    }
  } catch {
    wakeLock = null; // refused (battery saver, no user gesture yet): the screen may sleep
  }
}
document.addEventListener("visibilitychange", () => keepAwake(!!ctx.view && !ctx.view.match_over));

ctx.socket = new RoomSocket(code, null, {
  status: (state, attempt, _wasRetry, closeCode, _reason, delay) => {
    if (state === "open") {
      // Translators: the table screen's connection line: connected, updating live.
      setConnection(gettext("Live"), true);
      showError("");
      refreshRoom();
    } else if (state === "connecting" && attempt) {
      setConnection(interpolate(gettext("Reconnecting (attempt %(attempt)s)…"), { attempt: formatNumber(attempt) }), false);
    } else if (state === "down") {
      setConnection(interpolate(gettext("Connection lost: reconnecting in %(seconds)s s"), { seconds: formatNumber(Math.ceil(delay / 1000)) }), false);
    } else if (state === "refused" && closeCode === 4404) {
      noSuchRoom();
    } else if (state === "refused") {
      setConnection(gettext("The server refused this screen: reload the page to try again."), false);
    }
  },
  state: onState,
  room: (msg) => acceptRoom(msg.room),
});
ctx.socket.connect();

// A new size (the window moved to the TV): draw the board again for its box.
let sized = "";
new ResizeObserver(() => {
  const board = $("board");
  const size = `${board.clientWidth}x${board.clientHeight}`;
  if (size !== sized && ctx.view) {
    sized = size;
    common.resetBoard(board);
    requestAnimationFrame(renderTable);
  }
}).observe($("board"));

// The replay page: a finished hand of a match, every hand face up, stepped through move by move
// (forward, back, a move from the list, the slider, or played on its own), with the fair-shuffle
// check of the hand and a link to the position on the screen. The positions come from the
// server, replayed by the engine from the match record; each is drawn by the game's own table
// module, as at the table, for a spectator who sees every hand.

import { verifyHand } from "./shuffle.js";
import { roomSeat } from "./store.js";
import { tileSVG } from "./tiles.js";
import * as common from "./table/common.js";
import * as line from "./table/line.js";
import * as texas42 from "./table/texas42.js";
import * as trains from "./table/trains.js";
import * as ends from "./table/ends.js";
import * as chicken from "./table/chicken.js";

const { h, seatName, sideName, topOf } = common;
const TABLES = { block: line, draw: line, allfives: line, texas42, mexican_train: trains, chicken_foot: chicken };
/** Autoplay's pace: a move every so many milliseconds. */
const STEP_MS = 1400;

const $ = (id) => document.getElementById(id);
const app = $("replay");
const code = app.dataset.code;
const number = Number(app.dataset.number);
const games = JSON.parse($("games-data").textContent);
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

/** What the table modules read (`view`, `room`, `seat`), and the replay's own place in it. */
const ctx = {
  code, room: null, seat: null, view: null, history: { dealt: {}, hands: {} },
  record: null, data: null, hand: 0, move: 0, fair: {}, ready: false,
  /** The seat reviewed and its review: `{hand: {move: item}}` by the hand's action index. */
  review: { seat: null, items: null },
};
window.replay = ctx; // for the console and for tests

const positionsOf = new Map();
let events = [];
let upTo = [];
let timer = null;

async function getJSON(url) {
  let response;
  try {
    response = await fetch(url, { headers: { Accept: "application/json" } });
  } catch {
    throw new Error("The server cannot be reached. Check the connection and reload the page.");
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const err = new Error(body?.detail || `The server answered ${response.status}.`);
    err.status = response.status;
    throw err;
  }
  return body;
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = !text;
}

function tableOf(game) {
  return TABLES[game] || ends;
}

/** `?hand=2&move=17`: hand 2 (counted from 1, as on the page) after its 17th move (0: the deal).
 * Without a hand, the last hand that ended (the one the room's end-of-hand screen shows). */
function wanted() {
  const q = new URLSearchParams(window.location.search);
  const hand = Number.parseInt(q.get("hand") ?? "", 10);
  const move = Number.parseInt(q.get("move") ?? "", 10);
  const latest = (ctx.record?.hands.length ?? 1) - 1;
  return { hand: Number.isFinite(hand) ? hand - 1 : latest, move: Number.isFinite(move) ? move : 0 };
}

function positionURL(hand = ctx.hand, move = ctx.move) {
  return `?hand=${hand + 1}&move=${move}`;
}

const clamp = (n, low, high) => Math.max(low, Math.min(high, n));

async function start() {
  try {
    ctx.record = await getJSON(`/api/rooms/${code}/matches/${number}/`);
  } catch (err) {
    $("loading").hidden = true;
    showError(err.status === 404 ? `This room has no match ${number + 1} to replay. Check the link you were sent.`
      : err.message);
    return;
  }
  const record = ctx.record;
  ctx.room = { seats: record.seats.map((s, seat) => ({ seat, name: s.name, ai: s.ai })), host_seat: null };
  const game = games.find((g) => g.name === record.game);
  const title = `Replay: ${game ? game.title : record.game}, ${record.players} players, match ${number + 1}`;
  $("replay-title").textContent = title;
  document.body.dataset.game = record.game;
  document.title = `${title} · Dominoes`;
  if (!record.hands.length) {
    $("loading").textContent = "No hand of this match is over yet: each hand can be replayed once it ends.";
    return;
  }
  $("hand-select").replaceChildren(...record.hands.map((_, i) => h("option", { value: i, text: `${i + 1} of ${record.hands.length}` })));
  const want = wanted();
  await showHand(clamp(want.hand, 0, record.hands.length - 1), want.move);
  startReview();
}

/** The review panel: this device's own seat first (its token may read it during the match),
 * any seat once the match is over. */
function startReview() {
  const own = roomSeat(code);
  const seats = ctx.record.seats.map((s, seat) => seat);
  const first = own?.seat !== undefined && own.seat !== null && own.seat < seats.length ? own.seat : 0;
  $("review-seat").replaceChildren(...seats.map((seat) => h("option", { value: seat, text: seatName(ctx, seat) })));
  $("review-seat").value = String(first);
  $("review-seat").addEventListener("change", () => loadReview(Number($("review-seat").value)));
  loadReview(first);
}

let reviewTimer = null;

/** Fetch seat `seat`'s review; while the server is still working it out (202), ask again. */
async function loadReview(seat) {
  clearTimeout(reviewTimer);
  ctx.review = { seat, items: null };
  const own = roomSeat(code);
  const headers = { Accept: "application/json" };
  if (own?.token && own.seat === seat) headers.Authorization = `Bearer ${own.token}`;
  $("review-status").textContent = "Asking the Hard AI…";
  let response;
  try {
    response = await fetch(`/api/rooms/${code}/matches/${number}/review/?seat=${seat}`, { headers });
  } catch {
    $("review-status").textContent = "The server cannot be reached for the review.";
    return;
  }
  if (ctx.review.seat !== seat) return;
  if (response.status === 202) {
    $("review-status").textContent = "The Hard AI is going through these moves: the marks appear in a moment.";
    reviewTimer = setTimeout(() => loadReview(seat), 3000);
    return;
  }
  if (!response.ok) {
    $("review-status").textContent = response.status === 401 || response.status === 403
      ? "Another player's review opens once the match is over." : "No review of these moves.";
    refreshMarks();
    return;
  }
  const byHand = {};
  for (const item of await response.json()) (byHand[item.hand] ||= {})[item.move] = item;
  ctx.review = { seat, items: byHand };
  const marks = Object.values(byHand).flatMap((m) => Object.values(m)).filter(worthMarking).length;
  $("review-status").textContent = marks
    ? `${marks} move${marks === 1 ? "" : "s"} of ${seatName(ctx, seat)} marked with ◆ where Hard would have played differently.`
    : `Hard would have played every move of ${seatName(ctx, seat)} about the same way.`;
  refreshMarks();
}

function refreshMarks() {
  if (!ctx.data) return;
  renderMoves();
  goTo(ctx.move, false);
}

/** A review item worth a mark: Hard chose otherwise and by a margin it can tell. */
function worthMarking(item) {
  return item.loss >= (item.unit === "marks" ? 0.05 : 0.5);
}

/** The review of the move into position `i` (the hand's action i - 1), if it is marked. */
function reviewAt(i) {
  const item = i > 0 ? ctx.review.items?.[ctx.hand]?.[i - 1] : null;
  return item && worthMarking(item) ? item : null;
}

function actionWords(action) {
  if (action.type === "play") return `${Math.min(...action.tile)}|${Math.max(...action.tile)}`;
  if (action.type === "bid") return `a bid of ${action.value}`;
  if (action.type === "trump") return `${action.suit} as trumps`;
  return action.type.replace("_", " ");
}

function reviewWords(item) {
  const amount = item.unit === "marks" ? item.loss.toFixed(1) : String(Math.round(item.loss));
  const unit = amount === "1" ? item.unit.replace(/s$/, "") : item.unit;
  return `Hard would have played ${actionWords(item.best)} here: about ${amount} ${unit} better. ${item.why}`;
}

async function showHand(hand, move = 0) {
  stop();
  let data = positionsOf.get(hand);
  if (!data) {
    $("loading").hidden = false;
    $("loading").textContent = `Loading hand ${hand + 1}…`;
    try {
      data = await getJSON(`/api/rooms/${code}/matches/${number}/hands/${hand}/positions/`);
    } catch (err) {
      showError(err.message);
      return;
    }
    positionsOf.set(hand, data);
  }
  $("loading").hidden = true;
  $("viewer").hidden = false;
  ctx.hand = hand;
  ctx.data = data;
  $("hand-select").value = String(hand);
  events = [];
  upTo = data.positions.map((p) => {
    events.push(...p.events);
    return events.length;
  });
  common.resetBoard($("board"));
  renderMoves();
  checkShuffle(data);
  ctx.ready = true;
  goTo(move, false);
}

function last() {
  return ctx.data.positions.length - 1;
}

/** The view a table module draws: the position's own keys over those every position shares. */
function viewAt(i) {
  const data = ctx.data;
  const p = data.positions[i];
  return { ...data.shared, ...p.view, game: data.game, players: data.players, seat: null, legal: [],
    log: events.slice(0, upTo[i]), last_hand: null, match_over: false, result: null };
}

/** What the move into position `i` did, in words ("Ann played 6-4 on the left end"). */
function moveWords(i) {
  const table = tableOf(ctx.data.game);
  const said = [];
  let by;
  for (const e of ctx.data.positions[i].events) {
    const words = e.type === "hand_end" ? null : common.phrase(table, ctx, e);
    if (words === null) continue;
    if (e.seat === undefined || e.seat === null) {
      said.push(common.cap(words));
      by = undefined;
    } else if (e.seat === by) {
      said[said.length - 1] += ` and ${words}`; // one seat's turn in one phrase
    } else {
      said.push(`${common.bareName(ctx, e.seat)} ${words}`);
      by = e.seat;
    }
  }
  if (said.length) return said.join("; ");
  const p = ctx.data.positions[i];
  return p.seat === null ? "The deal" : `${seatName(ctx, p.seat)}: ${p.action?.type ?? "a move"}`;
}

function goTo(i, scroll = true) {
  if (!ctx.data) return;
  const move = clamp(Number.isFinite(i) ? i : 0, 0, last());
  ctx.move = move;
  ctx.view = viewAt(move);
  const table = tableOf(ctx.data.game);
  const view = ctx.view;
  const lastMove = move ? common.lastMove(table, ctx) : { keys: [] };
  $("zoom").hidden = !table.zoomable;
  table.board(ctx, $("board"), { chosen: null, targets: [], onEnd: () => {}, last: move ? lastMove.keys : [] });
  const total = last();
  const next = view.to_move === null || view.to_move === undefined ? "" : ` Next: ${seatName(ctx, view.to_move)}.`;
  const status = move === 0 ? `The deal of hand ${ctx.hand + 1}.${next}`
    : `Move ${move} of ${total}: ${moveWords(move)}.${move === total ? " The hand is over." : next}`;
  $("status").textContent = status;
  const reviewed = reviewAt(move);
  $("review-note").hidden = !reviewed;
  $("review-note").textContent = reviewed ? reviewWords(reviewed) : "";
  $("scores").textContent = `Match score: ${(view.scores || []).map((s, side) => `${sideName(ctx, side)} ${s}`).join(" · ")}`;
  renderHands(view);
  renderEnd(table, move === total);
  const scrub = $("scrub");
  scrub.max = String(total);
  scrub.value = String(move);
  scrub.setAttribute("aria-valuetext", move === 0 ? "the deal" : `move ${move} of ${total}`);
  $("to-start").disabled = $("back").disabled = move === 0;
  $("to-end").disabled = $("forward").disabled = move === total;
  for (const button of $("moves").querySelectorAll("button")) {
    const here = Number(button.dataset.move) === move;
    if (here) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
    if (here && scroll) keepInView($("moves"), button);
  }
  const url = positionURL();
  if (window.location.search !== url) window.history.replaceState(null, "", url);
  $("position-link").textContent = `${app.dataset.link}${url}`;
  $("copied").textContent = "";
}

/** Scroll the move list (only the list, never the page) so that `item` shows. */
function keepInView(list, item) {
  const top = item.offsetTop; // the list is the buttons' offset parent
  if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTo({ top: top - list.clientHeight / 3, behavior: reducedMotion.matches ? "auto" : "smooth" });
  }
}

function sortTiles(tiles) {
  return [...tiles].sort((a, b) => Math.max(...b) - Math.max(...a) || Math.min(...b) - Math.min(...a));
}

/** Every seat's tiles face up, the seat to play marked in words. */
function renderHands(view) {
  const hands = ctx.data.positions[ctx.move].hands;
  const top = topOf(view);
  $("hands").replaceChildren(...hands.map((tiles, seat) => {
    const toPlay = view.to_move === seat;
    return h("li", { class: `seat-hand${toPlay ? " to-move" : ""}`, "data-seat": seat },
      h("p", { class: "who" }, h("strong", { text: seatName(ctx, seat) }),
        ` · ${tiles.length} tile${tiles.length === 1 ? "" : "s"}`, toPlay ? h("span", { class: "badge", text: "to play" }) : ""),
      tiles.length ? h("div", { class: "tile-row" }, ...sortTiles(tiles).map((t) => tileSVG(t, { top, size: 44 })))
        : h("p", { class: "hint", text: "No tiles left" }));
  }));
}

/** The move list: the deal, then one button per move. */
function renderMoves() {
  $("moves").replaceChildren(...ctx.data.positions.map((_, i) => {
    const reviewed = reviewAt(i);
    return h("li", {}, h("button", { type: "button", "data-move": i, class: reviewed ? "reviewed" : "",
      "aria-label": reviewed ? `${i}. ${moveWords(i)}: Hard would have played ${actionWords(reviewed.best)}` : null,
      onclick: () => { stop(); goTo(i); },
      text: `${i === 0 ? "The deal" : `${i}. ${moveWords(i)}`}${reviewed ? " ◆" : ""}` }));
  }));
}

/** At the last position: who won the hand, its points, and the match after it. */
function renderEnd(table, atEnd) {
  const panel = $("hand-end");
  panel.hidden = !atEnd || !ctx.data.summary;
  if (panel.hidden) return;
  const data = ctx.data;
  const summary = data.summary;
  const points = common.handPoints(table, ctx.view, summary);
  const who = summary.winner === null || summary.winner === undefined ? "nobody" : sideName(ctx, summary.winner);
  const lines = table.summaryLines ? table.summaryLines(ctx, summary)
    : [h("p", {}, `${summary.blocked ? "Blocked. " : ""}${who} won the hand`,
      points.length ? `: ${points.map((p, i) => `${sideName(ctx, i)} ${p}`).join(", ")}.` : ".")];
  const after = (data.scores_after || []).map((s, side) => `${sideName(ctx, side)} ${s}`).join(" · ");
  const result = data.match_over && data.result ? (data.result.winner === null || data.result.winner === undefined
    ? "The match ended in a tie." : `${sideName(ctx, data.result.winner)} won the match.`) : "";
  const nextHand = ctx.hand + 1 < ctx.record.hands.length
    ? h("button", { type: "button", id: "next-hand", onclick: () => showHand(ctx.hand + 1, 0), text: `Replay hand ${ctx.hand + 2}` })
    : null;
  $("hand-end-text").replaceChildren(...lines, h("p", { text: `Match score after this hand: ${after}.` }),
    result ? h("p", { class: "result", text: result }) : "", nextHand || "");
}

/** The fair-shuffle check of the hand: the revealed seed against the commitment shown before the
 * deal, and the published shuffle dealing exactly the tiles that were dealt. */
async function checkShuffle(data) {
  const box = $("fair");
  const summary = data.summary;
  const hand = data.hand;
  if (!summary) {
    box.className = "fair bad";
    box.textContent = "This hand has no summary to check.";
    return;
  }
  box.className = "fair pending";
  box.textContent = "Checking the shuffle…";
  let result;
  try {
    result = await verifyHand({ seed: data.seed, commitment: data.commitment, dealt: summary.dealt,
      top: topOf({ options: data.shared.options }), engine: summary.engine || null });
  } catch (err) {
    if (ctx.hand !== hand) return;
    box.className = "fair bad";
    box.textContent = `The shuffle could not be checked: ${err.message}`;
    return;
  }
  ctx.fair[hand] = result.ok;
  if (ctx.hand !== hand) return;
  box.className = `fair ${result.ok ? "ok" : "bad"}`;
  box.dataset.ok = String(result.ok);
  box.replaceChildren(
    h("span", { class: "fair-badge", text: result.ok ? "✓ Fair shuffle" : "✗ Shuffle check failed" }),
    h("p", { text: result.ok
      ? `Your browser recomputed hand ${hand + 1} from its revealed seed: the seed's SHA-256 equals the commitment shown `
        + "before the deal, and the HMAC-SHA256 Fisher-Yates shuffle deals exactly the tiles each player was dealt."
      : "The revealed seed does not reproduce this hand. Details below." }),
    h("ul", {}, ...result.checks.map((c) => h("li", { text: `${c.ok ? "✓" : "✗"} ${c.name}: ${c.detail}` }))),
    h("p", {}, "Seed ", h("code", { text: data.seed })),
  );
}

function stop() {
  if (timer !== null) window.clearInterval(timer);
  timer = null;
  const button = $("autoplay");
  button.setAttribute("aria-pressed", "false");
  button.textContent = "Play";
}

function play() {
  if (!ctx.data) return;
  if (ctx.move >= last()) goTo(0);
  const button = $("autoplay");
  button.setAttribute("aria-pressed", "true");
  button.textContent = "Pause";
  timer = window.setInterval(() => {
    if (ctx.move >= last()) {
      stop();
      return;
    }
    goTo(ctx.move + 1);
  }, reducedMotion.matches ? STEP_MS * 1.5 : STEP_MS);
}

async function copyLink() {
  const text = $("position-link").textContent;
  const said = $("copied");
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      said.textContent = "Copied: paste it into a message.";
      return;
    }
  } catch {
    // refused: select the link instead
  }
  const range = document.createRange();
  range.selectNodeContents($("position-link"));
  getSelection().removeAllRanges();
  getSelection().addRange(range);
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch {
    copied = false;
  }
  said.textContent = copied ? "Copied: paste it into a message." : "The link is selected: copy it with your phone's Copy (or Ctrl+C).";
}

$("to-start").addEventListener("click", () => { stop(); goTo(0); });
$("back").addEventListener("click", () => { stop(); goTo(ctx.move - 1); });
$("forward").addEventListener("click", () => { stop(); goTo(ctx.move + 1); });
$("to-end").addEventListener("click", () => { stop(); goTo(last()); });
$("autoplay").addEventListener("click", () => (timer === null ? play() : stop()));
$("scrub").addEventListener("input", (e) => { stop(); goTo(Number(e.target.value)); });
$("hand-select").addEventListener("change", (e) => showHand(Number(e.target.value), 0));
$("copy-position").addEventListener("click", copyLink);
if (typeof navigator.share === "function") {
  $("share-position").hidden = false;
  $("share-position").addEventListener("click", async () => {
    try {
      await navigator.share({ title: document.title, text: "Look at this moment of our game:", url: $("position-link").textContent });
    } catch (err) {
      if (err.name !== "AbortError") $("copied").textContent = "Sharing did not work here: copy the link instead.";
    }
  });
}
$("zoom").addEventListener("click", (e) => {
  const how = e.target.closest("button")?.dataset.zoom;
  if (how && ctx.data) tableOf(ctx.data.game).zoom?.($("board"), how);
});
// The arrow keys step (outside the fields, which use them themselves); Home and End jump.
document.addEventListener("keydown", (e) => {
  if (!ctx.data || e.altKey || e.ctrlKey || e.metaKey || e.target.closest?.("input, select, textarea")) return;
  const to = { ArrowLeft: ctx.move - 1, ArrowRight: ctx.move + 1, Home: 0, End: last() }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  stop();
  goTo(to);
});
// The browser's back and forward restore the position of their URL.
window.addEventListener("popstate", () => {
  const want = wanted();
  if (want.hand !== ctx.hand) showHand(clamp(want.hand, 0, ctx.record.hands.length - 1), want.move);
  else goTo(want.move);
});
// A new size (a phone turned): draw the table again for its box.
let sized = "";
new ResizeObserver(() => {
  const board = $("board");
  const size = `${board.clientWidth}x${board.clientHeight}`;
  if (size !== sized && ctx.data) {
    sized = size;
    requestAnimationFrame(() => goTo(ctx.move, false));
  }
}).observe($("board"));

start();

// The replay page: a finished hand of a match, every hand face up, stepped through move by move
// (forward, back, a move from the list, the slider, or played on its own), with the fair-shuffle
// check of the hand and a link to the position on the screen. The positions come from the
// server, replayed by the engine from the match record; each is drawn by the game's own table
// module, as at the table, for a spectator who sees every hand.

import { formatNumber, gettext, interpolate, ngettext, pgettext } from "./i18n.js";
import { verifyHand } from "./shuffle.js";
import { roomSeat } from "./store.js";
import { tileSVG } from "./tiles.js";
import * as common from "./table/common.js";
import * as line from "./table/line.js";
import * as texas42 from "./table/texas42.js";
import * as trains from "./table/trains.js";
import * as ends from "./table/ends.js";
import * as chicken from "./table/chicken.js";
import * as fiveup from "./table/fiveup.js";

const { h, seatName, sideName, topOf } = common;
const TABLES = { block: line, draw: line, allfives: line, texas42, mexican_train: trains, chicken_foot: chicken, fiveup };
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
    throw new Error(gettext("The server cannot be reached. Check the connection and reload the page."));
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const err = new Error(body?.detail || interpolate(gettext("The server answered %(status)s."), { status: response.status }));
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
    showError(err.status === 404
      ? interpolate(gettext("This room has no match %(number)s to replay. Check the link you were sent."), { number: formatNumber(number + 1) })
      : err.message);
    return;
  }
  const record = ctx.record;
  ctx.room = { seats: record.seats.map((s, seat) => ({ seat, name: s.name, ai: s.ai })), host_seat: null };
  const game = games.find((g) => g.name === record.game);
  // Translators: the replay page's title, e.g. "Replay: Mexican Train, 4 players, match 2".
  const title = interpolate(ngettext("Replay: %(game)s, %(count)s player, match %(number)s",
    "Replay: %(game)s, %(count)s players, match %(number)s", record.players),
  { game: game ? game.title : record.game, count: formatNumber(record.players), number: formatNumber(number + 1) });
  $("replay-title").textContent = title;
  document.body.dataset.game = record.game;
  document.title = interpolate(gettext("%(title)s · Dominoes"), { title });
  if (!record.hands.length) {
    $("loading").textContent = gettext("No hand of this match is over yet: each hand can be replayed once it ends.");
    return;
  }
  const count = formatNumber(record.hands.length);
  // Translators: a hand in the list of the match's hands, e.g. "2 of 5".
  const handOf = (i) => interpolate(gettext("%(number)s of %(count)s"), { number: formatNumber(i + 1), count });
  $("hand-select").replaceChildren(...record.hands.map((_, i) => h("option", { value: i, text: handOf(i) })));
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
  $("review-status").textContent = gettext("Asking the Hard AI…");
  let response;
  try {
    response = await fetch(`/api/rooms/${code}/matches/${number}/review/?seat=${seat}`, { headers });
  } catch {
    $("review-status").textContent = gettext("The server cannot be reached for the review.");
    return;
  }
  if (ctx.review.seat !== seat) return;
  if (response.status === 202) {
    $("review-status").textContent = gettext("The Hard AI is going through these moves: the marks appear in a moment.");
    reviewTimer = setTimeout(() => loadReview(seat), 3000);
    return;
  }
  if (!response.ok) {
    $("review-status").textContent = response.status === 401 || response.status === 403
      ? gettext("Another player's review opens once the match is over.") : gettext("No review of these moves.");
    refreshMarks();
    return;
  }
  const byHand = {};
  for (const item of await response.json()) (byHand[item.hand] ||= {})[item.move] = item;
  ctx.review = { seat, items: byHand };
  const marks = Object.values(byHand).flatMap((m) => Object.values(m)).filter(worthMarking).length;
  const name = seatName(ctx, seat);
  $("review-status").textContent = marks
    ? interpolate(ngettext("%(count)s move of %(name)s marked with ◆ where Hard would have played differently.",
      "%(count)s moves of %(name)s marked with ◆ where Hard would have played differently.", marks),
    { count: formatNumber(marks), name })
    : interpolate(gettext("Hard would have played every move of %(name)s about the same way."), { name });
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

/** The other moves a review may name, by the action's type. */
const ACTION_WORDS = {
  // Translators: what the Hard AI would have chosen instead: "Hard would have played pass here".
  pass: pgettext("review action", "pass"),
  draw: pgettext("review action", "draw"),
  end_turn: pgettext("review action", "end turn"),
};

function actionWords(action) {
  if (action.type === "play") return `${Math.min(...action.tile)}|${Math.max(...action.tile)}`;
  if (action.type === "bid") return interpolate(gettext("a bid of %(bid)s"), { bid: texas42.bidName(action.value, action.contract) });
  if (action.type === "trump") return interpolate(gettext("%(trump)s as trumps"), { trump: texas42.trumpName(action.suit) });
  return ACTION_WORDS[action.type] || action.type.replace("_", " ");
}

function reviewWords(item) {
  const count = item.unit === "marks" ? Math.round(item.loss * 10) / 10 : Math.round(item.loss);
  const amount = item.unit === "marks"
    ? interpolate(ngettext("%(count)s mark", "%(count)s marks", count), { count: formatNumber(count) })
    : interpolate(ngettext("%(count)s point", "%(count)s points", count), { count: formatNumber(count) });
  // Translators: the review of one move; %(amount)s is e.g. "12 points" or "0.5 marks". The
  // Hard AI's reason follows the sentence.
  const said = interpolate(gettext("Hard would have played %(action)s here: about %(amount)s better."),
    { action: actionWords(item.best), amount });
  return `${said} ${item.why}`;
}

async function showHand(hand, move = 0) {
  stop();
  let data = positionsOf.get(hand);
  if (!data) {
    $("loading").hidden = false;
    $("loading").textContent = interpolate(gettext("Loading hand %(number)s…"), { number: formatNumber(hand + 1) });
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
  // The whole hand's log, for a table module that names an end by a tile laid later in the
  // hand than the position shown (the move list says every move, whatever the position).
  ctx.handLog = events;
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

/** What the move into position `i` did, in whole sentences, as the table's log says it ("Ann
 * played 6|4 on the left end."). */
function moveWords(i) {
  const table = tableOf(ctx.data.game);
  const said = common.sentences(table, ctx, ctx.data.positions[i].events);
  if (said.length) return said.join(" ");
  const p = ctx.data.positions[i];
  if (p.seat === null) return `${gettext("The deal")}.`;
  const type = p.action?.type;
  // Translators: a move the replay has no sentence for, e.g. "Ann: end turn."
  return interpolate(gettext("%(name)s: %(action)s."),
    { name: seatName(ctx, p.seat), action: type ? ACTION_WORDS[type] || type : gettext("a move") });
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
  const next = view.to_move === null || view.to_move === undefined ? ""
    : interpolate(gettext("Next: %(name)s."), { name: seatName(ctx, view.to_move) });
  const counted = { move: formatNumber(move), total: formatNumber(total) };
  const status = move === 0
    ? [interpolate(gettext("The deal of hand %(number)s."), { number: formatNumber(ctx.hand + 1) }), next]
    // Translators: %(words)s is one or more whole sentences ("Ann played 6|4 on the left end.").
    : [interpolate(gettext("Move %(move)s of %(total)s: %(words)s"), { ...counted, words: moveWords(move) }),
      move === total ? gettext("The hand is over.") : next];
  $("status").textContent = status.filter(Boolean).join(" ");
  const reviewed = reviewAt(move);
  $("review-note").hidden = !reviewed;
  $("review-note").textContent = reviewed ? reviewWords(reviewed) : "";
  $("scores").textContent = interpolate(gettext("Match score: %(scores)s"), { scores: scoresWords(view.scores, " · ") });
  renderHands(view);
  renderEnd(table, move === total);
  const scrub = $("scrub");
  scrub.max = String(total);
  scrub.value = String(move);
  scrub.setAttribute("aria-valuetext", move === 0 ? gettext("the deal") : interpolate(gettext("move %(move)s of %(total)s"), counted));
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
    const held = interpolate(ngettext("%(count)s tile", "%(count)s tiles", tiles.length), { count: formatNumber(tiles.length) });
    return h("li", { class: `seat-hand${toPlay ? " to-move" : ""}`, "data-seat": seat },
      h("p", { class: "who" }, h("strong", { text: seatName(ctx, seat) }),
        ` · ${held}`, toPlay ? h("span", { class: "badge", text: gettext("to play") }) : ""),
      tiles.length ? h("div", { class: "tile-row" }, ...sortTiles(tiles).map((t) => tileSVG(t, { top, size: 44 })))
        : h("p", { class: "hint", text: gettext("No tiles left") }));
  }));
}

/** The move list: the deal, then one button per move. */
function renderMoves() {
  $("moves").replaceChildren(...ctx.data.positions.map((_, i) => {
    const reviewed = reviewAt(i);
    const words = i === 0 ? gettext("The deal") : `${formatNumber(i)}. ${moveWords(i)}`;
    return h("li", {}, h("button", { type: "button", "data-move": i, class: reviewed ? "reviewed" : "",
      "aria-label": reviewed
        ? `${words} ${interpolate(gettext("Hard would have played %(action)s."), { action: actionWords(reviewed.best) })}` : null,
      onclick: () => { stop(); goTo(i); },
      text: `${words}${reviewed ? " ◆" : ""}` }));
  }));
}

/** "Ann 12 · Bob 30": each side's score (a number or words the table module gave). */
function scoresWords(scores, joiner) {
  return (scores || []).map((s, side) => `${sideName(ctx, side)} ${typeof s === "number" ? formatNumber(s) : s}`).join(joiner);
}

/** "Blocked. Ann won the hand: Ann 12, Bob 0." */
function handResult(summary, points) {
  const won = summary.winner !== null && summary.winner !== undefined;
  const values = { name: won ? sideName(ctx, summary.winner) : "", points: scoresWords(points, ", ") };
  let text;
  if (points.length) {
    text = won ? interpolate(gettext("%(name)s won the hand: %(points)s."), values)
      : interpolate(gettext("Nobody won the hand: %(points)s."), values);
  } else {
    text = won ? interpolate(gettext("%(name)s won the hand."), values) : gettext("Nobody won the hand.");
  }
  return summary.blocked ? `${gettext("Blocked.")} ${text}` : text;
}

/** At the last position: who won the hand, its points, and the match after it. */
function renderEnd(table, atEnd) {
  const panel = $("hand-end");
  panel.hidden = !atEnd || !ctx.data.summary;
  if (panel.hidden) return;
  const data = ctx.data;
  const summary = data.summary;
  const points = common.handPoints(table, ctx.view, summary);
  const lines = table.summaryLines ? table.summaryLines(ctx, summary) : [h("p", { text: handResult(summary, points) })];
  const after = scoresWords(data.scores_after, " · ");
  const result = data.match_over && data.result ? (data.result.winner === null || data.result.winner === undefined
    ? gettext("The match ended in a tie.") : interpolate(gettext("%(name)s won the match."), { name: sideName(ctx, data.result.winner) })) : "";
  const nextHand = ctx.hand + 1 < ctx.record.hands.length
    ? h("button", { type: "button", id: "next-hand", onclick: () => showHand(ctx.hand + 1, 0),
      text: interpolate(gettext("Replay hand %(number)s"), { number: formatNumber(ctx.hand + 2) }) })
    : null;
  $("hand-end-text").replaceChildren(...lines,
    h("p", { text: interpolate(gettext("Match score after this hand: %(scores)s."), { scores: after }) }),
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
    box.textContent = gettext("This hand has no summary to check.");
    return;
  }
  box.className = "fair pending";
  box.textContent = gettext("Checking the shuffle…");
  let result;
  try {
    result = await verifyHand({ seed: data.seed, commitment: data.commitment, dealt: summary.dealt,
      top: topOf({ options: data.shared.options }), engine: summary.engine || null });
  } catch (err) {
    if (ctx.hand !== hand) return;
    box.className = "fair bad";
    box.textContent = interpolate(gettext("The shuffle could not be checked: %(error)s"), { error: err.message });
    return;
  }
  ctx.fair[hand] = result.ok;
  if (ctx.hand !== hand) return;
  box.className = `fair ${result.ok ? "ok" : "bad"}`;
  box.dataset.ok = String(result.ok);
  box.replaceChildren(
    h("span", { class: "fair-badge", text: result.ok ? `✓ ${gettext("Fair shuffle")}` : `✗ ${gettext("Shuffle check failed")}` }),
    h("p", { text: result.ok
      ? interpolate(gettext("Your browser recomputed hand %(number)s from its revealed seed: the seed's SHA-256 equals the commitment shown before the deal, and the HMAC-SHA256 Fisher-Yates shuffle deals exactly the tiles each player was dealt."),
        { number: formatNumber(hand + 1) })
      : gettext("The revealed seed does not reproduce this hand. Details below.") }),
    h("ul", {}, ...result.checks.map((c) => h("li", { text: `${c.ok ? "✓" : "✗"} ${c.label ?? c.name}: ${c.detail}` }))),
    // Translators: before the fair shuffle's seed, a long hexadecimal number.
    h("p", {}, `${gettext("Seed")} `, h("code", { text: data.seed })),
  );
}

function stop() {
  if (timer !== null) window.clearInterval(timer);
  timer = null;
  const button = $("autoplay");
  button.setAttribute("aria-pressed", "false");
  button.textContent = pgettext("replay autoplay button", "Play");
}

function play() {
  if (!ctx.data) return;
  if (ctx.move >= last()) goTo(0);
  const button = $("autoplay");
  button.setAttribute("aria-pressed", "true");
  button.textContent = pgettext("replay autoplay button", "Pause");
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
      said.textContent = gettext("Copied: paste it into a message.");
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
  said.textContent = copied ? gettext("Copied: paste it into a message.")
    : gettext("The link is selected: copy it with your phone's Copy (or Ctrl+C).");
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
      await navigator.share({ title: document.title, text: gettext("Look at this moment of our game:"), url: $("position-link").textContent });
    } catch (err) {
      if (err.name !== "AbortError") $("copied").textContent = gettext("Sharing did not work here: copy the link instead.");
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

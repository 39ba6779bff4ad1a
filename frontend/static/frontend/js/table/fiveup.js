// Five-Up: every double is a spinner, so the layout is a tree. Drawn phone-first as rows: the
// main line (the lead and everything grown from its two sides) and one row for each branch grown
// from a double's crosswise ends ("From 5|5, up"), each scrolling sideways inside its own box,
// never the page. Every open end is a button at the end of its row showing its number and what
// it adds to the count; a double whose free side counts both halves is framed and says so. Over
// the rows: the count ("Count 15: scores 3"), points left unclaimed, and each side's pegs on the
// way to the target, as on a cribbage board (the numbers written out, not told by a bar alone).
// With the muggins house rule, `controls` puts the "Claim my points" toggle and the "Muggins!"
// button under the hand, and `offered` / `outgoing` keep the claim out of the choice of a tile.

import { tileKey, tileLabel, tileName, tileSVG } from "../tiles.js";
import { markTiles, zoomRows } from "./branch.js";
import { h, orWords, seatName, setHidden, shownAndSaid, sideName, tileCount, topOf } from "./common.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";

export const zoomable = true;
/** The last move says what a play scored ("… and scored 3") and the count says what it makes:
 * no score flashed over the board as well (it would take a line of a phone's board). */
export const scoreFlash = false;

/* The tree: which row each tile and each open end belongs to. */

const END = /^(\d+)([lrud]?)$/;

/** An end id as docs/rules-fiveup.md writes it: "0l", "0r", "0u", "0d", "7", "7u", "7d". */
function parseEnd(id) {
  const m = END.exec(id ?? "");
  return m ? { k: Number(m[1]), sub: m[2] } : null;
}

const isDouble = (tile) => tile[0] === tile[1];
const crosswise = (id) => /[ud]$/.test(id ?? "");

/** The tiles on the table in play order, `{tile, on, inner, outer}`: the view's layout, or the
 * plays of a log (a hand already over, whose layout the view no longer holds). */
const fromLogs = new WeakMap();

function itemsOf(view, log) {
  if (!log && Array.isArray(view.layout)) return view.layout;
  const source = log || view.log || [];
  let items = fromLogs.get(source);
  if (!items) {
    items = source.filter((e) => e.type === "play").map((e) => ({ tile: e.tile, on: e.end ?? null }));
    fromLogs.set(source, items);
  }
  return items;
}

const shapes = new WeakMap();

/** Where each tile lies: `place[k]` is `{row, side}` ("main" with side "left", "lead" or
 * "right"; a branch, named by the crosswise end it grew from, "5u", with side "out"), and the
 * rows with their tiles (the main row's left arm and right arm outward from the lead). */
function shapeOf(items) {
  let s = shapes.get(items);
  if (s) return s;
  const place = [];
  const rows = new Map([["main", { id: "main", from: null, dir: null, left: [], right: [], lead: null, tiles: [] }]]);
  items.forEach((it, k) => {
    const p = k === 0 ? null : parseEnd(it.on);
    let at;
    if (!p) at = { row: "main", side: "lead" };
    else if (p.sub === "l" || p.sub === "r") at = { row: "main", side: p.sub === "l" ? "left" : "right" };
    else if (p.sub === "u" || p.sub === "d") at = { row: it.on, side: "out" };
    else at = place[p.k] && place[p.k].side !== "lead" ? place[p.k] : { row: "main", side: "right" };
    if (!rows.has(at.row)) rows.set(at.row, { id: at.row, from: p.k, dir: p.sub, left: [], right: [], lead: null, tiles: [] });
    const r = rows.get(at.row);
    if (at.side === "left") r.left.push(k);
    else if (at.side === "right") r.right.push(k);
    else if (at.side === "lead") r.lead = k;
    else r.tiles.push(k);
    place.push(at);
  });
  s = { place, rows };
  shapes.set(items, s);
  return s;
}

/** The row and side of open end `id`. */
function endAt(s, id) {
  const p = parseEnd(id);
  if (!p) return null;
  if (p.sub === "l") return { row: "main", side: "left" };
  if (p.sub === "r") return { row: "main", side: "right" };
  if (p.sub === "u" || p.sub === "d") return { row: id, side: "out" };
  return s.place[p.k] || null;
}

/** A row's tiles in the order they lie, left to right. */
function rowTiles(r) {
  if (r.id !== "main") return r.tiles;
  return [...[...r.left].reverse(), ...(r.lead === null ? [] : [r.lead]), ...r.right];
}

/** The double a branch grows from, and which way: {tile, dir} ("u" or "d"). */
function branchOf(items, id) {
  const p = parseEnd(id);
  const tile = p && items[p.k]?.tile;
  return tile ? { tile, dir: p.sub } : null;
}

/* Words for the ends and the rows. */

/** The log a log event belongs to, so that an end named in it is found in the right hand's
 * tree: the whole hand a replay steps through (`ctx.handLog`), the hand that just ended, or
 * (null) the hand under way. */
function logOf(ctx, e) {
  const source = e?.source || e;
  const view = ctx.view || {};
  if (ctx.handLog?.includes(source)) return ctx.handLog;
  if (view.last_hand?.log?.includes(source) && !(view.log || []).includes(source)) return view.last_hand.log;
  return null;
}

/** An end inside a sentence: "the left end", "the branch up from double five" (`tile` writes the
 * double: in words for a screen reader, "5|5" on screen). */
function endWords(view, id, tile = tileName, log = null) {
  const p = parseEnd(id);
  if (!p) return id;
  const items = log ? itemsOf(view, log) : itemsOf(view);
  if (p.sub === "u" || p.sub === "d") {
    const from = items[p.k]?.tile;
    if (!from) return p.sub === "u" ? gettext("a branch up") : gettext("a branch down");
    // Translators: a branch of the layout grown from a double's crosswise end, inside a
    // sentence ("Ann played 6|4 on the branch up from double five").
    return interpolate(p.sub === "u" ? gettext("the branch up from %(tile)s") : gettext("the branch down from %(tile)s"),
      { tile: tile(from) });
  }
  const at = endAt(shapeOf(items), id);
  if (!at) return id;
  // Translators: the two ends of the main line of tiles, inside a sentence.
  if (at.side === "left") return gettext("the left end");
  if (at.side === "right") return gettext("the right end");
  return endWords(view, at.row, tile, log);
}

/** An end inside a sentence (the hand's tiles, "playable on the left end or …"). */
export function endName(ctx, id) {
  return endWords(ctx.view, id);
}

/** An end as a button names it: "Left end", "Up from double five". */
export function endLabel(ctx, id) {
  const items = itemsOf(ctx.view);
  const p = parseEnd(id);
  if (p && (p.sub === "u" || p.sub === "d")) return branchLabel(items, id, tileName);
  const at = p ? endAt(shapeOf(items), id) : null;
  if (!at) return id;
  if (at.side === "left") return gettext("Left end");
  if (at.side === "right") return gettext("Right end");
  return branchLabel(items, at.row, tileName);
}

/** A branch row's name: "From 5|5, up" on screen, "From double five, up" for a screen reader. */
function branchLabel(items, id, tile) {
  const b = branchOf(items, id);
  if (!b) return id;
  // Translators: a row of the board: the branch grown from a double's crosswise end, "From 5|5, up".
  return interpolate(b.dir === "u" ? gettext("From %(tile)s, up") : gettext("From %(tile)s, down"), { tile: tile(b.tile) });
}

/* The words of the log: "Grandma played 6|4 on the left end and scored 3." */

/** A play and the points it scored read as one sentence; so do muggins and its points. */
export function merge(e, next) {
  if (e.type === "play" && next?.type === "score" && next.seat === e.seat) {
    return { ...e, scored: next.points, source: e };
  }
  if (e.type === "muggins" && next?.type === "score" && next.seat === e.seat && next.points === e.points) {
    return { ...e, source: e };
  }
  return null;
}

export function sentence(w, e) {
  const view = w.ctx.view || {};
  if (e.type === "play") {
    const values = { tile: w.tile(e.tile), count: formatNumber(e.scored ?? 0) };
    const led = !e.end;
    if (!led) values.where = endWords(view, e.end, w.spoken ? tileName : tileLabel, logOf(w.ctx, e));
    if (e.scored) {
      return led
        ? w.said(e.seat, ngettext("You led %(tile)s and scored %(count)s.", "You led %(tile)s and scored %(count)s.", e.scored),
          ngettext("%(name)s led %(tile)s and scored %(count)s.", "%(name)s led %(tile)s and scored %(count)s.", e.scored), values)
        : w.said(e.seat, ngettext("You played %(tile)s on %(where)s and scored %(count)s.",
          "You played %(tile)s on %(where)s and scored %(count)s.", e.scored),
        ngettext("%(name)s played %(tile)s on %(where)s and scored %(count)s.",
          "%(name)s played %(tile)s on %(where)s and scored %(count)s.", e.scored), values);
    }
    if (e.claim && e.seat === w.ctx.seat) {
      // Translators: muggins house rule: you claimed points for a play that made none. Said to
      // the player alone: the computer players claim every play, and the table need not hear it.
      return led
        ? w.said(e.seat, gettext("You led %(tile)s and claimed points, but it scored nothing."), "", values)
        : w.said(e.seat, gettext("You played %(tile)s on %(where)s and claimed points, but it scored nothing."), "", values);
    }
    const left = view.unclaimed;
    const plays = (view.log || []).filter((x) => x.type === "play");
    if (left && left.points && left.seat === e.seat && plays[plays.length - 1] === (e.source || e)) {
      // The play under way left points unclaimed: the next player may call muggins.
      const n = left.points;
      values.count = formatNumber(n);
      return led
        ? w.said(e.seat, ngettext("You led %(tile)s and left %(count)s point unclaimed.",
          "You led %(tile)s and left %(count)s points unclaimed.", n),
        ngettext("%(name)s led %(tile)s and left %(count)s point unclaimed.", "%(name)s led %(tile)s and left %(count)s points unclaimed.", n),
        values)
        : w.said(e.seat, ngettext("You played %(tile)s on %(where)s and left %(count)s point unclaimed.",
          "You played %(tile)s on %(where)s and left %(count)s points unclaimed.", n),
        ngettext("%(name)s played %(tile)s on %(where)s and left %(count)s point unclaimed.",
          "%(name)s played %(tile)s on %(where)s and left %(count)s points unclaimed.", n), values);
    }
    if (led) return w.said(e.seat, gettext("You led %(tile)s."), gettext("%(name)s led %(tile)s."), values);
    return w.said(e.seat, gettext("You played %(tile)s on %(where)s."), gettext("%(name)s played %(tile)s on %(where)s."), values);
  }
  if (e.type === "muggins") {
    // Translators: muggins house rule: a player took the points the player before them left unclaimed.
    return w.said(e.seat, ngettext("You called muggins: %(count)s point.", "You called muggins: %(count)s points.", e.points),
      ngettext("%(name)s called muggins: %(count)s point.", "%(name)s called muggins: %(count)s points.", e.points),
      { count: formatNumber(e.points) });
  }
  if (e.type === "pass") {
    return w.said(e.seat, gettext("You passed: nothing fits and the boneyard is empty."),
      gettext("%(name)s passed: nothing fits and the boneyard is empty."));
  }
  return undefined;
}

/* The score: points, pegged to the target. */

export function scoreUnit() {
  return "points";
}

function targetOf(view) {
  return view.target ?? view.options?.target ?? 61;
}

/** Points of a finished hand per side: those scored during play and those for going out. */
export function handPoints(view, last) {
  const points = last.points || [];
  const fives = last.fives || [];
  return points.map((p, i) => p + (fives[i] || 0));
}

/** The end of a hand in sentences: how it ended, the pips that scored, the points made during play. */
export function summaryLines(ctx, last) {
  const view = ctx.view;
  const points = last.points || [];
  const win = last.winner ?? null;
  const teams = view.teams || points.map((_, i) => [i]);
  const pipsOf = (seats) => seats.reduce((n, seat) => n + (last.hands_left?.[seat] || []).reduce((m, t) => m + t[0] + t[1], 0), 0);
  const others = win === null ? 0 : teams.reduce((n, seats, side) => n + (side === win ? 0 : pipsOf(seats)), 0);
  const gained = win === null ? 0 : points[win] || 0;
  const values = { count: formatNumber(gained), pips: formatNumber(others) };
  const lines = [];
  if (last.stopped) {
    lines.push(interpolate(gettext("%(name)s reached %(target)s during the hand: the match is over."),
      { name: win === null ? "" : sideName(ctx, win), target: formatNumber(targetOf(view)) }));
  } else if (last.blocked && win !== null) {
    // Translators: Five-Up, a hand nobody could finish; the side with the fewest pips scores the
    // others' pips, rounded to the nearest five, one point for every five.
    lines.push(interpolate(ngettext("Blocked: nobody could play. %(name)s held the fewest pips; the others held %(pips)s, which score %(count)s point.",
      "Blocked: nobody could play. %(name)s held the fewest pips; the others held %(pips)s, which score %(count)s points.", gained),
    { ...values, name: sideName(ctx, win) }));
  } else if (last.blocked) {
    lines.push(points.some(Boolean)
      ? gettext("Blocked: nobody could play. The two with the fewest pips tie and share the third player's points.")
      : gettext("Blocked: nobody could play, and the fewest pips are tied: nobody scores."));
  } else if (win !== null) {
    const out = (last.hands_left || []).findIndex((tiles, seat) => !tiles.length && (teams[win] || []).includes(seat));
    lines.push(interpolate(ngettext("%(name)s went out: the others held %(pips)s pips, which score %(count)s point.",
      "%(name)s went out: the others held %(pips)s pips, which score %(count)s points.", gained),
    { ...values, name: out >= 0 ? seatName(ctx, out) : sideName(ctx, win) }));
  }
  const fives = last.fives || [];
  if (fives.some(Boolean)) {
    const made = fives.map((p, i) => interpolate(gettext("%(name)s %(points)s"), { name: sideName(ctx, i), points: formatNumber(p) }));
    lines.push(interpolate(gettext("Scored during play: %(scores)s."), { scores: made.join(", ") }));
  }
  return lines.map((text) => h("p", { text }));
}

/* The muggins house rule: the claim toggle and the muggins button, under the hand. */

/** The plays the hand and the ends offer: each once, without the claim (the legal list holds
 * every play twice with muggins on, so that it shows no play's score). */
export function offered(ctx, plays) {
  return plays.filter((a) => !a.claim);
}

function claimOn(ctx) {
  return ctx.claimSeat !== undefined && ctx.claimSeat !== null && ctx.claimSeat === ctx.seat;
}

/** The action as sent: a play carries the claim while the toggle is pressed, and the toggle
 * springs back after it (forgetting to claim is what the rule is about). */
export function outgoing(ctx, action) {
  if (action.type !== "play") return action;
  const claim = claimOn(ctx);
  ctx.claimSeat = null;
  if (!claim) return action;
  const same = (a) => a.type === "play" && a.claim && a.tile[0] === action.tile[0] && a.tile[1] === action.tile[1]
    && (a.end ?? null) === (action.end ?? null);
  return (ctx.view.legal || []).find(same) || action;
}

export function controls(ctx, box) {
  const legal = ctx.view.legal || [];
  const claimable = legal.some((a) => a.type === "play" && a.claim);
  const muggins = legal.find((a) => a.type === "muggins");
  const points = ctx.view.unclaimed?.points ?? 0;
  const pressed = claimOn(ctx);
  const key = JSON.stringify([claimable, !!muggins, points, pressed, !!ctx.waiting]);
  if (box.dataset.key === key) return;
  const had = box.contains(document.activeElement) ? document.activeElement.dataset.control : null;
  box.dataset.key = key;
  const nodes = [];
  if (muggins) {
    // Translators: muggins house rule: take the points the player before you did not claim.
    nodes.push(h("button", { type: "button", class: "primary fu-muggins", "data-action": "muggins", "data-control": "muggins",
      disabled: ctx.waiting, onclick: () => ctx.act({ type: "muggins" }),
      text: interpolate(ngettext("Muggins! Take %(count)s point", "Muggins! Take %(count)s points", points), { count: formatNumber(points) }) }));
  }
  if (claimable) {
    // Translators: muggins house rule: a toggle; when pressed, your next play claims what it scores.
    nodes.push(h("button", { type: "button", class: "fu-claim", "data-control": "claim", "aria-pressed": String(pressed),
      disabled: ctx.waiting, text: gettext("Claim my points"),
      onclick: () => {
        ctx.claimSeat = claimOn(ctx) ? null : ctx.seat;
        controls(ctx, box);
      } }));
  }
  box.replaceChildren(...nodes);
  if (had) box.querySelector(`[data-control="${had}"]`)?.focus();
}

export function statusWhy(ctx) {
  const view = ctx.view;
  const legal = view.legal || [];
  if (legal.some((a) => a.type === "muggins")) {
    const left = view.unclaimed || { points: 0, seat: null };
    return interpolate(ngettext("Muggins! %(name)s left %(count)s point unclaimed: take it, then make your move.",
      "Muggins! %(name)s left %(count)s points unclaimed: take them, then make your move.", left.points),
    { name: seatName(ctx, left.seat), count: formatNumber(left.points) });
  }
  const ends = orWords([...new Set((view.ends || []).map((e) => e.value))].map(formatNumber));
  if (legal.some((a) => a.type === "draw")) {
    return interpolate(gettext("None of your tiles matches %(ends)s: draw from the boneyard."), { ends });
  }
  if (legal.some((a) => a.type === "pass")) {
    return interpolate(gettext("None of your tiles matches %(ends)s and the boneyard is empty: pass."), { ends });
  }
  const claim = legal.some((a) => a.type === "play" && a.claim);
  if (!view.layout?.length) {
    return claim ? gettext("Your lead: play any tile. Claim your points first if it scores.") : gettext("Your lead: play any tile.");
  }
  return claim ? gettext("Choose a tile, then an end. Claim your points first if it scores.")
    : gettext("Choose a highlighted tile, then the end to play it on.");
}

/* The board. */

function countWords(count) {
  const c = formatNumber(count);
  // Translators: Five-Up: the sum of the open ends ("the count"), and what it scores when it is a
  // multiple of five (a count of 15 scores 3).
  return count > 0 && count % 5 === 0 ? interpolate(gettext("Count %(count)s: scores %(points)s"), { count: c, points: formatNumber(count / 5) })
    : interpolate(gettext("Count %(count)s"), { count: c });
}

function build(el) {
  const count = h("p", { class: "fu-count" });
  const unclaimed = h("p", { class: "fu-unclaimed", hidden: true });
  const pegs = h("ul", { class: "fu-pegs", "aria-label": gettext("Score, pegged to the target") });
  const top = h("div", { class: "fu-top" }, count, unclaimed, pegs);
  const rows = h("div", { class: "rows fu-rows", role: "list", "aria-label": gettext("Board") });
  el.replaceChildren(top, rows);
  el.classList.remove("pannable");
  return { kind: "fiveup", top, count, unclaimed, pegs, rows, cache: new Map(), hand: null, started: false, targetKey: "" };
}

/** The end button of a row: the number it shows and what it adds to the count. */
function endButton(b) {
  const num = h("span", { class: "fu-num" });
  const counts = h("span", { class: "fu-counts" });
  const button = h("button", { type: "button", class: "end-button fu-end", disabled: true, "aria-hidden": "true" }, num, counts);
  button.addEventListener("click", () => {
    if (button.dataset.end) b.onEnd(button.dataset.end);
  });
  return { button, num, counts, state: "" };
}

function makeRow(id, b) {
  const said = h("span", { class: "visually-hidden" });
  const name = h("span", { class: "fu-name" });
  const badges = h("span", { class: "badges" });
  // Translators: the main line of the board before the first tile is played.
  const strip = h("div", { class: "strip fu-strip", tabindex: "0", role: "group",
    "data-empty": id === "main" ? gettext("No tile on the table yet.") : null });
  const left = id === "main" ? endButton(b) : null;
  const right = endButton(b);
  const el = h("div", { class: "fu-row", role: "listitem", "data-row": id }, said,
    h("div", { class: "fu-head", "aria-hidden": "true" }, name, badges),
    h("div", { class: "fu-body" }, left ? left.button : null, strip, right.button));
  return { el, said, name, badges, strip, left, right, keys: [], state: {} };
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function tileNode(shown, top) {
  const svg = tileSVG(shown, { top, size: 56, vertical: isDouble(shown) });
  svg.dataset.key = tileKey(shown);
  return svg;
}

/** One end button brought to `end` (an open end of the view, or none), a target or not. */
function updateEnd(slot, end, active, where) {
  const state = JSON.stringify([end, active, where]);
  if (slot.state === state) return;
  slot.state = state;
  const btn = slot.button;
  setHidden(btn, !end);
  if (!end) {
    btn.removeAttribute("data-end");
    return;
  }
  btn.dataset.end = end.id;
  setText(slot.num, formatNumber(end.value));
  // Translators: what an open end adds to the count, under its number on the end's button.
  setText(slot.counts, interpolate(gettext("counts %(count)s"), { count: formatNumber(end.counts ?? end.value) }));
  btn.disabled = !active;
  btn.classList.toggle("end-target", active);
  if (active) {
    btn.removeAttribute("aria-hidden");
    btn.setAttribute("aria-label", interpolate(gettext("Play on %(end)s (%(number)s, counts %(count)s)"),
      { end: where, number: formatNumber(end.value), count: formatNumber(end.counts ?? end.value) }));
  } else {
    // Not a target now: the row's sentence already says the end.
    btn.setAttribute("aria-hidden", "true");
    btn.removeAttribute("aria-label");
  }
}

/** Bring a row's strip to `shown` (tiles left to right); new tiles slide in. Returns the side
 * that grew ("left", "right") or "all" when the strip was drawn afresh. */
function updateStrip(row, shown, top, animate) {
  const keys = shown.map(tileKey);
  const old = row.keys;
  if (keys.length === old.length && keys.every((k, i) => k === old[i])) return null;
  row.keys = keys;
  const atRight = old.length < keys.length && old.every((k, i) => k === keys[i]);
  const atLeft = old.length < keys.length && old.every((k, i) => k === keys[keys.length - old.length + i]);
  if (atRight && old.length) {
    for (let i = old.length; i < shown.length; i++) {
      const node = tileNode(shown[i], top);
      if (animate) node.classList.add("arrive");
      row.strip.append(node);
    }
    return "right";
  }
  if (atLeft && old.length) {
    const fresh = shown.slice(0, keys.length - old.length).map((t) => tileNode(t, top));
    if (animate) fresh.forEach((n) => n.classList.add("arrive"));
    row.strip.prepend(...fresh);
    return "left";
  }
  const nodes = shown.map((t) => tileNode(t, top));
  if (animate && old.length + 1 === keys.length) nodes.forEach((n, i) => !old.includes(keys[i]) && n.classList.add("arrive"));
  row.strip.replaceChildren(...nodes);
  return "all";
}

function shownTile(it, side) {
  const tile = it.tile;
  if (it.inner === null || it.inner === undefined) return [tile[0], tile[1]];
  return side === "left" ? [it.outer, it.inner] : [it.inner, it.outer];
}

export function board(ctx, el, sel) {
  const view = ctx.view;
  const top = topOf(view);
  const targets = sel.targets || [];
  let b = el._table;
  if (!b || b.kind !== "fiveup") {
    b = el._table = build(el);
    zoomRows(el, "default");
  }
  b.onEnd = sel.onEnd;
  if (b.hand !== view.hand_number) {
    b.hand = view.hand_number;
    b.cache.clear();
    b.rows.replaceChildren();
  }
  const items = itemsOf(view);
  const s = shapeOf(items);
  const ends = view.ends || [];
  // A new width of the box (a phone turned): each row shows again the side it showed.
  const width = sel.size?.width;
  const resized = width !== undefined && b.width !== undefined && width !== b.width;
  b.width = width;
  const count = view.count ?? ends.reduce((n, e) => n + (e.counts ?? e.value), 0);
  // The count, and what it scores.
  setText(b.count, countWords(count));
  const left = view.unclaimed;
  const unclaimedText = left && left.points ? (left.seat === ctx.seat
    ? interpolate(ngettext("You left %(count)s point unclaimed.", "You left %(count)s points unclaimed.", left.points),
      { count: formatNumber(left.points) })
    : interpolate(ngettext("%(name)s left %(count)s point unclaimed.", "%(name)s left %(count)s points unclaimed.", left.points),
      { name: seatName(ctx, left.seat), count: formatNumber(left.points) })) : "";
  setText(b.unclaimed, unclaimedText);
  setHidden(b.unclaimed, !unclaimedText);
  renderPegs(ctx, b.pegs);
  // The rows: the main line, then each branch under the double it grows from.
  const rows = new Map(s.rows);
  const endOf = new Map();
  for (const e of ends) {
    const at = endAt(s, e.id);
    if (!at) continue;
    if (!rows.has(at.row)) {
      const p = parseEnd(at.row);
      rows.set(at.row, { id: at.row, from: p?.k ?? null, dir: p?.sub ?? null, left: [], right: [], lead: null, tiles: [] });
    }
    endOf.set(`${at.row}:${at.side === "left" ? "left" : "right"}`, e);
  }
  const order = [];
  const visit = (r, depth) => {
    order.push({ r, depth });
    for (const k of rowTiles(r)) {
      if (!items[k] || !isDouble(items[k].tile)) continue;
      for (const dir of ["u", "d"]) {
        const child = rows.get(`${k}${dir}`);
        if (child) visit(child, depth + 1);
      }
    }
  };
  visit(rows.get("main"), 0);
  const twice = new Set();
  for (const e of ends) {
    const p = parseEnd(e.id);
    const it = p && items[p.k];
    if (it && !crosswise(e.id) && isDouble(it.tile) && e.value > 0 && (e.counts ?? 0) === 2 * e.value) twice.add(p.k);
  }
  const seen = new Set();
  let prev = null;
  let grown = null;
  for (const { r, depth } of order) {
    let row = b.cache.get(r.id);
    if (!row) {
      row = makeRow(r.id, b);
      b.cache.set(r.id, row);
    }
    seen.add(r.id);
    const main = r.id === "main";
    const ks = rowTiles(r);
    const shown = ks.map((k) => shownTile(items[k], s.place[k]?.side));
    const label = main ? gettext("Main line") : branchLabel(items, r.id, tileName);
    const labelShown = main ? label : branchLabel(items, r.id, tileLabel);
    const leftEnd = main ? endOf.get("main:left") : null;
    const rightEnd = endOf.get(`${r.id}:right`);
    const doubled = ks.filter((k) => twice.has(k));
    // The row in one sentence, for a screen reader: its tiles and its open ends.
    const details = [ks.length ? tileCount(ks.length) : gettext("no tiles yet")];
    const endWordsOf = (e, side) => {
      const v = { number: formatNumber(e.value), count: formatNumber(e.counts ?? e.value) };
      // Translators: an open end in the board's list, "left end 6, counts 12".
      if (side === "left") return interpolate(gettext("left end %(number)s, counts %(count)s"), v);
      if (main) return interpolate(gettext("right end %(number)s, counts %(count)s"), v);
      return interpolate(gettext("open at %(number)s, counts %(count)s"), v);
    };
    if (leftEnd) details.push(endWordsOf(leftEnd, "left"));
    if (rightEnd) details.push(endWordsOf(rightEnd, "right"));
    // Translators: a double at an open end whose free side counts both halves.
    for (const k of doubled) details.push(interpolate(gettext("%(tile)s counts double"), { tile: tileName(items[k].tile) }));
    const said = interpolate(gettext("%(row)s: %(details)s"), { row: label, details: details.join(", ") });
    setText(row.said, said);
    if (row.el.getAttribute("aria-label") !== said) row.el.setAttribute("aria-label", said);
    setText(row.name, labelShown);
    const badgeKey = JSON.stringify(doubled.map((k) => items[k].tile));
    if (row.state.badges !== badgeKey) {
      row.state.badges = badgeKey;
      row.badges.replaceChildren(...doubled.map((k) => h("span", { class: "marker double",
        text: interpolate(gettext("%(tile)s counts double"), { tile: tileLabel(items[k].tile) }) })));
    }
    const cls = `fu-row${main ? " fu-main" : ""}${!main && !ks.length ? " fu-empty" : ""}${depth ? ` fu-depth-${Math.min(depth, 3)}` : ""}`
      + `${(leftEnd && targets.includes(leftEnd.id)) || (rightEnd && targets.includes(rightEnd.id)) ? " fu-target" : ""}`;
    if (row.el.className !== cls) row.el.className = cls;
    const stripLabel = ks.length ? interpolate(gettext("%(row)s: %(tiles)s"), { row: label, tiles: tileCount(ks.length) })
      : interpolate(gettext("%(row)s: no tiles yet"), { row: label });
    if (row.strip.getAttribute("aria-label") !== stripLabel) row.strip.setAttribute("aria-label", stripLabel);
    // In the page before its strip is scrolled (a detached box does not scroll).
    const want = prev ? prev.nextSibling : b.rows.firstChild;
    if (want !== row.el) b.rows.insertBefore(row.el, want);
    prev = row.el;
    const grew = updateStrip(row, shown, top, b.started);
    if (grew) {
      // Keep the new tile in view inside its row: the side it grew on (a branch: its open end;
      // the main line drawn afresh: the lead in the middle).
      row.anchor = grew === "left" ? "left" : grew === "right" || !main ? "right" : "lead";
      anchor(row, r.left.length);
      if (b.started) grown = row;
    } else if (resized) {
      anchor(row, r.left.length);
    }
    if (row.left) updateEnd(row.left, leftEnd, !!leftEnd && targets.includes(leftEnd.id), leftEnd ? endWords(view, leftEnd.id) : "");
    updateEnd(row.right, rightEnd, !!rightEnd && targets.includes(rightEnd.id), rightEnd ? endWords(view, rightEnd.id) : "");
  }
  for (const [id, row] of b.cache) {
    if (!seen.has(id)) {
      row.el.remove();
      b.cache.delete(id);
    }
  }
  b.started = true;
  markTiles(el, sel.last, "last-played");
  const doubledKeys = [...twice].map((k) => tileKey(items[k].tile));
  markTiles(el, doubledKeys, "fu-twice");
  // A chosen tile: bring the first row it can go to into view; else the row that just grew.
  const targetKey = targets.join(",");
  if (targetKey !== b.targetKey) {
    b.targetKey = targetKey;
    const first = targets.length ? b.rows.querySelector(`.fu-end[data-end="${targets[0]}"]`)?.closest(".fu-row") : null;
    if (first) showRow(el, b, first);
  } else if (grown && !targets.length) {
    showRow(el, b, grown.el);
  }
}

/** Scroll a row's strip (only the strip) to the side it keeps in view. */
function anchor(row, leftCount) {
  const strip = row.strip;
  if (row.anchor === "left") strip.scrollLeft = 0;
  else if (row.anchor === "right") strip.scrollLeft = strip.scrollWidth;
  else {
    const lead = strip.children[leftCount];
    if (lead) strip.scrollLeft = Math.max(0, lead.offsetLeft - strip.offsetLeft - (strip.clientWidth - lead.offsetWidth) / 2);
  }
}

/** Scroll the board (only the board) so that row `row` shows under the count and pegs, which
 * stay at the top of the box. */
function showRow(el, b, row) {
  const sticky = b.top.offsetHeight;
  const top = row.offsetTop;
  if (top - sticky < el.scrollTop || top + row.offsetHeight > el.scrollTop + el.clientHeight) {
    el.scrollTop = Math.max(0, top - sticky - 4);
  }
}

/** Each side's pegs on the way to the target: its name, "34 / 61" and a bar (the numbers say it,
 * the bar only shows it). */
function renderPegs(ctx, list) {
  const view = ctx.view;
  const target = targetOf(view);
  const scores = view.scores || [];
  const key = JSON.stringify([scores, target, scores.map((_, i) => sideName(ctx, i))]);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.replaceChildren(...scores.map((score, side) => {
    const fill = h("span", { class: "fu-fill" });
    fill.style.width = `${Math.min(100, (100 * score) / (target || 1))}%`;
    const values = { score: formatNumber(score), target: formatNumber(target) };
    const name = sideName(ctx, side);
    return h("li", { class: "fu-peg", "data-side": side },
      h("span", { class: "fu-who", text: name }),
      h("span", { class: "fu-score" }, ...shownAndSaid(`${values.score} / ${values.target}`,
        // Translators: a side's score on the way to the match target, "34 of 61 points".
        interpolate(ngettext("%(score)s of %(target)s point", "%(score)s of %(target)s points", target), values))),
      h("span", { class: "fu-bar", "aria-hidden": "true" }, fill));
  }));
}

/* Zoom: the tiles' size; "fit" takes the largest size that shows every row. */

const SIZES = [40, 48, 56, 68, 84, 100];

function fitSize(el, sizes = SIZES) {
  const rows = el.querySelectorAll(".fu-row:not(.fu-empty)").length || 1;
  const empty = el.querySelectorAll(".fu-row.fu-empty").length;
  const room = el.clientHeight - (el.querySelector(".fu-top")?.offsetHeight || 0) - 8 - empty * 58;
  // A row: its name (about 20 px), a double standing up (the tile size) and the padding; a
  // branch with no tile yet is one line.
  return [...sizes].reverse().find((t) => rows * (Math.max(48, t + 14) + 28) <= room) ?? sizes[0];
}

function setSize(el, t) {
  if (Number(el.dataset.t) === t) return;
  el.dataset.t = String(t);
  el.style.setProperty("--t", `${t}px`);
}

export function zoom(el, how) {
  if (how === "fit") setSize(el, fitSize(el));
  else zoomRows(el, how);
}

/** The table screen: the largest tiles that show every row, and every tile of each row without
 * scrolling it (a TV is read from the sofa, and nobody there scrolls). Early in a hand, with few
 * tiles down, that is larger than a phone's largest zoom. */
const TV_SIZES = [...SIZES, 120, 140, 160];

export function tvFit(el) {
  const tallest = fitSize(el, TV_SIZES);
  const strips = [...el.querySelectorAll(".fu-row:not(.fu-empty) .fu-strip")];
  const fits = () => strips.every((s) => s.scrollWidth <= s.clientWidth + 1);
  for (const t of TV_SIZES.filter((size) => size <= tallest).reverse()) {
    setSize(el, t);
    if (fits()) return;
  }
}

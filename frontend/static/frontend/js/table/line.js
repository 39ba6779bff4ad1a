// Block, Draw and All Fives: the line as laid on a table, scaled to fit its box, zoomed with the
// buttons, a pinch or Ctrl+wheel, and dragged about once zoomed in. Tiles stay from one state to
// the next: a new state adds the new tile (sliding in) and moves nothing else. The open ends
// show their numbers; while a tile is chosen its ends are 48 px buttons over the line.

import { tileKey, tileName, tileSVG } from "../tiles.js";
import { DIRS, U, lineLimits, perpendicular, placeLine } from "./layout.js";
import { h, orWords, setItems, topOf } from "./common.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";

export const zoomable = true;
const NS = "http://www.w3.org/2000/svg";
const MAX_ZOOM = 4;

function svgEl(name, attrs = {}) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// Translators: an end of the line of tiles, inside a sentence ("Ann played 6|4 on the left
// end"); "top" and "bottom" are a spinner's two other arms.
const END_NAMES = { left: gettext("the left end"), right: gettext("the right end"), up: gettext("the top end"),
  down: gettext("the bottom end") };
// Translators: an end of the line of tiles, as a button or a list item ("Left end, 6").
const END_LABELS = { left: gettext("Left end"), right: gettext("Right end"), up: gettext("Top end"), down: gettext("Bottom end") };

export function endName(ctx, id) {
  return END_NAMES[id] || id;
}

export function endLabel(ctx, id) {
  return END_LABELS[id] || id;
}

export function sentence(w, e) {
  if (e.type === "pass" && e.ends?.length) {
    const ends = orWords([...new Set(e.ends)].map(formatNumber));
    return w.said(e.seat, gettext("You passed: nothing matched %(ends)s."), gettext("%(name)s passed: nothing matched %(ends)s."), { ends });
  }
  return undefined;
}

/** The board in words, one list item each: the tiles laid, the spinner, each open end. */
function boardItems(ctx, placed, spinnerTile) {
  const view = ctx.view;
  if (!placed.length) return [gettext("No tile on the table yet.")];
  const ends = view.ends || [];
  const items = [interpolate(ngettextTiles(placed.length), { count: formatNumber(placed.length) })];
  if (spinnerTile) {
    items.push(interpolate(gettext("Spinner %(tile)s: arms open at %(numbers)s"),
      { tile: tileName(spinnerTile.tile), numbers: ends.map((e) => formatNumber(e.value)).join(", ") }));
  }
  // Translators: an end of the line and the number it shows, in the board's list: "Left end: 6".
  for (const e of ends) items.push(interpolate(gettext("%(end)s: %(number)s"), { end: endLabel(ctx, e.id), number: formatNumber(e.value) }));
  return items;
}

function ngettextTiles(n) {
  return ngettext("%(count)s tile on the table", "%(count)s tiles on the table", n);
}

function build(el, sel) {
  // The drawing says nothing a screen reader needs: the list beside it says it in words.
  const svg = svgEl("svg", { class: "line-layout", "aria-hidden": "true", preserveAspectRatio: "xMidYMid meet" });
  const tiles = svgEl("g", { class: "tiles" });
  const ring = svgEl("g", { class: "ring" });
  const ends = svgEl("g", { class: "ends", "aria-hidden": "true" });
  svg.append(tiles, ring, ends);
  const overlay = h("div", { class: "end-overlay", role: "group", "aria-label": gettext("Ends to play on") });
  const total = h("p", { class: "end-total", hidden: true });
  const wrap = h("div", { class: "line-board" }, svg, overlay);
  const list = h("ul", { class: "visually-hidden board-list", role: "list", "aria-label": gettext("Board") });
  el.replaceChildren(list, wrap, total);
  el.classList.add("pannable");
  const b = { kind: "line", list, known: new Set(), hand: null, svg, tiles, ring, ends, overlay, total, wrap, nodes: new Map(), limits: "", z: 1,
    pan: { x: 0, y: 0 }, full: null, targets: [], points: {}, onEnd: sel.onEnd, started: false };
  gestures(wrap, b);
  return b;
}

/** The viewBox for the zoom and pan of `b`, and the 48 px end buttons placed over it. */
function apply(b) {
  const f = b.full;
  if (!f) return;
  const w = f.w / b.z;
  const hgt = f.h / b.z;
  const maxX = (f.w - w) / 2;
  const maxY = (f.h - hgt) / 2;
  b.pan.x = Math.max(-maxX, Math.min(maxX, b.pan.x));
  b.pan.y = Math.max(-maxY, Math.min(maxY, b.pan.y));
  const x = f.x + (f.w - w) / 2 + b.pan.x;
  const y = f.y + (f.h - hgt) / 2 + b.pan.y;
  b.view = { x, y, w, h: hgt };
  b.svg.setAttribute("viewBox", `${x} ${y} ${w} ${hgt}`);
  placeTargets(b);
}

function placeTargets(b) {
  if (!b.targets.length) {
    if (b.overlay.firstChild) b.overlay.replaceChildren();
    return;
  }
  // The box's size as the board was last drawn (the wrap fills the board), not read again after
  // the tiles were written.
  const W = b.size ? b.size.width : b.wrap.clientWidth;
  const H = b.size ? b.size.height : b.wrap.clientHeight;
  const v = b.view;
  const scale = Math.min(W / v.w, H / v.h);
  const ox = (W - v.w * scale) / 2;
  const oy = (H - v.h * scale) / 2;
  const buttons = b.targets.map((end) => {
    const p = b.points[end.id];
    if (!p) return null;
    const left = Math.max(24, Math.min(W - 24, (p.x - v.x) * scale + ox));
    const top = Math.max(24, Math.min(H - 24, (p.y - v.y) * scale + oy));
    const btn = h("button", { type: "button", class: "end-spot end-target", "data-end": end.id,
      "aria-label": interpolate(gettext("Play on %(end)s (%(number)s)"), { end: endName(null, end.id), number: formatNumber(end.value) }),
      onclick: () => b.onEnd(end.id) }, formatNumber(end.value));
    btn.style.left = `${left}px`;
    btn.style.top = `${top}px`;
    return btn;
  }).filter(Boolean);
  b.overlay.replaceChildren(...buttons);
}

function zoomAt(b, factor) {
  b.z = Math.max(1, Math.min(MAX_ZOOM, b.z * factor));
  if (b.z === 1) b.pan = { x: 0, y: 0 };
  apply(b);
}

/** Drag to pan once zoomed in; pinch with two fingers, or Ctrl+wheel, to zoom. */
function gestures(wrap, b) {
  const pointers = new Map();
  let pinch = 0;
  wrap.addEventListener("pointerdown", (e) => {
    if (e.target.closest("button")) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    wrap.setPointerCapture(e.pointerId);
  });
  wrap.addEventListener("pointermove", (e) => {
    const last = pointers.get(e.pointerId);
    if (!last || !b.view) return;
    const now = { x: e.clientX, y: e.clientY };
    pointers.set(e.pointerId, now);
    if (pointers.size === 1 && b.z > 1) {
      const scale = Math.min(wrap.clientWidth / b.view.w, wrap.clientHeight / b.view.h);
      b.pan.x -= (now.x - last.x) / scale;
      b.pan.y -= (now.y - last.y) / scale;
      apply(b);
    } else if (pointers.size === 2) {
      const [p, q] = [...pointers.values()];
      const d = Math.hypot(p.x - q.x, p.y - q.y);
      if (pinch) zoomAt(b, d / pinch);
      pinch = d;
    }
  });
  const up = (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = 0;
  };
  wrap.addEventListener("pointerup", up);
  wrap.addEventListener("pointercancel", up);
  wrap.addEventListener("wheel", (e) => {
    if (!e.ctrlKey) return;
    e.preventDefault();
    zoomAt(b, e.deltaY < 0 ? 1.15 : 1 / 1.15);
  }, { passive: false });
}

export function zoom(el, how) {
  const b = el._table;
  if (!b || b.kind !== "line") return;
  if (how === "in") zoomAt(b, 1.4);
  else if (how === "out") zoomAt(b, 1 / 1.4);
  else {
    b.z = 1;
    b.pan = { x: 0, y: 0 };
    apply(b);
  }
}

export function board(ctx, el, sel) {
  const view = ctx.view;
  const top = topOf(view);
  let b = el._table;
  if (!b || b.kind !== "line") b = el._table = build(el, sel);
  b.onEnd = sel.onEnd;
  // The page reads the board's size before it writes anything (`sel.size`); read here otherwise.
  b.size = sel.size || { width: el.clientWidth, height: el.clientHeight };
  const { limitX, limitY } = lineLimits(b.size.width, b.size.height);
  const limits = `${limitX}:${limitY}:${top}`;
  if (b.limits !== limits) {
    // Another shape of box: the same tiles laid again, without sliding in.
    b.limits = limits;
    b.nodes.clear();
    b.tiles.replaceChildren();
  }
  if (b.hand !== view.hand_number) {
    b.hand = view.hand_number;
    b.known = new Set();
  }
  const { placed, arms, spinnerTile } = placeLine(view.layout, { limitX, limitY, spinner: !!view.options?.spinner });
  let minX = -2, minY = -1.5, maxX = 2, maxY = 1.5;
  const grow = (x, y, w, hh) => {
    minX = Math.min(minX, x); minY = Math.min(minY, y);
    maxX = Math.max(maxX, x + w); maxY = Math.max(maxY, y + hh);
  };
  const seen = new Set();
  for (const p of placed) {
    const key = tileKey(p.tile);
    seen.add(key);
    const where = `${p.x},${p.y},${p.vertical},${p.shown}`;
    let node = b.nodes.get(key);
    if (!node || node.where !== where) {
      const g = svgEl("g", { class: "placed" });
      const t = tileSVG(p.shown, { vertical: p.vertical, top, size: 80 });
      t.dataset.key = key;
      Object.entries({ x: p.x * U, y: p.y * U, width: p.w * U, height: p.h * U }).forEach(([k, v]) => t.setAttribute(k, v));
      g.append(t);
      if (!b.known.has(key) && b.started) g.classList.add("arrive");
      b.known.add(key);
      if (node) node.g.replaceWith(g);
      else b.tiles.append(g);
      node = { g, t, where };
      b.nodes.set(key, node);
    }
    node.t.classList.toggle("spinner", p === spinnerTile);
    grow(p.x, p.y, p.w, p.h);
  }
  for (const [key, node] of b.nodes) {
    if (!seen.has(key)) {
      node.g.remove();
      b.nodes.delete(key);
    }
  }
  b.started = true;
  // The last move's tile: a light ring round a dark one, seen on the felt and on the tile.
  const last = placed.find((p) => sel.last.includes(tileKey(p.tile)));
  b.ring.replaceChildren(...(last ? [
    svgEl("rect", { class: "last-ring", x: last.x * U - 6, y: last.y * U - 6, width: last.w * U + 12, height: last.h * U + 12, rx: 8 }),
    svgEl("rect", { class: "last-ring-inner", x: last.x * U - 2, y: last.y * U - 2, width: last.w * U + 4, height: last.h * U + 4, rx: 6 }),
  ] : []));
  for (const node of b.nodes.values()) node.t.classList.toggle("last-played", !!last && node.t.dataset.key === tileKey(last.tile));
  // The open ends, with the numbers they show.
  b.points = {};
  const markers = [];
  for (const end of view.ends || []) {
    const pt = targetPoint(end.id, arms, spinnerTile, placed.length);
    if (!pt) continue;
    const [dx, dy] = DIRS[pt.dir];
    const size = 1.2;
    const x = placed.length ? pt.x + dx * 0.7 - size / 2 : -size / 2;
    const y = placed.length ? pt.y + dy * 0.7 - size / 2 : -size / 2;
    b.points[end.id] = { x: (x + size / 2) * U, y: (y + size / 2) * U };
    const active = sel.targets.includes(end.id);
    const g = svgEl("g", { class: `end-marker${active ? " end-target-mark" : ""}`, "data-end": end.id });
    g.append(svgEl("rect", { x: x * U, y: y * U, width: size * U, height: size * U, rx: 6, class: active ? "end-active" : "end-idle" }));
    const label = svgEl("text", { x: (x + size / 2) * U, y: (y + size / 2) * U + 6, "text-anchor": "middle" });
    label.textContent = formatNumber(end.value);
    g.append(label);
    markers.push(g);
    grow(x, y, size, size);
  }
  b.ends.replaceChildren(...markers);
  const pad = 0.4;
  // Fit, but never larger than a tile 128 px long (176 px with large tiles): a short line on a
  // big screen stays a line.
  const W = b.size.width || 1;
  const H = b.size.height || 1;
  const half = document.documentElement.classList.contains("large-tiles") ? 88 : 64;
  const wide = Math.max(maxX - minX + 2 * pad, W / half);
  const tall = Math.max(maxY - minY + 2 * pad, H / half);
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  b.full = { x: (cx - wide / 2) * U, y: (cy - tall / 2) * U, w: wide * U, h: tall * U };
  b.targets = (view.ends || []).filter((e) => sel.targets.includes(e.id));
  setItems(b.list, boardItems(ctx, placed, spinnerTile));
  apply(b);
  if ("end_total" in view) {
    const total = view.end_total ?? 0;
    const text = total && total % 5 === 0
      ? interpolate(gettext("Open ends total %(total)s: a multiple of five"), { total: formatNumber(total) })
      : interpolate(gettext("Open ends total %(total)s"), { total: formatNumber(total) });
    if (b.total.textContent !== text) b.total.textContent = text;
    b.total.hidden = false;
  }
}

function targetPoint(id, arms, spinnerTile, count) {
  if (arms[id]) return arms[id];
  if (!count) return { x: 0, y: 0, dir: "E" };
  if (spinnerTile) {
    const sideDirs = perpendicular(spinnerTile.vertical ? "E" : "N");
    const dir = id === "up" ? sideDirs[0] : sideDirs[1];
    const cx = spinnerTile.x + spinnerTile.w / 2;
    const cy = spinnerTile.y + spinnerTile.h / 2;
    const [dx, dy] = DIRS[dir];
    return { x: cx + (dx * spinnerTile.w) / 2, y: cy + (dy * spinnerTile.h) / 2, dir };
  }
  return null;
}

export function statusWhy(ctx) {
  const ends = orWords([...new Set((ctx.view.ends || []).map((e) => e.value))].map(formatNumber));
  const legal = ctx.view.legal;
  if (legal.some((a) => a.type === "draw")) {
    return interpolate(gettext("None of your tiles matches %(ends)s: draw from the boneyard."), { ends });
  }
  if (legal.some((a) => a.type === "pass")) {
    return ctx.view.game === "block"
      ? interpolate(gettext("None of your tiles matches %(ends)s, and Block has no drawing: pass."), { ends })
      : interpolate(gettext("None of your tiles matches %(ends)s and the boneyard is closed: pass."), { ends });
  }
  if (!ctx.view.layout?.lead) return gettext("Your lead: play the highlighted tile.");
  return gettext("Choose a highlighted tile, then the end to play it on.");
}

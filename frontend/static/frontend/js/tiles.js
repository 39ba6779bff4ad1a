// Tiles drawn as SVG with pips. Sets above double-nine colour their pips by number, as printed
// sets do, because counts past nine are hard to read at a glance. Every pip colour keeps at
// least 5:1 against the tile's face (3:1 is the bar for graphics); the count itself is never
// told by colour alone. A tile's name is said in words ("six four", "double blank") in the
// page's language; on screen the table writes it as "6|4".

import { formatNumber, gettext, interpolate, pgettext } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const UNIT = 40; // one half-tile is UNIT x UNIT in SVG units

// Classic positions on a 3x3 grid (column, row) for 0..9.
const CLASSIC = {
  0: [],
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
  7: [[0, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [2, 2]],
  8: [[0, 0], [1, 0], [2, 0], [0, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
  9: [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
};

export const PIP_COLOURS = [
  "#222222", "#1f5f9e", "#1e7b1e", "#b3261e", "#6a3d9a", "#7a4a2a", "#b0267a", "#0f6f7f",
  "#6b6b00", "#b34700", "#393b79", "#4d6b1f", "#843c39", "#7b4173", "#2f6fb0", "#a64b00",
  "#1f7a4f", "#5b4fa0", "#555555",
];

/** Pip centres for `n` in a unit square (0..1), rows of up to 3 (or 4 past twelve). */
export function pipPositions(n) {
  if (n <= 9) return CLASSIC[n].map(([c, r]) => [0.2 + 0.3 * c, 0.2 + 0.3 * r]);
  const cols = n <= 12 ? 3 : 4;
  const rows = Math.ceil(n / cols);
  const out = [];
  for (let k = 0; k < n; k++) {
    const r = Math.floor(k / cols);
    const inRow = r === rows - 1 ? n - r * cols : cols;
    const c = k % cols;
    const x = (c + 0.5 + (cols - inRow) / 2) / cols;
    const y = (r + 0.5) / rows;
    out.push([0.12 + 0.76 * x, 0.12 + 0.76 * y]);
  }
  return out;
}

function el(name, attrs) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** One name per tile whichever way round it lies: "4-6" for [6, 4] and [4, 6]. */
export function tileKey(tile) {
  const [a, b] = tile;
  return a <= b ? `${a}-${b}` : `${b}-${a}`;
}

// Translators: the number of pips on one half of a tile, as a screen reader says a tile
// ("six four", "double blank"); 0 is a blank half.
const NUMBER_WORDS = [pgettext("tile half", "blank"), pgettext("tile half", "one"), pgettext("tile half", "two"),
  pgettext("tile half", "three"), pgettext("tile half", "four"), pgettext("tile half", "five"),
  pgettext("tile half", "six"), pgettext("tile half", "seven"), pgettext("tile half", "eight"),
  pgettext("tile half", "nine"), pgettext("tile half", "ten"), pgettext("tile half", "eleven"),
  pgettext("tile half", "twelve")];

/** A half's number in words: "blank", "one" ... "twelve"; past twelve, the number itself. */
export function numberWord(n) {
  return NUMBER_WORDS[n] ?? formatNumber(n);
}

/** A tile's spoken name, the higher number first: "six four", "three blank", "double five". */
export function tileName(tile) {
  const high = Math.max(...tile);
  const low = Math.min(...tile);
  // Translators: a double tile, e.g. "double five" (the number is already in words).
  if (high === low) return interpolate(gettext("double %(number)s"), { number: numberWord(high) });
  // Translators: a tile by its two numbers in words, the higher first, e.g. "six four".
  return interpolate(gettext("%(high)s %(low)s"), { high: numberWord(high), low: numberWord(low) });
}

/** A tile as the table writes it, the higher number first: "6|4", "5|5". */
export function tileLabel(tile) {
  return `${Math.max(...tile)}|${Math.min(...tile)}`;
}

const PIP_PATHS = new Map();

/** The pips of a half as one path of circles (a few elements per tile: a table of ten trains
 * holds hundreds of tiles, and each element costs style, layout and paint). */
function pipPath(n) {
  let d = PIP_PATHS.get(n);
  if (d === undefined) {
    const r = n <= 9 ? 4.2 : n <= 12 ? 3.6 : 3;
    d = pipPositions(n).map(([px, py]) => {
      const x = +(px * UNIT - r).toFixed(2);
      const y = +(py * UNIT).toFixed(2);
      return `M${x} ${y}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0z`;
    }).join("");
    PIP_PATHS.set(n, d);
  }
  return d;
}

function half(g, n, x, y, colour) {
  if (!n) return;
  const attrs = { d: pipPath(n), fill: colour ? PIP_COLOURS[n] : "#222", class: "pips" };
  if (x || y) attrs.transform = `translate(${x} ${y})`;
  g.append(el("path", attrs));
}

/**
 * An <svg> of `tile` ([a, b], a shown first: left, or top when vertical).
 * opts: vertical (bool), size (px of the long side), top (highest number of the set: colours
 * pips above nine), faceDown (bool).
 */
export function tileSVG(tile, opts = {}) {
  const { vertical = false, size = 64, top = 6, faceDown = false } = opts;
  const w = vertical ? UNIT : 2 * UNIT;
  const h = vertical ? 2 * UNIT : UNIT;
  const svg = el("svg", {
    viewBox: `-1 -1 ${w + 2} ${h + 2}`,
    width: vertical ? size / 2 : size,
    height: vertical ? size : size / 2,
    class: "tile" + (vertical ? " tile-v" : " tile-h"),
    role: "img",
    "aria-label": faceDown ? gettext("a face-down tile") : tileName(tile),
  });
  svg.append(el("rect", { x: 0, y: 0, width: w, height: h, rx: 5, class: faceDown ? "tile-back" : "tile-face" }));
  if (faceDown) return svg;
  if (vertical) svg.append(el("line", { x1: 5, y1: UNIT, x2: UNIT - 5, y2: UNIT, class: "tile-bar" }));
  else svg.append(el("line", { x1: UNIT, y1: 5, x2: UNIT, y2: UNIT - 5, class: "tile-bar" }));
  const colour = top > 9;
  half(svg, tile[0], 0, 0, colour);
  half(svg, tile[1], vertical ? 0 : UNIT, vertical ? UNIT : 0, colour);
  return svg;
}

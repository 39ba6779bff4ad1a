// Tiles drawn as SVG with pips. Sets above double-nine colour their pips by number, as printed
// sets do, because counts past nine are hard to read at a glance.

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
  "#222", "#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf",
  "#bcbd22", "#ff7f0e", "#393b79", "#637939", "#843c39", "#7b4173", "#3182bd", "#e6550d",
  "#31a354", "#756bb1", "#636363",
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

export function tileLabel(tile) {
  const [a, b] = tile;
  return a === b ? `double ${a}` : `${a}-${b}`;
}

function half(g, n, x, y, colour) {
  const radius = n <= 9 ? 4.2 : n <= 12 ? 3.6 : 3;
  for (const [px, py] of pipPositions(n)) {
    g.append(el("circle", { cx: x + px * UNIT, cy: y + py * UNIT, r: radius, fill: colour ? PIP_COLOURS[n] : "#222" }));
  }
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
    "aria-label": faceDown ? "a face-down tile" : `tile ${tileLabel(tile)}`,
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

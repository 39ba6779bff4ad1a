// The line as a real table lays it: the lead in the middle, arms growing out of it, doubles
// crosswise, the spinner's up and down arms, and arms that turn a corner when they reach the
// edge so the layout fits the screen. Drawn from the view's `layout` (lead, spinner, arms).

import { tileSVG } from "../tiles.js";

const NS = "http://www.w3.org/2000/svg";
const U = 40; // half a tile, in SVG units
const DIRS = { E: [1, 0], W: [-1, 0], S: [0, 1], N: [0, -1] };
// Without a spinner the two arms turn twice, in opposite senses, so the line snakes like an S.
// With one, each of the four arms turns once to its right: a pinwheel, whose arms never meet.
const SNAKE = { left: { W: "N", N: "E" }, right: { E: "S", S: "W" } };
const PINWHEEL = { left: { W: "N" }, up: { N: "E" }, right: { E: "S" }, down: { S: "W" } };
const ARM_START = { left: "W", right: "E", up: "N", down: "S" };

function perpendicular(dir) {
  return dir === "E" || dir === "W" ? ["N", "S"] : ["E", "W"];
}

/**
 * Tile placements from the view's layout: [{tile, x, y, w, h, vertical, shown}] in half-tile
 * units, plus the open point of each arm ({x, y, dir}) for drawing the end targets.
 * `limitX`/`limitY`: how far (half-tile units) an arm runs from the centre before it turns.
 */
export function placeLine(layout, { limitX = 8, limitY = 6, spinner = false } = {}) {
  const TURNS = spinner || layout?.spinner ? PINWHEEL : SNAKE;
  const placed = [];
  const arms = {};
  let spinnerTile = null;
  if (!layout || !layout.lead) return { placed, arms, spinnerTile };
  const spin = layout.spinner;
  const isSpinner = (arm, index) => spin && spin.arm === arm && spin.index === index;
  const plays = [];
  for (const id of ["left", "right", "up", "down"]) {
    (layout.arms[id] || []).forEach((t, index) => plays.push({ ...t, end: id, index }));
  }
  const lead = layout.lead.tile;
  const leadDouble = lead[0] === lead[1];
  const first = leadDouble
    ? { tile: lead, x: -0.5, y: -1, w: 1, h: 2, vertical: true, shown: lead }
    : { tile: lead, x: -1, y: -0.5, w: 2, h: 1, vertical: false, shown: lead };
  placed.push(first);
  const edge = (p, dir) => {
    const cx = p.x + p.w / 2;
    const cy = p.y + p.h / 2;
    const [dx, dy] = DIRS[dir];
    return { x: cx + (dx * p.w) / 2, y: cy + (dy * p.h) / 2, dir };
  };
  arms.left = { ...edge(first, "W"), side: first.vertical ? 1 : 0.5 };
  arms.right = { ...edge(first, "E"), side: first.vertical ? 1 : 0.5 };
  if (isSpinner("lead", 0)) spinnerTile = first;
  const limitFor = (dir) => (dir === "E" || dir === "W" ? limitX : limitY);
  for (const play of plays) {
    const id = play.end;
    let arm = arms[id];
    if (!arm && spinnerTile && ARM_START[id]) {
      const sideDirs = perpendicular(spinnerTile.vertical ? "E" : "N");
      const dir = id === "up" ? sideDirs[0] : sideDirs[1];
      arm = arms[id] = { ...edge(spinnerTile, dir), side: 0.5 };
    }
    if (!arm) continue;
    const [a, b] = play.tile;
    const isDouble = a === b;
    const { inner, outer } = play;
    let dir = arm.dir;
    const length = isDouble ? 1 : 2;
    const [dx0, dy0] = DIRS[dir];
    const reach = Math.abs(dx0 ? arm.x + dx0 * length : arm.y + dy0 * length);
    const turnDir = (TURNS[id] || {})[dir];
    if (!isDouble && turnDir && reach > limitFor(dir)) {
      // Turn the corner: the next tile runs along the new direction from the last tile's side.
      const [tx, ty] = DIRS[turnDir];
      arm.x = arm.x - dx0 * 0.5 + tx * arm.side;
      arm.y = arm.y - dy0 * 0.5 + ty * arm.side;
      arm.dir = dir = turnDir;
    }
    const [dx, dy] = DIRS[dir];
    const alongX = dx !== 0;
    const crosswise = isDouble;
    const vertical = alongX ? crosswise : !crosswise;
    const w = vertical ? 1 : 2;
    const h = vertical ? 2 : 1;
    const cx = arm.x + (dx * (alongX ? w : h)) / 2;
    const cy = arm.y + (dy * (alongX ? w : h)) / 2;
    // The inner number faces the arm: first half for E/S, second for W/N.
    const shown = crosswise ? [a, b] : dx > 0 || dy > 0 ? [inner, outer] : [outer, inner];
    const p = { tile: play.tile, x: cx - w / 2, y: cy - h / 2, w, h, vertical, shown };
    placed.push(p);
    if (isSpinner(id, play.index)) spinnerTile = p;
    arm.x = cx + (dx * (alongX ? w : h)) / 2;
    arm.y = cy + (dy * (alongX ? w : h)) / 2;
    arm.side = (alongX ? h : w) / 2;
  }
  return { placed, arms, spinnerTile };
}

/**
 * The layout as one <svg>. `targets` are the end ids the chosen tile may go to; `onEnd(id)` is
 * called when one is clicked or activated with the keyboard.
 */
export function lineSVG(layout, ends, { top = 6, targets = [], onEnd = null, width = 800, spinner = false } = {}) {
  const limitX = Math.max(6, Math.floor(width / 40 / 2) - 1);
  const { placed, arms, spinnerTile } = placeLine(layout, { limitX, limitY: Math.max(5, limitX - 2), spinner });
  const count = placed.length;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("class", "line-layout");
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", count ? `the line: ${count} tiles` : "the table is empty");
  let minX = -2, minY = -1.5, maxX = 2, maxY = 1.5;
  const grow = (x, y, w, h) => {
    minX = Math.min(minX, x); minY = Math.min(minY, y);
    maxX = Math.max(maxX, x + w); maxY = Math.max(maxY, y + h);
  };
  for (const p of placed) {
    const g = tileSVG(p.shown, { vertical: p.vertical, top, size: 80 });
    g.setAttribute("x", p.x * U);
    g.setAttribute("y", p.y * U);
    g.setAttribute("width", p.w * U);
    g.setAttribute("height", p.h * U);
    if (p === spinnerTile) g.classList.add("spinner");
    svg.append(g);
    grow(p.x, p.y, p.w, p.h);
  }
  const targetPoint = (id) => {
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
  };
  for (const end of ends) {
    const pt = targetPoint(end.id);
    if (!pt) continue;
    const [dx, dy] = DIRS[pt.dir];
    const size = 1.2;
    const x = count ? pt.x + dx * 0.7 - size / 2 : -size / 2;
    const y = count ? pt.y + dy * 0.7 - size / 2 : -size / 2;
    const active = targets.includes(end.id);
    const g = document.createElementNS(NS, "g");
    g.setAttribute("class", "end-marker" + (active ? " end-target" : ""));
    g.dataset.end = end.id;
    const rect = document.createElementNS(NS, "rect");
    Object.entries({ x: x * U, y: y * U, width: size * U, height: size * U, rx: 6 }).forEach(([k, v]) =>
      rect.setAttribute(k, v));
    if (!active) rect.setAttribute("class", "end-idle");
    const label = document.createElementNS(NS, "text");
    label.setAttribute("x", (x + size / 2) * U);
    label.setAttribute("y", (y + size / 2) * U + 5);
    label.setAttribute("text-anchor", "middle");
    label.textContent = end.value;
    g.append(rect, label);
    if (active && onEnd) {
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", `play on the ${end.id} end (${end.value})`);
      g.addEventListener("click", () => onEnd(end.id));
      g.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onEnd(end.id); }
      });
    }
    svg.append(g);
    grow(x, y, size, size);
  }
  const pad = 0.3;
  svg.setAttribute("viewBox", `${(minX - pad) * U} ${(minY - pad) * U} ${(maxX - minX + 2 * pad) * U} ${(maxY - minY + 2 * pad) * U}`);
  svg.setAttribute("width", Math.min(width, (maxX - minX + 2 * pad) * U * 0.7));
  return svg;
}

// The line as a real table lays it: the lead in the middle, arms growing out of it, doubles
// crosswise, the spinner's up and down arms, and arms that turn a corner when they reach the
// edge so the layout takes the shape of its box. Placed from the view's `layout` (lead,
// spinner, arms); line.js draws it.

export const U = 40; // half a tile, in SVG units
export const DIRS = { E: [1, 0], W: [-1, 0], S: [0, 1], N: [0, -1] };
// Without a spinner the two arms turn twice, in opposite senses, so the line snakes like an S.
// With one, each of the four arms turns once to its right: a pinwheel, whose arms never meet.
const SNAKE = { left: { W: "N", N: "E" }, right: { E: "S", S: "W" } };
const PINWHEEL = { left: { W: "N" }, up: { N: "E" }, right: { E: "S" }, down: { S: "W" } };
const ARM_START = { left: "W", right: "E", up: "N", down: "S" };

export function perpendicular(dir) {
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
 * How far the arms run before they turn, for a board box of `width` x `height` CSS px: the
 * line takes the box's shape, so that scaled to fit it fills the box.
 */
export function lineLimits(width, height) {
  if (!width || !height) return { limitX: 6, limitY: 5 };
  if (width >= height) return { limitX: Math.max(6, Math.min(14, Math.round((5 * width) / height))), limitY: 5 };
  return { limitX: 6, limitY: Math.max(5, Math.min(12, Math.round((6 * height) / width))) };
}

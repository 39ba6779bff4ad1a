// Chicken Foot: the lead double with its four arms (six with the opening_arms house rule), and
// under each double that closed an arm its foot of three toes. Toes that must be filled before
// anything else are framed and say "fill this toe".

import { tileLabel, tileSVG } from "../tiles.js";
import { markTiles, showTargets, syncRows, zoomRows } from "./branch.js";
import { h, setHidden, topOf } from "./common.js";

export const zoomable = true;

/** "arm:2" is arm 3; "toe:1:0" is toe 1 of foot 2 (feet counted as they were made). */
function label(id) {
  const parts = id.split(":").map(Number);
  return id.startsWith("arm:") ? `Arm ${parts[1] + 1}` : `Foot ${parts[1] + 1}, toe ${parts[2] + 1}`;
}

export function endName(ctx, id) {
  if (id?.startsWith("arm:") || id?.startsWith("toe:")) return label(id).toLowerCase();
  return `the ${id} end`;
}

export function phrase(ctx, e) {
  if (e.type === "draw" && e.lead) return "drew, looking for the lead double";
  return undefined;
}

export function targetText() {
  return "The lowest total wins.";
}

export function board(ctx, el, sel) {
  const view = ctx.view;
  const top = topOf(view);
  let b = el._table;
  if (!b || b.kind !== "chicken") {
    const hub = h("div", { class: "hub" });
    const notice = h("p", { class: "open-double", hidden: true });
    const rows = h("div", { class: "rows" });
    el.replaceChildren(hub, notice, rows);
    el.classList.remove("pannable");
    b = el._table = { kind: "chicken", hub, notice, rows, key: null, started: false };
    zoomRows(el, "default");
  }
  const layout = view.layout || { branches: [], pending: [] };
  const raw = layout.lead ?? view.lead;
  const lead = typeof raw === "number" ? [raw, raw] : raw;
  const hubKey = `${lead}:${view.led}:${view.round}`;
  if (b.key !== hubKey) {
    b.key = hubKey;
    const lead$ = lead ? tileSVG(lead, { top, size: 64 }) : null;
    if (lead$) lead$.dataset.key = `${lead[0]}-${lead[1]}`;
    b.hub.replaceChildren(...[lead$, h("span", { text: `Hand ${(view.round ?? 0) + 1} of ${view.rounds ?? "?"}${lead
      ? `: the ${tileLabel(lead)} ${view.led === false ? "must lead" : "leads"}` : ""}` })].filter(Boolean));
  }
  const pending = new Set(layout.pending || []);
  const arms = [...pending].every((id) => id.startsWith("arm:"));
  const text = !pending.size ? "" : arms
    ? `The lead double's ${pending.size} open arm${pending.size === 1 ? "" : "s"} must each get a tile before anyone plays elsewhere.`
    : `A chicken foot is open: its ${pending.size} toe${pending.size === 1 ? "" : "s"} must be filled before anyone plays elsewhere.`;
  if (b.notice.textContent !== text) b.notice.textContent = text;
  setHidden(b.notice, !pending.size);
  const byParent = new Map();
  for (const br of layout.branches || []) {
    const key = br.from || "";
    if (!byParent.has(key)) byParent.set(key, []);
    byParent.get(key).push(br);
  }
  const specs = [];
  const add = (br, depth, start) => {
    const badges = [];
    if (pending.has(br.id)) badges.push({ text: `fill this ${br.id.startsWith("arm:") ? "arm" : "toe"}` });
    else if (br.closed) badges.push({ text: "foot below", cls: "double" });
    specs.push({ id: br.id, label: label(br.id), tiles: br.tiles, start, openEnd: br.open_end, badges,
      active: sel.targets.includes(br.id), classes: [depth ? "toe" : "", pending.has(br.id) ? "pending" : ""].filter(Boolean).join(" ") });
    const last = br.tiles[br.tiles.length - 1];
    for (const child of byParent.get(br.id) || []) add(child, depth + 1, last ? last[0] : start);
  };
  for (const br of byParent.get("") || []) add(br, 0, lead ? lead[0] : null);
  syncRows(b.rows, specs, { top, onEnd: sel.onEnd, animate: b.started });
  b.started = true;
  markTiles(el, sel.last, "last-played");
  showTargets(el, b, sel.targets);
}

export function zoom(el, how) {
  zoomRows(el, how);
}

export function statusWhy(ctx) {
  const legal = ctx.view.legal;
  if (legal.some((a) => a.type === "draw")) return "Nothing of yours fits an open end: draw a tile.";
  if (legal.some((a) => a.type === "pass")) return "You cannot play and the chicken yard cannot help: pass.";
  const pending = ctx.view.layout?.pending || [];
  if (pending.length && pending.every((id) => id.startsWith("arm:"))) return "Play on one of the lead double's framed arms.";
  if (pending.length) return "Fill the chicken foot: play on a framed toe.";
  return "Choose a highlighted tile, then an arm or toe.";
}

// Chicken Foot: the lead double with its four arms, and under each double its foot of three
// toes; a foot that must be filled before anything else is marked.

import { tileSVG } from "../tiles.js";
import { branchRow } from "./branch.js";
import { h, topOf } from "./common.js";

function label(branch) {
  const n = Number(branch.id.split(":").pop()) + 1;
  return branch.id.startsWith("arm:") ? `Arm ${n}` : `Toe ${n}`;
}

export function board(ctx, el, sel) {
  const view = ctx.view;
  const top = topOf(view);
  const layout = view.layout || { branches: [], pending: [] };
  const pending = new Set(layout.pending || []);
  const raw = layout.lead ?? view.lead;
  const lead = typeof raw === "number" ? [raw, raw] : raw;
  const parts = [h("div", { class: "hub" }, lead ? tileSVG(lead, { top, size: 64 }) : h("span", { text: "No lead yet" }),
    h("span", { text: `Hand ${(view.round ?? 0) + 1} of ${view.rounds ?? "?"}${lead ? `: the ${lead[0]}-${lead[1]} `
      + (view.led === false ? "must lead" : "leads") : ""}` }))];
  if (pending.size) {
    parts.push(h("p", { class: "open-double", role: "alert",
      text: `A chicken foot is open: its ${pending.size} toe${pending.size === 1 ? "" : "s"} must be filled before anyone plays elsewhere.` }));
  }
  const byParent = new Map();
  for (const b of layout.branches || []) {
    const key = b.from || "";
    if (!byParent.has(key)) byParent.set(key, []);
    byParent.get(key).push(b);
  }
  const rows = h("div", { class: "trains feet" });
  const addBranch = (b, depth, start) => {
    rows.append(branchRow(ctx, { id: b.id, label: label(b), tiles: b.tiles, start, openEnd: b.open_end, sel,
      marker: pending.has(b.id), extraClass: depth ? "toe" : "",
      badge: pending.has(b.id) ? h("span", { class: "marker", text: "fill" }) : b.closed ? h("span", { class: "badge", text: "foot" }) : null }));
    const last = b.tiles[b.tiles.length - 1];
    for (const child of byParent.get(b.id) || []) addBranch(child, depth + 1, last ? last[0] : start);
  };
  for (const b of byParent.get("") || []) addBranch(b, 0, lead ? lead[0] : null);
  parts.push(rows);
  el.replaceChildren(...parts);
}

export function statusWhy(ctx) {
  const legal = ctx.view.legal;
  if (legal.some((a) => a.type === "draw")) return "Nothing of yours fits an open end: draw a tile.";
  if (legal.some((a) => a.type === "pass")) return "You cannot play and the chicken yard cannot help: pass.";
  if ((ctx.view.layout?.pending || []).length) return "Fill the chicken foot: play on a highlighted toe.";
  return "Your turn: choose a highlighted tile, then an arm or toe.";
}

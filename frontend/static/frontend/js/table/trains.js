// Mexican Train: the engine hub, a train per seat with its owner and marker, the Mexican
// train, and the double that must be answered.

import { tileSVG } from "../tiles.js";
import { branchRow } from "./branch.js";
import { endName, h, seatName, topOf } from "./common.js";

export function board(ctx, el, sel) {
  const view = ctx.view;
  const top = topOf(view);
  const parts = [h("div", { class: "hub" }, tileSVG(view.engine || [top, top], { top, size: 64, vertical: false }),
    h("span", { text: `Engine of round ${(view.round ?? 0) + 1} of ${view.rounds}` }))];
  if (view.open_double) {
    parts.push(h("p", { class: "open-double", role: "alert" },
      `The double ${view.open_double.tile ? view.open_double.tile.join("-") + " " : ""}on ${view.open_double.end ? endName(view.open_double.end, ctx) : "the layout"} is open: `
      + "the next tile anyone plays must go on it."));
  }
  const ends = Object.fromEntries((view.ends || []).map((e) => [e.id, e]));
  const trains = h("div", { class: "trains" });
  for (const t of view.trains || []) {
    const id = `train:${t.owner}`;
    trains.append(branchRow(ctx, { id, label: t.owner === ctx.seat ? "Your train" : `${seatName(ctx, t.owner)}'s train`, tiles: t.tiles, marker: t.marker,
      start: view.engine?.[0], openEnd: ends[id]?.value ?? t.open_end, sel,
      badge: t.marker ? h("span", { class: "marker", text: "marker" }) : null }));
  }
  const mx = view.mexican || { tiles: [] };
  trains.append(branchRow(ctx, { id: "mexican", label: "Mexican train", tiles: mx.tiles, marker: mx.started,
    start: view.engine?.[0], openEnd: ends.mexican?.value ?? mx.open_end, sel,
    badge: mx.started ? h("span", { class: "marker", text: "open to all" }) : null }));
  parts.push(trains);
  el.replaceChildren(...parts);
}

export function statusWhy(ctx) {
  const legal = ctx.view.legal;
  const phase = ctx.view.turn_phase || {};
  if (ctx.view.open_double && legal.some((a) => a.type === "play")) return "A double is open: answer it first.";
  if (legal.some((a) => a.type === "end_turn") && phase.first_turn) {
    return "Your opening turn: keep laying tiles on your train, or end the turn.";
  }
  if (legal.some((a) => a.type === "draw")) return "Nothing of yours fits an open train: draw a tile.";
  if (legal.some((a) => a.type === "pass")) return "You cannot play: place your marker on your train (pass).";
  if (phase.must_play_again) return "You played a double: play one more tile.";
  return "Your turn: choose a highlighted tile, then a train.";
}

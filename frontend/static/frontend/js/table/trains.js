// Mexican Train: the engine hub, a train per seat with its owner and marker, the Mexican
// train, and the double that must be answered.

import { tileSVG } from "../tiles.js";
import { endName, h, seatName, topOf } from "./common.js";

function trainRow(ctx, { id, label, tiles, marker, openEnd, sel, extra }) {
  const top = topOf(ctx.view);
  const active = sel.targets.includes(id);
  const row = h("div", { class: "train" + (marker ? " marked" : ""), "data-end": id },
    h("span", { class: "owner" }, label, marker ? h("span", { class: "marker", text: " marker" }) : null, extra || null),
    ...tiles.slice(-12).map((t, i, arr) => tileSVG(orient(t, arr, i), { top, size: 48 })),
    tiles.length > 12 ? h("span", { class: "hint", text: `(+${tiles.length - 12})` }) : null);
  const end = h("button", { type: "button", class: "end-button" + (active ? " end-target" : ""), disabled: !active,
    "data-end": id, "aria-label": `${active ? "play on " : ""}${label}, open end ${openEnd}`, onclick: () => sel.onEnd(id) },
    String(openEnd));
  row.append(end);
  return row;
}

/** Lay each tile with the matching number towards the engine. */
function orient(tile, arr, i) {
  const prev = i === 0 ? null : arr[i - 1];
  if (!prev) return tile;
  const [a, b] = tile;
  return prev.includes(a) ? [a, b] : [b, a];
}

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
    trains.append(trainRow(ctx, { id, label: `${seatName(ctx, t.owner)}'s train`, tiles: t.tiles, marker: t.marker,
      openEnd: ends[id]?.value ?? t.open_end, sel }));
  }
  const mx = view.mexican || { tiles: [] };
  trains.append(trainRow(ctx, { id: "mexican", label: "Mexican train", tiles: mx.tiles, marker: mx.started,
    openEnd: ends.mexican?.value ?? mx.open_end, sel }));
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

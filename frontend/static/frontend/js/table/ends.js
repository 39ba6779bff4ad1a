// Any layout game whose table has no dedicated drawing (Chicken Foot): the open ends as a row
// of targets and the tiles played in order, so every game stays playable and readable.

import { tileSVG } from "../tiles.js";
import { h, topOf } from "./common.js";

export function board(ctx, el, sel) {
  const view = ctx.view;
  const top = topOf(view);
  const plays = (view.log || []).filter((e) => e.type === "play");
  const ends = (view.ends || []).map((e) => {
    const active = sel.targets.includes(e.id);
    return h("button", { type: "button", class: "end-button" + (active ? " end-target" : ""), disabled: !active,
      "data-end": e.id, onclick: () => sel.onEnd(e.id), "aria-label": `${active ? "play on " : ""}${e.id}, showing ${e.value}` },
      `${e.id}: ${e.value}`);
  });
  el.replaceChildren(
    view.engine ? h("div", { class: "hub" }, tileSVG(view.engine, { top, size: 64 }), h("span", { text: "Engine" })) : "",
    h("div", { class: "end-buttons", role: "group", "aria-label": "Open ends" }, ...ends),
    h("div", { class: "played", "aria-label": "Tiles played" }, ...plays.slice(-30).map((e) => tileSVG(e.tile, { top, size: 40 }))),
  );
}

export function statusWhy(ctx) {
  const legal = ctx.view.legal;
  if (legal.some((a) => a.type === "draw")) return "Nothing of yours fits: draw a tile.";
  if (legal.some((a) => a.type === "pass")) return "You cannot play: pass.";
  return "Your turn: choose a highlighted tile, then an end.";
}

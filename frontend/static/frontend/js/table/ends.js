// Any layout game whose table has no drawing of its own: the open ends as buttons and the tiles
// played in order, so a new game stays playable and readable before it gets one.

import { tileSVG, tileKey } from "../tiles.js";
import { h, setItems, topOf } from "./common.js";
import { formatNumber, gettext, interpolate } from "../i18n.js";

export const zoomable = false;

export function board(ctx, el, sel) {
  const view = ctx.view;
  const top = topOf(view);
  const targets = sel.targets || [];
  const plays = (view.log || []).filter((e) => e.type === "play");
  const key = JSON.stringify([view.ends, plays.length, view.hand_number, targets, sel.last]);
  if (el._table?.kind === "ends" && el._table.key === key) return;
  el._table = { kind: "ends", key };
  el.classList.remove("pannable");
  const ends = (view.ends || []).map((e) => {
    const active = targets.includes(e.id);
    const values = { end: e.id, number: formatNumber(e.value) };
    return h("button", { type: "button", class: "end-button" + (active ? " end-target" : ""), disabled: !active,
      "data-end": e.id, onclick: () => sel.onEnd(e.id),
      "aria-label": active ? interpolate(gettext("Play on %(end)s (%(number)s)"), values) : interpolate(gettext("%(end)s: %(number)s"), values) },
    `${e.id}: ${formatNumber(e.value)}`);
  });
  const tiles = plays.slice(-30).map((e) => {
    const svg = tileSVG(e.tile, { top, size: 48 });
    svg.dataset.key = tileKey(e.tile);
    if (sel.last.includes(svg.dataset.key)) svg.classList.add("last-played");
    return svg;
  });
  const list = h("ul", { class: "visually-hidden board-list", role: "list", "aria-label": gettext("Board") });
  setItems(list, (view.ends || []).map((e) => interpolate(gettext("%(end)s: %(number)s"), { end: e.id, number: formatNumber(e.value) })));
  el.replaceChildren(
    list,
    view.engine ? h("div", { class: "hub" }, tileSVG(view.engine, { top, size: 64 }), h("span", { text: gettext("Engine") })) : "",
    h("div", { class: "end-buttons", role: "group", "aria-label": gettext("Open ends") }, ...ends),
    h("div", { class: "played", role: "group", "aria-label": gettext("Tiles played, oldest first") }, ...tiles),
  );
}

export function statusWhy(ctx) {
  const legal = ctx.view.legal;
  if (legal.some((a) => a.type === "draw")) return gettext("Nothing of yours fits: draw a tile.");
  if (legal.some((a) => a.type === "pass")) return gettext("You cannot play: pass.");
  return gettext("Choose a highlighted tile, then an end.");
}

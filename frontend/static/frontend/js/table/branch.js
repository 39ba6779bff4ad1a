// One row of tiles growing from a centre (a Mexican Train train, a Chicken Foot arm or toe):
// its label, its newest tiles with the matching numbers touching, and its open end as a target.

import { tileSVG } from "../tiles.js";
import { h, topOf } from "./common.js";

const SHOWN = 12;

/** Lay each tile with the number it shares with the tile before it on the inside. */
export function chain(tiles, start) {
  let open = start;
  return tiles.map((t) => {
    const [a, b] = t;
    const shown = open === b && open !== a ? [b, a] : [a, b];
    open = shown[1];
    return shown;
  });
}

export function branchRow(ctx, { id, label, tiles, start, marker = false, openEnd, sel, extraClass = "", badge = null }) {
  const top = topOf(ctx.view);
  const active = sel.targets.includes(id);
  const laid = chain(tiles, start);
  const row = h("div", { class: `train${marker ? " marked" : ""}${extraClass ? " " + extraClass : ""}`, "data-end": id },
    h("span", { class: "owner" }, label, badge),
    tiles.length > SHOWN ? h("span", { class: "hint", text: `(+${tiles.length - SHOWN})` }) : null,
    ...laid.slice(-SHOWN).map((t) => tileSVG(t, { top, size: 48, vertical: t[0] === t[1] })),
    h("button", { type: "button", class: "end-button" + (active ? " end-target" : ""), disabled: !active, "data-end": id,
      "aria-label": `${active ? "play on " : ""}${typeof label === "string" ? label : id}, open end ${openEnd}`,
      onclick: () => sel.onEnd(id) }, String(openEnd)));
  return row;
}

// Block, Draw and All Fives: the line with its ends, and the All Fives count.

import { lineSVG } from "./layout.js";
import { h, topOf } from "./common.js";

export function board(ctx, el, sel) {
  const view = ctx.view;
  const width = Math.max(300, el.clientWidth || 800);
  const svg = lineSVG(view.layout, view.ends || [], {
    top: topOf(view), targets: sel.targets, onEnd: sel.onEnd, width, spinner: !!view.options?.spinner,
  });
  const parts = [svg];
  if (view.game === "allfives") {
    const total = view.end_total ?? (view.ends || []).reduce((s, e) => s + (e.double ? 2 * e.value : e.value), 0);
    parts.push(h("p", { class: "end-total", text: `Open ends total ${total}${total && total % 5 === 0 ? ": a multiple of five" : ""}` }));
  }
  el.replaceChildren(...parts);
}

export function statusWhy(ctx) {
  const ends = (ctx.view.ends || []).map((e) => e.value);
  const legal = ctx.view.legal;
  if (legal.some((a) => a.type === "draw")) {
    return `None of your tiles matches ${ends.join(" or ")}: draw from the boneyard.`;
  }
  if (legal.some((a) => a.type === "pass")) {
    return ctx.view.game === "block"
      ? `None of your tiles matches ${ends.join(" or ")}, and Block has no drawing: pass.`
      : `None of your tiles matches ${ends.join(" or ")} and the boneyard is closed: pass.`;
  }
  if (!ctx.view.layout?.lead) return "Your lead: play the highlighted tile.";
  return "Your turn: choose a highlighted tile, then the end to play it on.";
}

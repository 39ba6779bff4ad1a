// Texas 42: the bidding box (legal bids only), trump choice, the trick in the middle with
// who played what, tricks and count per side, marks.

import { tileSVG } from "../tiles.js";
import { bidName, h, seatName, sideName, trumpName } from "./common.js";

export function board(ctx, el) {
  const view = ctx.view;
  const me = ctx.seat ?? 0;
  const parts = [];
  const high = view.high_bid;
  parts.push(h("p", { class: "bid-line" },
    `Shuffled by ${seatName(ctx, view.shuffler)}. `,
    high ? `High bid: ${seatName(ctx, high.seat)} ${bidName(high.value)}.` : "No bid yet.",
    view.trump !== null && view.trump !== undefined ? ` Trumps: ${trumpName(view.trump)}.` : ""));
  if (view.bids?.length) {
    parts.push(h("ul", { class: "bids", "aria-label": "Bids" },
      ...view.bids.map((b) => h("li", { text: `${seatName(ctx, b.seat)}: ${b.pass ? "pass" : bidName(b.bid)}` }))));
  }
  // The trick: seats placed around the centre relative to this viewer (you at the bottom).
  // Between tricks the last one stays on the table, with its winner, until the next lead.
  const last = lastTrick(view);
  const shown = view.trick?.length || !last ? view.trick || [] : last.plays;
  const trick = h("div", { class: "trick", role: "group", "aria-label": view.trick?.length || !last ? "The trick" : "The last trick" });
  for (let s = 0; s < 4; s++) {
    const slot = (s - me + 4) % 4;
    const play = shown.find((p) => p.seat === s);
    trick.append(h("div", { class: `slot slot-${slot}`, "data-seat": s },
      play ? tileSVG(play.tile, { size: 64 }) : h("span", { class: "empty", text: "" }),
      h("div", { text: seatName(ctx, s) })));
  }
  const centre = !view.trick?.length && last ? `Last trick to ${seatName(ctx, last.winner)}`
    : view.leader !== null && view.leader !== undefined && view.phase === "play" ? `${seatName(ctx, view.leader)} leads` : "";
  trick.append(h("div", { class: "centre", text: centre }));
  parts.push(trick);
  parts.push(h("div", { class: "sides" }, ...(view.teams || []).map((_, i) => h("div", { class: "side-box" },
    h("strong", { text: sideName(ctx, i) }),
    h("div", { text: `Tricks ${view.tricks_won?.[i] ?? 0} · count and tricks ${view.points_taken?.[i] ?? 0}` }),
    h("div", { text: `${view.scoring === "points" ? "Points" : "Marks"}: ${view.scores[i]}` })))));
  el.replaceChildren(...parts);
}

/** The plays of the hand's last finished trick (the four plays before its `trick` event). */
function lastTrick(view) {
  const log = view.log || [];
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i].type === "play") return null;
    if (log[i].type === "trick") {
      const plays = log.slice(0, i).filter((e) => e.type === "play").slice(-(log[i].tiles?.length || 4));
      return { winner: log[i].winner, plays };
    }
  }
  return null;
}

/** Bid and trump buttons: only what `legal` allows. */
export function controls(ctx, box) {
  const legal = ctx.view.legal || [];
  const bids = legal.filter((a) => a.type === "bid");
  const trumps = legal.filter((a) => a.type === "trump");
  const nodes = [];
  if (bids.length || (legal.some((a) => a.type === "pass") && ctx.view.phase === "bidding")) {
    nodes.push(h("div", { class: "bidbox", role: "group", "aria-label": "Your bid" },
      ...bids.map((a) => h("button", { type: "button", "data-bid": a.value, onclick: () => ctx.act(a), text: bidName(a.value) })),
      legal.some((a) => a.type === "pass")
        ? h("button", { type: "button", "data-action": "pass", onclick: () => ctx.act({ type: "pass" }), text: "Pass" }) : null));
  }
  if (trumps.length) {
    nodes.push(h("div", { class: "trumps", role: "group", "aria-label": "Name trumps" },
      ...trumps.map((a) => h("button", { type: "button", "data-trump": a.suit, onclick: () => ctx.act(a), text: trumpName(a.suit) }))));
  }
  box.replaceChildren(...nodes);
  return nodes.length > 0;
}

export function statusWhy(ctx) {
  const view = ctx.view;
  if (view.phase === "bidding") return "Your bid: beat the high bid or pass (each player bids once).";
  if (view.legal.some((a) => a.type === "trump")) return "You won the bidding: name trumps.";
  if (view.trick?.length) return "Your play: follow suit if you can (highlighted tiles).";
  return "Your lead: play any tile.";
}

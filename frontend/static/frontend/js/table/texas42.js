// Texas 42: the bidding box (legal bids only), trumps, the trick round the centre with who
// played what (the last trick stays with its winner until the next lead), tricks and count per
// side, marks. What a bid promises and what "set" means are said in plain words, and trumps
// are marked in the hand. The house rules are said in words too: a plunge or a splash (the
// partner names trumps), sevens, and how nello's doubles rank.

import { tileLabel, tileSVG, tileKey } from "../tiles.js";
import { bareName, h, seatName, sideName } from "./common.js";

export const zoomable = false;
/** Everyone holds about as many tiles: the trick names the seats, no strip of players needed. */
export const showsPlayers = false;
export const showsHandsLeft = true;

const SUITS = ["blanks", "ones", "twos", "threes", "fours", "fives", "sixes"];

export function bidName(v, contract) {
  if (v === null || v === undefined) return "pass";
  if (contract === "plunge" || contract === "splash") {
    return `${contract === "plunge" ? "Plunge" : "Splash"}: ${v / 42} marks, partner names trumps`;
  }
  return v >= 84 ? `${v / 42} marks (${v})` : String(v);
}

export function trumpName(s) {
  if (typeof s === "number") return SUITS[s];
  return { doubles: "doubles", follow_me: "follow-me (no trumps)", nello: "nello", sevens: "sevens (closest to seven pips wins)" }[s] || String(s);
}

/** How nello's doubles rank in this room (the `nello_doubles` option), in words. */
function nelloDoubles(view) {
  return { low: "Doubles are lowest in their suits.", own_suit: "Doubles are a suit of their own: a double led calls for doubles." }[view.options?.nello_doubles]
    || "Doubles are highest in their suits.";
}

export function phrase(ctx, e) {
  switch (e.type) {
    case "bid":
      return `bid ${bidName(e.value, e.contract)}`;
    case "pass":
      return "passed";
    case "trump":
      return ["follow_me", "nello", "sevens"].includes(e.suit) ? `chose ${trumpName(e.suit)}` : `named ${trumpName(e.suit)} as trumps`;
    case "play":
      return `played ${tileLabel(e.tile)}`;
    case "trick":
      return `the trick went to ${seatName(ctx, e.winner)}${e.points !== undefined ? ` (${e.points} point${e.points === 1 ? "" : "s"})` : ""}`;
    default:
      return undefined;
  }
}

/** The trumps in the hand, marked on the tile and named to screen readers. */
export function handMark(ctx, tile) {
  const t = ctx.view.trump;
  if (t === null || t === undefined) return null;
  const [a, b] = tile;
  if (typeof t === "number" ? a === t || b === t : t === "doubles" && a === b) return "trump";
  return null;
}

export function actionLabel(ctx, type) {
  return type === "pass" ? null : undefined;
}

export function scoreUnit(view) {
  return view.scoring === "points" ? "points" : "marks";
}

export function handPoints(view, last) {
  const award = last.award || 0;
  return (view.teams || []).map((_, i) => (last.winner === i ? award : 0));
}

function sideOf(view, seat) {
  return (view.teams || []).findIndex((t) => t.includes(seat));
}

function stake(view, value) {
  if (view.scoring === "points") return `${value} points`;
  const marks = value >= 84 ? value / 42 : 1;
  return `${marks} mark${marks === 1 ? "" : "s"}`;
}

/** What the standing bid asks of the bidders, and what "set" means for it, in plain words. */
function side(ctx, i) {
  return (ctx.view.teams?.[i] || []).map((s) => bareName(ctx, s)).join(" & ");
}

function promise(ctx, seat, value, trump, contract) {
  const view = ctx.view;
  const us = sideOf(view, seat);
  const them = side(ctx, 1 - us);
  const bidders = side(ctx, us);
  if (trump === "nello") {
    return `${bareName(ctx, seat)} must lose every trick, partner sitting out. ${nelloDoubles(view)} `
      + `Winning even one trick sets the bid: ${them} score ${stake(view, value)}.`;
  }
  if (contract) {
    const namer = (seat + 2) % 4;
    const verbs = namer === ctx.seat ? "name trumps and lead" : "names trumps and leads";
    return `${contract === "plunge" ? "Plunge" : "Splash"}: ${bareName(ctx, seat)} holds ${contract === "plunge" ? "four" : "three"} doubles or more; `
      + `${bareName(ctx, namer)} ${verbs}. ${bidders} must take every trick, or ${them} score ${stake(view, value)}.`;
  }
  if (trump === "sevens") {
    return `Sevens: everyone plays their tile closest to seven pips, and the closest takes the trick. `
      + `${bidders} must take every trick, or ${them} score ${stake(view, value)}.`;
  }
  if (value >= 84) {
    return `${bidders} must take every trick. Losing one, they are set (the bid fails) and ${them} score ${stake(view, value)}.`;
  }
  return `${bidders} need ${value} of the 42 points. Short of that they are set (the bid fails) and ${them} score ${stake(view, value)}.`;
}

/** The plays of the hand's last finished trick (the plays before its `trick` event). */
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

export function board(ctx, el, sel) {
  const view = ctx.view;
  const me = ctx.seat ?? 0;
  const last = lastTrick(view);
  const shown = view.trick?.length || !last ? view.trick || [] : last.plays;
  const key = JSON.stringify([view.hand_number, view.bids, view.high_bid, view.trump, shown, last?.winner, view.leader,
    view.phase, view.tricks_won, view.points_taken, view.scores, sel.last, ctx.room?.revision, ctx.seat]);
  if (el._table?.kind === "texas42" && el._table.key === key) return;
  const before = el._table?.kind === "texas42" ? el._table.tiles : new Set();
  el._table = { kind: "texas42", key, tiles: new Set(shown.map((p) => tileKey(p.tile))) };
  el.classList.remove("pannable");
  el.classList.add("sized"); // the trick's tiles follow the box's height
  const parts = [];
  const high = view.high_bid;
  parts.push(h("p", { class: "bid-line" },
    view.phase === "bidding" ? `Shuffled by ${bareName(ctx, view.shuffler)}. ` : "",
    view.trump !== null && view.trump !== undefined ? `Trumps: ${trumpName(view.trump)}. ` : "",
    high ? `High bid: ${bareName(ctx, high.seat)}, ${bidName(high.value, high.contract)}.` : "No bid yet."));
  if (view.phase === "bidding") {
    const opts = view.options || {};
    const extra = [opts.plunge ? "plunge (4 doubles)" : "", opts.splash ? "splash (3 doubles)" : ""].filter(Boolean);
    parts.push(h("p", { class: "set-line", text: "Each player bids once: the points of 42 their side will take (30 to 42), "
      + "or marks (84 is 2 marks: every trick)"
      + (extra.length ? `, or a ${extra.join(" or ")}: marks, and the partner names trumps` : "")
      + ". A side that falls short of its bid is set: the bid fails and the other side scores." }));
  } else if (high) {
    parts.push(h("p", { class: "set-line", text: promise(ctx, high.seat, high.value, view.trump, high.contract) }));
  }
  if (view.bids?.length && view.phase === "bidding") {
    parts.push(h("ul", { class: "bids", "aria-label": "Bids" },
      ...view.bids.map((b) => h("li", { text: `${seatName(ctx, b.seat)}: ${b.pass ? "pass" : bidName(b.bid, b.contract)}` }))));
  }
  // The trick: seats placed round the centre from this viewer (you at the bottom).
  const trick = h("div", { class: "trick", role: "group", "aria-label": view.trick?.length || !last ? "The trick" : "The last trick" });
  for (let s = 0; s < 4; s++) {
    const slot = (s - me + 4) % 4;
    const play = shown.find((p) => p.seat === s);
    let tile = h("span", { class: "empty" });
    if (play) {
      tile = tileSVG(play.tile, { size: 72, vertical: true });
      tile.dataset.key = tileKey(play.tile);
      if (sel.last.includes(tile.dataset.key)) tile.classList.add("last-played");
      if (!before.has(tile.dataset.key)) tile.classList.add("arrive");
    }
    trick.append(h("div", { class: `slot slot-${slot}`, "data-seat": s }, tile, h("div", { class: "who", text: bareName(ctx, s) })));
  }
  const centre = !view.trick?.length && last ? `Last trick: ${bareName(ctx, last.winner)}`
    : view.leader !== null && view.leader !== undefined && view.phase !== "bidding" ? `${bareName(ctx, view.leader)} ${view.leader === ctx.seat ? "lead" : "leads"}` : "";
  trick.append(h("div", { class: "centre", text: centre }));
  const info = h("div", {}, ...parts);
  const sides = h("div", { class: "sides" }, ...(view.teams || []).map((_, i) => h("div", { class: "side-box" },
    h("strong", { text: side(ctx, i) }),
    h("div", { text: `Tricks ${view.tricks_won?.[i] ?? 0} · points taken ${view.points_taken?.[i] ?? 0}` }),
    h("div", { text: `${view.scoring === "points" ? "Points" : "Marks"}: ${view.scores[i]}` }))));
  el.replaceChildren(h("div", { class: "t42" }, trick, h("div", {}, info, sides)));
}

/** Bid and trump buttons: only what `legal` allows. */
export function controls(ctx, box) {
  const legal = ctx.view.legal || [];
  const bids = legal.filter((a) => a.type === "bid");
  const trumps = legal.filter((a) => a.type === "trump");
  const key = JSON.stringify([bids, trumps, legal.some((a) => a.type === "pass"), ctx.view.phase, ctx.waiting]);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  const nodes = [];
  if (bids.length || (legal.some((a) => a.type === "pass") && ctx.view.phase === "bidding")) {
    nodes.push(h("div", { class: "bidbox", role: "group", "aria-label": "Your bid" },
      ...bids.map((a) => h("button", { type: "button", "data-bid": a.value, "data-contract": a.contract, disabled: ctx.waiting, onclick: () => ctx.act(a), text: bidName(a.value, a.contract) })),
      legal.some((a) => a.type === "pass")
        ? h("button", { type: "button", "data-action": "pass", disabled: ctx.waiting, onclick: () => ctx.act({ type: "pass" }), text: "Pass" }) : null));
  }
  if (trumps.length) {
    nodes.push(h("div", { class: "trumps", role: "group", "aria-label": "Name trumps" },
      ...trumps.map((a) => h("button", { type: "button", "data-trump": a.suit, disabled: ctx.waiting, onclick: () => ctx.act(a), text: trumpName(a.suit) }))));
  }
  box.replaceChildren(...nodes);
}

export function summaryLines(ctx, last) {
  const view = ctx.view;
  if (!last.bid) return [h("p", { text: "Everybody passed: the tiles were shuffled again." })];
  const us = sideOf(view, last.bidder);
  const bidders = sideName(ctx, us);
  const them = sideName(ctx, 1 - us);
  const took = (last.points || [])[us];
  const contract = (last.log || []).find((e) => e.type === "bid" && e.seat === last.bidder)?.contract;
  const unit = scoreUnit(view);
  const what = last.result === "made" ? `made it: ${bidders} score ${last.award} ${unit}.`
    : last.result === "set" ? `were set (the bid failed): ${them} score ${last.award} ${unit}.`
      : `${(last.result || "").replace(/_/g, " ")}.`;
  return [h("p", {}, `${seatName(ctx, last.bidder)} bid ${bidName(last.bid, contract)} in ${trumpName(last.trump)}; `
    + `${bidders} took ${took ?? 0} of the 42 points and ${what}`)];
}

export function statusWhy(ctx) {
  const view = ctx.view;
  if (view.phase === "bidding") return "Your bid: beat the high bid or pass (each player bids once).";
  if (view.legal.some((a) => a.type === "trump")) {
    return view.high_bid?.contract ? `Your partner bid a ${view.high_bid.contract}: name trumps, then lead.` : "You won the bidding: name trumps.";
  }
  if (view.trump === "sevens") return "Sevens: play your tile closest to seven pips (highlighted tiles).";
  if (view.trick?.length) return "Your play: follow suit if you can (highlighted tiles).";
  return "Your lead: play any tile.";
}

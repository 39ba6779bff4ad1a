// Pieces every table shares: names, the status line, the seats, the score pad, the log, the
// end-of-hand summary and the fair-shuffle badge.

import { tileSVG, tileLabel } from "../tiles.js";
import { verifyHand } from "../shuffle.js";
import { h } from "../dom.js";

export { h };

function plainName(s, seat) {
  return s && s.name ? s.name : s && s.ai ? `${cap(s.ai)} AI` : `Seat ${seat + 1}`;
}

/** A seat's name; where two seats share one (two "Hard AI"), the seat number tells them apart. */
export function seatName(ctx, seat) {
  if (seat === null || seat === undefined) return "nobody";
  const seats = ctx.room?.seats || [];
  const base = plainName(seats[seat], seat);
  const shared = seats.filter((s, i) => i !== seat && plainName(s, i) === base).length > 0;
  const name = shared ? `${base} ${seat + 1}` : base;
  return seat === ctx.seat ? `${name} (you)` : name;
}

export const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

export function sideName(ctx, side) {
  const seats = ctx.view.teams?.[side] || [side];
  return seats.map((s) => seatName(ctx, s)).join(" & ");
}

export function topOf(view) {
  return view.options?.set ?? 6;
}

export function tileRow(tiles, top, size = 44) {
  return h("span", { class: "tile-row" }, ...tiles.map((t) => tileSVG(t, { top, size })));
}

/** Words for one log event, for the log list and for screen readers. */
export function describeEvent(ctx, e) {
  const who = seatName(ctx, e.seat);
  switch (e.type) {
    case "play":
      return e.end ? `${who} played ${tileLabel(e.tile)} on ${endName(e.end, ctx)}` : `${who} played ${tileLabel(e.tile)}`;
    case "draw":
      return `${who} drew a tile`;
    case "pass":
      return e.ends ? `${who} passed (could not match ${e.ends.join(", ")})` : `${who} passed`;
    case "bid":
      return `${who} bid ${bidName(e.value)}`;
    case "trump":
      return `${who} named ${trumpName(e.suit)}`;
    case "trick":
      return `Trick to ${seatName(ctx, e.winner)}${e.points !== undefined ? ` (${e.points} point${e.points === 1 ? "" : "s"})` : ""}`;
    case "score":
      return `${who} scored ${e.points}`;
    case "marker":
      return `${who} put a marker on ${e.end ? endName(e.end, ctx) : "their train"}`;
    case "end_turn":
      return `${who} ended the opening turn`;
    case "hand_end":
      return "End of the hand";
    default:
      return `${who !== "nobody" ? who + ": " : ""}${e.type.replace(/_/g, " ")}`;
  }
}

export function endName(id, ctx) {
  if (id.startsWith("train:")) {
    const owner = Number(id.slice(6));
    if (ctx && owner === ctx.seat) return "your train";
    return ctx ? `${seatName(ctx, owner)}'s train` : `train ${owner + 1}`;
  }
  if (id === "mexican") return "the Mexican train";
  if (id.startsWith("arm:")) return `arm ${Number(id.slice(4)) + 1}`;
  if (id.startsWith("toe:")) return `toe ${Number(id.split(":").pop()) + 1} of a foot`;
  return `the ${id} end`;
}

export function bidName(v) {
  if (v === null || v === undefined) return "pass";
  return v >= 84 ? `${v / 42} marks` : String(v);
}

const SUITS = ["blanks", "ones", "twos", "threes", "fours", "fives", "sixes"];
export function trumpName(s) {
  if (typeof s === "number") return SUITS[s];
  return { doubles: "doubles", follow_me: "follow-me (no trumps)", nello: "nello" }[s] || String(s);
}

export function renderLog(ctx, list) {
  const events = ctx.view.log || [];
  list.replaceChildren(...events.map((e) => h("li", { text: describeEvent(ctx, e) })));
  list.scrollTop = list.scrollHeight;
}

/** A seat's badges in words: you, host, AI level, online or away ("back in N s" while a dropped
 * player may return), and at the table its tile count. */
export function seatBadges(ctx, s) {
  const view = ctx.view;
  const badges = [];
  if (s.seat === ctx.seat) badges.push(h("span", { class: "badge you", text: "you" }));
  if (s.seat === ctx.room.host_seat) badges.push(h("span", { class: "badge", text: "host" }));
  if (s.ai) badges.push(h("span", { class: "badge ai", text: `AI (${s.ai})` }));
  if (s.human && s.connected === false) {
    const left = s.standin_at ? Math.max(0, Math.round((Date.parse(s.standin_at) - Date.now()) / 1000)) : null;
    badges.push(h("span", { class: "badge away", text: s.standin || left === 0 ? "away: an AI plays for them"
      : left !== null ? `away: back in ${left} s` : "away" }));
  } else if (s.human) {
    badges.push(h("span", { class: "badge", text: "online" }));
  }
  if (view && view.hand_sizes) badges.push(h("span", { class: "badge", text: `${view.hand_sizes[s.seat]} tiles` }));
  return badges;
}

/** The seats at the table with tile counts and connection state. */
export function renderSeats(ctx, list) {
  const seats = ctx.room?.seats || [];
  list.replaceChildren(...seats.map((s) => h("li", { class: "seat", "data-seat": s.seat },
    h("span", { class: "who", text: s.free ? `Seat ${s.seat + 1}: free` : seatName(ctx, s.seat) }),
    ...seatBadges(ctx, s))));
}

export function renderPlayersBar(ctx, bar) {
  const view = ctx.view;
  bar.replaceChildren(
    ...[...Array.from({ length: view.players }, (_, s) =>
      h("span", { class: "player-chip" + (view.to_move === s ? " to-move" : ""), "data-seat": s },
        `${seatName(ctx, s)} `, h("span", { class: "count", text: `${view.hand_sizes?.[s] ?? "?"}` }), " tiles")),
    view.boneyard ? h("span", { class: "player-chip", text: `Boneyard: ${view.boneyard}` }) : null].filter(Boolean),
  );
}

/** The score pad: one row per finished hand this browser saw, totals from the view. */
export function renderScorepad(ctx, box) {
  const view = ctx.view;
  const sides = view.teams || view.scores.map((_, i) => [i]);
  const hands = Object.values(ctx.history.hands).sort((a, b) => a.number - b.number);
  const unit = view.game === "texas42" ? (view.scoring === "points" ? "points" : "marks") : "points";
  box.replaceChildren(
    h("table", { class: "scorepad" },
      h("caption", { class: "visually-hidden", text: "Score pad" }),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Hand" }),
        ...sides.map((_, i) => h("th", { scope: "col", text: sideName(ctx, i) })))),
      h("tbody", {}, ...hands.map((hd) => h("tr", {}, h("th", { scope: "row", text: hd.label || `${hd.number + 1}` }),
        ...sides.map((_, i) => h("td", { text: hd.points?.[i] ?? "" }))))),
      h("tfoot", {}, h("tr", {}, h("th", { scope: "row", text: "Match" }),
        ...view.scores.map((s) => h("td", { text: s })))),
    ),
    h("p", { class: "hint", text: targetText(view, unit) }),
  );
}

function targetText(view, unit) {
  if (view.game === "mexican_train") return `Round ${(view.round ?? 0) + 1} of ${view.rounds}; the lowest total wins.`;
  if (view.target) return `Playing to ${view.target} ${unit}.`;
  return "";
}

/** What the hand's points were, as a side-by-side list, for the summary and the score pad. */
export function handPoints(view, last) {
  if (view.game === "texas42") {
    const award = last.award || 0;
    return (view.teams || []).map((_, i) => (last.winner === i ? award : 0));
  }
  return last.points || [];
}

/** The end-of-hand summary and its fair-shuffle check. */
export function renderSummary(ctx, box) {
  const view = ctx.view;
  const last = view.last_hand;
  if (!last) {
    box.replaceChildren();
    return;
  }
  const top = topOf(view);
  const points = handPoints(view, last);
  const who = last.winner === null || last.winner === undefined ? "nobody" : sideName(ctx, last.winner);
  const lines = [];
  if (view.game === "texas42") {
    lines.push(h("p", {}, last.bid ? `${seatName(ctx, last.bidder)} bid ${bidName(last.bid)} in ${trumpName(last.trump)}: `
      : "Everybody passed. ", last.result ? `${last.result.replace(/_/g, " ")}. ` : "", `Points taken ${(last.points || []).join(" – ")}.`));
  } else {
    lines.push(h("p", {}, `${last.blocked ? "Blocked. " : ""}${who} won the hand`,
      points.length ? `: ${points.map((p, i) => `${sideName(ctx, i)} ${p}`).join(", ")}.` : "."));
  }
  const left = (last.hands_left || []).map((tiles, s) => h("div", { class: "hands-left" },
    h("span", { text: `${seatName(ctx, s)}: ` }), tiles.length ? tileRow(tiles, top, 36) : h("span", { text: "out" })));
  const fair = h("div", { class: "fair pending", id: "fair", role: "status" }, "Checking the shuffle…");
  box.replaceChildren(h("section", { class: "summary", "aria-label": "Last hand" },
    h("h2", { text: `Hand ${last.number + 1} is over` }), ...lines,
    view.game === "texas42" ? null : h("p", { class: "hint", text: "Tiles left in each hand:" }), ...left, fair));
  checkFair(ctx, last, fair);
}

export async function checkFair(ctx, last, box) {
  const view = ctx.view;
  const mine = ctx.history.dealt[last.number];
  try {
    const result = await verifyHand({
      seed: last.seed, commitment: last.commitment, dealt: last.dealt, top: topOf(view),
      engine: last.engine || null, mine: mine || null, seat: mine ? ctx.seat : null,
    });
    box.className = `fair ${result.ok ? "ok" : "bad"}`;
    box.replaceChildren(
      h("span", { class: "fair-badge", text: result.ok ? "✓ Fair shuffle" : "✗ Shuffle check failed" }),
      h("p", { text: result.ok
        ? "Your browser recomputed this hand's order from the revealed seed: its SHA-256 equals the commitment shown "
          + "before the hand, and the HMAC-SHA256 Fisher-Yates shuffle deals exactly the tiles that were dealt"
          + (mine ? ", including the hand you received." : ".")
        : "The revealed seed does not reproduce this hand. Details below." }),
      h("ul", {}, ...result.checks.map((c) => h("li", { text: `${c.ok ? "✓" : "✗"} ${c.name}: ${c.detail}` }))),
      h("p", {}, "Seed ", h("code", { text: last.seed })),
    );
  } catch (err) {
    box.className = "fair bad";
    box.textContent = `The shuffle could not be checked: ${err.message}`;
  }
}

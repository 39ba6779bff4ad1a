// Mexican Train: the engine, a train per seat with its owner, the tiles its owner holds and its
// marker, the Mexican train, and the double that must be answered. Open trains (a marker) are
// drawn with a dashed frame and the word "marker"; an open double with its own frame, the word
// "double open" and a line over the trains, so both show at a glance and never by colour alone.

import { tileLabel, tileSVG, tileKey } from "../tiles.js";
import { markTiles, showTargets, syncRows, zoomRows } from "./branch.js";
import { h, setHidden, seatName, topOf } from "./common.js";

export const zoomable = true;
/** Each train's row names its owner, the tiles in their hand and who is to play. */
export const showsPlayers = false;

export function endName(ctx, id) {
  if (id === "mexican") return "the Mexican train";
  if (id?.startsWith("train:")) {
    const owner = Number(id.slice(6));
    return owner === ctx.seat ? "your train" : `${seatName(ctx, owner)}'s train`;
  }
  return `the ${id} end`;
}

export function phrase(ctx, e) {
  if (e.type === "play" && e.end === `train:${e.seat}`) {
    return `played ${tileLabel(e.tile)} on ${e.seat === ctx.seat ? "your" : "their own"} train`;
  }
  if (e.type === "marker") return e.on === false ? "picked up their marker" : "put out a marker";
  if (e.type === "end_turn") return "ended the opening turn";
  if (e.type === "pass") return "passed";
  return undefined;
}

export function actionLabel(ctx, type) {
  return type === "pass" ? "Pass (put out my marker)" : undefined;
}

export function scoreUnit() {
  return "points";
}

export function targetText(view) {
  return `Round ${(view.round ?? 0) + 1} of ${view.rounds}; the lowest total wins.`;
}

function build(el) {
  const hub = h("div", { class: "hub" });
  const open = h("p", { class: "open-trains" });
  const notice = h("p", { class: "open-double", hidden: true });
  const rows = h("div", { class: "rows wide" });
  el.replaceChildren(hub, open, notice, rows);
  el.classList.remove("pannable");
  return { hub, open, notice, rows, round: null, started: false };
}

export function board(ctx, el, sel) {
  const view = ctx.view;
  const top = topOf(view);
  let b = el._table;
  if (!b || b.kind !== "trains") {
    b = el._table = { kind: "trains", ...build(el) };
    zoomRows(el, "default");
  }
  const round = `${view.round}:${(view.engine || []).join("-")}:${top}`;
  if (b.round !== round) {
    b.round = round;
    b.hub.replaceChildren(tileSVG(view.engine || [top, top], { top, size: 64 }),
      h("span", { text: `Engine ${tileLabel(view.engine || [top, top])}, round ${(view.round ?? 0) + 1} of ${view.rounds}` }));
  }
  const od = view.open_double;
  const odText = od ? `Double open: the ${tileLabel(od.tile || [0, 0])} on ${endName(ctx, od.end)}. The next tile played must go on it.` : "";
  if (b.notice.textContent !== odText) b.notice.textContent = odText;
  setHidden(b.notice, !od);
  const ends = Object.fromEntries((view.ends || []).map((e) => [e.id, e]));
  // Your own train first, then the others in playing order from you.
  const trains = [...(view.trains || [])];
  const me = ctx.seat ?? 0;
  trains.sort((a, b) => ((a.owner - me + view.players) % view.players) - ((b.owner - me + view.players) % view.players));
  const openText = `Open to all: ${[...trains.filter((t) => t.marker).map((t) => (t.owner === ctx.seat ? "your train" : seatName(ctx, t.owner))),
    "the Mexican train"].join(", ")}.`;
  if (b.open.textContent !== openText) b.open.textContent = openText;
  const specs = trains.map((t) => {
    const id = `train:${t.owner}`;
    const mine = t.owner === ctx.seat;
    const badges = [];
    if (t.marker) badges.push({ text: "marker" });
    if (od && od.end === id) badges.push({ text: "double open", cls: "double" });
    const held = view.hand_sizes?.[t.owner] ?? "?";
    return {
      id, label: mine ? "Your train" : `${seatName(ctx, t.owner)}'s train`, name: mine ? "You" : seatName(ctx, t.owner),
      sub: `${held} tile${held === 1 ? "" : "s"}`, badges, tiles: t.tiles,
      start: view.engine?.[0], openEnd: ends[id]?.value ?? t.open_end, active: sel.targets.includes(id),
      classes: [t.marker ? "marked" : "", od && od.end === id ? "open-double-row" : "", mine ? "mine" : "",
        view.to_move === t.owner ? "to-move" : ""].filter(Boolean).join(" "),
    };
  });
  const mx = view.mexican || { tiles: [] };
  const mxBadges = [];
  if (od && od.end === "mexican") mxBadges.push({ text: "double open", cls: "double" });
  specs.splice(1, 0, { id: "mexican", label: "Mexican train", name: "Mexican train", sub: mx.tiles.length ? "" : "not started", badges: mxBadges,
    tiles: mx.tiles, start: view.engine?.[0], openEnd: ends.mexican?.value ?? mx.open_end, active: sel.targets.includes("mexican"),
    classes: od && od.end === "mexican" ? "open-double-row" : "" });
  syncRows(b.rows, specs, { top, onEnd: sel.onEnd, animate: b.started });
  b.started = true;
  markTiles(el, sel.last, "last-played");
  markTiles(el, od?.tile ? [tileKey(od.tile)] : [], "open-double-tile");
  showTargets(el, b, sel.targets);
}

export function zoom(el, how) {
  zoomRows(el, how);
}

export function statusWhy(ctx) {
  const legal = ctx.view.legal;
  const phase = ctx.view.turn_phase || {};
  if (ctx.view.open_double && legal.some((a) => a.type === "play")) return "A double is open: answer it first.";
  if (legal.some((a) => a.type === "end_turn") && phase.first_turn) {
    return "Your opening turn: keep laying tiles on your train, or end the turn.";
  }
  if (legal.some((a) => a.type === "draw") && phase.drawn) {
    return "The tile you drew does not fit either: draw again (this table draws until a tile fits).";
  }
  if (legal.some((a) => a.type === "draw")) return "Nothing of yours fits an open train: draw a tile.";
  if (legal.some((a) => a.type === "pass")) return "You cannot play: pass and put out your marker.";
  if (phase.must_play_again) return "You played a double: play one more tile.";
  return "Choose a highlighted tile, then a train.";
}

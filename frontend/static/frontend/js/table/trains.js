// Mexican Train: the engine, a train per seat with its owner, the tiles its owner holds and its
// marker, the Mexican train, and the double that must be answered. Open trains (a marker) are
// drawn with a dashed frame and the word "marker"; an open double with its own frame, the word
// "double open" and a line over the trains, so both show at a glance and never by colour alone.
// The rows are the board's list for a screen reader, one sentence a train.

import { tileLabel, tileName, tileSVG, tileKey } from "../tiles.js";
import { markTiles, showTargets, syncRows, zoomRows } from "./branch.js";
import { h, listWords, setHidden, seatName, shownAndSaid, tileCount, topOf } from "./common.js";
import { formatNumber, gettext, interpolate, ngettext, pgettext } from "../i18n.js";

export const zoomable = true;
/** Each train's row names its owner, the tiles in their hand and who is to play. */
export const showsPlayers = false;

function owner(id) {
  return id?.startsWith("train:") ? Number(id.slice(6)) : null;
}

/** A train inside a sentence: "the Mexican train", "your train", "Tom's train". */
export function endName(ctx, id) {
  if (id === "mexican") return gettext("the Mexican train");
  const seat = owner(id);
  if (seat !== null) {
    return seat === ctx.seat ? gettext("your train")
      // Translators: a player's train inside a sentence ("Ann played 6|4 on Tom's train").
      : interpolate(pgettext("in a sentence", "%(name)s's train"), { name: seatName(ctx, seat) });
  }
  return id;
}

/** A train as a button or a list item names it: "Mexican train", "Your train", "Tom's train". */
export function endLabel(ctx, id) {
  if (id === "mexican") return gettext("Mexican train");
  const seat = owner(id);
  if (seat !== null) {
    return seat === ctx.seat ? gettext("Your train") : interpolate(gettext("%(name)s's train"), { name: seatName(ctx, seat) });
  }
  return id;
}

export function sentence(w, e) {
  if (e.type === "play" && e.end === `train:${e.seat}`) {
    return w.said(e.seat, gettext("You played %(tile)s on your train."), gettext("%(name)s played %(tile)s on their own train."),
      { tile: w.tile(e.tile) });
  }
  if (e.type === "marker") {
    return e.on === false
      ? w.said(e.seat, gettext("You picked up your marker."), gettext("%(name)s picked up their marker."))
      : w.said(e.seat, gettext("You put out your marker."), gettext("%(name)s put out a marker."));
  }
  if (e.type === "pass_marker") {
    return w.said(e.seat, gettext("You passed and put out your marker."), gettext("%(name)s passed and put out a marker."));
  }
  if (e.type === "end_turn") return w.said(e.seat, gettext("You ended the opening turn."), gettext("%(name)s ended the opening turn."));
  return undefined;
}

/** A pass and the marker it puts out read as one sentence. */
export function merge(e, next) {
  if (e.type === "pass" && next?.type === "marker" && next.seat === e.seat && next.on !== false) {
    return { type: "pass_marker", seat: e.seat };
  }
  return null;
}

export function actionLabel(ctx, type) {
  return type === "pass" ? gettext("Pass (put out my marker)") : undefined;
}

export function scoreUnit() {
  return "points";
}

export function targetText(view) {
  return interpolate(gettext("Round %(round)s of %(rounds)s; the lowest total wins."),
    { round: formatNumber((view.round ?? 0) + 1), rounds: formatNumber(view.rounds) });
}

function build(el) {
  const hub = h("div", { class: "hub" });
  const open = h("p", { class: "open-trains" });
  const notice = h("p", { class: "open-double", hidden: true });
  const rows = h("div", { class: "rows wide", role: "list", "aria-label": gettext("Board") });
  el.replaceChildren(hub, open, notice, rows);
  el.classList.remove("pannable");
  return { hub, open, notice, rows, round: null, started: false };
}

/** A row's sentence: "Tom's train: 5 tiles, open at 4, marker out, 3 tiles in hand, to play". */
function rowSaid(label, parts) {
  return interpolate(gettext("%(row)s: %(details)s"), { row: label, details: parts.filter(Boolean).join(", ") });
}

function openAt(value) {
  return value === undefined || value === null ? "" : interpolate(gettext("open at %(number)s"), { number: formatNumber(value) });
}

export function board(ctx, el, sel) {
  const view = ctx.view;
  const top = topOf(view);
  const targets = sel.targets || [];
  let b = el._table;
  if (!b || b.kind !== "trains") {
    b = el._table = { kind: "trains", ...build(el) };
    zoomRows(el, "default");
  }
  const round = `${view.round}:${(view.engine || []).join("-")}:${top}`;
  if (b.round !== round) {
    b.round = round;
    const engine = view.engine || [top, top];
    const values = { round: formatNumber((view.round ?? 0) + 1), rounds: formatNumber(view.rounds) };
    const shown = interpolate(gettext("Engine %(tile)s, round %(round)s of %(rounds)s"), { ...values, tile: tileLabel(engine) });
    const said = interpolate(gettext("Engine %(tile)s, round %(round)s of %(rounds)s"), { ...values, tile: tileName(engine) });
    const svg = tileSVG(engine, { top, size: 64 });
    svg.setAttribute("aria-hidden", "true");
    b.hub.replaceChildren(svg, h("span", {}, ...shownAndSaid(shown, said)));
  }
  const od = view.open_double;
  const odKey = od ? JSON.stringify([od, ctx.seat, ctx.room?.revision]) : "";
  if (b.notice.dataset.key !== odKey) {
    b.notice.dataset.key = odKey;
    const doubleText = (tile) => interpolate(gettext("Double open: the %(tile)s on %(where)s. The next tile played must go on it."),
      { tile, where: endName(ctx, od.end) });
    b.notice.replaceChildren(...(od ? shownAndSaid(doubleText(tileLabel(od.tile || [0, 0])), doubleText(tileName(od.tile || [0, 0]))) : []));
  }
  setHidden(b.notice, !od);
  const ends = Object.fromEntries((view.ends || []).map((e) => [e.id, e]));
  // Your own train first, then the others in playing order from you.
  const trains = [...(view.trains || [])];
  const me = ctx.seat ?? 0;
  trains.sort((a, b) => ((a.owner - me + view.players) % view.players) - ((b.owner - me + view.players) % view.players));
  const openNames = [...trains.filter((t) => t.marker).map((t) => (t.owner === ctx.seat ? gettext("your train") : seatName(ctx, t.owner))),
    gettext("the Mexican train")];
  const openText = interpolate(gettext("Open to all: %(trains)s."), { trains: listWords(openNames) });
  if (b.open.textContent !== openText) b.open.textContent = openText;
  const specs = trains.map((t) => {
    const id = `train:${t.owner}`;
    const mine = t.owner === ctx.seat;
    const badges = [];
    const doubled = od && od.end === id;
    // Translators: a train's badge: its marker is out, the train is open to everyone.
    if (t.marker) badges.push({ text: gettext("marker") });
    if (doubled) badges.push({ text: gettext("double open"), cls: "double" });
    const held = view.hand_sizes?.[t.owner];
    const openEnd = ends[id]?.value ?? t.open_end;
    const label = endLabel(ctx, id);
    return {
      id, label, where: endName(ctx, id), name: mine ? gettext("You") : seatName(ctx, t.owner),
      sub: held === undefined ? "" : tileCount(held), badges, tiles: t.tiles,
      said: rowSaid(label, [t.tiles.length ? tileCount(t.tiles.length) : gettext("no tiles yet"), openAt(openEnd),
        t.marker ? gettext("marker out") : "", doubled ? gettext("double open: answer it first") : "",
        held === undefined ? "" : interpolate(ngettext("%(count)s tile in hand", "%(count)s tiles in hand", held), { count: formatNumber(held) }),
        view.to_move === t.owner && !view.match_over ? gettext("to play") : ""]),
      start: view.engine?.[0], openEnd, active: targets.includes(id),
      classes: [t.marker ? "marked" : "", doubled ? "open-double-row" : "", mine ? "mine" : "",
        view.to_move === t.owner ? "to-move" : ""].filter(Boolean).join(" "),
    };
  });
  const mx = view.mexican || { tiles: [] };
  const mxBadges = [];
  const mxDoubled = od && od.end === "mexican";
  if (mxDoubled) mxBadges.push({ text: gettext("double open"), cls: "double" });
  const mxOpen = ends.mexican?.value ?? mx.open_end;
  const mxLabel = endLabel(ctx, "mexican");
  // Translators: the Mexican train has no tile yet.
  const notStarted = gettext("not started");
  specs.splice(1, 0, { id: "mexican", label: mxLabel, where: endName(ctx, "mexican"), name: mxLabel,
    sub: mx.tiles.length ? "" : notStarted, badges: mxBadges, tiles: mx.tiles,
    said: rowSaid(mxLabel, [mx.tiles.length ? tileCount(mx.tiles.length) : notStarted, openAt(mxOpen),
      mxDoubled ? gettext("double open: answer it first") : ""]),
    start: view.engine?.[0], openEnd: mxOpen, active: targets.includes("mexican"),
    classes: mxDoubled ? "open-double-row" : "" });
  syncRows(b.rows, specs, { top, onEnd: sel.onEnd, animate: b.started });
  b.started = true;
  markTiles(el, sel.last, "last-played");
  markTiles(el, od?.tile ? [tileKey(od.tile)] : [], "open-double-tile");
  showTargets(el, b, targets);
}

export function zoom(el, how) {
  zoomRows(el, how);
}

export function statusWhy(ctx) {
  const legal = ctx.view.legal;
  const phase = ctx.view.turn_phase || {};
  if (ctx.view.open_double && legal.some((a) => a.type === "play")) return gettext("A double is open: answer it first.");
  if (legal.some((a) => a.type === "end_turn") && phase.first_turn) {
    return gettext("Your opening turn: keep laying tiles on your train, or end the turn.");
  }
  if (legal.some((a) => a.type === "draw") && phase.drawn) {
    return gettext("The tile you drew does not fit either: draw again (this table draws until a tile fits).");
  }
  if (legal.some((a) => a.type === "draw")) return gettext("Nothing of yours fits an open train: draw a tile.");
  if (legal.some((a) => a.type === "pass")) return gettext("You cannot play: pass and put out your marker.");
  if (phase.must_play_again) return gettext("You played a double: play one more tile.");
  return gettext("Choose a highlighted tile, then a train.");
}

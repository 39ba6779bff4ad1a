// Pieces every table shares: names, the words for a move, the last move, the seats, the score
// pad, the move list, the end-of-hand summary and the fair-shuffle badge. Nothing here knows a
// game: whatever differs between games is asked of the game's table module (`table`), which
// may define endName, phrase, scoreUnit, targetText, handPoints and summaryLines.

import { tileSVG, tileLabel, tileKey } from "../tiles.js";
import { verifyHand } from "../shuffle.js";
import { h, setHidden } from "../dom.js";

export { h, setHidden };

/** Forget what a table module drew in `el` (each keeps its drawing on the element between
 * states), so that the next state draws the board from nothing: after a resize, or a jump. */
export function resetBoard(el) {
  el._table = null;
  el.replaceChildren();
}

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

/** The same name without "(you)", for sentences that already say who. */
export function bareName(ctx, seat) {
  return seat === ctx.seat ? "You" : seatName(ctx, seat);
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

/** "A", "A and B", "A, B and C". */
export function listWords(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** Where a tile went, in words: the table module names its own ends. */
export function endName(table, ctx, id) {
  return table.endName ? table.endName(ctx, id) : `the ${id} end`;
}

/** What a seat did in one event, without the actor ("played 6-4 on Tom's train"); null for
 * events that say nothing by themselves (the end of the hand). */
export function phrase(table, ctx, e) {
  const own = table.phrase?.(ctx, e);
  if (own !== undefined) return own;
  switch (e.type) {
    case "play":
      return e.end ? `played ${tileLabel(e.tile)} on ${endName(table, ctx, e.end)}` : `led ${tileLabel(e.tile)}`;
    case "draw":
      return "drew a tile";
    case "pass":
      return "passed";
    case "score":
      return `scored ${e.points}`;
    case "hand_end":
      return null;
    default:
      return e.type.replace(/_/g, " ");
  }
}

/** Words for one log event, for the move list. */
export function describeEvent(table, ctx, e) {
  const words = phrase(table, ctx, e);
  if (words === null) return "End of the hand";
  if (e.seat === undefined || e.seat === null) return cap(words);
  return `${bareName(ctx, e.seat)} ${words}`;
}

/**
 * The last move: everything the last seat to act did in its turn, as one line ("Bob passed and
 * put out a marker"), and the tiles it played (to outline on the board). Right after a hand
 * ends, the move that ended it, from `last_hand`.
 */
export function lastMove(table, ctx) {
  const view = ctx.view;
  let log = view.log || [];
  let ended = false;
  if (!log.some((e) => e.seat !== undefined && e.seat !== null) && view.last_hand?.log?.length) {
    log = view.last_hand.log;
    ended = true;
  }
  let i = log.length - 1;
  while (i >= 0 && (log[i].seat === undefined || log[i].seat === null)) i--;
  if (i < 0) return { text: "", keys: [], id: "" };
  const seat = log[i].seat;
  let first = i;
  while (first > 0 && (log[first - 1].seat === seat || log[first - 1].seat === undefined || log[first - 1].seat === null)
    && log[first - 1].type !== "hand_end") {
    first--;
  }
  // Events without a seat before this seat's first (a trick taken) belong to the move before.
  while (first < i && (log[first].seat === undefined || log[first].seat === null)) first++;
  const events = log.slice(first).filter((e) => e.type !== "hand_end");
  // Tiles laid one after another on the same end read as one phrase: "played 8-9 and double 9 on ...".
  const words = [];
  for (let k = 0; k < events.length; k++) {
    const e = events[k];
    let j = k;
    while (e.type === "play" && events[j + 1]?.type === "play" && events[j + 1].end === e.end && e.end) j++;
    const said = phrase(table, ctx, events[j]);
    if (said && j > k) {
      const labels = events.slice(k, j + 1).map((x) => tileLabel(x.tile));
      words.push(said.replace(labels.at(-1), listWords(labels)));
    } else if (said) {
      words.push(said);
    }
    k = j;
  }
  let text = `${bareName(ctx, seat)} ${listWords(words)}`;
  if (ended) text += `. Hand ${view.last_hand.number + 1} is over.`;
  const keys = ended ? [] : events.filter((e) => e.type === "play").map((e) => tileKey(e.tile));
  return { text, keys, id: `${view.hand_number}:${log.length}:${ended}` };
}

/** The move list: appends what is new, rebuilds only when the hand changed. */
export function renderLog(table, ctx, list) {
  const events = ctx.view.log || [];
  const hand = String(ctx.view.hand_number);
  if (list.dataset.hand !== hand || list.children.length > events.length) {
    list.dataset.hand = hand;
    list.replaceChildren();
  }
  for (let i = list.children.length; i < events.length; i++) {
    list.append(h("li", { text: describeEvent(table, ctx, events[i]) }));
  }
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

/** The seats at the table with tile counts and connection state; a seat's line is redrawn only
 * when what it shows changed (a move changes one seat's tile count, not the other nine). */
export function renderSeats(ctx, list) {
  const seats = ctx.room?.seats || [];
  const now = Math.floor(Date.now() / 1000);
  const sizes = ctx.view?.hand_sizes;
  const shared = JSON.stringify([seats.map((s) => plainName(s, s.seat)), ctx.seat, ctx.room?.host_seat]);
  while (list.children.length > seats.length) list.lastChild.remove();
  seats.forEach((s, i) => {
    let li = list.children[i];
    if (!li) li = list.appendChild(h("li", { class: "seat" }));
    const key = JSON.stringify([s, shared, sizes?.[s.seat], s.standin_at ? now : 0]);
    if (li.dataset.key === key) return;
    li.dataset.key = key;
    li.dataset.seat = s.seat;
    li.replaceChildren(h("span", { class: "who", text: s.free ? `Seat ${s.seat + 1}: free` : seatName(ctx, s.seat) }),
      ...seatBadges(ctx, s));
  });
}

/** The strip of players over the board: name, tiles held, who is to play (a word and an arrow). */
export function renderPlayersBar(ctx, bar) {
  const view = ctx.view;
  const chips = Array.from({ length: view.players }, (_, s) => ({
    key: `s${s}`, to: view.to_move === s,
    text: `${seatName(ctx, s)}: ${view.hand_sizes?.[s] ?? "?"} tiles${view.to_move === s ? ", to play" : ""}`,
  }));
  if (view.boneyard) chips.push({ key: "bone", to: false, text: `Boneyard: ${view.boneyard}` });
  const have = bar.children;
  if (have.length !== chips.length) {
    bar.replaceChildren(...chips.map((c) => h("span", { class: "player-chip", role: "listitem", "data-key": c.key })));
  }
  let moving = null;
  chips.forEach((c, i) => {
    const chip = have[i];
    if (chip.textContent !== c.text) chip.textContent = c.text;
    chip.classList.toggle("to-move", c.to);
    if (c.to) moving = chip;
  });
  if (moving && bar.dataset.to !== moving.dataset.key) {
    bar.dataset.to = moving.dataset.key;
    // Measured in the next frame, once the rest of the table is written: measured now, the page
    // would be laid out here and again for what the table writes after this.
    requestAnimationFrame(() => {
      if (!moving.isConnected) return;
      const left = moving.offsetLeft - bar.offsetLeft;
      if (left < bar.scrollLeft || left + moving.offsetWidth > bar.scrollLeft + bar.clientWidth) bar.scrollLeft = left - 8;
    });
  }
}

export function handPoints(table, view, last) {
  return table.handPoints ? table.handPoints(view, last) : last.points || [];
}

/**
 * The score pad: a row per side (a phone holds ten players this way), the match total, then a
 * column per finished hand this browser saw. It scrolls sideways inside itself only.
 */
export function renderScorepad(table, ctx, box) {
  const view = ctx.view;
  const sides = view.teams || view.scores.map((_, i) => [i]);
  const hands = Object.values(ctx.history.hands).sort((a, b) => a.number - b.number);
  const names = sides.map((_, i) => sideName(ctx, i));
  const key = JSON.stringify([names, view.scores, hands.map((x) => [x.label, x.points])]);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  const unit = table.scoreUnit ? table.scoreUnit(view) : "points";
  const target = table.targetText ? table.targetText(view, unit) : view.target ? `Playing to ${view.target} ${unit}.` : "";
  box.replaceChildren(
    h("div", { class: "scroll-x", tabindex: "0", role: "group", "aria-label": "Score pad, scrolls sideways" },
      h("table", { class: "scorepad" },
        h("caption", { class: "visually-hidden", text: `Score pad in ${unit}` }),
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Player" }), h("th", { scope: "col", class: "total", text: "Match" }),
          ...hands.map((hd) => h("th", { scope: "col", "data-hand": hd.number, text: `Hand ${hd.label || hd.number + 1}` })))),
        h("tbody", {}, ...names.map((name, i) => h("tr", {}, h("th", { scope: "row", text: name }),
          h("td", { class: "total", text: view.scores[i] }),
          ...hands.map((hd) => h("td", { text: hd.points?.[i] ?? "" }))))))),
    h("p", { class: "hint", text: target }),
  );
}

/** The end-of-hand summary and its fair-shuffle check. */
export function renderSummary(table, ctx, box) {
  const view = ctx.view;
  const last = view.last_hand;
  if (!last) {
    box.replaceChildren();
    return;
  }
  const top = topOf(view);
  const points = handPoints(table, view, last);
  const who = last.winner === null || last.winner === undefined ? "nobody" : sideName(ctx, last.winner);
  const lines = table.summaryLines ? table.summaryLines(ctx, last)
    : [h("p", {}, `${last.blocked ? "Blocked. " : ""}${who} won the hand`,
      points.length ? `: ${points.map((p, i) => `${sideName(ctx, i)} ${p}`).join(", ")}.` : ".")];
  const showLeft = table.showsHandsLeft !== false;
  const left = showLeft ? (last.hands_left || []).map((tiles, s) => h("div", { class: "hands-left" },
    h("span", { text: `${seatName(ctx, s)}: ` }), tiles.length ? tileRow(tiles, top, 36) : h("span", { text: "out" }))) : [];
  const fair = h("div", { class: "fair pending", id: "fair", role: "status" }, "Checking the shuffle…");
  box.replaceChildren(h("section", { class: "summary", "aria-labelledby": "summary-title" },
    h("h2", { id: "summary-title", text: `Hand ${last.number + 1} is over` }), ...lines,
    showLeft ? h("p", { class: "hint", text: "Tiles left in each hand:" }) : null, ...left, fair));
  checkFair(ctx, last, fair);
}

export async function checkFair(ctx, last, box) {
  const view = ctx.view;
  const mine = ctx.history.dealt[last.number];
  // A device shared by several seats (pass-and-play) noted whose hand it kept.
  const mineSeat = ctx.history.dealtSeat?.[last.number] ?? ctx.seat;
  try {
    const result = await verifyHand({
      seed: last.seed, commitment: last.commitment, dealt: last.dealt, top: topOf(view),
      engine: last.engine || null, mine: mine || null, seat: mine ? mineSeat : null,
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

// Pieces every table shares: names, the words for a move, the last move, the seats, the score
// pad, the move list, the end-of-hand summary and the fair-shuffle badge. Nothing here knows a
// game: whatever differs between games is asked of the game's table module (`table`), which
// may define endName, endLabel, sentence, merge, scoreUnit, targetText, handPoints and
// summaryLines. Every word goes through the page's catalog (i18n.js).

import { tileSVG, tileLabel, tileName, tileKey } from "../tiles.js";
import { verifyHand } from "../shuffle.js";
import { h, setHidden } from "../dom.js";
import { formatNumber, gettext, interpolate, lang, ngettext } from "../i18n.js";

export { h, setHidden };

/** Forget what a table module drew in `el` (each keeps its drawing on the element between
 * states), so that the next state draws the board from nothing: after a resize, or a jump. */
export function resetBoard(el) {
  el._table = null;
  el.replaceChildren();
}

const AI_NAMES = { easy: gettext("Easy AI"), medium: gettext("Medium AI"), hard: gettext("Hard AI") };
// Translators: an AI's level as a seat's badge says it: "AI (hard)".
const AI_LEVELS = { easy: gettext("easy"), medium: gettext("medium"), hard: gettext("hard") };

/** "Seat 3" (seats counted from 1). */
export function seatLabel(seat) {
  return interpolate(gettext("Seat %(number)s"), { number: formatNumber(seat + 1) });
}

/** The server names an AI's seat in English ("Hard AI", "Hard AI 2"); a person's name stays. */
const STORED_AI_NAME = /^(?:Easy|Medium|Hard) AI(?: (\d+))?$/;

/** A seat's name as people read it: the player's own name, an AI's in the page's language,
 * or "Seat 3" for an empty one. */
export function playerName(s, seat) {
  const stored = s && s.name ? STORED_AI_NAME.exec(s.name) : null;
  if (s && s.ai && (!s.name || stored)) {
    const base = AI_NAMES[s.ai] || s.ai;
    return stored && stored[1] ? `${base} ${formatNumber(Number(stored[1]))}` : base;
  }
  return s && s.name ? s.name : seatLabel(seat);
}

const plainName = playerName;

/** A seat's name; where two seats share one (two "Hard AI"), the seat number tells them apart.
 * This device's own seat says "(you)" unless `own` is false. */
export function seatName(ctx, seat, own = true) {
  // Translators: whose turn or who won, when nobody is.
  if (seat === null || seat === undefined) return gettext("nobody");
  const seats = ctx.room?.seats || [];
  const base = plainName(seats[seat], seat);
  const shared = seats.filter((s, i) => i !== seat && plainName(s, i) === base).length > 0;
  const name = shared ? `${base} ${formatNumber(seat + 1)}` : base;
  // Translators: this device's own player, e.g. "Ann (you)".
  return seat === ctx.seat && own ? interpolate(gettext("%(name)s (you)"), { name }) : name;
}

/** The same name without "(you)", for sentences that already say who. */
export function bareName(ctx, seat) {
  // Translators: this device's player, at the start of a sentence.
  return seat === ctx.seat ? gettext("You") : seatName(ctx, seat);
}

export const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

const AND = new Intl.ListFormat(lang, { style: "long", type: "conjunction" });
const OR = new Intl.ListFormat(lang, { style: "long", type: "disjunction" });
const UNITS = new Intl.ListFormat(lang, { style: "short", type: "unit" });

/** "A", "A and B", "A, B and C", as the page's language writes a list. */
export function listWords(items) {
  return AND.format(items.map(String));
}

/** "A or B", "A, B or C". */
export function orWords(items) {
  return OR.format(items.map(String));
}

export function sideName(ctx, side) {
  const seats = ctx.view.teams?.[side] || [side];
  return listWords(seats.map((s) => seatName(ctx, s)));
}

export function topOf(view) {
  return view.options?.set ?? 6;
}

export function tileRow(tiles, top, size = 44) {
  return h("span", { class: "tile-row" }, ...tiles.map((t) => tileSVG(t, { top, size })));
}

/** "12 points", "1 mark": `unit` is a table module's key, "points" or "marks". */
export function scoreWords(score, unit) {
  const count = { count: formatNumber(score) };
  return unit === "marks" ? interpolate(ngettext("%(count)s mark", "%(count)s marks", score), count)
    : interpolate(ngettext("%(count)s point", "%(count)s points", score), count);
}

/** "5 tiles". */
export function tileCount(n) {
  return interpolate(ngettext("%(count)s tile", "%(count)s tiles", n), { count: formatNumber(n) });
}

/** Where a tile went, inside a sentence ("the left end", "Tom's train"): the module names its ends. */
export function endName(table, ctx, id) {
  return table.endName ? table.endName(ctx, id) : id;
}

/** An end as a button or a list names it ("Left end", "Tom's train"). */
export function endLabel(table, ctx, id) {
  return table.endLabel ? table.endLabel(ctx, id) : cap(endName(table, ctx, id));
}

/** An end to play on with the number it shows: "Left end, 6", "Mexican train, 7". */
export function endWithNumber(table, ctx, id, value) {
  if (value === undefined || value === null) return endLabel(table, ctx, id);
  // Translators: an end to play on and the number it shows, e.g. "Left end, 6", "Tom's train, 4".
  return interpolate(gettext("%(end)s, %(number)s"), { end: endLabel(table, ctx, id), number: formatNumber(value) });
}

/**
 * The words a sentence about the table needs: how a tile is written (`spoken`: in words, for a
 * screen reader; else "6|4"), how a seat is named, and `said`, which picks the sentence for this
 * seat ("You drew a tile.") or for another ("Ann drew a tile.").
 */
function wordsFor(ctx, { spoken = false, nameOf = null, tiles = null } = {}) {
  const tile = (t) => tiles?.get(tileKey(t)) ?? (spoken ? tileName(t) : tileLabel(t));
  const name = (seat) => (nameOf ? nameOf(seat) : seatName(ctx, seat));
  return {
    ctx,
    spoken,
    tile,
    name,
    said(seat, mine, theirs, values = {}) {
      const own = !nameOf && seat !== null && seat !== undefined && seat === ctx.seat;
      return own ? interpolate(mine, values) : interpolate(theirs, { name: name(seat), ...values });
    },
  };
}

/** One log event as a sentence ("Ann played 6|4 on Tom's train."); null for the end of a hand.
 * `opts.spoken` names the tiles in words. */
export function sentence(table, ctx, e, opts = {}) {
  const w = wordsFor(ctx, opts);
  const own = table.sentence?.(w, e);
  if (own !== undefined) return own;
  switch (e.type) {
    case "play":
      if (e.end) {
        return w.said(e.seat, gettext("You played %(tile)s on %(where)s."), gettext("%(name)s played %(tile)s on %(where)s."),
          { tile: w.tile(e.tile), where: endName(table, ctx, e.end) });
      }
      // Translators: the first tile of a hand ("led" as in "led the first tile").
      return w.said(e.seat, gettext("You led %(tile)s."), gettext("%(name)s led %(tile)s."), { tile: w.tile(e.tile) });
    case "draw":
      if (e.count > 1) {
        return w.said(e.seat, ngettext("You drew %(count)s tile.", "You drew %(count)s tiles.", e.count),
          ngettext("%(name)s drew %(count)s tile.", "%(name)s drew %(count)s tiles.", e.count), { count: formatNumber(e.count) });
      }
      return w.said(e.seat, gettext("You drew a tile."), gettext("%(name)s drew a tile."));
    case "pass":
      return w.said(e.seat, gettext("You passed."), gettext("%(name)s passed."));
    case "score":
      return w.said(e.seat, ngettext("You scored %(count)s point.", "You scored %(count)s points.", e.points),
        ngettext("%(name)s scored %(count)s point.", "%(name)s scored %(count)s points.", e.points),
        { count: formatNumber(e.points) });
    case "hand_end":
      return null;
    default:
      return e.seat === undefined || e.seat === null ? cap(e.type.replace(/_/g, " "))
        : w.said(e.seat, "%(what)s", "%(name)s: %(what)s", { what: e.type.replace(/_/g, " ") });
  }
}

const SELF = "\u2063";

/** What a seat did in one event, without the actor ("played 6|4 on Tom's train"); null for
 * events that say nothing by themselves (the end of the hand). Kept for pages that put the
 * name in front themselves; `describeEvent` gives the whole sentence. */
export function phrase(table, ctx, e) {
  if (e.type === "hand_end") return null;
  const actor = e.seat;
  const text = sentence(table, ctx, e, { nameOf: (seat) => (seat === actor ? SELF : seatName(ctx, seat)) });
  if (text === null) return null;
  const bare = text.replace(/\.$/, "");
  if (bare.startsWith(`${SELF} `)) return bare.slice(SELF.length + 1);
  return bare.replaceAll(SELF, actor === undefined || actor === null ? "" : bareName(ctx, actor));
}

/** Words for one log event, for the move list. */
export function describeEvent(table, ctx, e, opts = {}) {
  return sentence(table, ctx, e, opts) ?? gettext("End of the hand.");
}

/**
 * Sentences for a run of events: tiles laid one after another on the same end read as one
 * ("Ann played 9|8 and 9|9 on her train."), so do draws ("Bob drew 3 tiles."), and a module may merge two events into one
 * (Mexican Train's pass and marker: "Bob passed and put out a marker.").
 */
export function sentences(table, ctx, events, opts = {}) {
  const out = [];
  for (let k = 0; k < events.length; k++) {
    const e = events[k];
    if (e.type === "hand_end") continue;
    if (e.type === "draw" && !e.lead && events[k + 1]?.type === "draw" && !events[k + 1].lead && events[k + 1].seat === e.seat) {
      // Draws one after another read as one: "Bob drew 3 tiles."
      let n = k;
      while (events[n + 1]?.type === "draw" && !events[n + 1].lead && events[n + 1].seat === e.seat) n++;
      out.push(sentence(table, ctx, { type: "draw", seat: e.seat, count: n - k + 1 }, opts));
      k = n;
      continue;
    }
    const merged = table.merge?.(e, events[k + 1]);
    if (merged) {
      out.push(sentence(table, ctx, merged, opts));
      k++;
      continue;
    }
    let j = k;
    while (e.type === "play" && e.end && events[j + 1]?.type === "play" && events[j + 1].end === e.end
      && events[j + 1].seat === e.seat) j++;
    if (j > k) {
      const w = wordsFor(ctx, opts);
      const run = events.slice(k, j + 1).map((x) => w.tile(x.tile));
      const tiles = new Map([[tileKey(events[j].tile), listWords(run)]]);
      out.push(sentence(table, ctx, events[j], { ...opts, tiles }));
    } else {
      const said = sentence(table, ctx, e, opts);
      if (said) out.push(said);
    }
    k = j;
  }
  return out;
}

/**
 * The last move: everything the last seat to act did in its turn, in sentences ("Bob passed
 * and put out a marker"; `spoken`: the same with the tiles in words), and the tiles it played
 * (to outline on the board). Right after a hand ends, the move that ended it, from `last_hand`.
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
  if (i < 0) return { text: "", spoken: "", keys: [], id: "" };
  const seat = log[i].seat;
  let first = i;
  while (first > 0 && (log[first - 1].seat === seat || log[first - 1].seat === undefined || log[first - 1].seat === null)
    && log[first - 1].type !== "hand_end") {
    first--;
  }
  // Events without a seat before this seat's first (a trick taken) belong to the move before.
  while (first < i && (log[first].seat === undefined || log[first].seat === null)) first++;
  const events = log.slice(first).filter((e) => e.type !== "hand_end");
  const over = ended ? [interpolate(gettext("Hand %(number)s is over."), { number: formatNumber(view.last_hand.number + 1) })] : [];
  // Without the last full stop, so that a page may set the move inside a sentence of its own.
  const text = [...sentences(table, ctx, events), ...over].join(" ").replace(/\.$/, "");
  const spoken = [...sentences(table, ctx, events, { spoken: true }), ...over].join(" ").replace(/\.$/, "");
  const keys = ended ? [] : events.filter((e) => e.type === "play").map((e) => tileKey(e.tile));
  return { text, spoken, keys, id: `${view.hand_number}:${log.length}:${ended}` };
}

/** The list items of `list` (the board in words), touched only when their words changed. Each
 * item is named by its words as well, so it is found by its name. */
export function setItems(list, items) {
  const key = JSON.stringify(items);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.replaceChildren(...items.map((text) => h("li", { text, "aria-label": text })));
}

/** Text written one way on screen ("6|4") and read another way ("six four"). */
export function shownAndSaid(shown, said) {
  if (shown === said) return [shown];
  return [h("span", { "aria-hidden": "true", text: shown }), h("span", { class: "visually-hidden", text: said })];
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
    const e = events[i];
    list.append(h("li", {}, ...shownAndSaid(describeEvent(table, ctx, e), describeEvent(table, ctx, e, { spoken: true }))));
  }
}

/** A seat's badges in words: you, host, AI level, online or away ("back in N s" while a dropped
 * player may return), and at the table its tile count. */
export function seatBadges(ctx, s) {
  const view = ctx.view;
  const badges = [];
  // Translators: a badge on this device's own seat.
  if (s.seat === ctx.seat) badges.push(h("span", { class: "badge you", text: gettext("you") }));
  // Translators: a badge on the seat of the player who created the room.
  if (s.seat === ctx.room.host_seat) badges.push(h("span", { class: "badge", text: gettext("host") }));
  if (s.ai) badges.push(h("span", { class: "badge ai", text: interpolate(gettext("AI (%(level)s)"), { level: AI_LEVELS[s.ai] || s.ai }) }));
  if (s.human && s.connected === false) {
    const left = s.standin_at ? Math.max(0, Math.round((Date.parse(s.standin_at) - Date.now()) / 1000)) : null;
    badges.push(h("span", { class: "badge away", text: s.standin || left === 0 ? gettext("away: an AI plays for them")
      : left !== null ? interpolate(gettext("away: back in %(seconds)s s"), { seconds: formatNumber(left) }) : gettext("away") }));
  } else if (s.human) {
    badges.push(h("span", { class: "badge", text: gettext("online") }));
  }
  if (view && view.hand_sizes) badges.push(h("span", { class: "badge", text: tileCount(view.hand_sizes[s.seat]) }));
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
    li.replaceChildren(h("span", { class: "who", text: s.free
      ? interpolate(gettext("Seat %(number)s: free"), { number: formatNumber(s.seat + 1) }) : seatName(ctx, s.seat) }),
    ...seatBadges(ctx, s));
  });
}

/** The strip of players over the board: name, tiles held, who is to play (a word and an arrow). */
export function renderPlayersBar(ctx, bar) {
  const view = ctx.view;
  const chips = Array.from({ length: view.players }, (_, s) => {
    const held = view.hand_sizes?.[s];
    const values = { name: seatName(ctx, s), tiles: held === undefined ? "?" : tileCount(held) };
    return {
      key: `s${s}`, to: view.to_move === s,
      text: view.to_move === s ? interpolate(gettext("%(name)s: %(tiles)s, to play"), values)
        : interpolate(gettext("%(name)s: %(tiles)s"), values),
    };
  });
  if (view.boneyard) {
    chips.push({ key: "bone", to: false, text: interpolate(gettext("Boneyard: %(count)s"), { count: formatNumber(view.boneyard) }) });
  }
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
  const target = table.targetText ? table.targetText(view, unit)
    : view.target ? interpolate(gettext("Playing to %(score)s."), { score: scoreWords(view.target, unit) }) : "";
  const num = (n) => (n === undefined || n === null || n === "" ? "" : formatNumber(n));
  box.replaceChildren(
    h("div", { class: "scroll-x", tabindex: "0", role: "group", "aria-label": gettext("Score pad, scrolls sideways") },
      h("table", { class: "scorepad" },
        h("caption", { class: "visually-hidden", text: unit === "marks" ? gettext("Score pad in marks") : gettext("Score pad in points") }),
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: gettext("Player") }),
          // Translators: the score pad's column of the match totals.
          h("th", { scope: "col", class: "total", text: gettext("Match") }),
          ...hands.map((hd) => h("th", { scope: "col", "data-hand": hd.number,
            text: interpolate(gettext("Hand %(number)s"), { number: hd.label || formatNumber(hd.number + 1) }) })))),
        h("tbody", {}, ...names.map((name, i) => h("tr", {}, h("th", { scope: "row", text: name }),
          h("td", { class: "total", text: num(view.scores[i]) }),
          ...hands.map((hd) => h("td", { text: num(hd.points?.[i]) }))))))),
    h("p", { class: "hint", text: target }),
  );
}

/** The result of a finished hand in one sentence or more, as the summary and the live region say it. */
export function summaryText(table, ctx, last) {
  if (table.summaryLines) return table.summaryLines(ctx, last).map((p) => p.textContent).join(" ");
  const points = handPoints(table, ctx.view, last);
  const who = last.winner === null || last.winner === undefined ? null : sideName(ctx, last.winner);
  const scores = UNITS.format(points.map((p, i) => interpolate(gettext("%(name)s %(points)s"),
    { name: sideName(ctx, i), points: formatNumber(p) })));
  let text;
  if (who && points.length) text = interpolate(gettext("%(name)s won the hand: %(scores)s."), { name: who, scores });
  else if (who) text = interpolate(gettext("%(name)s won the hand."), { name: who });
  else if (points.length) text = interpolate(gettext("Nobody won the hand: %(scores)s."), { scores });
  else text = gettext("Nobody won the hand.");
  // Translators: a hand that ended because nobody could play.
  return last.blocked ? `${gettext("Blocked.")} ${text}` : text;
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
  const lines = table.summaryLines ? table.summaryLines(ctx, last) : [h("p", { text: summaryText(table, ctx, last) })];
  const showLeft = table.showsHandsLeft !== false;
  const left = showLeft ? (last.hands_left || []).map((tiles, s) => h("div", { class: "hands-left" },
    h("span", { text: interpolate(gettext("%(name)s:"), { name: seatName(ctx, s) }) }), " ",
    // Translators: a player with no tile left at the end of a hand.
    tiles.length ? tileRow(tiles, top, 36) : h("span", { text: gettext("out") }))) : [];
  const fair = h("div", { class: "fair pending", id: "fair", role: "status" }, gettext("Checking the shuffle…"));
  box.replaceChildren(h("section", { class: "summary", "aria-labelledby": "summary-title" },
    h("h2", { id: "summary-title", text: interpolate(gettext("Hand %(number)s is over"), { number: formatNumber(last.number + 1) }) }),
    ...lines,
    showLeft ? h("p", { class: "hint", text: gettext("Tiles left in each hand:") }) : null, ...left, fair));
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
      h("span", { class: "fair-badge", text: result.ok ? gettext("✓ Fair shuffle") : gettext("✗ Shuffle check failed") }),
      h("p", { text: !result.ok ? gettext("The revealed seed does not reproduce this hand. Details below.")
        : mine ? gettext("Your browser recomputed this hand's order from the revealed seed: its SHA-256 equals the commitment shown before the hand, and the HMAC-SHA256 Fisher-Yates shuffle deals exactly the tiles that were dealt, including the hand you received.")
          : gettext("Your browser recomputed this hand's order from the revealed seed: its SHA-256 equals the commitment shown before the hand, and the HMAC-SHA256 Fisher-Yates shuffle deals exactly the tiles that were dealt.") }),
      h("ul", {}, ...result.checks.map((c) => h("li", { text: `${c.ok ? "✓" : "✗"} ${c.label ?? c.name}: ${c.detail}` }))),
      // Translators: followed by the hand's secret seed (a long hexadecimal number).
      h("p", {}, gettext("Seed"), " ", h("code", { text: last.seed })),
    );
  } catch (err) {
    box.className = "fair bad";
    box.textContent = interpolate(gettext("The shuffle could not be checked: %(error)s"), { error: err.message });
  }
}

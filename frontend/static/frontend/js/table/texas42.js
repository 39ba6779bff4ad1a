// Texas 42: the bidding box (legal bids only), trumps, the trick round the centre with who
// played what (the last trick stays with its winner until the next lead), tricks and count per
// side, marks. What a bid promises and what "set" means are said in plain words, and trumps
// are marked in the hand. The house rules are said in words too: a plunge or a splash (the
// partner names trumps), sevens, and how nello's doubles rank.

import { tileName, tileSVG, tileKey } from "../tiles.js";
import { bareName, h, listWords, orWords, scoreWords, seatName, setItems, sideName } from "./common.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";

export const zoomable = false;
/** Everyone holds about as many tiles: the trick names the seats, no strip of players needed. */
export const showsPlayers = false;
export const showsHandsLeft = true;

// Translators: a suit of Texas 42 named as trumps, inside a sentence ("Ann named sixes as trumps").
const SUITS = [gettext("blanks"), gettext("ones"), gettext("twos"), gettext("threes"), gettext("fours"), gettext("fives"),
  gettext("sixes")];
// Translators: the buttons that name trumps in Texas 42.
const SUIT_BUTTONS = [gettext("Blanks"), gettext("Ones"), gettext("Twos"), gettext("Threes"), gettext("Fours"),
  gettext("Fives"), gettext("Sixes")];
const SPECIAL = { doubles: gettext("doubles"), follow_me: gettext("follow-me (no trumps)"), nello: gettext("nello"),
  sevens: gettext("sevens (closest to seven pips wins)") };
const SPECIAL_BUTTONS = { doubles: gettext("Doubles"), follow_me: gettext("No trumps"), nello: gettext("Nello"),
  sevens: gettext("Sevens") };

export function bidName(v, contract) {
  // Translators: a seat's bid in the list of bids, when it passed.
  if (v === null || v === undefined) return gettext("pass");
  const marks = { count: formatNumber(v / 42) };
  if (contract === "plunge") {
    return interpolate(ngettext("Plunge: %(count)s mark, partner names trumps", "Plunge: %(count)s marks, partner names trumps", v / 42), marks);
  }
  if (contract === "splash") {
    return interpolate(ngettext("Splash: %(count)s mark, partner names trumps", "Splash: %(count)s marks, partner names trumps", v / 42), marks);
  }
  if (v >= 84) {
    // Translators: a bid in marks with its points, e.g. "2 marks (84)".
    return interpolate(ngettext("%(count)s mark (%(points)s)", "%(count)s marks (%(points)s)", v / 42), { ...marks, points: formatNumber(v) });
  }
  return formatNumber(v);
}

export function trumpName(s) {
  if (typeof s === "number") return SUITS[s];
  return SPECIAL[s] || String(s);
}

function trumpButton(s) {
  if (typeof s === "number") return SUIT_BUTTONS[s];
  return SPECIAL_BUTTONS[s] || String(s);
}

/** How nello's doubles rank in this room (the `nello_doubles` option), in words. */
function nelloDoubles(view) {
  const choice = view.options?.nello_doubles;
  if (choice === "low") return gettext("Doubles are lowest in their suits.");
  if (choice === "own_suit") return gettext("Doubles are a suit of their own: a double led calls for doubles.");
  return gettext("Doubles are highest in their suits.");
}

export function sentence(w, e) {
  switch (e.type) {
    case "bid":
      return w.said(e.seat, gettext("You bid %(bid)s."), gettext("%(name)s bid %(bid)s."), { bid: bidName(e.value, e.contract) });
    case "trump":
      if (["follow_me", "nello", "sevens"].includes(e.suit)) {
        return w.said(e.seat, gettext("You chose %(what)s."), gettext("%(name)s chose %(what)s."), { what: trumpName(e.suit) });
      }
      return w.said(e.seat, gettext("You named %(trumps)s as trumps."), gettext("%(name)s named %(trumps)s as trumps."),
        { trumps: trumpName(e.suit) });
    case "play":
      return w.said(e.seat, gettext("You played %(tile)s."), gettext("%(name)s played %(tile)s."), { tile: w.tile(e.tile) });
    case "trick":
      if (e.points === undefined) return w.said(e.winner, gettext("You won the trick."), gettext("%(name)s won the trick."));
      return w.said(e.winner, ngettext("You won the trick (%(count)s point).", "You won the trick (%(count)s points).", e.points),
        ngettext("%(name)s won the trick (%(count)s point).", "%(name)s won the trick (%(count)s points).", e.points),
        { count: formatNumber(e.points) });
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

/** The word for a mark of `handMark` on a tile. */
export function markWord(mark) {
  // Translators: a tab on a tile of the hand that is a trump (Texas 42).
  return mark === "trump" ? gettext("trump") : mark;
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
  if (view.scoring === "points") return scoreWords(value, "points");
  return scoreWords(value >= 84 ? value / 42 : 1, "marks");
}

/** What the standing bid asks of the bidders, and what "set" means for it, in plain words. */
function side(ctx, i) {
  return listWords((ctx.view.teams?.[i] || []).map((s) => bareName(ctx, s)));
}

function promise(ctx, seat, value, trump, contract) {
  const view = ctx.view;
  const us = sideOf(view, seat);
  const values = { them: side(ctx, 1 - us), bidders: side(ctx, us), stake: stake(view, value), name: bareName(ctx, seat) };
  const mine = seat === ctx.seat;
  if (trump === "nello") {
    return [
      mine ? gettext("You must lose every trick, your partner sitting out.")
        : interpolate(gettext("%(name)s must lose every trick, partner sitting out."), values),
      nelloDoubles(view),
      interpolate(gettext("Winning even one trick sets the bid: %(them)s score %(stake)s."), values),
    ].join(" ");
  }
  const everyTrick = interpolate(gettext("%(bidders)s must take every trick, or %(them)s score %(stake)s."), values);
  if (contract) {
    const namer = (seat + 2) % 4;
    const plunge = contract === "plunge";
    const holds = mine
      ? (plunge ? gettext("Plunge: you hold four doubles or more.") : gettext("Splash: you hold three doubles or more."))
      : interpolate(plunge ? gettext("Plunge: %(name)s holds four doubles or more.") : gettext("Splash: %(name)s holds three doubles or more."), values);
    const names = namer === ctx.seat ? gettext("You name trumps and lead.")
      : interpolate(gettext("%(name)s names trumps and leads."), { name: bareName(ctx, namer) });
    return [holds, names, everyTrick].join(" ");
  }
  if (trump === "sevens") {
    return [gettext("Sevens: everyone plays their tile closest to seven pips, and the closest takes the trick."), everyTrick].join(" ");
  }
  if (value >= 84) {
    return interpolate(gettext("%(bidders)s must take every trick. Losing one, they are set (the bid fails) and %(them)s score %(stake)s."), values);
  }
  return interpolate(gettext("%(bidders)s need %(points)s of the 42 points. Short of that they are set (the bid fails) and %(them)s score %(stake)s."),
    { ...values, points: formatNumber(value) });
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

function biddingRules(view) {
  const opts = view.options || {};
  const extra = [opts.plunge ? gettext("plunge (4 doubles)") : "", opts.splash ? gettext("splash (3 doubles)") : ""].filter(Boolean);
  const first = extra.length
    ? interpolate(gettext("Each player bids once: the points of 42 their side will take (30 to 42), or marks (84 is 2 marks: every trick), or a %(special)s: marks, and the partner names trumps."),
      { special: orWords(extra) })
    : gettext("Each player bids once: the points of 42 their side will take (30 to 42), or marks (84 is 2 marks: every trick).");
  return `${first} ${gettext("A side that falls short of its bid is set: the bid fails and the other side scores.")}`;
}

export function board(ctx, el, sel) {
  const view = ctx.view;
  const me = ctx.seat ?? 0;
  const lastSel = sel.last || [];
  const last = lastTrick(view);
  const shown = view.trick?.length || !last ? view.trick || [] : last.plays;
  const key = JSON.stringify([view.hand_number, view.bids, view.high_bid, view.trump, shown, last?.winner, view.leader,
    view.phase, view.tricks_won, view.points_taken, view.scores, lastSel, ctx.room?.revision, ctx.seat]);
  if (el._table?.kind === "texas42" && el._table.key === key) return;
  const before = el._table?.kind === "texas42" ? el._table.tiles : new Set();
  el._table = { kind: "texas42", key, tiles: new Set(shown.map((p) => tileKey(p.tile))) };
  el.classList.remove("pannable");
  el.classList.add("sized"); // the trick's tiles follow the box's height
  const parts = [];
  const high = view.high_bid;
  parts.push(h("p", { class: "bid-line" },
    view.phase === "bidding" ? `${interpolate(gettext("Shuffled by %(name)s."), { name: seatName(ctx, view.shuffler) })} ` : "",
    view.trump !== null && view.trump !== undefined ? `${interpolate(gettext("Trumps: %(trumps)s."), { trumps: trumpName(view.trump) })} ` : "",
    high ? interpolate(gettext("High bid: %(name)s, %(bid)s."), { name: bareName(ctx, high.seat), bid: bidName(high.value, high.contract) })
      : gettext("No bid yet.")));
  if (view.phase === "bidding") {
    parts.push(h("p", { class: "set-line", text: biddingRules(view) }));
  } else if (high) {
    parts.push(h("p", { class: "set-line", text: promise(ctx, high.seat, high.value, view.trump, high.contract) }));
  }
  if (view.bids?.length && view.phase === "bidding") {
    parts.push(h("ul", { class: "bids", "aria-label": gettext("Bids") },
      ...view.bids.map((b) => h("li", { text: interpolate(gettext("%(name)s: %(bid)s"),
        { name: seatName(ctx, b.seat), bid: b.pass ? gettext("pass") : bidName(b.bid, b.contract) }) }))));
  }
  // The trick: seats placed round the centre from this viewer (you at the bottom), drawn for the
  // eyes; the list beside it says the same in words.
  const trick = h("div", { class: "trick", "aria-hidden": "true" });
  for (let s = 0; s < 4; s++) {
    const slot = (s - me + 4) % 4;
    const play = shown.find((p) => p.seat === s);
    let tile = h("span", { class: "empty" });
    if (play) {
      tile = tileSVG(play.tile, { size: 72, vertical: true });
      tile.dataset.key = tileKey(play.tile);
      if (lastSel.includes(tile.dataset.key)) tile.classList.add("last-played");
      if (!before.has(tile.dataset.key)) tile.classList.add("arrive");
    }
    trick.append(h("div", { class: `slot slot-${slot}`, "data-seat": s }, tile, h("div", { class: "who", text: bareName(ctx, s) })));
  }
  const lead = view.leader !== null && view.leader !== undefined && view.phase !== "bidding";
  const centre = !view.trick?.length && last ? interpolate(gettext("Last trick: %(name)s"), { name: bareName(ctx, last.winner) })
    : lead ? (view.leader === ctx.seat ? gettext("You lead") : interpolate(gettext("%(name)s leads"), { name: bareName(ctx, view.leader) }))
      : "";
  trick.append(h("div", { class: "centre", text: centre }));
  const heading = !view.trick?.length && last
    ? interpolate(gettext("The last trick, won by %(name)s:"), { name: seatName(ctx, last.winner) })
    : lead ? `${centre}. ${gettext("The trick:")}` : gettext("The trick:");
  const list = h("ul", { class: "visually-hidden board-list", role: "list", "aria-label": gettext("Board") });
  // Translators: a tile played to the trick, in the board's list: "Ann: six four".
  setItems(list, shown.map((p) => interpolate(gettext("%(name)s: %(tile)s"), { name: seatName(ctx, p.seat), tile: tileName(p.tile) })));
  const info = h("div", {}, ...parts);
  const sides = h("div", { class: "sides" }, ...(view.teams || []).map((_, i) => h("div", { class: "side-box" },
    h("strong", { text: side(ctx, i) }),
    h("div", { text: interpolate(gettext("Tricks %(tricks)s · points taken %(points)s"),
      { tricks: formatNumber(view.tricks_won?.[i] ?? 0), points: formatNumber(view.points_taken?.[i] ?? 0) }) }),
    h("div", { text: view.scoring === "points" ? interpolate(gettext("Points: %(score)s"), { score: formatNumber(view.scores[i]) })
      : interpolate(gettext("Marks: %(score)s"), { score: formatNumber(view.scores[i]) }) }))));
  el.replaceChildren(h("div", { class: "t42" }, h("p", { class: "visually-hidden", text: heading }), list, trick,
    h("div", {}, info, sides)));
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
    nodes.push(h("div", { class: "bidbox", role: "group", "aria-label": gettext("Your bid") },
      ...bids.map((a) => {
        const shown = bidName(a.value, a.contract);
        // Translators: a bid button's name for a screen reader ("Bid 30", "Bid 2 marks (84)").
        return h("button", { type: "button", "data-bid": a.value, "data-contract": a.contract, disabled: ctx.waiting,
          "aria-label": interpolate(gettext("Bid %(bid)s"), { bid: shown }), onclick: () => ctx.act(a), text: shown });
      }),
      legal.some((a) => a.type === "pass")
        ? h("button", { type: "button", "data-action": "pass", disabled: ctx.waiting, onclick: () => ctx.act({ type: "pass" }), text: gettext("Pass") }) : null));
  }
  if (trumps.length) {
    nodes.push(h("div", { class: "trumps", role: "group", "aria-label": gettext("Name trumps") },
      ...trumps.map((a) => h("button", { type: "button", "data-trump": a.suit, disabled: ctx.waiting, onclick: () => ctx.act(a),
        text: trumpButton(a.suit) }))));
  }
  box.replaceChildren(...nodes);
}

export function summaryLines(ctx, last) {
  const view = ctx.view;
  if (!last.bid) return [h("p", { text: gettext("Everybody passed: the tiles were shuffled again.") })];
  const us = sideOf(view, last.bidder);
  const contract = (last.log || []).find((e) => e.type === "bid" && e.seat === last.bidder)?.contract;
  const values = {
    name: seatName(ctx, last.bidder), bid: bidName(last.bid, contract), trumps: trumpName(last.trump),
    bidders: sideName(ctx, us), them: sideName(ctx, 1 - us), points: formatNumber((last.points || [])[us] ?? 0),
    award: scoreWords(last.award || 0, scoreUnit(view)), result: (last.result || "").replace(/_/g, " "),
  };
  const text = last.result === "made"
    ? gettext("%(name)s bid %(bid)s in %(trumps)s; %(bidders)s took %(points)s of the 42 points and made it: %(bidders)s score %(award)s.")
    : last.result === "set"
      ? gettext("%(name)s bid %(bid)s in %(trumps)s; %(bidders)s took %(points)s of the 42 points and were set (the bid failed): %(them)s score %(award)s.")
      : gettext("%(name)s bid %(bid)s in %(trumps)s; %(bidders)s took %(points)s of the 42 points: %(result)s.");
  return [h("p", { text: interpolate(text, values) })];
}

export function statusWhy(ctx) {
  const view = ctx.view;
  if (view.phase === "bidding") return gettext("Your bid: beat the high bid or pass (each player bids once).");
  if (view.legal.some((a) => a.type === "trump")) {
    const contract = view.high_bid?.contract;
    if (contract === "plunge") return gettext("Your partner bid a plunge: name trumps, then lead.");
    if (contract === "splash") return gettext("Your partner bid a splash: name trumps, then lead.");
    return gettext("You won the bidding: name trumps.");
  }
  if (view.trump === "sevens") return gettext("Sevens: play your tile closest to seven pips (highlighted tiles).");
  if (view.trick?.length) return gettext("Your play: follow suit if you can (highlighted tiles).");
  return gettext("Your lead: play any tile.");
}

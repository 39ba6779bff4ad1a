// Chicken Foot: the lead double with its four arms (six with the opening_arms house rule), and
// under each double that closed an arm its foot of three toes. Toes that must be filled before
// anything else are framed and say "fill this toe". The rows are the board's list for a screen
// reader, one sentence an arm or a toe.

import { tileLabel, tileName, tileSVG } from "../tiles.js";
import { markTiles, showTargets, syncRows, zoomRows } from "./branch.js";
import { h, setHidden, shownAndSaid, tileCount, topOf } from "./common.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";

export const zoomable = true;

/** "arm:2" is arm 3; "toe:1:0" is toe 1 of foot 2 (feet counted as they were made). */
function parts(id) {
  return id.split(":").map(Number);
}

/** An arm or a toe as a button or a list item names it: "Arm 3", "Foot 2, toe 1". */
export function endLabel(ctx, id) {
  if (!id?.startsWith("arm:") && !id?.startsWith("toe:")) return id;
  const p = parts(id);
  return id.startsWith("arm:") ? interpolate(gettext("Arm %(number)s"), { number: formatNumber(p[1] + 1) })
    : interpolate(gettext("Foot %(foot)s, toe %(toe)s"), { foot: formatNumber(p[1] + 1), toe: formatNumber(p[2] + 1) });
}

/** The same inside a sentence: "arm 3", "foot 2, toe 1". */
export function endName(ctx, id) {
  if (!id?.startsWith("arm:") && !id?.startsWith("toe:")) return id;
  const p = parts(id);
  // Translators: an arm of the chicken foot inside a sentence ("Ann played 6|4 on arm 3").
  return id.startsWith("arm:") ? interpolate(gettext("arm %(number)s"), { number: formatNumber(p[1] + 1) })
    : interpolate(gettext("foot %(foot)s, toe %(toe)s"), { foot: formatNumber(p[1] + 1), toe: formatNumber(p[2] + 1) });
}

export function sentence(w, e) {
  if (e.type === "draw" && e.lead) {
    return w.said(e.seat, gettext("You drew, looking for the lead double."), gettext("%(name)s drew, looking for the lead double."));
  }
  return undefined;
}

export function targetText() {
  return gettext("The lowest total wins.");
}

export function board(ctx, el, sel) {
  const view = ctx.view;
  const top = topOf(view);
  const targets = sel.targets || [];
  let b = el._table;
  if (!b || b.kind !== "chicken") {
    const hub = h("div", { class: "hub" });
    const notice = h("p", { class: "open-double", hidden: true });
    const rows = h("div", { class: "rows", role: "list", "aria-label": gettext("Board") });
    el.replaceChildren(hub, notice, rows);
    el.classList.remove("pannable");
    b = el._table = { kind: "chicken", hub, notice, rows, key: null, started: false };
    zoomRows(el, "default");
  }
  const layout = view.layout || { branches: [], pending: [] };
  const raw = layout.lead ?? view.lead;
  const lead = typeof raw === "number" ? [raw, raw] : raw;
  const hubKey = `${lead}:${view.led}:${view.round}`;
  if (b.key !== hubKey) {
    b.key = hubKey;
    const lead$ = lead ? tileSVG(lead, { top, size: 64 }) : null;
    if (lead$) {
      lead$.dataset.key = `${lead[0]}-${lead[1]}`;
      lead$.setAttribute("aria-hidden", "true");
    }
    const values = { hand: formatNumber((view.round ?? 0) + 1), hands: view.rounds ? formatNumber(view.rounds) : "?" };
    const words = (tile) => (!lead ? interpolate(gettext("Hand %(hand)s of %(hands)s"), values)
      : view.led === false ? interpolate(gettext("Hand %(hand)s of %(hands)s: the %(tile)s must lead"), { ...values, tile })
        : interpolate(gettext("Hand %(hand)s of %(hands)s: the %(tile)s leads"), { ...values, tile }));
    b.hub.replaceChildren(...[lead$, h("span", {}, ...shownAndSaid(words(lead && tileLabel(lead)), words(lead && tileName(lead))))]
      .filter(Boolean));
  }
  const pending = new Set(layout.pending || []);
  const arms = [...pending].every((id) => id.startsWith("arm:"));
  const count = { count: formatNumber(pending.size) };
  const text = !pending.size ? "" : arms
    ? interpolate(ngettext("The lead double's %(count)s open arm must get a tile before anyone plays elsewhere.",
      "The lead double's %(count)s open arms must each get a tile before anyone plays elsewhere.", pending.size), count)
    : interpolate(ngettext("A chicken foot is open: its %(count)s toe must be filled before anyone plays elsewhere.",
      "A chicken foot is open: its %(count)s toes must be filled before anyone plays elsewhere.", pending.size), count);
  if (b.notice.textContent !== text) b.notice.textContent = text;
  setHidden(b.notice, !pending.size);
  const byParent = new Map();
  for (const br of layout.branches || []) {
    const key = br.from || "";
    if (!byParent.has(key)) byParent.set(key, []);
    byParent.get(key).push(br);
  }
  const specs = [];
  const add = (br, depth, start) => {
    const badges = [];
    const arm = br.id.startsWith("arm:");
    const fill = pending.has(br.id) ? (arm ? gettext("fill this arm") : gettext("fill this toe")) : "";
    if (fill) badges.push({ text: fill });
    // Translators: a badge on an arm closed by a double, which grows a chicken foot of three toes.
    else if (br.closed) badges.push({ text: gettext("foot below"), cls: "double" });
    const label = endLabel(ctx, br.id);
    const details = [br.tiles.length ? tileCount(br.tiles.length) : gettext("no tiles yet"),
      br.open_end === undefined || br.open_end === null ? "" : interpolate(gettext("open at %(number)s"), { number: formatNumber(br.open_end) }),
      fill, !fill && br.closed ? gettext("foot below") : ""].filter(Boolean);
    specs.push({ id: br.id, label, where: endName(ctx, br.id), tiles: br.tiles, start, openEnd: br.open_end, badges,
      said: interpolate(gettext("%(row)s: %(details)s"), { row: label, details: details.join(", ") }),
      active: targets.includes(br.id), classes: [depth ? "toe" : "", pending.has(br.id) ? "pending" : ""].filter(Boolean).join(" ") });
    const last = br.tiles[br.tiles.length - 1];
    for (const child of byParent.get(br.id) || []) add(child, depth + 1, last ? last[0] : start);
  };
  for (const br of byParent.get("") || []) add(br, 0, lead ? lead[0] : null);
  syncRows(b.rows, specs, { top, onEnd: sel.onEnd, animate: b.started });
  b.started = true;
  markTiles(el, sel.last, "last-played");
  showTargets(el, b, targets);
}

export function zoom(el, how) {
  zoomRows(el, how);
}

export function statusWhy(ctx) {
  const legal = ctx.view.legal;
  if (legal.some((a) => a.type === "draw")) return gettext("Nothing of yours fits an open end: draw a tile.");
  if (legal.some((a) => a.type === "pass")) return gettext("You cannot play and the chicken yard cannot help: pass.");
  const pending = ctx.view.layout?.pending || [];
  if (pending.length && pending.every((id) => id.startsWith("arm:"))) return gettext("Play on one of the lead double's framed arms.");
  if (pending.length) return gettext("Fill the chicken foot: play on a framed toe.");
  return gettext("Choose a highlighted tile, then an arm or toe.");
}

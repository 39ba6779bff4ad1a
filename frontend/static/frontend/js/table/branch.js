// Rows of tiles growing from a centre: Mexican Train's trains, Chicken Foot's arms and toes.
// Each row has its name and what to know about it (tiles held, a marker, a double to answer),
// its tiles in a strip that scrolls sideways inside the row (the newest, at the open end, in
// view), and its open end as a button. Rows live from one state to the next: a new state adds
// the tiles that are new and touches only the rows that changed. The rows are the board's list
// for a screen reader: each row a list item that says the row in one sentence ("Tom's train:
// 5 tiles, open at 4, marker out"), its strip of tiles and its end button.

import { tileSVG, tileKey } from "../tiles.js";
import { h, tileCount } from "./common.js";
import { formatNumber, gettext, interpolate } from "../i18n.js";

/** Lay each tile with the number it shares with the tile before it on the inside. */
export function chain(tiles, start) {
  let open = start;
  return tiles.map((t) => {
    const [a, b] = t;
    const shown = open === b && open !== a ? [b, a] : [a, b];
    open = shown[1];
    return shown;
  });
}

function tileNode(shown, top) {
  const double = shown[0] === shown[1];
  const svg = tileSVG(shown, { top, size: 56, vertical: double });
  svg.dataset.key = tileKey(shown);
  return svg;
}

function makeRow(spec, onEnd) {
  const said = h("span", { class: "visually-hidden" });
  const name = h("span", { class: "name" });
  const count = h("span", { class: "count" });
  const badges = h("span", { class: "badges" });
  const strip = h("div", { class: "strip", tabindex: "0", role: "group" });
  const button = h("button", { type: "button", class: "end-button", "data-end": spec.id, onclick: () => onEnd(spec.id) });
  // What the owner box shows, the sentence says: the box is for the eyes only.
  const el = h("div", { class: "train", role: "listitem", "data-end": spec.id }, said,
    h("div", { class: "owner", "aria-hidden": "true" }, name, count, badges), strip, button);
  return { el, said, name, count, badges, strip, button, keys: [], state: {} };
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function updateRow(row, spec, top, animate) {
  const st = row.state;
  setText(row.said, spec.said || spec.label);
  if (row.el.getAttribute("aria-label") !== (spec.said || spec.label)) row.el.setAttribute("aria-label", spec.said || spec.label);
  setText(row.name, spec.name || spec.label);
  setText(row.count, spec.sub || "");
  const badgeKey = JSON.stringify(spec.badges || []);
  if (st.badgeKey !== badgeKey) {
    st.badgeKey = badgeKey;
    row.badges.replaceChildren(...(spec.badges || []).map((b) => h("span", { class: `marker ${b.cls || ""}`, text: b.text })));
  }
  const cls = `train${spec.classes ? " " + spec.classes : ""}`;
  if (row.el.className !== cls) row.el.className = cls;
  // The tiles: the strip runs newest first, laid out right to left, so the open end shows.
  const keys = spec.tiles.map(tileKey);
  const old = row.keys;
  const grows = old.length <= keys.length && old.every((k, i) => k === keys[i]);
  if (!grows || keys.length !== old.length) {
    const shown = chain(spec.tiles, spec.start);
    if (grows) {
      for (let i = old.length; i < shown.length; i++) {
        const node = tileNode(shown[i], top);
        if (animate) node.classList.add("arrive");
        row.strip.prepend(node);
      }
    } else {
      row.strip.replaceChildren(...shown.map((t) => tileNode(t, top)).reverse());
    }
    row.keys = keys;
  }
  const label = keys.length
    ? interpolate(gettext("%(row)s: %(tiles)s, the newest first"), { row: spec.label, tiles: tileCount(keys.length) })
    : interpolate(gettext("%(row)s: no tiles yet"), { row: spec.label });
  if (row.strip.getAttribute("aria-label") !== label) row.strip.setAttribute("aria-label", label);
  const active = !!spec.active;
  const end = String(spec.openEnd ?? "");
  if (st.end !== end || st.active !== active) {
    st.end = end;
    st.active = active;
    row.button.textContent = end === "" ? "" : formatNumber(Number(end));
    row.button.disabled = !active;
    row.button.classList.toggle("end-target", active);
    // Not a target now: the row's sentence already says its open end.
    if (active) {
      row.button.removeAttribute("aria-hidden");
      row.button.setAttribute("aria-label", interpolate(gettext("Play on %(end)s (%(number)s)"),
        { end: spec.where || spec.label, number: end === "" ? "" : formatNumber(Number(end)) }));
    } else {
      row.button.setAttribute("aria-hidden", "true");
      row.button.removeAttribute("aria-label");
    }
  }
}

/**
 * Bring `box` (a `.rows` element) to the rows of `specs`, in order. A spec: id, label (what the
 * row is, for screen readers: "Tom's train"), where (the same inside a sentence), said (the row
 * in one sentence), name (shown; the label when absent), sub,
 * badges [{text, cls}], tiles (outward from the centre), start (the number they grow from),
 * openEnd, classes, active (a target for the chosen tile).
 */
export function syncRows(box, specs, { top, onEnd, animate }) {
  const cache = box._rows || (box._rows = new Map());
  if (box._top !== top) {
    cache.clear();
    box.replaceChildren();
    box._top = top;
  }
  const seen = new Set();
  let prev = null;
  for (const spec of specs) {
    let row = cache.get(spec.id);
    if (!row) {
      row = makeRow(spec, onEnd);
      cache.set(spec.id, row);
    }
    updateRow(row, spec, top, animate);
    const want = prev ? prev.nextSibling : box.firstChild;
    if (want !== row.el) box.insertBefore(row.el, want);
    prev = row.el;
    seen.add(spec.id);
  }
  for (const [id, row] of cache) {
    if (!seen.has(id)) {
      row.el.remove();
      cache.delete(id);
    }
  }
}

/** Outline the tiles of the last move (and only those) anywhere under `root`. */
export function markTiles(root, keys, cls) {
  for (const node of root.querySelectorAll(`svg.${cls}`)) {
    if (!keys.includes(node.dataset.key)) node.classList.remove(cls);
  }
  for (const key of keys) root.querySelector(`svg.tile[data-key="${key}"]`)?.classList.add(cls);
}

/** When a tile is chosen, bring the first row it can go to into the board's view. */
export function showTargets(el, b, ids) {
  const key = ids.join(",");
  if (b.targetKey === key) return;
  b.targetKey = key;
  const row = ids.length ? b.rows.querySelector(`.train[data-end="${ids[0]}"]`) : null;
  if (!row) return;
  const top = row.offsetTop;
  if (top < el.scrollTop || top + row.offsetHeight > el.scrollTop + el.clientHeight) el.scrollTop = Math.max(0, top - 8);
}

const SIZES = [40, 48, 56, 68, 84, 100];

/** Zoom a board of rows: the tile size steps up or down; "fit" picks the size that fits best. */
export function zoomRows(el, how) {
  const now = Number(el.dataset.t) || 56;
  let t = now;
  if (how === "in") t = SIZES.find((s) => s > now) ?? now;
  else if (how === "out") t = [...SIZES].reverse().find((s) => s < now) ?? now;
  // "Large tiles, high contrast" (a preference of this browser) starts a size up.
  else if (how === "default") t = document.documentElement.classList.contains("large-tiles") ? 68 : 56;
  else if (typeof how === "number") t = Math.max(SIZES[0], Math.min(SIZES.at(-1), Math.round(now * how)));
  else {
    const rows = el.querySelectorAll(".train").length || 1;
    const room = el.clientHeight - (el.querySelector(".hub")?.offsetHeight || 0) - 16;
    const fits = [...SIZES].reverse().find((s) => rows * (Math.max(48, s + 12) + 4) <= room);
    t = fits ?? 48;
  }
  el.dataset.t = String(t);
  el.style.setProperty("--t", `${t}px`);
  return t;
}

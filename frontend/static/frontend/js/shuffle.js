// The fair shuffle of docs/engine.md recomputed in the browser, so a player need not trust the server:
// sha256(seed) must equal the commitment shown before the hand, and the HMAC-SHA256 Fisher-Yates
// order must reproduce the tiles that were dealt.

import { formatNumber, gettext, interpolate, ngettext, pgettext } from "./i18n.js";

const encoder = new TextEncoder();

export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 || /[^0-9a-f]/i.test(hex)) {
    throw new Error(interpolate(gettext("not a hex string: %(text)s"), { text: hex }));
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(bytes) {
  return bytesToHex(await crypto.subtle.digest("SHA-256", bytes));
}

/** Every tile of double-`top` in canonical order, less `without` (e.g. the round's engine). */
export function canonicalSet(top, without = []) {
  const skip = new Set(without.map(tileKey));
  const tiles = [];
  for (let a = 0; a <= top; a++) {
    for (let b = a; b <= top; b++) if (!skip.has(`${a}-${b}`)) tiles.push([a, b]);
  }
  return tiles;
}

export function tileKey(tile) {
  const [a, b] = tile[0] <= tile[1] ? tile : [tile[1], tile[0]];
  return `${a}-${b}`;
}

function bigEndian(bytes) {
  let n = 0n;
  for (const b of new Uint8Array(bytes)) n = (n << 8n) | BigInt(b);
  return n;
}

/** The shuffled order: for i = n-1..1, j = HMAC(seed, "r:" + i) as a big-endian integer mod (i+1). */
export async function shuffle(seedBytes, items) {
  const key = await crypto.subtle.importKey("raw", seedBytes, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const order = items.slice();
  const steps = [];
  for (let i = order.length - 1; i >= 1; i--) steps.push(i);
  const macs = await Promise.all(steps.map((i) => crypto.subtle.sign("HMAC", key, encoder.encode(`r:${i}`))));
  steps.forEach((i, k) => {
    const j = Number(bigEndian(macs[k]) % BigInt(i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  });
  return order;
}

function sameTiles(a, b) {
  const ka = a.map(tileKey).sort();
  const kb = b.map(tileKey).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i]);
}

/**
 * Check a finished hand. `hand` holds the revealed `seed`, the `commitment` shown at the start,
 * `dealt` (each seat's dealt tiles), the set `top`, and the `engine` double set aside (or null).
 * `mine` is what this browser itself received at the start of the hand, with its `seat`.
 * Returns {ok, checks: [{name, label, ok, detail}], order}: `name` is a fixed key, `label` and
 * `detail` are words in the page's language.
 */
export async function verifyHand({ seed, commitment, dealt, top, engine = null, mine = null, seat = null }) {
  const checks = [];
  const seedBytes = hexToBytes(seed);
  const digest = await sha256Hex(seedBytes);
  checks.push({
    name: "commitment",
    // Translators: the name of a check of the fair shuffle (the seed against the commitment).
    label: gettext("commitment"),
    ok: digest === commitment,
    // Translators: the first check of the fair shuffle; "sha256(seed)" is a formula, left as is.
    detail: interpolate(gettext("sha256(seed) = %(digest)s…, commitment %(commitment)s…"),
      { digest: digest.slice(0, 16), commitment: String(commitment).slice(0, 16) }),
  });
  const order = await shuffle(seedBytes, canonicalSet(top, engine ? [engine] : []));
  const size = dealt && dealt.length ? Math.max(...dealt.map((h) => h.length)) : 0;
  let dealOk = Array.isArray(dealt) && dealt.length > 0;
  (dealt || []).forEach((tiles, k) => {
    if (!sameTiles(order.slice(k * size, k * size + tiles.length), tiles)) dealOk = false;
  });
  const hands = (dealt || []).length;
  checks.push({
    name: "deal",
    // Translators: the name of a check of the fair shuffle (the tiles dealt from the shuffled order).
    label: pgettext("shuffle check", "deal"),
    ok: dealOk,
    // Translators: e.g. "4 hands of 7 from the shuffled order".
    detail: interpolate(ngettext("%(hands)s hand of %(size)s from the shuffled order",
      "%(hands)s hands of %(size)s from the shuffled order", hands), { hands: formatNumber(hands), size: formatNumber(size) }),
  });
  if (mine && seat !== null && seat !== undefined) {
    const block = order.slice(seat * size, seat * size + mine.length);
    checks.push({
      name: "my hand", // i18n: not shown (the check's key; `label` is shown)
      // Translators: the name of a check of the fair shuffle (this browser's own dealt tiles).
      label: gettext("my hand"),
      ok: mine.length === size && sameTiles(block, mine),
      detail: interpolate(ngettext("the %(count)s tile this browser received as seat %(seat)s",
        "the %(count)s tiles this browser received as seat %(seat)s", mine.length),
      { count: formatNumber(mine.length), seat: formatNumber(seat + 1) }),
    });
  }
  return { ok: checks.every((c) => c.ok), checks, order };
}

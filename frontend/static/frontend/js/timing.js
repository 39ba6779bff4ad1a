// The room's two clocks as friendly choices: how long a dropped player keeps the seat before
// an AI plays for them (grace), and the turn timer. The same selects serve the home form and
// the host's lobby.

import { formatNumber, gettext, interpolate, ngettext } from "./i18n.js";

/** The server's default grace period, in seconds. */
export const GRACE_DEFAULT = 60;
export const GRACE_CHOICES = [30, 60, 120, 300];
/** null: no turn timer (the default). */
export const TURN_CHOICES = [null, 30, 60, 120];

const secondsText = (n) => interpolate(ngettext("%(count)s second", "%(count)s seconds", n), { count: formatNumber(n) });
const minutesText = (n) => interpolate(ngettext("%(count)s minute", "%(count)s minutes", n), { count: formatNumber(n) });

/** "30 seconds", "1 minute", "1 minute 30 seconds"; null is "Off", 0 is "At once". */
export function durationLabel(seconds) {
  // Translators: no turn timer.
  if (seconds === null || seconds === undefined) return gettext("Off");
  // Translators: an AI takes a dropped player's seat without waiting.
  if (seconds === 0) return gettext("At once");
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (!minutes) return secondsText(rest);
  // Translators: a duration such as "1 minute 30 seconds".
  return rest ? interpolate(gettext("%(minutes)s %(seconds)s"), { minutes: minutesText(minutes), seconds: secondsText(rest) })
    : minutesText(minutes);
}

const encode = (v) => (v === null || v === undefined ? "" : String(v));
export const decode = (text) => (text === "" ? null : Number(text));

/**
 * Fill `select` with `choices` (plus `value` when it is none of them, e.g. a room made through
 * the API), the default marked, `value` selected.
 */
export function fillDuration(select, choices, value, fallback) {
  const values = choices.includes(value) || value === undefined ? choices
    : [...choices, value].sort((a, b) => (a ?? -1) - (b ?? -1));
  select.replaceChildren(...values.map((v) => {
    const label = v === fallback ? interpolate(gettext("%(choice)s (default)"), { choice: durationLabel(v) }) : durationLabel(v);
    const o = new Option(label, encode(v));
    o.selected = v === (value === undefined ? fallback : value);
    return o;
  }));
}

// The room's two clocks as friendly choices: how long a dropped player keeps the seat before
// an AI plays for them (grace), and the turn timer. The same selects serve the home form and
// the host's lobby.

/** The server's default grace period, in seconds. */
export const GRACE_DEFAULT = 60;
export const GRACE_CHOICES = [30, 60, 120, 300];
/** null: no turn timer (the default). */
export const TURN_CHOICES = [null, 30, 60, 120];

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "30 seconds", "1 minute", "1 minute 30 seconds"; null is "Off", 0 is "At once". */
export function durationLabel(seconds) {
  if (seconds === null || seconds === undefined) return "Off";
  if (seconds === 0) return "At once";
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (!minutes) return plural(rest, "second");
  return rest ? `${plural(minutes, "minute")} ${plural(rest, "second")}` : plural(minutes, "minute");
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
    const o = new Option(`${durationLabel(v)}${v === fallback ? " (default)" : ""}`, encode(v));
    o.selected = v === (value === undefined ? fallback : value);
    return o;
  }));
}

// The browser code's words in the page's language (docs/translating.md). Every sentence a
// player reads goes through `gettext` / `ngettext` here; the messages come from Django's
// JavaScript catalog (`/jsi18n/`, loaded by the page before any module). Without it (a page
// kept offline by the app) the words stay English rather than the page failing.

const catalog = globalThis.django || null;

/** The page's language, as `<html lang>` says ("en", "es", "pt-br"). */
export const lang = document.documentElement.lang || "en";

/** `message` in the page's language. Written as `gettext("...")` with a plain string literal,
 * so that `makemessages` finds it. */
export function gettext(message) {
  return catalog ? catalog.gettext(message) : message;
}

/** The singular or plural form for `count` (languages differ in how many forms they have). */
export function ngettext(singular, plural, count) {
  return catalog ? catalog.ngettext(singular, plural, count) : (count === 1 ? singular : plural);
}

/** `message` in the context `context` (one English word, two meanings). */
export function pgettext(context, message) {
  return catalog ? catalog.pgettext(context, message) : message;
}

/** Fill `%(name)s` placeholders from `values`: translators may move them in the sentence. */
export function interpolate(message, values) {
  return message.replace(/%\((\w+)\)s/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

const numbers = new Intl.NumberFormat(lang);

/** A number as the page's language writes it ("1,250" in English, "1.250" in Spanish). */
export function formatNumber(value) {
  return numbers.format(value);
}

/** A date and time as the page's language writes it. */
export function formatDateTime(value, options = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(lang, options).format(value instanceof Date ? value : new Date(value));
}

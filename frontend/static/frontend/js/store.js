// What the browser keeps for the player: name, preferences, simple stats, and the seat token
// of each room joined. Nothing of it leaves the browser except the token, sent to its room.

const PROFILE = "dominoes.profile";
const roomKey = (code) => `dominoes.room.${code}`;

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? { ...fallback, ...JSON.parse(raw) } : { ...fallback };
  } catch {
    return { ...fallback };
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // private mode or full storage: the page still works, it just forgets
  }
}

export function profile() {
  return read(PROFILE, { name: "", prefs: {}, stats: { played: 0, won: 0 } });
}

export function saveProfile(changes) {
  const p = { ...profile(), ...changes };
  write(PROFILE, p);
  return p;
}

const PREFS = { sound: true, vibrate: true, notify: false, large: false };

/** The table's preferences: a sound and a vibration when it becomes your turn, a system
 * notification while the tab is hidden (only once the player allowed it), large high-contrast
 * tiles (`large`), and the language chosen (`language`, see language.js). */
export function prefs() {
  return { ...PREFS, ...(profile().prefs || {}) };
}

export function savePrefs(changes) {
  const p = profile();
  p.prefs = { ...prefs(), ...changes };
  write(PROFILE, p);
  return p.prefs;
}

/** Switch the page's language: kept in the preferences and in Django's language cookie, then
 * the page is loaded again in it (as the site header's switcher does, language.js). */
/** Tell the server the page's language: Django's `django_language` cookie (LANGUAGE_COOKIE_NAME). */
export function rememberLanguage(code) {
  document.cookie = `django_language=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
}

/** The switcher's choice: kept in the local preferences and the cookie, then the page again in it. */
export function chooseLanguage(code) {
  savePrefs({ language: code });
  rememberLanguage(code);
  location.reload();
}

/** Count a finished match once, however many times its last view arrives. */
export function recordMatch(code, match, won) {
  const seat = roomSeat(code);
  if (!seat || (seat.counted || []).includes(match)) return;
  const p = profile();
  p.stats = { played: (p.stats.played || 0) + 1, won: (p.stats.won || 0) + (won ? 1 : 0) };
  write(PROFILE, p);
  saveRoomSeat(code, { ...seat, counted: [...(seat.counted || []), match] });
}

export function roomSeat(code) {
  const r = read(roomKey(code), {});
  return r.token !== undefined || r.seat !== undefined ? r : null;
}

export function saveRoomSeat(code, data) {
  write(roomKey(code), { ...read(roomKey(code), {}), ...data });
}

/** Forget the seat and its token (left, or freed by the host); the counted matches stay. */
export function forgetRoomSeat(code) {
  const { token, seat, host, ...rest } = read(roomKey(code), {});
  write(roomKey(code), rest);
}

/** Per-room memory of the current match: hands dealt to this browser and each hand's points. */
export function roomHistory(code) {
  return read(`${roomKey(code)}.history`, { dealt: {}, hands: {} });
}

export function saveRoomHistory(code, history) {
  write(`${roomKey(code)}.history`, history);
}

/**
 * Pass-and-play: the other seats this device holds in a room besides its first one, each
 * `{token, seat}`, in the order they were added. Every token is kept, as for the first seat.
 */
export function localSeats(code) {
  try {
    const list = JSON.parse(localStorage.getItem(`${roomKey(code)}.others`) || "[]");
    return Array.isArray(list) ? list.filter((s) => typeof s.token === "string" && Number.isInteger(s.seat)) : [];
  } catch {
    return [];
  }
}

export function saveLocalSeats(code, list) {
  write(`${roomKey(code)}.others`, list);
}

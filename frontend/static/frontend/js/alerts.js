// The turn alert: when it becomes this seat's turn (a tile to play, a bid, trumps to name) the
// page's banner and the tab's title say so, the phone vibrates where the browser allows it,
// a short chime plays, and while the tab is hidden a system notification appears if the
// player allowed it. Sound and vibration are preferences kept in this browser; notifications
// are asked for from a button, never when the page loads.

import { prefs } from "./store.js";
import { gettext, interpolate } from "./i18n.js";

let audio = null;

/** Browsers let a page make sound only after a tap or a key: get the audio ready on the first. */
function unlock() {
  if (audio || !window.AudioContext) return;
  try {
    audio = new AudioContext();
  } catch {
    audio = null;
  }
}
for (const type of ["pointerdown", "keydown"]) window.addEventListener(type, unlock, { capture: true, passive: true });

/** Two short rising notes, about a quarter of a second, quiet. */
export function chime() {
  if (!audio) return false;
  if (audio.state === "suspended") audio.resume();
  const now = audio.currentTime;
  [[660, 0], [880, 0.12]].forEach(([freq, at]) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.14);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + at);
    osc.stop(now + at + 0.15);
  });
  return true;
}

export function notificationState() {
  if (!("Notification" in window)) return "unsupported";
  return Notification.permission; // "default", "granted" or "denied"
}

/** Ask for notifications (from a button press); resolves to the browser's answer. */
export async function askNotifications() {
  if (!("Notification" in window)) return "unsupported";
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

function notify(title, body, tag) {
  if (notificationState() !== "granted") return false;
  try {
    const n = new Notification(title, { body, tag });
    n.onclick = () => {
      window.focus();
      n.close();
    };
    return true;
  } catch {
    // Chrome on Android shows notifications only from a service worker: the title and the
    // banner still say it is your turn.
    return false;
  }
}

/**
 * Keeps the tab's title and fires the alert once per turn. `update(mine, text)` is called with
 * every state: the alert fires when `mine` turns true.
 */
export class TurnAlert {
  constructor(baseTitle) {
    this.baseTitle = baseTitle;
    this.mine = false;
    this.fired = 0;
  }

  setBase(title) {
    this.baseTitle = title;
    this.title();
  }

  title() {
    // Translators: the browser tab's title on your turn, before the page's own title.
    const want = this.mine ? interpolate(gettext("Your turn! · %(title)s"), { title: this.baseTitle }) : this.baseTitle;
    if (document.title !== want) document.title = want;
  }

  update(mine, text, tag) {
    const started = mine && !this.mine;
    this.mine = mine;
    this.title();
    if (!started) return false;
    this.fired += 1;
    const p = prefs();
    if (p.vibrate && navigator.vibrate) {
      try {
        navigator.vibrate([120, 60, 120]);
      } catch {
        // not allowed here
      }
    }
    if (p.sound) chime();
    if (p.notify && document.hidden) notify(gettext("Your turn at the dominoes table"), text, tag);
    return true;
  }
}

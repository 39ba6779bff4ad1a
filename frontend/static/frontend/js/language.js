// The language switcher (docs/translating.md). The page's language comes from the server: the
// `django_language` cookie, else the browser's Accept-Language. The choice made here is kept
// in the player's local preferences as well, so that a cleared cookie comes back on the next
// page, and each phone at a table keeps its own language.

import { lang } from "./i18n.js";
import { prefs, savePrefs } from "./store.js";

const COOKIE = "django_language"; // Django's LANGUAGE_COOKIE_NAME
const RELOADED = "dominoes.language-reloaded";

function remember(code) {
  document.cookie = `${COOKIE}=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
}

function offered() {
  const select = document.getElementById("language");
  return select ? [...select.options].map((o) => o.value) : ["en", "es", "pt-br"];
}

// A choice kept locally that the page was not served in: say it to the server, once.
const chosen = prefs().language;
if (chosen && chosen !== lang && offered().includes(chosen)) {
  remember(chosen);
  if (sessionStorage.getItem(RELOADED) !== chosen) {
    sessionStorage.setItem(RELOADED, chosen);
    location.reload();
  }
} else {
  sessionStorage.removeItem(RELOADED);
}

const select = document.getElementById("language");
if (select) {
  select.value = lang;
  select.addEventListener("change", () => {
    savePrefs({ language: select.value });
    remember(select.value);
    location.reload();
  });
}

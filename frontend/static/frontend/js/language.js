// The language switcher (docs/translating.md). The page's language comes from the server: the
// `django_language` cookie, else the browser's Accept-Language. The choice made here is kept
// in the player's local preferences as well, so that a cleared cookie comes back on the next
// page, and each phone at a table keeps its own language.

import { lang } from "./i18n.js";
import { chooseLanguage, prefs, rememberLanguage } from "./store.js";

const RELOADED = "dominoes.language-reloaded";

function offered() {
  const select = document.getElementById("language");
  return select ? [...select.options].map((o) => o.value) : ["en", "es", "pt-br"];
}

// A choice kept locally that the page was not served in: say it to the server, once.
const chosen = prefs().language;
if (chosen && chosen !== lang && offered().includes(chosen)) {
  rememberLanguage(chosen);
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
  select.addEventListener("change", () => chooseLanguage(select.value));
}

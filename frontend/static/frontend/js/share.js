// The share panel: the room's absolute link, a copy button, the phone's own share sheet where
// the browser has one (Web Share API), and the QR code. One panel serves the lobby and, during
// a match, a dialog opened from the table menu: it moves into the dialog and back.

import { gettext } from "./i18n.js";

/** Copy `text`; true when it reached the clipboard. Plain-http pages have no Clipboard API. */
async function copyText(text, node) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // refused: fall back to copying the selection
  }
  const range = document.createRange();
  range.selectNodeContents(node);
  const selection = getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}

export function setupShare({ link, panel, home, dialog, opener, returnTo = opener, title }) {
  const linkNode = panel.querySelector("#room-link");
  const said = panel.querySelector("#copied");
  panel.querySelector("#copy-link").addEventListener("click", async () => {
    said.textContent = "";
    said.textContent = (await copyText(link, linkNode)) ? gettext("Copied: paste it into a message.")
      : gettext("The link is selected: copy it with your phone's Copy (or Ctrl+C).");
  });
  const native = panel.querySelector("#share-native");
  if (typeof navigator.share === "function") {
    native.hidden = false;
    native.addEventListener("click", async () => {
      try {
        await navigator.share({ title: title(), text: gettext("Come and play dominoes with us:"), url: link });
      } catch (err) {
        if (err.name !== "AbortError") said.textContent = gettext("Sharing did not work here: copy the link instead.");
      }
    });
  }
  const body = dialog.querySelector(".dialog-body");
  opener.addEventListener("click", () => {
    said.textContent = "";
    opener.closest("dialog")?.close(); // opened from the table menu: the menu gives way
    body.append(panel);
    dialog.showModal();
  });
  dialog.addEventListener("close", () => {
    home.append(panel);
    returnTo.focus();
  });
}

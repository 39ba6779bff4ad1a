// The lobby's seats, before the match. The host arranges the table: tap a player or AI, then
// another seat, and the two swap; each seat without a player is left open or given an AI; a
// player can be removed. A seated player can leave or move to an open seat; a visitor can sit
// in a chosen open seat. In partnership games the seats are drawn as their teams.

import { h, playerName, seatBadges } from "./table/common.js";
import { formatNumber, gettext, interpolate, ngettext, pgettext } from "./i18n.js";

const LEVELS = ["easy", "medium", "hard"];
/** The AI levels' buttons, and an AI's name on a seat. */
const LEVEL_WORDS = { easy: pgettext("AI level", "Easy"), medium: pgettext("AI level", "Medium"), hard: pgettext("AI level", "Hard") };
const AI_NAMES = { easy: gettext("Easy AI"), medium: gettext("Medium AI"), hard: gettext("Hard AI") };

/** Who is looking: "host", "seated", "visitor" (may sit down) or "watcher". */
export function lobbyRole(ctx) {
  const room = ctx.room;
  if (room.playing) return "watcher";
  if (ctx.token && ctx.seat !== null) return ctx.isHost ? "host" : "seated";
  if (!room.started && room.seats.some((s) => s.free)) return "visitor";
  return "watcher";
}

export const seatLabel = (n) => interpolate(gettext("Seat %(number)s"), { number: formatNumber(n + 1) });

export function seatShownName(s) {
  if (s.free) return gettext("Open seat");
  return playerName(s, s.seat);
}

// Translators: the end of a list, e.g. "1, 3 and 5" (the items before are joined by ", ").
const list = (items) => (items.length < 2 ? items.join("")
  : interpolate(gettext("%(items)s and %(last)s"), { items: items.slice(0, -1).join(", "), last: items.at(-1) }));

function button(key, text, onclick, attrs = {}) {
  return h("button", { type: "button", "data-key": key, onclick, text, ...attrs });
}

function seatRow(ctx, s, on, role) {
  const room = ctx.room;
  const n = s.seat;
  const selected = role === "host" && ctx.selected === n;
  const label = [h("span", { class: "seat-no", id: `seat-no-${n}`, text: seatLabel(n) }), h("span", { class: "who", text: seatShownName(s) })];
  const head = role === "host"
    ? h("button", { type: "button", class: "seat-pick", "data-key": `pick-${n}`, "aria-pressed": selected ? "true" : "false",
      "aria-describedby": "seats-help", onclick: () => on.pick(n) }, ...label)
    : h("span", { class: "seat-label" }, ...label);
  const badges = seatBadges(ctx, s);
  if (selected) badges.unshift(h("span", { class: "badge selected", text: gettext("selected: tap a seat to swap") }));
  const actions = [];
  if (role === "host" && n !== room.host_seat) {
    if (s.human) {
      if (ctx.confirmRemove === n) {
        actions.push(
          h("span", { class: "confirm-text", text: interpolate(gettext("Remove %(name)s from the table?"), { name: s.name }) }),
          button(`remove-yes-${n}`, interpolate(gettext("Yes, remove %(name)s"), { name: s.name }), () => on.remove(n),
            { class: "danger", "data-action": "remove-yes" }),
          // Translators: keep a player at the table (the answer to "Remove Ann from the table?").
          button(`remove-no-${n}`, gettext("Keep"), () => on.confirmRemove(null), { "data-action": "remove-no" }),
        );
      } else {
        actions.push(button(`remove-${n}`, gettext("Remove"), () => on.confirmRemove(n),
          { "data-action": "remove",
            "aria-label": interpolate(gettext("Remove %(name)s from seat %(number)s"), { name: s.name, number: formatNumber(n + 1) }) }));
      }
    } else {
      actions.push(
        h("span", { class: "choices-label", id: `choices-${n}`, text: gettext("Leave it open for a player, or put an AI here:") }),
        h("div", { class: "choices", role: "group", "aria-labelledby": `seat-no-${n} choices-${n}` },
          // Translators: a button that leaves a seat open for a player (beside the AI levels).
          button(`open-${n}`, pgettext("seat", "Open"), () => on.setAI(n, null),
            { "data-level": "open", "aria-pressed": s.free ? "true" : "false" }),
          ...LEVELS.map((level) => button(`level-${n}-${level}`, LEVEL_WORDS[level], () => on.setAI(n, level),
            { "data-level": level, "aria-pressed": s.ai === level ? "true" : "false",
              "aria-label": AI_NAMES[level] }))));
    }
  } else if (role === "seated") {
    if (n === ctx.seat && n !== room.host_seat) {
      actions.push(button(`leave-${n}`, gettext("Leave this seat"), () => on.leave(), { "data-action": "leave" }));
    } else if (s.free) {
      actions.push(button(`move-${n}`, gettext("Move here"), () => on.moveTo(n),
        { "data-action": "move", "aria-label": interpolate(gettext("Move here, to seat %(number)s"), { number: formatNumber(n + 1) }) }));
    }
  } else if (role === "visitor" && s.free) {
    actions.push(button(`sit-${n}`, gettext("Sit here"), () => on.sit(n),
      { class: "primary", "data-action": "sit", "aria-label": interpolate(gettext("Sit here, in seat %(number)s"), { number: formatNumber(n + 1) }) }));
  }
  return h("li", { class: `seat${s.free ? " free" : ""}${selected ? " selected" : ""}`, "data-seat": n },
    h("div", { class: "seat-main" }, head, h("span", { class: "badges" }, ...badges)),
    actions.length ? h("div", { class: "seat-actions" }, ...actions) : null);
}

/**
 * Draw the seats into `box` (one list, or a list per team) and keep the keyboard focus on the
 * same control across the redraw; `ctx.focusKey` moves it on purpose (e.g. to a confirmation).
 */
export function renderLobbySeats(ctx, box, on) {
  const room = ctx.room;
  const role = lobbyRole(ctx);
  const active = box.contains(document.activeElement) ? document.activeElement.dataset.key : null;
  const rows = new Map(room.seats.map((s) => [s.seat, seatRow(ctx, s, on, role)]));
  const teams = Array.isArray(room.teams) && room.teams.length ? room.teams : null;
  const drawn = teams
    ? teams.map((members, i) => h("section", { class: "team", "aria-labelledby": `team-${i}` },
      h("h3", { id: `team-${i}` }, interpolate(gettext("Team %(number)s"), { number: formatNumber(i + 1) }),
        h("span", { class: "team-seats",
          text: ` · ${interpolate(gettext("seats %(numbers)s"), { numbers: list(members.map((m) => formatNumber(m + 1))) })}` })),
      h("ul", { class: "seats" }, ...members.map((m) => rows.get(m)))))
    : [h("ol", { class: "seats", "aria-labelledby": "seats-title" }, ...rows.values())];
  // Frames that change nothing here (a ping's answer, another seat's presence) leave the
  // buttons in place: a tap landing while its button is swapped for an identical one is lost.
  const html = drawn.map((node) => node.outerHTML).join("");
  if (box._drawn === html && !ctx.focusKey) return role;
  box._drawn = html;
  box.replaceChildren(...drawn);
  const key = ctx.focusKey || active;
  ctx.focusKey = null;
  if (key) {
    const target = box.querySelector(`[data-key="${key}"]`)
      || box.querySelector(`li[data-seat="${key.match(/\d+/)?.[0]}"] button`);
    target?.focus();
  }
  return role;
}

/** The line under the seats: what is going on and what this person can do now. */
export function lobbyStatus(ctx, role) {
  const room = ctx.room;
  const free = room.seats.filter((s) => s.free).length;
  const count = { count: formatNumber(free) };
  if (room.playing) return gettext("The match is on.");
  if (role === "host") {
    if (ctx.selected !== null && room.seats[ctx.selected]) {
      const s = room.seats[ctx.selected];
      return interpolate(gettext("%(seat)s is selected: tap another seat to swap, or tap it again to cancel."),
        { seat: s.free ? seatLabel(s.seat) : seatShownName(s) });
    }
    return free ? interpolate(ngettext(
      "%(count)s seat is open: send the link, or put an AI in it. Start once every seat is filled.",
      "%(count)s seats are open: send the link, or put AIs in them. Start once every seat is filled.", free), count)
      : gettext("Every seat is filled: start when you are ready.");
  }
  if (role === "seated") {
    return free ? interpolate(ngettext(
      "%(count)s seat is open. The host starts the match once every seat is filled.",
      "%(count)s seats are open. The host starts the match once every seat is filled.", free), count)
      : gettext("Every seat is filled: waiting for the host to start.");
  }
  if (role === "visitor") {
    return interpolate(ngettext("%(count)s seat is open: type your name and take a seat.",
      "%(count)s seats are open: type your name and take a seat.", free), count);
  }
  return "";
}

/** The hint above the seats: how to arrange them, for those who can. */
export function seatsHelp(role) {
  if (role === "host") return gettext("To arrange the table, tap a player or AI, then the seat to put them in: the two swap.");
  // Translators: “Move here” is the label of the button beside each open seat.
  if (role === "seated") return gettext("You can move to an open seat with “Move here”.");
  return "";
}

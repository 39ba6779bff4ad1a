// The lobby's seats, before the match. The host arranges the table: tap a player or AI, then
// another seat, and the two swap; each seat without a player is left open or given an AI; a
// player can be removed. A seated player can leave or move to an open seat; a visitor can sit
// in a chosen open seat. In partnership games the seats are drawn as their teams.

import { h, cap, seatBadges } from "./table/common.js";

const LEVELS = ["easy", "medium", "hard"];

/** Who is looking: "host", "seated", "visitor" (may sit down) or "watcher". */
export function lobbyRole(ctx) {
  const room = ctx.room;
  if (room.playing) return "watcher";
  if (ctx.token && ctx.seat !== null) return ctx.isHost ? "host" : "seated";
  if (!room.started && room.seats.some((s) => s.free)) return "visitor";
  return "watcher";
}

export const seatLabel = (n) => `Seat ${n + 1}`;

export function seatShownName(s) {
  if (s.free) return "Open seat";
  return s.name || (s.ai ? `${cap(s.ai)} AI` : seatLabel(s.seat));
}

const list = (items) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

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
  if (selected) badges.unshift(h("span", { class: "badge selected", text: "selected: tap a seat to swap" }));
  const actions = [];
  if (role === "host" && n !== room.host_seat) {
    if (s.human) {
      if (ctx.confirmRemove === n) {
        actions.push(
          h("span", { class: "confirm-text", text: `Remove ${s.name} from the table?` }),
          button(`remove-yes-${n}`, `Yes, remove ${s.name}`, () => on.remove(n), { class: "danger", "data-action": "remove-yes" }),
          button(`remove-no-${n}`, "Keep", () => on.confirmRemove(null), { "data-action": "remove-no" }),
        );
      } else {
        actions.push(button(`remove-${n}`, "Remove", () => on.confirmRemove(n),
          { "data-action": "remove", "aria-label": `Remove ${s.name} from ${seatLabel(n).toLowerCase()}` }));
      }
    } else {
      actions.push(
        h("span", { class: "choices-label", id: `choices-${n}`, text: "Leave it open for a player, or put an AI here:" }),
        h("div", { class: "choices", role: "group", "aria-labelledby": `seat-no-${n} choices-${n}` },
          button(`open-${n}`, "Open", () => on.setAI(n, null), { "data-level": "open", "aria-pressed": s.free ? "true" : "false" }),
          ...LEVELS.map((level) => button(`level-${n}-${level}`, cap(level), () => on.setAI(n, level),
            { "data-level": level, "aria-pressed": s.ai === level ? "true" : "false",
              "aria-label": `${cap(level)} AI` }))));
    }
  } else if (role === "seated") {
    if (n === ctx.seat && n !== room.host_seat) {
      actions.push(button(`leave-${n}`, "Leave this seat", () => on.leave(), { "data-action": "leave" }));
    } else if (s.free) {
      actions.push(button(`move-${n}`, "Move here", () => on.moveTo(n),
        { "data-action": "move", "aria-label": `Move here, to ${seatLabel(n).toLowerCase()}` }));
    }
  } else if (role === "visitor" && s.free) {
    actions.push(button(`sit-${n}`, "Sit here", () => on.sit(n),
      { class: "primary", "data-action": "sit", "aria-label": `Sit here, in ${seatLabel(n).toLowerCase()}` }));
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
      h("h3", { id: `team-${i}` }, `Team ${i + 1}`,
        h("span", { class: "team-seats", text: ` · seats ${list(members.map((m) => String(m + 1)))}` })),
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
  const seats = `${free} seat${free === 1 ? " is" : "s are"} open`;
  if (room.playing) return "The match is on.";
  if (role === "host") {
    if (ctx.selected !== null && room.seats[ctx.selected]) {
      const s = room.seats[ctx.selected];
      return `${s.free ? seatLabel(s.seat) : seatShownName(s)} is selected: tap another seat to swap, or tap it again to cancel.`;
    }
    return free ? `${seats}: send the link, or put AIs in them. Start once every seat is filled.`
      : "Every seat is filled: start when you are ready.";
  }
  if (role === "seated") return free ? `${seats}. The host starts the match once every seat is filled.`
    : "Every seat is filled: waiting for the host to start.";
  if (role === "visitor") return `${seats}: type your name and take a seat.`;
  return "";
}

/** The hint above the seats: how to arrange them, for those who can. */
export function seatsHelp(role) {
  if (role === "host") return "To arrange the table, tap a player or AI, then the seat to put them in: the two swap.";
  if (role === "seated") return "You can move to an open seat with \u201cMove here\u201d.";
  return "";
}

// The REST calls of docs/protocol.md. Errors come back as Error objects whose message is for people
// (the API words its refusals in the page's language, as the request's cookie says).

import { gettext, interpolate } from "./i18n.js";

async function call(method, url, body, token) {
  const headers = { "Content-Type": "application/json", Accept: "application/json, application/problem+json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    const err = new Error(gettext("The server cannot be reached. Check the connection and try again."));
    err.offline = true; // the page's connection line already says it is reconnecting
    throw err;
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = new Error(describe(data) || interpolate(gettext("The server refused (%(status)s)."), { status: response.status }));
    err.status = response.status;
    err.data = data;
    throw err;
  }
  return data;
}

/**
 * The words in a refusal: the API answers every error as a problem (RFC 9457, docs/api.md),
 * `{"type", "title", "status", "detail", "code", "errors"?}`, where `errors` lists each field's
 * mistake as `{"field", "code", "detail"}`. Anything else (a proxy's page) gives its text.
 */
export function describe(data) {
  if (!data) return "";
  if (typeof data === "string") return data;
  if (Array.isArray(data.errors) && data.errors.length) {
    return data.errors.map((e) => (e.field && e.field !== "body" ? `${fieldLabel(e.field)}: ${e.detail}` : e.detail)).join("; ");
  }
  if (typeof data.detail === "string") return data.detail;
  return data.title || "";
}

/** A field as people read it: "options.hand_size" is "hand size". */
function fieldLabel(field) {
  return field.replace(/^options\./, "").replaceAll("_", " ");
}

export const createRoom = (body) => call("POST", "/api/rooms/", body);
export const getRoom = (code, token) => call("GET", `/api/rooms/${code}/`, undefined, token);
/** The host changes the room between matches: `{"grace_seconds": n}`, `{"turn_seconds": n|null}`. */
export const updateRoom = (code, changes, token) => call("PATCH", `/api/rooms/${code}/`, changes, token);
/** A visitor sits down: in seat `seat` when given, else in the first free one. */
export const takeSeat = (code, name, seat) =>
  call("POST", `/api/rooms/${code}/seats/`, seat === undefined || seat === null ? { name } : { name, seat });
/** The host puts an AI of `level` in a seat, or opens it for a player again (`level` null). */
export const setSeatAI = (code, seat, level, token) =>
  call("PATCH", `/api/rooms/${code}/seats/${seat}/`, { ai: level }, token);
/** Swap what two seats hold (host), or move one's own player to a free seat. */
export const moveSeat = (code, seat, to, token) =>
  call("PATCH", `/api/rooms/${code}/seats/${seat}/`, { move_to: to }, token);
/** The host removes a player or an AI; with the seat's own token, the player leaves. */
export const freeSeat = (code, seat, token) => call("DELETE", `/api/rooms/${code}/seats/${seat}/`, undefined, token);
export const startMatch = (code, token) => call("POST", `/api/rooms/${code}/start/`, {}, token);
export const rematch = (code, token) => call("POST", `/api/rooms/${code}/rematch/`, {}, token);

// The room socket of docs/protocol.md: reconnects by itself with backoff, resyncs after a drop or a
// version gap, and resends an unacknowledged action under the same id (the server applies an
// id once, so a resend after a drop is safe).
//
// A network can go silent without closing anything (a phone's screen locks, the Wi-Fi drops):
// the browser then keeps a dead socket open for minutes. So the socket is watched: a `ping`
// every few seconds, and a connection that has answered nothing (no pong, no other frame) for
// ANSWER_MS after a ping is given up and replaced; a connection attempt that does not open within
// CONNECT_MS is given up too. Retries come at most RETRY_CAP_MS apart, so the page is back
// within a few seconds of the network (docs/protocol.md, "Staying connected").

/** How often a ping goes out on an open socket. */
export const HEARTBEAT_MS = 2500;
/** Nothing heard for this long after a ping: the socket is taken for gone. Counted from the
 * ping, not from the last frame, so that a background tab whose timers the browser slows down
 * is not taken for silent when its next ping is simply late. */
export const ANSWER_MS = 4000;
/** A connection attempt that has not opened after this long is given up. */
export const CONNECT_MS = 3000;
/** The longest wait between two attempts (before jitter). */
export const RETRY_CAP_MS = 1500;

let counter = 0;
export function actionId() {
  counter += 1;
  const rand = crypto.getRandomValues(new Uint32Array(2));
  return `a${Date.now().toString(36)}-${rand[0].toString(36)}${rand[1].toString(36)}-${counter}`;
}

/**
 * Close codes that are the server's final answer (docs/protocol.md): reconnecting would be
 * refused the same way, so the page says why instead. 1011 and a dropped connection retry.
 */
export const FINAL_CLOSES = [4000, 4003, 4008, 4401, 4404, 4409, 4429];

export class RoomSocket {
  constructor(code, token, handlers) {
    this.code = code;
    this.token = token;
    this.handlers = handlers;
    this.version = -1;
    this.pending = new Map();
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    this.retryTimer = null;
    this.beatTimer = null;
    this.openTimer = null;
    this.asked = 0; // when the oldest ping not yet answered by any frame went out (0: none)
    // The browser knows sooner than any heartbeat that the device went offline or came back.
    window.addEventListener("offline", () => this.ws && this.drop("the device went offline")); // i18n: not shown (a reason for the log)
    window.addEventListener("online", () => {
      if (!this.closed && !this.ws) this.connect();
    });
  }

  /** The actions sent but not yet acknowledged or refused, oldest first: shown as pending. */
  pendingActions() {
    return [...this.pending.values()].map((p) => p.action);
  }

  /** Is the socket open and not waiting too long for an answer? */
  isLive() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN && (!this.asked || Date.now() - this.asked <= ANSWER_MS);
  }

  stopTimers() {
    clearTimeout(this.retryTimer);
    clearTimeout(this.openTimer);
    clearInterval(this.beatTimer);
    this.beatTimer = null;
  }

  /** Give up the current connection (silent, or never opened) and try again soon: its late
   * events are ignored, as for any replaced connection. */
  drop(reason) {
    const ws = this.ws;
    this.ws = null;
    this.stopTimers();
    try {
      ws?.close();
    } catch {
      // Closing a socket that never opened can throw in some browsers; it is given up anyway.
    }
    if (this.closed) return;
    this.retry(1006, reason);
  }

  retry(code, reason) {
    this.attempt += 1;
    const delay = Math.min(RETRY_CAP_MS, 300 * 2 ** Math.min(this.attempt - 1, 5)) * (0.75 + Math.random() / 2);
    this.handlers.status?.("down", this.attempt, false, code, reason, delay);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${scheme}://${location.host}/ws/rooms/${this.code}/${q}`;
  }

  connect() {
    this.closed = false;
    this.stopTimers();
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.handlers.status?.("connecting", this.attempt);
    this.openTimer = setTimeout(() => {
      if (this.ws === ws && ws.readyState !== WebSocket.OPEN) this.drop("the connection did not open"); // i18n: not shown (a reason for the log)
    }, CONNECT_MS);
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      clearTimeout(this.openTimer);
      const wasRetry = this.attempt > 0;
      this.attempt = 0;
      this.asked = 0;
      this.beatTimer = setInterval(() => this.beat(ws), HEARTBEAT_MS);
      // The server sends welcome, room and state on every connect: no sync needed here,
      // and none spent from the server's small allowance of them.
      this.handlers.status?.("open", 0, wasRetry);
      for (const [id, msg] of this.pending) this.send({ type: "action", id, action: msg.action, version: msg.version });
    });
    ws.addEventListener("message", (e) => {
      if (this.ws !== ws) return; // a replaced connection's last frames are stale
      this.asked = 0;
      this.receive(e.data);
    });
    ws.addEventListener("close", (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopTimers();
      if (this.closed) return;
      if (FINAL_CLOSES.includes(e.code)) {
        this.handlers.status?.("refused", 0, false, e.code, e.reason);
        return;
      }
      this.retry(e.code, e.reason);
    });
  }

  /** One heartbeat: give the connection up when it has been silent too long, else ping it. */
  beat(ws) {
    if (this.ws !== ws) return;
    const now = Date.now();
    if (this.asked && now - this.asked > ANSWER_MS) {
      this.drop("no answer from the server"); // i18n: not shown (a reason for the log)
      return;
    }
    if (!this.asked) this.asked = now;
    this.send({ type: "ping" });
  }

  /** A fresh connection, counting versions from scratch (a rematch restarts them at 0). */
  reopen() {
    this.version = -1;
    this.over = false;
    const old = this.ws;
    this.ws = null;
    old?.close();
    this.connect();
  }

  close() {
    this.closed = true;
    this.stopTimers();
    this.ws?.close();
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /**
   * Send an action with a fresh id and the version it was chosen on (so it cannot land on a
   * different position); it is resent on reconnect until acknowledged or refused.
   */
  act(action) {
    const id = actionId();
    const version = this.version >= 0 ? this.version : undefined;
    this.pending.set(id, { action, version });
    this.send({ type: "action", id, action, version });
    return id;
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    switch (msg.type) {
      case "state": {
        // A rematch starts again from version 0, after a view whose match was over.
        const wasOver = this.over;
        if (msg.version < this.version && !wasOver) return;
        this.over = !!msg.view?.match_over;
        if (this.version >= 0 && msg.version > this.version + 1 && !wasOver) {
          // A gap: a state was lost on the way. Show this one, and ask for the current one.
          this.send({ type: "sync" });
        }
        this.version = msg.version;
        this.handlers.state?.(msg);
        break;
      }
      case "ack":
        this.pending.delete(msg.id);
        this.handlers.ack?.(msg);
        break;
      case "pong":
        break;
      case "error":
        if (msg.id) this.pending.delete(msg.id);
        this.handlers.error?.(msg);
        break;
      default:
        this.handlers[msg.type]?.(msg);
    }
  }
}

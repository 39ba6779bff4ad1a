// The room socket of docs/protocol.md: reconnects by itself with backoff, resyncs after a drop or a
// version gap, and resends an unacknowledged action under the same id (the server applies an
// id once, so a resend after a drop is safe).

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
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${scheme}://${location.host}/ws/rooms/${this.code}/${q}`;
  }

  connect() {
    this.closed = false;
    clearTimeout(this.retryTimer);
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.handlers.status?.("connecting", this.attempt);
    ws.addEventListener("open", () => {
      const wasRetry = this.attempt > 0;
      this.attempt = 0;
      // The server sends welcome, room and state on every connect: no sync needed here,
      // and none spent from the server's small allowance of them.
      this.handlers.status?.("open", 0, wasRetry);
      for (const [id, msg] of this.pending) this.send({ type: "action", id, action: msg.action, version: msg.version });
    });
    ws.addEventListener("message", (e) => {
      if (this.ws === ws) this.receive(e.data); // a replaced connection's last frames are stale
    });
    ws.addEventListener("close", (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (FINAL_CLOSES.includes(e.code)) {
        this.handlers.status?.("refused", 0, false, e.code, e.reason);
        return;
      }
      this.attempt += 1;
      const delay = Math.min(10000, 400 * 2 ** Math.min(this.attempt - 1, 5)) * (0.75 + Math.random() / 2);
      this.handlers.status?.("down", this.attempt, false, e.code, e.reason, delay);
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
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
    clearTimeout(this.retryTimer);
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
      case "error":
        if (msg.id) this.pending.delete(msg.id);
        this.handlers.error?.(msg);
        break;
      default:
        this.handlers[msg.type]?.(msg);
    }
  }
}

// The WebSocket of docs/protocol.md: one connection, reconnected with a back-off when it drops.
// The server's clock offset is estimated from welcome and pong (server_time).

export class Connection {
  constructor({ onMessage, onOpen, onStatus }) {
    this.onMessage = onMessage;
    this.onOpen = onOpen;
    this.onStatus = onStatus || (() => {});
    this.socket = null;
    this.closed = false;
    this.retries = 0;
    this.offset = 0; // local seconds minus server seconds
    this.pinger = null;
  }

  connect() {
    this.closed = false;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws`);
    this.socket = socket;
    this.onStatus("connecting");
    socket.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "welcome") {
        this.retries = 0;
        this.noteServerTime(message.server_time);
        this.onStatus("open");
        this.onOpen(message);
        return;
      }
      if (message.type === "pong") {
        this.noteServerTime(message.server_time);
        return;
      }
      this.onMessage(message);
    };
    socket.onclose = (event) => {
      clearInterval(this.pinger);
      if (this.socket !== socket) return;
      this.socket = null;
      if (event.code === 4401) {
        this.onStatus("unauthenticated");
        return;
      }
      if (this.closed) return;
      this.onStatus("reconnecting");
      const delay = Math.min(8000, 500 * 2 ** this.retries++);
      setTimeout(() => {
        if (!this.closed) this.connect();
      }, delay);
    };
    clearInterval(this.pinger);
    this.pinger = setInterval(() => this.send({ type: "ping", t: Date.now() / 1000 }), 20000);
  }

  noteServerTime(serverTime) {
    if (typeof serverTime === "number") this.offset = Date.now() / 1000 - serverTime;
  }

  /** The server's present time, in its seconds. */
  serverNow() {
    return Date.now() / 1000 - this.offset;
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closed = true;
    clearInterval(this.pinger);
    if (this.socket) this.socket.close();
    this.socket = null;
  }
}

// The room timer, /?timer=EVENING_ID: made to be projected in the room (no login needed). It
// shows the game being played with its time left, the break after two games, and the end of
// the evening. The server says where the evening is (GET /api/club/evenings/ID/timer, asked
// every few seconds); between two answers the page counts down by itself, corrected by the
// difference between the server's clock and this one.

import { clubApi } from "./clubapi.js";
import { formatClock, h, replace } from "./dom.js";
import { t } from "./i18n.js";

const POLL_MS = 5000;
const TICK_MS = 250;

export class TimerScreen {
  constructor(app, ctx, eveningId) {
    this.app = app;
    this.ctx = ctx;
    this.eveningId = eveningId;
    this.state = null;
    this.offset = 0;
    this.error = "";
  }

  mount() {
    this.root = h("div", { class: "timer-screen", dataset: { phase: "loading" } });
    replace(this.app, this.root);
    this.onFullscreen = () => this.render();
    document.addEventListener("fullscreenchange", this.onFullscreen);
    this.render();
    this.refresh();
    this.poll = setInterval(() => this.refresh(), POLL_MS);
    this.tick = setInterval(() => this.update(), TICK_MS);
  }

  destroy() {
    clearInterval(this.poll);
    clearInterval(this.tick);
    document.removeEventListener("fullscreenchange", this.onFullscreen);
  }

  async refresh() {
    try {
      const state = await clubApi.timer(this.eveningId);
      this.offset = state.server_time * 1000 - Date.now();
      this.state = state;
      this.error = "";
    } catch (error) {
      this.error = error.status === 404 ? t("club.timer.unknown") : t("club.timer.offline");
    }
    this.render();
  }

  secondsLeft() {
    const s = this.state;
    if (!s || !s.ends_at || (s.phase !== "playing" && s.phase !== "break")) return 0;
    return Math.max(0, (Date.parse(s.ends_at) - (Date.now() + this.offset)) / 1000);
  }

  toggleFullscreen() {
    if (document.fullscreenElement) document.exitFullscreen();
    else if (this.root.requestFullscreen) this.root.requestFullscreen().catch(() => {});
  }

  render() {
    const s = this.state;
    const phase = s ? s.phase : "loading";
    this.root.dataset.phase = phase;
    let heading = "";
    let below = "";
    if (s) {
      if (phase === "waiting") heading = t("club.timer.waiting", { n: s.game, of: s.games });
      else if (phase === "break") heading = t("club.timer.break");
      else if (phase === "finished") heading = t("club.timer.finished");
      else heading = t("club.timer.game", { n: s.game, of: s.games });
      if (phase === "over") below = t("club.timer.over");
      else if (phase === "break") below = t("club.timer.break.hint");
      else if (phase === "playing") below = t("club.timer.minutes", { minutes: s.minutes });
    }
    const showClock = phase === "playing" || phase === "break";
    replace(this.root,
      h("div", { class: "timer-top" },
        h("span", { class: "timer-brand", text: "Burraco" }),
        s ? h("span", { class: "timer-title", dataset: { timerTitle: "" }, text: `${s.club} · ${t("club.timer.title", { n: s.number, date: s.date.split("-").reverse().join("/") })} · ${t(`club.type.${s.type}`)}` }) : null,
        h("span", { class: "spacer" }),
        h("button", { type: "button", class: "btn small ghost", dataset: { cmd: "fullscreen" }, onclick: () => this.toggleFullscreen(),
          text: document.fullscreenElement ? t("club.timer.exit_fullscreen") : t("club.timer.fullscreen") }),
        h("button", { type: "button", class: "lang-btn", title: t("lang.switch.title"), onclick: () => this.ctx.toggleLanguage() }, t("lang.switch")),
      ),
      h("div", { class: "timer-main" },
        h("div", { class: "timer-heading", dataset: { timerHeading: "" }, text: s ? heading : t("app.loading") }),
        h("div", { class: "timer-clock", dataset: { timerClock: "" }, text: showClock ? formatClock(this.secondsLeft()) : (phase === "over" || phase === "finished" ? "0:00" : "") }),
        h("div", { class: "timer-below", text: below }),
        this.error ? h("div", { class: "timer-error", role: "alert", text: this.error }) : null,
      ),
      s ? h("div", { class: "timer-games" }, Array.from({ length: s.games }, (_, i) => i + 1).map((n) =>
        h("span", { class: `timer-dot${n < s.game || (n === s.game && (phase === "over" || phase === "break" || phase === "finished")) ? " done" : ""}${n === s.game && phase === "playing" ? " now" : ""}`, text: String(n) }))) : null,
    );
    this.clockEl = this.root.querySelector("[data-timer-clock]");
  }

  update() {
    const s = this.state;
    if (!s || !this.clockEl || (s.phase !== "playing" && s.phase !== "break")) return;
    const left = this.secondsLeft();
    this.clockEl.textContent = formatClock(left);
    this.root.classList.toggle("last-minutes", s.phase === "playing" && left <= 300);
    if (left <= 0 && !this.expired) {
      // Time is up: ask the server what comes next (over, break, finished).
      this.expired = true;
      setTimeout(() => this.refresh().then(() => { this.expired = false; }), 1000);
    }
  }
}

// Quick play in the lobby (issue 16; docs/quickplay.md): choose the table (players, rules,
// time, rated or casual, bots after a wait, a partner for 4), then wait while the server looks
// for players of similar rating; when a table is found the page goes to it. The state lives on
// the server (GET /api/quickplay), so a reload while waiting shows the wait again.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { errorWords as errorText, has, t } from "./i18n.js";

const CLOCKS = ["none", "10", "25"];
const BOT_WAITS = [null, 15, 30, 60];
const POLL_MS = 1500;

export class QuickPlayPanel {
  constructor(ctx) {
    this.ctx = ctx;
    this.form = { players: 2, rules: "italian", clock: "none", rated: !ctx.user.guest, botsAfter: 30, partner: "" };
    this.state = { status: "idle" };
    this.message = "";
    this.since = null;
    // Bumped by every join and leave: a poll that was in flight across one answers with a
    // state that is no longer true (a stale "waiting" after a leave) and is dropped.
    this.epoch = 0;
    this.root = h("section", { class: "panel quickplay", "aria-labelledby": "qp-title" });
  }

  el() {
    this.render();
    this.poll();
    return this.root;
  }

  destroy() {
    this.gone = true;
    clearTimeout(this.timer);
  }

  async poll() {
    if (this.gone || !this.ctx.user) return;
    const epoch = this.epoch;
    try {
      const state = await api.quickplayStatus();
      if (epoch !== this.epoch) return; // a join or leave came meanwhile: its own chain goes on
      this.update(state);
    } catch {
      // The next poll tries again; the lobby's own lists say when the server is away.
    }
    if (epoch === this.epoch) this.schedule();
  }

  schedule() {
    clearTimeout(this.timer);
    if (this.state.status === "waiting" || this.state.status === "partner") {
      this.timer = setTimeout(() => this.poll(), POLL_MS);
    }
  }

  update(state) {
    if (this.gone) return;
    if (state.status === "seated" && this.state.status !== "idle") {
      this.ctx.navigate(`/?table=${encodeURIComponent(state.table)}`);
      return;
    }
    if ((state.status === "waiting" || state.status === "partner") && this.since === null) this.since = Date.now();
    if (state.status === "idle" || state.status === "seated") this.since = null;
    this.state = state.status === "seated" ? { status: "idle" } : state;
    this.render();
  }

  read(form) {
    const data = new FormData(form);
    this.form.players = Number(data.get("qp-players")) || 2;
    this.form.rules = String(data.get("qp-rules") || "italian");
    this.form.clock = String(data.get("qp-clock") || "none");
    this.form.rated = data.get("qp-rated") !== null && !this.ctx.user.guest;
    const wait = String(data.get("qp-bots") || "");
    this.form.botsAfter = wait ? Number(wait) : null;
    this.form.partner = String(data.get("qp-partner") || "").trim();
  }

  async join() {
    const f = this.form;
    const body = { players: f.players, rules: f.rules, clock: f.clock, rated: f.rated, bots_after: f.botsAfter };
    if (f.players === 4 && f.partner) body.partner = f.partner;
    this.message = "";
    this.epoch += 1;
    clearTimeout(this.timer);
    try {
      const state = await api.quickplayJoin(body);
      this.state = { status: "asked" };
      this.update(state);
      this.schedule();
    } catch (error) {
      this.message = errorText(error);
      this.render();
    }
  }

  async leave() {
    this.epoch += 1;
    clearTimeout(this.timer);
    try {
      this.update(await api.quickplayLeave());
    } catch (error) {
      this.message = errorText(error);
      this.render();
    }
  }

  render() {
    const waiting = this.state.status === "waiting" || this.state.status === "partner";
    const shown = this.root.querySelector(".qp-waiting");
    if (waiting && shown && shown.dataset.qp === this.state.status) {
      // Still waiting: new words in place, so the focus (on "cancel") stays where it is.
      const fresh = this.waitingView();
      shown.querySelector(".qp-status").textContent = fresh.querySelector(".qp-status").textContent;
      shown.querySelector(".muted").textContent = fresh.querySelector(".muted").textContent;
      return;
    }
    const body = waiting ? this.waitingView() : this.formView();
    replace(this.root, h("h2", { id: "qp-title", text: t("qp.title") }), body,
      h("p", { class: "form-error", role: "alert", text: this.message }));
  }

  waitingView() {
    const q = this.state.queue || {};
    const seconds = this.since === null ? 0 : Math.floor((Date.now() - this.since) / 1000);
    const text = this.state.status === "partner"
      ? t("qp.partner_wait", { name: this.form.partner })
      : t("qp.waiting", { n: this.state.waiting ?? 1 });
    return h("div", { class: "qp-waiting", dataset: { qp: this.state.status } },
      h("p", { class: "qp-status", role: "status", text }),
      h("p", { class: "muted", text: t("qp.queue", { players: q.players ?? this.form.players, seconds }) }),
      h("button", { type: "button", class: "btn", dataset: { cmd: "qp-leave" }, onclick: () => this.leave(), text: t("qp.cancel") }),
    );
  }

  formView() {
    const f = this.form;
    const presets = this.ctx.info ? this.ctx.info.presets : ["italian"];
    const guest = !this.ctx.user || this.ctx.user.guest;
    const form = h("form", { class: "qp-form" },
      h("fieldset", { class: "radios" }, h("legend", { text: t("create.players") }),
        [2, 3, 4].map((n) => h("label", {}, h("input", { type: "radio", name: "qp-players", value: String(n), checked: f.players === n }), t("cfg.players", { n })))),
      h("label", { class: "field" }, h("span", { text: t("create.rules") }),
        h("select", { name: "qp-rules" }, presets.map((p) => h("option", { value: p, selected: p === f.rules, text: has(`preset.${p}`) ? t(`preset.${p}`) : p })))),
      h("label", { class: "field" }, h("span", { text: t("create.clock") }),
        h("select", { name: "qp-clock" }, CLOCKS.map((c) => h("option", { value: c, selected: c === f.clock, text: t(`qp.clock.${c}`) })))),
      h("label", { class: "field" }, h("span", { text: t("qp.bots") }),
        h("select", { name: "qp-bots" }, BOT_WAITS.map((s) => h("option", { value: s === null ? "" : String(s), selected: s === f.botsAfter, text: s === null ? t("qp.bots.never") : t("qp.bots.after", { s }) })))),
      f.players === 4
        ? h("label", { class: "field" }, h("span", { text: t("qp.partner") }),
          h("input", { name: "qp-partner", value: f.partner, maxlength: "32", autocomplete: "off", placeholder: t("qp.partner.placeholder") }))
        : null,
      h("label", { class: "check", title: guest ? t("create.rated.guest") : t("create.rated.hint") },
        h("input", { type: "checkbox", name: "qp-rated", checked: f.rated && !guest, disabled: guest }), t("create.rated"),
        guest ? h("small", { class: "muted field-note", text: ` ${t("create.rated.guest")}` }) : null),
      h("button", { type: "submit", class: "btn primary wide", dataset: { cmd: "qp-join" }, text: t("qp.join") }),
    );
    form.addEventListener("change", (e) => {
      this.read(form);
      if (e.target && e.target.name === "qp-players") this.render();
    });
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.read(form);
      this.join();
    });
    return form;
  }
}

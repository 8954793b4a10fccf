// The moderators' page, /?admin (docs/moderation.md): the open reports with the reported
// message and its context, a player's standing with the sanctions, the tables in play (a
// moderator may close one), the server's figures, the audit log, and (administrators) an
// announcement to every connected page. Every action goes through the API, which checks the
// role; a player sees only that the page is not for him.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { errorWords as errorText, has, momentText, t } from "./i18n.js";
import { pageHeader } from "./header.js";
import { seatName } from "./tableview.js";

/** An audit entry's action and target in the page's language ("user:Bruno" is Bruno). */
function auditAction(entry) {
  const role = entry.details && entry.details.role;
  const params = role ? { role: has(`admin.role.${role}`) ? t(`admin.role.${role}`) : role } : {};
  return has(`admin.action.${entry.action}`) ? t(`admin.action.${entry.action}`, params) : entry.action;
}

function auditTarget(target) {
  const [kind, ...rest] = String(target).split(":");
  const name = rest.join(":");
  if (kind === "user" && name) return name;
  if (kind === "table" && name) return t("admin.target.table", { id: name });
  if (kind === "report" && name) return t("admin.target.report", { id: name });
  if (target === "everyone") return t("admin.target.everyone");
  return String(target);
}

export class AdminScreen {
  constructor(app, ctx) {
    this.app = app;
    this.ctx = ctx;
    this.notice = null;
  }

  mount() {
    this.root = h("div", { class: "screen account-screen admin-screen" });
    replace(this.app, this.root);
    this.render();
    this.load();
  }

  destroy() {
    this.gone = true;
  }

  async load() {
    try {
      const [reports, audit, tables, stats] = await Promise.all([
        api.adminReports(), api.adminAudit(), api.tables(), api.serverStats()]);
      Object.assign(this, { reports, audit, tables, stats, refused: false });
    } catch (error) {
      this.refused = error && error.code === "forbidden";
      if (!this.refused) this.notice = { kind: "error", text: errorText(error) };
    }
    if (!this.gone) this.render();
  }

  async act(work, done) {
    try {
      await work();
      this.notice = { kind: "ok", text: done };
    } catch (error) {
      this.notice = { kind: "error", text: errorText(error) };
    }
    await this.load();
  }

  sanctions(name) {
    const button = (key, work) => h("button", { type: "button", class: "btn small", dataset: { sanction: key }, onclick: () => this.act(work, t("admin.done")) }, t(`admin.${key}`));
    return h("span", { class: "sanctions" },
      button("mute", () => api.adminSanction(name, "mute", { minutes: 30 })),
      button("suspend", () => api.adminSanction(name, "suspend", { days: 7 })),
      button("ban", () => api.adminSanction(name, "ban", {})),
      button("pardon", () => api.adminSanction(name, "pardon", {})));
  }

  reportsPanel() {
    if (!this.reports.length) return h("p", { class: "muted", text: t("admin.reports.none") });
    return h("ul", { class: "reports" }, this.reports.map((r) => h("li", { class: "report", dataset: { report: String(r.id) } },
      h("p", {}, h("strong", { text: r.player }), ` · ${t("admin.reported_by", { name: r.reporter || "?" })} · ${momentText(r.created_at)}`),
      h("p", { text: `${t("admin.reason")}: ${r.reason}` }),
      r.context.length ? h("ol", { class: "context" }, r.context.map((c) => h("li", { class: "muted", text: `${c.name}: ${c.text}` }))) : null,
      r.text ? h("p", { class: "reported-text" }, h("strong", { text: `${r.player}: ` }), r.text) : null,
      this.sanctions(r.player),
      h("button", {
        type: "button", class: "btn small primary", dataset: { cmd: "close-report" },
        onclick: () => {
          const resolution = prompt(t("admin.resolution")) || t("admin.resolution.default");
          this.act(() => api.adminCloseReport(r.id, resolution), t("admin.done"));
        },
      }, t("admin.close_report")))));
  }

  lookupPanel() {
    const form = h("form", { class: "account-form", dataset: { form: "lookup" } },
      h("label", { class: "field" }, h("span", { text: t("admin.player") }), h("input", { name: "name", required: true, maxlength: "32" })),
      h("button", { type: "submit", class: "btn", text: t("admin.lookup") }));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const name = String(new FormData(form).get("name") || "").trim();
      try {
        this.looked = await api.adminUser(name);
        this.notice = null;
      } catch (error) {
        this.looked = null;
        this.notice = { kind: "error", text: errorText(error) };
      }
      this.render();
    });
    const u = this.looked;
    const roles = ["player", "moderator", "admin"];
    return h("div", {}, form, u ? h("div", { class: "standing", dataset: { player: u.name } },
      h("p", { text: t("admin.standing", { name: u.name, role: t(`admin.role.${u.role}`) }) }),
      u.banned ? h("p", { class: "muted", text: t("admin.banned") }) : null,
      u.suspended_until ? h("p", { class: "muted", text: t("admin.suspended_until", { until: momentText(u.suspended_until) }) }) : null,
      u.chat_muted_until ? h("p", { class: "muted", text: t("admin.muted_until", { until: momentText(u.chat_muted_until) }) }) : null,
      this.sanctions(u.name),
      h("label", { class: "field" }, h("span", { text: t("admin.role") }),
        h("select", { name: "role", onchange: (e) => this.act(() => api.adminSanction(u.name, "role", { role: e.target.value }), t("admin.done")) },
          roles.map((r) => h("option", { value: r, selected: r === u.role, text: t(`admin.role.${r}`) })))),
    ) : null);
  }

  tablesPanel() {
    const live = this.tables.filter((table) => table.status === "playing" || table.status === "open");
    if (!live.length) return h("p", { class: "muted", text: t("admin.tables.none") });
    return h("ul", {}, live.map((table) => h("li", { dataset: { table: table.id } },
      `${table.seats.map((_, i) => seatName(table.seats, i)).join(" · ")} (${t(`status.table.${table.status}`)}) `,
      h("button", { type: "button", class: "btn small", dataset: { cmd: "close-table" }, onclick: () => this.act(() => api.adminCloseTable(table.id), t("admin.done")) }, t("admin.close_table")))));
  }

  announcePanel() {
    const form = h("form", { class: "account-form", dataset: { form: "announce" } },
      h("label", { class: "field" }, h("span", { text: t("admin.announce.text") }), h("input", { name: "text", required: true, maxlength: "500" })),
      h("button", { type: "submit", class: "btn primary", text: t("admin.announce") }));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = String(new FormData(form).get("text") || "");
      this.act(() => api.adminAnnounce(text), t("admin.announced"));
    });
    return form;
  }

  render() {
    const body = [];
    if (this.refused) body.push(h("p", { class: "notice error", role: "alert", text: t("admin.refused") }));
    else if (this.reports) {
      const s = this.stats || {};
      body.push(
        h("section", { class: "panel", dataset: { panel: "reports" } }, h("h2", { text: t("admin.reports") }), this.reportsPanel()),
        h("section", { class: "panel", dataset: { panel: "users" } }, h("h2", { text: t("admin.users") }), this.lookupPanel()),
        h("section", { class: "panel", dataset: { panel: "tables" } }, h("h2", { text: t("admin.tables") }), this.tablesPanel()),
        h("section", { class: "panel", dataset: { panel: "stats" } }, h("h2", { text: t("admin.stats") }),
          h("p", { text: t("admin.stats.line", { tables: s.tables ?? "?", connections: s.connections ?? "?" }) })),
        h("section", { class: "panel", dataset: { panel: "announce" } }, h("h2", { text: t("admin.announce") }), this.announcePanel()),
        h("section", { class: "panel", dataset: { panel: "audit" } }, h("h2", { text: t("admin.audit") }),
          h("ul", { class: "audit" }, this.audit.slice(0, 30).map((a) => h("li", { dataset: { action: a.action }, text: `${momentText(a.at)} · ${a.moderator} · ${auditAction(a)} · ${auditTarget(a.target)}` })))),
      );
    } else body.push(h("p", { class: "muted", text: t("ratings.loading") }));
    replace(this.root,
      pageHeader(this.ctx, { title: t("admin.title") }),
      h("main", { class: "account-page" },
        h("h1", { text: t("admin.title") }),
        this.notice ? h("p", { class: `notice ${this.notice.kind}`, role: "status", text: this.notice.text }) : null,
        ...body));
  }
}

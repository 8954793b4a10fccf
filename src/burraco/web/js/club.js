// The club manager's pages: /?club (my clubs, a new club) and /?club=ID (one club). Officers run
// the season from here (calendar, evening check-in, draw, tables and rests, results, corrections
// with the audit trail, fees and prizes); members read the same pages without the controls.
// Every change goes to /api/club (clubapi.js) and the page shows the server's answer: rankings
// are never computed here.

import { clubApi, euros, exportUrl, parseEuros } from "./clubapi.js";
import { h, replace } from "./dom.js";
import { pageHeader } from "./header.js";
import { has, language, t } from "./i18n.js";

const TABS = ["calendar", "evening", "standings", "fees", "members", "audit"];
const OFFICER_TABS = new Set(["audit"]);

const DATE_PARAMS = new Set(["date", "start", "end"]);

/** A refusal in the page's language: the code's line, then its precise cause (`detail`, from
 * the catalogs). The server's English sentence is shown on an English page only. */
export function clubError(error) {
  const code = error && error.code ? error.code : "generic";
  const words = has(`club.err.${code}`) ? t(`club.err.${code}`) : t("err.generic");
  const detail = error && error.detail;
  if (detail && detail.code) {
    const params = {};
    for (const [name, value] of Object.entries(detail.params || {})) {
      params[name] = DATE_PARAMS.has(name) ? day(String(value)) : value;
    }
    const precise = [`club.detail.${detail.code}.${params.field}`, `club.detail.${detail.code}`].find((key) => has(key));
    if (precise) return `${words} ${t(precise, params)}`;
  }
  if (language() === "en" && error && error.message && error.message !== code) return `${words} ${error.message}`;
  return words;
}

function day(iso) {
  if (!iso) return "";
  const [y, m, d] = iso.slice(0, 10).split("-").map(Number);
  return new Date(y, m - 1, d).toLocaleDateString(language() === "it" ? "it-IT" : "en-GB", {
    weekday: "short", day: "numeric", month: "short", year: "numeric",
  });
}

function clock(iso) {
  if (!iso) return "";
  return new Date(iso).toLocaleTimeString(language() === "it" ? "it-IT" : "en-GB", { hour: "2-digit", minute: "2-digit" });
}

function moment(iso) {
  return iso ? `${day(iso)} ${clock(iso)}` : "";
}

function field(label, input) {
  return h("label", { class: "field" }, h("span", { text: label }), input);
}

function input(name, attrs = {}) {
  return h("input", { name, ...attrs });
}

function exportLink(href, label) {
  return h("a", { class: "btn small ghost", href, target: "_blank", rel: "noopener", text: label });
}

function table(headers, rows, attrs = {}) {
  return h("div", { class: "table-wrap" },
    h("table", { class: "club-table", ...attrs },
      h("thead", {}, h("tr", {}, headers.map((x) => h("th", { text: x })))),
      h("tbody", {}, rows),
    ));
}

// ------------------------------------------------------------------------------ my clubs

export class ClubListScreen {
  constructor(app, ctx) {
    this.app = app;
    this.ctx = ctx;
    this.clubs = null;
    this.message = "";
  }

  async mount() {
    this.root = h("div", { class: "screen club-screen" });
    replace(this.app, this.root);
    this.render();
    try {
      this.clubs = await clubApi.clubs();
    } catch (error) {
      this.message = clubError(error);
    }
    this.render();
  }

  destroy() {}

  render() {
    if (!this.root) return;
    const form = h("form", { class: "club-form", dataset: { form: "new-club" } },
      field(t("club.new.name"), input("name", { required: true, maxlength: "80" })),
      field(t("club.new.place"), input("place", { maxlength: "200" })),
      field(t("club.new.founder"), input("founder", { maxlength: "64", placeholder: this.ctx.user.name })),
      h("button", { type: "submit", class: "btn primary", text: t("club.new.submit") }),
    );
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const data = new FormData(form);
      try {
        const made = await clubApi.createClub({
          name: String(data.get("name")), place: String(data.get("place") || ""),
          founder: String(data.get("founder") || "") || null,
          timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || "Europe/Rome",
        });
        this.ctx.navigate(`/?club=${made.id}`);
      } catch (error) {
        this.message = clubError(error);
        this.render();
      }
    });
    const list = this.clubs === null
      ? h("p", { class: "muted", text: t("app.loading") })
      : this.clubs.length === 0
        ? h("p", { class: "muted", text: t("club.none") })
        : h("ul", { class: "club-list" }, this.clubs.map((c) =>
          h("li", {},
            h("a", { href: `/?club=${c.id}`, dataset: { club: String(c.id) }, onclick: (ev) => { ev.preventDefault(); this.ctx.navigate(`/?club=${c.id}`); } }, c.name),
            h("span", { class: "muted", text: ` ${c.member}${c.officer ? ` · ${t("club.officer")}` : ""}` }),
          )));
    replace(this.root,
      pageHeader(this.ctx, { title: t("club.mine"), titleClass: "club-title" }),
      h("div", { class: "club-body" },
        this.message ? h("p", { class: "notice error", role: "alert", text: this.message }) : null,
        h("section", { class: "panel" }, h("h2", { text: t("club.mine") }), list),
        this.ctx.user.guest ? h("section", { class: "panel" }, h("p", { class: "hint", text: t("club.guest") }))
          : h("section", { class: "panel" }, h("h2", { text: t("club.new") }), form),
      ),
    );
  }
}

// ------------------------------------------------------------------------------ one club

export class ClubScreen {
  constructor(app, ctx, clubId, params) {
    this.app = app;
    this.ctx = ctx;
    this.clubId = clubId;
    this.tab = TABS.includes(params.get("tab")) ? params.get("tab") : "calendar";
    this.seasonId = Number(params.get("season")) || null;
    this.eveningId = Number(params.get("evening")) || null;
    this.club = null;
    this.season = null;
    this.evening = null;
    this.data = {};
    this.message = "";
    this.notice = "";
    this.pngStamp = Date.now();
  }

  get officer() {
    return Boolean(this.club && this.club.role.officer);
  }

  async mount() {
    this.root = h("div", { class: "screen club-screen" });
    replace(this.app, this.root);
    this.render();
    await this.load();
    this.poll = setInterval(() => this.autoRefresh(), 15000);
  }

  destroy() {
    clearInterval(this.poll);
  }

  remember() {
    const params = new URLSearchParams({ club: String(this.clubId), tab: this.tab });
    if (this.seasonId) params.set("season", String(this.seasonId));
    if (this.eveningId) params.set("evening", String(this.eveningId));
    history.replaceState(null, "", `/?${params}`);
  }

  async load() {
    try {
      this.club = await clubApi.club(this.clubId);
      const seasons = this.club.seasons;
      if (!seasons.some((s) => s.id === this.seasonId)) {
        this.seasonId = seasons.length ? seasons[seasons.length - 1].id : null;
      }
      await this.loadSeason();
      await this.loadTab();
    } catch (error) {
      this.message = clubError(error);
    }
    this.remember();
    this.render();
  }

  async loadSeason() {
    this.season = this.seasonId ? await clubApi.season(this.seasonId) : null;
    const evenings = this.season ? this.season.evenings : [];
    if (!evenings.some((ev) => ev.id === this.eveningId)) {
      const playing = evenings.find((ev) => ev.status === "playing");
      const today = new Date().toISOString().slice(0, 10);
      const next = evenings.find((ev) => ev.status === "scheduled" && ev.date >= today);
      const last = [...evenings].reverse().find((ev) => ev.status === "finished");
      const chosen = playing || next || last || evenings[0];
      this.eveningId = chosen ? chosen.id : null;
    }
  }

  async loadTab() {
    const season = this.seasonId;
    if (this.tab === "evening") {
      this.evening = this.eveningId ? await clubApi.evening(this.eveningId) : null;
      if (this.evening && this.officer) {
        this.data.eveningAudit = await clubApi.audit(this.clubId, { evening: String(this.eveningId) });
      }
    } else if (this.tab === "standings" && season) {
      this.data.standings = await clubApi.standings(season);
      this.pngStamp = Date.now();
    } else if (this.tab === "fees" && season) {
      [this.data.fees, this.data.prizes] = await Promise.all([clubApi.fees(season), clubApi.prizes(season)]);
    } else if (this.tab === "audit" && this.officer) {
      this.data.audit = await clubApi.audit(this.clubId, season ? { season: String(season) } : {});
    }
  }

  async autoRefresh() {
    // Members follow the evening as the officers enter it; an officer's page is refreshed by
    // his own changes (a refresh would throw away what he is typing).
    if (this.officer || this.tab !== "evening" || !this.eveningId || this.busy) return;
    try {
      await this.loadTab();
      this.render();
    } catch {
      // the next refresh will tell
    }
  }

  /** Run a change; on success reload what it touches, on failure show the server's words. */
  async act(work, { reload = "tab", notice = "" } = {}) {
    this.busy = true;
    this.message = "";
    try {
      await work();
      if (reload === "all") await this.load();
      else {
        if (reload === "season") await this.loadSeason();
        await this.loadTab();
      }
      this.notice = notice;
    } catch (error) {
      this.message = clubError(error);
      this.notice = "";
    } finally {
      this.busy = false;
    }
    this.render();
    return !this.message;
  }

  switchTab(tab) {
    this.tab = tab;
    this.message = "";
    this.notice = "";
    this.remember();
    this.render();
    this.act(async () => {}, { reload: "tab" });
  }

  openEvening(id) {
    this.eveningId = id;
    this.switchTab("evening");
  }

  render() {
    if (!this.root) return;
    const club = this.club;
    const tabs = TABS.filter((name) => this.officer || !OFFICER_TABS.has(name));
    replace(this.root,
      pageHeader(this.ctx, {
        title: club ? club.name : "",
        titleClass: "club-title",
        extra: [
          club && club.role.member ? h("span", { class: "club-role", dataset: { role: this.officer ? "officer" : "member" }, text: `${club.role.member} · ${t(this.officer ? "club.officer" : "club.member")}` }) : null,
          h("a", { class: "btn ghost small", href: "/?club", onclick: (ev) => { ev.preventDefault(); this.ctx.navigate("/?club"); }, text: t("club.all") }),
        ],
      }),
      h("div", { class: "club-body" },
        club ? this.seasonBar() : null,
        h("nav", { class: "club-tabs", role: "tablist" }, tabs.map((name) =>
          h("button", {
            type: "button", role: "tab", class: `tab${this.tab === name ? " active" : ""}`,
            "aria-selected": this.tab === name ? "true" : "false", dataset: { tab: name },
            onclick: () => this.switchTab(name),
          }, t(`club.tab.${name}`)))),
        this.message ? h("p", { class: "notice error", role: "alert", dataset: { error: "" }, text: this.message }) : null,
        this.notice ? h("p", { class: "notice ok", role: "status", text: this.notice }) : null,
        club ? this.tabBody() : h("p", { class: "muted", text: t("app.loading") }),
      ),
    );
  }

  seasonBar() {
    const seasons = this.club.seasons;
    const select = h("select", {
      name: "season", "aria-label": t("club.season"),
      onchange: (ev) => {
        this.seasonId = Number(ev.target.value);
        this.eveningId = null;
        this.act(() => this.loadSeason(), { reload: "tab" });
      },
    }, seasons.map((s) => h("option", { value: String(s.id), selected: s.id === this.seasonId, text: s.name })));
    return h("div", { class: "season-bar" },
      // No season yet: the tab body says so (once).
      seasons.length ? field(t("club.season"), select) : null,
      this.officer ? this.newSeasonForm() : null,
    );
  }

  newSeasonForm() {
    // From today for six months: a default season already over would be refused.
    const iso = (d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    const today = new Date();
    const until = new Date(today.getFullYear(), today.getMonth() + 6, today.getDate() - 1);
    const form = h("form", { class: "club-form inline", dataset: { form: "new-season" } },
      field(t("club.season.name"), input("name", { required: true, maxlength: "80" })),
      field(t("club.season.starts"), input("starts_on", { type: "date", required: true, value: iso(today) })),
      field(t("club.season.ends"), input("ends_on", { type: "date", required: true, value: iso(until) })),
      field(t("club.season.fee"), input("fee", { inputmode: "decimal", value: "0" })),
      h("button", { type: "submit", class: "btn small", text: t("club.season.create") }),
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const data = new FormData(form);
      const fee = parseEuros(data.get("fee") || "0");
      this.act(async () => {
        const made = await clubApi.createSeason(this.clubId, {
          name: String(data.get("name")), starts_on: String(data.get("starts_on")),
          ends_on: String(data.get("ends_on")), monthly_fee_cents: Number.isNaN(fee) ? 0 : fee,
        });
        this.seasonId = made.id;
      }, { reload: "all" });
    });
    return h("details", { class: "club-details" }, h("summary", { text: t("club.season.new") }), form);
  }

  tabBody() {
    if (!this.season && this.tab !== "members" && this.tab !== "audit") {
      return h("section", { class: "panel wide" }, h("p", { class: "muted", text: t("club.no_season") }));
    }
    switch (this.tab) {
      case "evening": return this.eveningTab();
      case "standings": return this.standingsTab();
      case "fees": return this.feesTab();
      case "members": return this.membersTab();
      case "audit": return this.auditTab();
      default: return this.calendarTab();
    }
  }

  // -------------------------------------------------------------------------- calendar

  calendarTab() {
    const season = this.season;
    const lang = language();
    const rows = season.evenings.map((ev) =>
      h("tr", { class: ev.status === "cancelled" ? "cancelled" : "", dataset: { evening: String(ev.id) } },
        h("td", { text: ev.number || "–" }),
        h("td", { text: day(ev.date) }),
        h("td", {}, this.officer && ev.status === "scheduled"
          ? h("select", {
            "aria-label": t("club.evening.type"),
            onchange: (x) => this.act(() => clubApi.changeEvening(ev.id, { type: x.target.value }), { reload: "season" }),
          }, ["internazionale", "italiano"].map((k) => h("option", { value: k, selected: ev.type === k, text: t(`club.type.${k}`) })))
          : t(`club.type.${ev.type}`)),
        h("td", {}, this.officer && ev.status === "scheduled"
          ? h("label", { class: "check", title: t("club.evening.one_fewer") },
            h("input", {
              type: "checkbox", checked: ev.one_game_fewer, "aria-label": t("club.evening.one_fewer"),
              onchange: (x) => this.act(() => clubApi.changeEvening(ev.id, { one_game_fewer: x.target.checked }), { reload: "season" }),
            }), String(ev.games))
          : String(ev.games)),
        h("td", { text: t(`club.status.${ev.status}`) }),
        h("td", { class: "actions" },
          h("button", { type: "button", class: "btn small", dataset: { openEvening: String(ev.id) }, onclick: () => this.openEvening(ev.id), text: t("club.open") }),
          this.officer && ev.status === "scheduled"
            ? h("button", { type: "button", class: "btn small ghost", onclick: () => this.act(() => clubApi.changeEvening(ev.id, { cancelled: true }), { reload: "season" }), text: t("club.evening.cancel") })
            : null,
          this.officer && ev.status === "cancelled"
            ? h("button", { type: "button", class: "btn small ghost", onclick: () => this.act(() => clubApi.changeEvening(ev.id, { cancelled: false }), { reload: "season" }), text: t("club.evening.restore") })
            : null,
        ),
      ));
    const s = season;
    return h("section", { class: "panel wide", dataset: { panel: "calendar" } },
      h("div", { class: "panel-head" },
        h("h2", { text: t("club.calendar.title", { name: s.name }) }),
        h("div", { class: "exports" },
          exportLink(exportUrl.calendarIcs(s.id, lang), t("club.export.ics")),
          exportLink(exportUrl.calendarHtml(s.id, lang), t("club.export.print")),
        ),
      ),
      h("p", { class: "hint", text: t("club.calendar.window", { opens: s.checkin_opens, closes: s.checkin_closes, from: day(s.starts_on), to: day(s.ends_on) }) }),
      season.evenings.length
        ? table([t("club.col.number"), t("club.col.date"), t("club.col.type"), t("club.col.games"), t("club.col.status"), ""], rows)
        : h("p", { class: "muted", text: t("club.calendar.empty") }),
      this.officer ? this.calendarForms() : null,
      this.officer ? this.settingsForm() : null,
    );
  }

  settingsForm() {
    const s = this.season;
    const money = (cents) => (cents / 100).toFixed(2).replace(".", language() === "it" ? "," : ".");
    const prizes = [0, 1, 2].map((i) => money(s.season_prizes_cents[i] || 0));
    const form = h("form", { class: "club-form inline", dataset: { form: "season-settings" } },
      field(t("club.settings.opens"), input("checkin_opens", { type: "time", value: s.checkin_opens, required: true })),
      field(t("club.settings.closes"), input("checkin_closes", { type: "time", value: s.checkin_closes, required: true })),
      field(t("club.settings.break"), input("break_minutes", { type: "number", min: "0", max: "60", value: String(s.break_minutes) })),
      field(t("club.season.fee"), input("monthly_fee", { inputmode: "decimal", value: money(s.monthly_fee_cents) })),
      field(t("club.settings.pool"), input("pool_share", { inputmode: "decimal", value: money(s.pool_share_cents) })),
      field(t("club.settings.weekly"), input("weekly_prize", { inputmode: "decimal", value: money(s.weekly_prize_cents) })),
      prizes.map((value, i) => field(t("club.settings.prize", { n: i + 1 }), input(`prize${i}`, { inputmode: "decimal", value }))),
      h("button", { type: "submit", class: "btn small primary", text: t("club.settings.save") }),
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const data = new FormData(form);
      const cents = (name) => parseEuros(data.get(name) || "0");
      const body = {
        checkin_opens: String(data.get("checkin_opens")), checkin_closes: String(data.get("checkin_closes")),
        break_minutes: Number(data.get("break_minutes")) || 0,
        monthly_fee_cents: cents("monthly_fee"), pool_share_cents: cents("pool_share"),
        weekly_prize_cents: cents("weekly_prize"), season_prizes_cents: [0, 1, 2].map((i) => cents(`prize${i}`)),
      };
      if (Object.values(body).flat().some((v) => typeof v === "number" && Number.isNaN(v))) {
        this.message = t("club.fees.bad_amount");
        this.render();
        return;
      }
      this.act(() => clubApi.changeSeason(this.seasonId, body), { reload: "all", notice: t("club.settings.saved") });
    });
    const mail = h("button", { type: "button", class: "btn small", dataset: { cmd: "mail-calendar" }, onclick: () =>
      this.act(async () => {
        const sent = await clubApi.mailCalendar(this.seasonId, language());
        this.mailed = t("club.mail.sent", { n: sent.sent });
      }, { notice: "" }).then(() => { if (this.mailed) { this.notice = this.mailed; this.mailed = ""; this.render(); } }),
    text: t("club.mail.calendar") });
    return h("div", { class: "club-forms" },
      h("details", { class: "club-details" }, h("summary", { text: t("club.settings") }), form),
      h("div", { class: "row" }, mail, h("span", { class: "hint", text: t("club.mail.hint") })),
    );
  }

  calendarForms() {
    const add = h("form", { class: "club-form inline", dataset: { form: "add-evening" } },
      field(t("club.col.date"), input("date", { type: "date", required: true })),
      field(t("club.col.type"), h("select", { name: "type" }, ["internazionale", "italiano"].map((k) => h("option", { value: k, text: t(`club.type.${k}`) })))),
      h("button", { type: "submit", class: "btn small", text: t("club.evening.add") }),
    );
    add.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const data = new FormData(add);
      this.act(() => clubApi.addEvening(this.seasonId, { date: String(data.get("date")), type: String(data.get("type")) }), { reload: "season" });
    });
    const plan = h("form", { class: "club-form inline", dataset: { form: "calendar" } },
      field(t("club.calendar.first"), input("first", { type: "date", value: this.season.starts_on })),
      field(t("club.calendar.count"), input("count", { type: "number", min: "1", max: "60", value: "16" })),
      h("button", { type: "submit", class: "btn small", text: t("club.calendar.create") }),
    );
    plan.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const data = new FormData(plan);
      this.act(() => clubApi.createCalendar(this.seasonId, { first: String(data.get("first")) || null, count: Number(data.get("count")) || 16 }), { reload: "season" });
    });
    return h("div", { class: "club-forms" },
      h("h3", { text: t("club.evening.add") }), add,
      this.season.evenings.length ? null : h("div", {}, h("h3", { text: t("club.calendar.create") }), h("p", { class: "hint", text: t("club.calendar.hint") }), plan),
    );
  }

  // -------------------------------------------------------------------------- evening

  eveningTab() {
    const view = this.evening;
    if (!view) return h("section", { class: "panel wide" }, h("p", { class: "muted", text: t("club.calendar.empty") }));
    const ev = view.evening;
    const lang = language();
    return h("div", { class: "club-stack evening", dataset: { evening: String(ev.id), status: ev.status } },
      h("section", { class: "panel wide" },
        h("div", { class: "panel-head" },
          h("h2", { text: t("club.evening.title", { n: view.number || "–", date: day(ev.date) }) }),
          h("div", { class: "exports" },
            h("a", { class: "btn small", href: `/?timer=${ev.id}`, target: "_blank", rel: "noopener", dataset: { timerLink: "" }, text: t("club.timer.open") }),
            exportLink(exportUrl.eveningCsv(ev.id), t("club.export.csv")),
            exportLink(exportUrl.resultsCsv(ev.id), t("club.export.results")),
            exportLink(exportUrl.eveningHtml(ev.id, lang), t("club.export.print")),
          ),
        ),
        h("p", { class: "hint", text: `${t(`club.type.${view.type}`)} · ${t("club.evening.games", { n: view.games_planned, minutes: view.minutes })} · ${t(`club.status.${ev.status}`)}` }),
        ev.status === "scheduled" ? this.checkinPart(view) : this.stationsPart(view),
      ),
      view.games.map((game) => this.gamePart(view, game)),
      this.rankingPart(view),
      this.officer && view.finished ? h("div", { class: "row" },
        h("button", { type: "button", class: "btn", dataset: { cmd: "mail-standings" }, onclick: () =>
          this.act(async () => {
            const sent = await clubApi.mailStandings(ev.id, language());
            this.mailed = t("club.mail.sent", { n: sent.sent });
          }).then(() => { if (this.mailed) { this.notice = this.mailed; this.mailed = ""; this.render(); } }),
        text: t("club.mail.standings") }),
        view.evening.published_at ? h("span", { class: "hint", text: t("club.mail.published", { at: moment(view.evening.published_at) }) }) : null,
      ) : null,
      view.checks.length ? this.checksPart(view) : null,
      this.officer ? this.eveningAuditPart() : null,
    );
  }

  checkinPart(view) {
    const members = this.club.members.filter((m) => m.active);
    const present = new Set(view.checkins.map((c) => c.name));
    const rows = view.checkins.map((c) =>
      h("tr", { dataset: { checkin: c.name } },
        h("td", { text: c.name }),
        h("td", { text: c.at.slice(0, 10) === view.evening.date ? clock(c.at) : moment(c.at) }),
        h("td", { class: c.late ? "late" : "", text: c.late ? t("club.checkin.late_by", { who: c.override_by || "", reason: c.override_reason || "" }) : "" }),
        h("td", {}, this.officer
          ? h("button", { type: "button", class: "btn small ghost", onclick: () => {
            const reason = prompt(t("club.reason.prompt"));
            if (reason) this.act(() => clubApi.uncheck(view.evening.id, c.name, reason));
          }, text: t("club.checkin.remove") })
          : null),
      ));
    const parts = [
      h("h3", { text: t("club.checkin.title", { opens: clock(view.times.checkin_opens), closes: clock(view.times.checkin_closes), n: view.checkins.length }) }),
      rows.length ? table([t("club.col.player"), t("club.col.time"), "", ""], rows, { dataset: { checkins: "" } }) : h("p", { class: "muted", text: t("club.checkin.none") }),
    ];
    if (this.officer) {
      const form = h("form", { class: "club-form inline", dataset: { form: "checkin" } },
        field(t("club.col.player"), h("select", { name: "member", required: true },
          members.filter((m) => !present.has(m.name)).map((m) => h("option", { value: m.name, text: m.name })))),
        field(t("club.checkin.override"), input("override", { maxlength: "500", placeholder: t("club.checkin.override.hint") })),
        h("button", { type: "submit", class: "btn small primary", text: t("club.checkin.add") }),
      );
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const data = new FormData(form);
        this.act(() => clubApi.checkin(view.evening.id, String(data.get("member")), String(data.get("override") || "")));
      });
      parts.push(form,
        h("div", { class: "row" },
          h("button", { type: "button", class: "btn primary", dataset: { cmd: "draw" }, disabled: view.checkins.length < 4,
            onclick: () => this.act(() => clubApi.draw(view.evening.id), { reload: "season" }), text: t("club.draw") }),
          h("span", { class: "hint", text: t("club.draw.hint") }),
        ));
    } else if (this.club.role.member && !present.has(this.club.role.member)) {
      parts.push(h("button", { type: "button", class: "btn primary", dataset: { cmd: "checkin-me" },
        onclick: () => this.act(() => clubApi.checkin(view.evening.id, this.club.role.member)), text: t("club.checkin.me") }));
    }
    return h("div", { class: "checkin" }, parts);
  }

  stationsPart(view) {
    const undo = this.officer && view.evening.status === "playing" && !view.games.some((g) => g.tables.some((x) => x.result))
      ? h("button", { type: "button", class: "btn small ghost", onclick: () => {
        const reason = prompt(t("club.reason.prompt"));
        if (reason) this.act(() => clubApi.undoDraw(view.evening.id, reason), { reload: "season" });
      }, text: t("club.draw.undo") })
      : null;
    return h("div", { class: "stations" },
      h("p", {}, h("strong", { text: `${t("club.stations")}: ` }), view.stations.join(", ")),
      view.checkins.some((c) => c.late)
        ? h("p", { class: "hint", text: view.checkins.filter((c) => c.late).map((c) => t("club.checkin.late_named", { name: c.name, who: c.override_by || "", reason: c.override_reason || "" })).join(" · ") })
        : null,
      undo,
    );
  }

  gamePart(view, game) {
    const evId = view.evening.id;
    const timerButton = this.officer && !game.complete
      ? h("button", { type: "button", class: "btn small", dataset: { cmd: `start-${game.number}` },
        onclick: () => this.act(() => clubApi.startGame(evId, game.number), { notice: t("club.timer.started", { n: game.number }) }),
        text: game.started_at ? t("club.timer.restart") : t("club.timer.start") })
      : null;
    const rows = game.tables.map((x) => this.tableRow(view, game, x));
    return h("section", { class: "panel wide game", dataset: { game: String(game.number) } },
      h("div", { class: "panel-head" },
        h("h2", { text: t("club.game.title", { n: game.number, of: view.games_planned }) }),
        h("span", { class: "hint", text: game.started_at ? t("club.game.started", { at: clock(game.started_at) }) : "" }),
        timerButton,
      ),
      table([t("club.col.table"), t("club.col.ns"), t("club.col.ew"), t("club.col.score"), t("club.col.vp"), ""], rows),
      this.restsPart(view, game),
      this.officer && !game.tables.some((x) => x.result) ? this.seatingForm(view, game) : null,
    );
  }

  /** The room seated by hand (seed 003: "sorteggio manuale"): one table a line, NS1, EW1, NS2,
   * EW2 (partners 1st-3rd and 2nd-4th), and who rests. */
  seatingForm(view, game) {
    const lines = game.tables.map((x) => (x.ns.length === 2 ? [x.ns[0], x.ew[0], x.ns[1], x.ew[1]] : [x.ns[0], x.ew[0]]).join(", "));
    const form = h("form", { class: "club-form", dataset: { form: `seating-${game.number}` } },
      h("p", { class: "hint", text: t("club.seating.hint") }),
      field(t("club.seating.tables"), h("textarea", { name: "tables", rows: String(Math.max(2, lines.length)), required: true, text: lines.join("\n") })),
      field(t("club.rests"), input("rests", { value: game.rests.join(", ") })),
      field(t("club.reason"), input("reason", { maxlength: "500" })),
      h("button", { type: "submit", class: "btn small", text: t("club.seating.save") }),
    );
    const names = (text) => text.split(/[,;]/).map((x) => x.trim()).filter(Boolean);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const data = new FormData(form);
      const tables = String(data.get("tables")).split("\n").map(names).filter((x) => x.length);
      this.act(() => clubApi.setSeating(view.evening.id, game.number, {
        tables, rests: names(String(data.get("rests") || "")), reason: String(data.get("reason") || ""),
      }));
    });
    return h("details", { class: "club-details" }, h("summary", { text: t("club.seating") }), form);
  }

  tableRow(view, game, x) {
    const evId = view.evening.id;
    const key = `${game.number}-${x.number}`;
    const result = x.result;
    let scoreCell;
    let actions = null;
    if (result) {
      scoreCell = h("span", { dataset: { score: key } }, `${result.ns} – ${result.ew}`,
        result.corrections ? h("span", { class: "tag", title: t("club.result.corrected"), text: ` ✎${result.corrections}` }) : null);
      if (this.officer) {
        const form = h("form", { class: "result-form", dataset: { correction: key } },
          input("ns", { type: "number", step: "5", required: true, value: String(result.ns), "aria-label": t("club.col.ns") }),
          input("ew", { type: "number", step: "5", required: true, value: String(result.ew), "aria-label": t("club.col.ew") }),
          input("reason", { required: true, maxlength: "500", placeholder: t("club.correct.reason"), "aria-label": t("club.correct.reason") }),
          h("button", { type: "submit", class: "btn small", text: t("club.correct.save") }),
        );
        form.addEventListener("submit", (ev) => {
          ev.preventDefault();
          const data = new FormData(form);
          this.act(() => clubApi.correct(evId, game.number, x.number, Number(data.get("ns")), Number(data.get("ew")), String(data.get("reason"))),
            { notice: t("club.correct.done") });
        });
        actions = h("details", { class: "club-details" }, h("summary", { text: t("club.correct") }), form);
      } else if (this.club.role.member) {
        actions = h("button", { type: "button", class: "btn small ghost", dataset: { check: key }, onclick: () => {
          const note = prompt(t("club.check.prompt"));
          if (note !== null) this.act(() => clubApi.askCheck(evId, game.number, x.number, note), { notice: t("club.check.sent") });
        }, text: t("club.check.ask") });
      }
    } else if (this.officer) {
      const form = h("form", { class: "result-form", dataset: { result: key } },
        input("ns", { type: "number", step: "5", required: true, "aria-label": t("club.col.ns"), placeholder: t("club.col.ns") }),
        input("ew", { type: "number", step: "5", required: true, "aria-label": t("club.col.ew"), placeholder: t("club.col.ew") }),
        h("button", { type: "submit", class: "btn small primary", text: t("club.result.save") }),
      );
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const data = new FormData(form);
        this.act(() => clubApi.result(evId, game.number, x.number, Number(data.get("ns")), Number(data.get("ew"))), { reload: "season" });
      });
      scoreCell = form;
    } else {
      scoreCell = h("span", { class: "muted", text: t("club.result.waiting") });
    }
    return h("tr", { dataset: { table: key } },
      h("td", { text: String(x.number) }),
      h("td", { text: x.ns.join(" – ") }),
      h("td", { text: x.ew.join(" – ") }),
      h("td", {}, scoreCell),
      h("td", { text: x.vp ? `${x.vp[0]} – ${x.vp[1]}` : "" }),
      h("td", {}, actions),
    );
  }

  restsPart(view, game) {
    if (!game.rests.length) return null;
    const parts = [h("strong", { text: `${t("club.rests")}: ` }), game.rests.join(", ")];
    if (!game.rests_drawn) parts.push(h("span", { class: "hint", text: ` (${t("club.rests.changed")})` }));
    let form = null;
    if (this.officer && !game.tables.some((x) => x.result)) {
      const playing = game.tables.flatMap((x) => [...x.ns, ...x.ew]).sort();
      form = h("form", { class: "club-form inline", dataset: { form: `rest-${game.number}` } },
        field(t("club.rests.instead_of"), h("select", { name: "instead_of" }, game.rests.map((n) => h("option", { value: n, text: n })))),
        field(t("club.rests.rest"), h("select", { name: "rest" }, playing.map((n) => h("option", { value: n, text: n })))),
        field(t("club.reason"), input("reason", { required: true, maxlength: "500" })),
        h("button", { type: "submit", class: "btn small", text: t("club.rests.change") }),
      );
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const data = new FormData(form);
        this.act(() => clubApi.changeRest(view.evening.id, game.number, {
          rest: String(data.get("rest")), instead_of: String(data.get("instead_of")), reason: String(data.get("reason")),
        }));
      });
      form = h("details", { class: "club-details" }, h("summary", { text: t("club.rests.manage") }), form);
    }
    return h("div", { class: "rests", dataset: { rests: game.rests.join(",") } }, h("p", {}, parts), form);
  }

  rankingPart(view) {
    if (!view.games.length) return null;
    const rows = (view.ranking || []).map((r) =>
      h("tr", { dataset: { player: r.player } },
        h("td", { class: "n", dataset: { place: "" }, text: String(r.place) }),
        h("td", { text: r.player }),
        h("td", { class: "n", dataset: { vp: "" }, text: String(r.vp) }),
        h("td", { class: "n", text: r.mp > 0 ? `+${r.mp}` : String(r.mp) }),
        h("td", { class: "n", dataset: { points: "" }, text: String(r.points) }),
        h("td", { class: "n", text: String(r.played) }),
        h("td", { class: "n", text: String(r.rests) }),
      ));
    return h("section", { class: "panel wide" },
      h("h2", { text: view.finished ? t("club.ranking.final") : t("club.ranking.partial", { n: view.complete_games }) }),
      rows.length
        ? table([t("club.col.place"), t("club.col.player"), t("club.col.vp"), t("club.col.mp"), t("club.col.points"), t("club.col.played"), t("club.col.rests")], rows,
          { dataset: { ranking: String(view.complete_games) } })
        : h("p", { class: "muted", text: t("club.ranking.none") }),
    );
  }

  checksPart(view) {
    const rows = view.checks.map((c) =>
      h("tr", { dataset: { checkId: String(c.id), status: c.status } },
        h("td", { text: t("club.check.where", { game: c.game, table: c.table }) }),
        h("td", { text: c.requested_by }),
        h("td", { text: c.note }),
        h("td", { text: t(`club.check.status.${c.status}`) + (c.resolution ? ` — ${c.resolution}` : "") }),
        h("td", {}, this.officer && c.status === "open"
          ? h("button", { type: "button", class: "btn small", onclick: () => {
            const words = prompt(t("club.check.confirm_prompt"));
            if (words !== null) this.act(() => clubApi.resolveCheck(c.id, words));
          }, text: t("club.check.confirm") })
          : null),
      ));
    return h("section", { class: "panel wide" },
      h("h2", { text: t("club.checks") }),
      table([t("club.col.table"), t("club.col.player"), t("club.col.note"), t("club.col.status"), ""], rows),
    );
  }

  eveningAuditPart() {
    const entries = this.data.eveningAudit || [];
    return h("section", { class: "panel wide", dataset: { panel: "evening-audit" } },
      h("h2", { text: t("club.audit.evening") }),
      entries.length ? this.auditList(entries) : h("p", { class: "muted", text: t("club.audit.none") }),
    );
  }

  auditList(entries) {
    const show = (value) => (value === null || value === undefined ? "" : JSON.stringify(value));
    return h("ol", { class: "audit", reversed: true }, [...entries].reverse().map((x) =>
      h("li", { dataset: { action: x.action } },
        h("div", {}, h("strong", { text: `${moment(x.at)} · ${x.actor}` }), ` ${x.action}: ${x.subject}`),
        x.before !== null && x.before !== undefined ? h("div", { class: "mono", text: `${t("club.audit.before")} ${show(x.before)}` }) : null,
        x.after !== null && x.after !== undefined ? h("div", { class: "mono", text: `${t("club.audit.after")} ${show(x.after)}` }) : null,
        x.reason ? h("div", { class: "audit-reason", text: `${t("club.reason")}: ${x.reason}` }) : null,
      )));
  }

  // -------------------------------------------------------------------------- standings

  standingsTab() {
    const s = this.data.standings;
    const lang = language();
    if (!s) return h("p", { class: "muted", text: t("app.loading") });
    const rows = s.rows.map((r) =>
      h("tr", { dataset: { player: r.player } },
        h("td", { class: "n", text: String(r.place) }),
        h("td", { text: r.player }),
        h("td", { class: "n", dataset: { points: "" }, text: String(r.points) }),
        h("td", { class: "n", text: String(r.evenings) }),
        h("td", { class: "n", text: String(r.weekly_prizes) }),
      ));
    return h("section", { class: "panel wide", dataset: { panel: "standings" } },
      h("div", { class: "panel-head" },
        h("h2", { text: t("club.standings.title", { n: s.counted.length }) }),
        h("div", { class: "exports" },
          exportLink(exportUrl.standingsCsv(this.seasonId), t("club.export.csv")),
          exportLink(exportUrl.standingsHtml(this.seasonId, lang), t("club.export.print")),
          exportLink(exportUrl.standingsPng(this.seasonId, lang, this.pngStamp), t("club.export.chart")),
        ),
      ),
      rows.length
        ? table([t("club.col.place"), t("club.col.player"), t("club.col.points"), t("club.col.evenings"), t("club.col.weekly")], rows, { dataset: { standings: "" } })
        : h("p", { class: "muted", text: t("club.standings.none") }),
      rows.length ? h("img", { class: "chart", alt: t("club.export.chart"), src: exportUrl.standingsPng(this.seasonId, lang, this.pngStamp) }) : null,
    );
  }

  // -------------------------------------------------------------------------- fees, prizes

  feesTab() {
    const fees = this.data.fees;
    const prizes = this.data.prizes;
    if (!fees || !prizes) return h("p", { class: "muted", text: t("app.loading") });
    const rows = fees.accounts.map((a) =>
      h("tr", { dataset: { account: a.member } },
        h("td", { text: a.member }),
        h("td", { class: "n", text: euros(a.owed_cents) }),
        h("td", { class: "n", text: euros(a.paid_cents) }),
        h("td", { class: `n${a.balance_cents > 0 ? " owing" : ""}`, dataset: { balance: String(a.balance_cents) }, text: euros(a.balance_cents) }),
        h("td", { class: "hint", text: [
          ...a.fees.map((f) => t("club.fees.monthly", { period: f.period, amount: euros(f.amount_cents) })),
          ...a.adjustments.map((x) => `${euros(x.amount_cents)} (${x.reason})`),
        ].join(" · ") }),
      ));
    const parts = [
      h("div", { class: "panel-head" },
        h("h2", { text: t("club.fees.title") }),
        this.officer ? h("div", { class: "exports" }, exportLink(exportUrl.feesCsv(this.seasonId), t("club.export.csv"))) : null,
      ),
      rows.length ? table([t("club.col.player"), t("club.fees.owed"), t("club.fees.paid"), t("club.fees.balance"), ""], rows) : h("p", { class: "muted", text: t("club.fees.none") }),
      h("p", { class: "hint", text: t("club.fees.totals", {
        owed: euros(fees.owed_cents), paid: euros(fees.paid_cents), outstanding: euros(fees.outstanding_cents),
        pool: euros(fees.pool_cents), prizes: euros(fees.prizes_cents), left: euros(fees.pool_left_cents),
      }) }),
    ];
    if (this.officer) parts.push(this.feeForms());
    const weekly = prizes.weekly.map((w) => h("tr", {},
      h("td", { text: `${w.number} · ${day(w.date)}` }), h("td", { text: w.player }),
      h("td", { class: "n", text: String(w.vp) }), h("td", { class: "n", text: euros(w.value_cents) })));
    const top = prizes.season.map((p) => h("tr", {},
      h("td", { class: "n", text: String(p.place) }), h("td", { text: p.player }),
      h("td", { class: "n", text: String(p.points) }), h("td", { class: "n", text: euros(p.value_cents) })));
    return h("div", { class: "club-stack" },
      h("section", { class: "panel wide", dataset: { panel: "fees" } }, parts),
      h("section", { class: "panel wide", dataset: { panel: "prizes" } },
        h("h2", { text: t("club.prizes.title") }),
        h("h3", { text: t("club.prizes.weekly") }),
        weekly.length ? table([t("club.col.evening"), t("club.col.player"), t("club.col.vp"), "€"], weekly) : h("p", { class: "muted", text: t("club.prizes.none") }),
        h("h3", { text: t("club.prizes.season") }),
        top.length ? table([t("club.col.place"), t("club.col.player"), t("club.col.points"), "€"], top) : h("p", { class: "muted", text: t("club.prizes.none") }),
        prizes.awarded.length ? h("p", { class: "hint", text: t("club.prizes.awarded", { n: prizes.awarded.length }) }) : null,
        this.officer ? h("button", { type: "button", class: "btn small", onclick: () => {
          if (confirm(t("club.prizes.close_confirm"))) this.act(() => clubApi.closeSeason(this.seasonId), { notice: t("club.prizes.closed") });
        }, text: t("club.prizes.close") }) : null,
      ),
    );
  }

  feeForms() {
    const names = this.club.members.map((m) => m.name);
    const pick = () => h("select", { name: "member" }, names.map((n) => h("option", { value: n, text: n })));
    const pay = h("form", { class: "club-form inline", dataset: { form: "payment" } },
      field(t("club.col.player"), pick()),
      field(t("club.fees.amount"), input("amount", { inputmode: "decimal", required: true })),
      field(t("club.col.date"), input("on", { type: "date" })),
      field(t("club.col.note"), input("note", { maxlength: "200" })),
      h("button", { type: "submit", class: "btn small primary", text: t("club.fees.pay") }),
    );
    pay.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const data = new FormData(pay);
      const cents = parseEuros(data.get("amount"));
      if (Number.isNaN(cents)) {
        this.message = t("club.fees.bad_amount");
        this.render();
        return;
      }
      this.act(() => clubApi.payment(this.seasonId, {
        member: String(data.get("member")), amount_cents: cents, note: String(data.get("note") || ""),
        paid_on: String(data.get("on") || "") || null,
      }));
    });
    const charge = h("form", { class: "club-form inline", dataset: { form: "charge" } },
      field(t("club.col.player"), pick()),
      field(t("club.fees.amount"), input("amount", { inputmode: "decimal", required: true, placeholder: t("club.fees.charge.hint") })),
      field(t("club.reason"), input("reason", { required: true, maxlength: "500" })),
      h("button", { type: "submit", class: "btn small", text: t("club.fees.charge") }),
    );
    charge.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const data = new FormData(charge);
      const cents = parseEuros(data.get("amount"));
      if (Number.isNaN(cents)) {
        this.message = t("club.fees.bad_amount");
        this.render();
        return;
      }
      this.act(() => clubApi.charge(this.seasonId, { member: String(data.get("member")), amount_cents: cents, reason: String(data.get("reason")) }));
    });
    return h("div", { class: "club-forms" }, h("h3", { text: t("club.fees.pay") }), pay, h("h3", { text: t("club.fees.charge") }), charge);
  }

  // -------------------------------------------------------------------------- members, audit

  membersTab() {
    const rows = this.club.members.map((m) =>
      h("tr", { class: m.active ? "" : "cancelled", dataset: { member: m.name } },
        h("td", { text: m.name }),
        this.officer ? h("td", { text: m.email || "" }) : null,
        this.officer ? h("td", { text: m.account || "" }) : null,
        h("td", {}, this.officer
          ? h("label", { class: "check" }, h("input", { type: "checkbox", checked: m.officer, onchange: (x) => this.act(() => clubApi.changeMember(this.clubId, m.id, { officer: x.target.checked }), { reload: "all" }) }), t("club.officer"))
          : (m.officer ? t("club.officer") : "")),
        this.officer
          ? h("td", {}, h("label", { class: "check" }, h("input", { type: "checkbox", checked: m.active, onchange: (x) => this.act(() => clubApi.changeMember(this.clubId, m.id, { active: x.target.checked }), { reload: "all" }) }), t("club.members.active")))
          : null,
      ));
    const headers = this.officer
      ? [t("club.col.player"), t("club.members.email"), t("club.members.account"), "", ""]
      : [t("club.col.player"), ""];
    let form = null;
    if (this.officer) {
      form = h("form", { class: "club-form inline", dataset: { form: "add-member" } },
        field(t("club.col.player"), input("name", { required: true, maxlength: "64" })),
        field(t("club.members.email"), input("email", { type: "email", maxlength: "254" })),
        field(t("club.members.account"), input("account", { maxlength: "64" })),
        h("label", { class: "check" }, input("officer", { type: "checkbox" }), t("club.officer")),
        h("button", { type: "submit", class: "btn small primary", text: t("club.members.add") }),
      );
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const data = new FormData(form);
        this.act(() => clubApi.addMember(this.clubId, {
          name: String(data.get("name")), email: String(data.get("email") || "") || null,
          account: String(data.get("account") || "") || null, officer: data.get("officer") === "on",
        }), { reload: "all" });
      });
    }
    return h("section", { class: "panel wide", dataset: { panel: "members" } },
      h("h2", { text: t("club.members.title", { n: this.club.members.length }) }),
      table(headers, rows),
      form ? h("div", { class: "club-forms" }, h("h3", { text: t("club.members.add") }), form) : null,
    );
  }

  auditTab() {
    const entries = this.data.audit || [];
    return h("section", { class: "panel wide", dataset: { panel: "audit" } },
      h("h2", { text: t("club.audit.title") }),
      entries.length ? this.auditList(entries) : h("p", { class: "muted", text: t("club.audit.none") }),
    );
  }
}

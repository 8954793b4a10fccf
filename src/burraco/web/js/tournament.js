// Online tournaments: /?tournaments (the list and a new tournament) and /?tournament=ID (one
// tournament: registration, live standings, each round's pairings and results, links to the
// tables). The standings arrive over the WebSocket (watch_tournament) whenever they change: the
// page never asks for them again.

import { ApiError } from "./api.js";
import { Connection } from "./conn.js";
import { h, replace } from "./dom.js";
import { commitmentOf } from "./fairdeal.js";
import { pageHeader } from "./header.js";
import { errorWords, has, language, t } from "./i18n.js";
import { clockEach } from "./play.js";
import { sameCardsUrl, signedMp } from "./samecards.js";
import { botLabel } from "./tableview.js";

const SYSTEMS = ["danish", "round_robin", "mitchell", "knockout"];
const KINDS = ["individual", "pairs", "individual_four"];
const CLOCKS = [
  { key: "none", round: null, hand: null },
  { key: "25", round: 1500, hand: 60 },
  { key: "35", round: 2100, hand: 60 },
  { key: "45", round: 2700, hand: 90 },
];

async function call(method, path, body) {
  const options = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, "network", "network error");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.error) || `http_${response.status}`, data && data.message);
  }
  return data;
}

const base = "/api/tournaments";
export const tournamentApi = {
  list: () => call("GET", base),
  get: (id) => call("GET", `${base}/${encodeURIComponent(id)}`),
  create: (body) => call("POST", base, body),
  register: (id, partner) => call("POST", `${base}/${encodeURIComponent(id)}/register`, partner ? { partner } : undefined),
  unregister: (id) => call("POST", `${base}/${encodeURIComponent(id)}/unregister`),
  confirm: (id) => call("POST", `${base}/${encodeURIComponent(id)}/confirm`),
  invitations: () => call("GET", `${base}/invitations`),
  bots: (id, level, count) => call("POST", `${base}/${encodeURIComponent(id)}/bots`, { level, count }),
};

function errorText(error) {
  const code = error && error.code ? error.code : "generic";
  if (has(`tour.err.${code}`)) return t(`tour.err.${code}`);
  return errorWords(error);
}

function ensureStyles() {
  if (document.querySelector("link[data-tournament-css]")) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/css/tournament.css", dataset: { tournamentCss: "1" } }));
}

function when(iso) {
  if (!iso) return "";
  return new Date(iso).toLocaleString(language() === "it" ? "it-IT" : "en-GB", {
    weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
  });
}

function topbar(ctx, title) {
  return pageHeader(ctx, { title });
}

/** One line of a tournament's format: system, kind, rounds, smazzate, clock. */
export function describeTournament(tour) {
  const s = tour.settings || {};
  const parts = [t(`tour.system.${s.system || "danish"}`), t(`tour.kind.${s.kind || "individual"}`)];
  if (s.same_cards) parts.unshift(t("tour.same_cards"));
  const rounds = tour.rounds_total || s.rounds;
  if (rounds) parts.push(t("tour.rounds_n", { n: rounds }));
  parts.push(t("cfg.smazzate", { n: s.smazzate || 3 }));
  parts.push(s.round_seconds ? t("tour.clock_minutes", { minutes: Math.round(s.round_seconds / 60) }) : t("cfg.no_clock"));
  parts.push(t(`tour.absent.${s.absent || "bot"}`));
  if (s.elimination && Object.keys(s.elimination).length) parts.push(t("tour.elimination", { steps: eliminationText(s.elimination) }));
  return parts.join(" · ");
}

// T21 thresholds as the organiser types them: "1:7, 2:14" (after round 1, 7 VP to stay in).
function eliminationText(elimination) {
  return Object.entries(elimination).map(([round, vp]) => `${round}:${vp}`).join(", ");
}

function parseElimination(text) {
  const out = {};
  for (const part of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const match = /^(\d+)\s*:\s*(\d+)$/.exec(part);
    if (!match) return null;
    out[match[1]] = Number(match[2]);
  }
  return out;
}

export function startText(tour) {
  if (tour.start === "sitgo") return t("tour.sitgo_size", { n: tour.size, count: tour.entrant_count });
  return t("tour.scheduled_at", { when: when(tour.starts_at), count: tour.entrant_count });
}

// ---------------------------------------------------------------------------- the list

const ENTRANT_TAGS = new Set(["excluded", "invited", "unconfirmed"]);

export class TournamentListScreen {
  constructor(app, ctx) {
    this.app = app;
    this.ctx = ctx;
    this.tournaments = [];
    this.invitations = [];
    this.message = "";
    this.form = { name: "", start: "sitgo", size: 8, startsAt: "", kind: "individual", system: "danish", rounds: 3, smazzate: 3, clock: "none", absent: "bot", elimination: "", sameCards: false };
  }

  mount() {
    ensureStyles();
    this.root = h("div", { class: "screen lobby-screen tournaments-screen" });
    replace(this.app, this.root);
    this.render();
    this.refresh();
  }

  destroy() {}

  async refresh() {
    try {
      this.tournaments = await tournamentApi.list();
      this.invitations = this.ctx.user ? await tournamentApi.invitations() : [];
    } catch (error) {
      this.message = errorText(error);
    }
    this.render();
  }

  render() {
    // The list may arrive while the player types in the form (a slow server): the redraw keeps
    // what he typed, even before a change event committed it, and where he was typing.
    const old = this.root.querySelector('form[data-form="tournament"]');
    if (old) this.readForm(old);
    const focused = this.root.contains(document.activeElement) ? document.activeElement : null;
    const name = focused && focused.getAttribute("name")
      ? `[name="${focused.getAttribute("name")}"]${focused.type === "radio" ? `[value="${focused.value}"]` : ""}`
      : null;
    const caret = focused && typeof focused.selectionStart === "number" ? [focused.selectionStart, focused.selectionEnd] : null;
    replace(this.root,
      topbar(this.ctx, t("tour.title")),
      h("div", { class: "lobby-grid" },
        this.invitations.length ? h("section", { class: "panel tour-invitations" }, h("h2", { text: t("tour.invitations") }), this.invitationList()) : null,
        h("section", { class: "panel" }, h("h2", { text: t("tour.list") }), this.list()),
        h("section", { class: "panel" }, h("h2", { text: t("tour.new") }), this.createForm()),
      ),
    );
    const again = name ? this.root.querySelector(`form[data-form="tournament"] ${name}`) : null;
    if (again) {
      again.focus();
      if (caret && typeof again.setSelectionRange === "function") again.setSelectionRange(caret[0], caret[1]);
    }
  }

  invitationList() {
    // Pairs that named this player as partner and wait for the answer (on the tournament's page).
    return h("ul", { class: "rows" }, this.invitations.map((inv) =>
      h("li", { class: "row", dataset: { invitation: inv.tournament } },
        h("div", { class: "row-main" },
          h("span", { class: "row-title", text: inv.name }),
          h("span", { class: "muted", text: t("tour.invited_you", { by: inv.by }) }),
        ),
        h("div", { class: "row-actions" },
          h("button", { type: "button", class: "btn small primary", dataset: { cmd: "open" }, onclick: () => this.ctx.navigate(`/?tournament=${encodeURIComponent(inv.tournament)}`) }, t("tour.open")),
        ),
      )));
  }

  list() {
    if (!this.tournaments.length) return h("p", { class: "muted", text: t("tour.none") });
    return h("ul", { class: "rows" }, this.tournaments.map((tour) =>
      h("li", { class: "row", dataset: { tournament: tour.id } },
        h("div", { class: "row-main" },
          h("span", { class: "row-title", text: tour.name }),
          h("span", { class: "muted", text: `${t(`tour.status.${tour.status}`)} · ${startText(tour)}` }),
          h("span", { class: "muted small", text: describeTournament(tour) }),
        ),
        h("div", { class: "row-actions" },
          h("button", { type: "button", class: "btn small primary", dataset: { cmd: "open" }, onclick: () => this.ctx.navigate(`/?tournament=${encodeURIComponent(tour.id)}`) }, t("tour.open")),
        ),
      )));
  }

  createForm() {
    const f = this.form;
    const radio = (name, value, label) =>
      h("label", { class: "pill" }, h("input", { type: "radio", name, value, checked: f[name] === value }), h("span", { text: label }));
    const form = h("form", { class: "create-form", dataset: { form: "tournament" } },
      h("label", { class: "field" }, h("span", { text: t("tour.form.name") }), h("input", { name: "name", maxlength: "80", value: f.name })),
      h("fieldset", {}, h("legend", { text: t("tour.form.start") }),
        radio("start", "sitgo", t("tour.start.sitgo")),
        radio("start", "scheduled", t("tour.start.scheduled")),
      ),
      f.start === "sitgo"
        ? h("label", { class: "field" }, h("span", { text: t("tour.form.size") }),
          h("select", { name: "size" }, [4, 6, 8, 10, 12, 16, 20, 24, 32].map((n) => h("option", { value: String(n), selected: n === f.size, text: String(n) }))))
        : h("label", { class: "field" }, h("span", { text: t("tour.form.starts_at") }),
          h("input", { name: "startsAt", type: "datetime-local", required: true, value: f.startsAt })),
      h("label", { class: "field" }, h("span", { text: t("tour.form.kind") }),
        h("select", { name: "kind" }, KINDS.map((k) => h("option", { value: k, selected: k === f.kind, text: t(`tour.kind.${k}`) })))),
      h("label", { class: "field" }, h("span", { text: t("tour.form.system") }),
        h("select", { name: "system" }, (f.kind === "individual_four" ? ["danish"] : SYSTEMS).map((s) => h("option", { value: s, selected: s === f.system, text: t(`tour.system.${s}`) })))),
      f.system === "danish"
        ? h("label", { class: "field" }, h("span", { text: t("tour.form.rounds") }),
          h("select", { name: "rounds" }, [1, 2, 3, 4, 5, 6].map((n) => h("option", { value: String(n), selected: n === f.rounds, text: String(n) }))))
        : null,
      f.system === "danish" && f.rounds > 1
        ? h("label", { class: "field" }, h("span", { text: t("tour.form.elimination.label") }),
          h("input", { name: "elimination", value: f.elimination, placeholder: "1:7, 2:14", title: t("tour.form.elimination_hint"), "aria-label": t("tour.form.elimination.label") }),
          h("span", { class: "hint", dataset: { help: "elimination" }, text: t("tour.form.elimination.help") }),
          h("span", { class: "muted small", text: t("tour.rule_ref", { rule: "T21" }) }))
        : null,
      f.system !== "knockout"
        ? h("label", { class: "field check" },
          h("input", { type: "checkbox", name: "sameCards", checked: f.sameCards }),
          h("span", { text: t("tour.same_cards") }),
          h("span", { class: "hint", dataset: { help: "same-cards" }, text: t("tour.form.same_cards.help") }))
        : null,
      h("label", { class: "field" }, h("span", { text: t("tour.form.smazzate") }),
        h("select", { name: "smazzate" }, [1, 2, 3, 4].map((n) => h("option", { value: String(n), selected: n === f.smazzate, text: t("cfg.smazzate", { n }) })))),
      h("label", { class: "field" }, h("span", { text: t("create.clock") }),
        h("select", { name: "clock" }, CLOCKS.map((c) => h("option", { value: c.key, selected: c.key === f.clock, text: c.round ? t("create.clock.minutes", { minutes: c.round / 60, each: clockEach(c.round, 2), seconds: c.hand }) : t("cfg.no_clock") })))),
      h("fieldset", {}, h("legend", { text: t("tour.form.absent") }),
        radio("absent", "bot", t("tour.absent.bot")),
        radio("absent", "forfeit", t("tour.absent.forfeit")),
      ),
      h("button", { type: "submit", class: "btn primary wide", text: t("tour.form.submit") }),
      h("p", { class: "form-error", role: "alert", text: this.message }),
    );
    form.addEventListener("change", (e) => {
      this.readForm(form);
      if (e.target && ["start", "system", "kind", "rounds"].includes(e.target.name)) this.render();
    });
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.readForm(form);
      this.create();
    });
    return form;
  }

  readForm(form) {
    const data = new FormData(form);
    const f = this.form;
    f.name = String(data.get("name") ?? f.name);
    f.start = String(data.get("start") || f.start);
    if (data.get("size")) f.size = Number(data.get("size"));
    if (data.get("startsAt") !== null) f.startsAt = String(data.get("startsAt"));
    f.kind = String(data.get("kind") || f.kind);
    f.system = f.kind === "individual_four" ? "danish" : String(data.get("system") || f.system);
    if (data.get("rounds")) f.rounds = Number(data.get("rounds"));
    if (data.get("smazzate")) f.smazzate = Number(data.get("smazzate"));
    f.clock = String(data.get("clock") || f.clock);
    f.absent = String(data.get("absent") || f.absent);
    if (data.get("elimination") !== null) f.elimination = String(data.get("elimination"));
    f.sameCards = f.system !== "knockout" && data.get("sameCards") !== null;
  }

  async create() {
    const f = this.form;
    const clock = CLOCKS.find((c) => c.key === f.clock) || CLOCKS[0];
    const body = { name: f.name, start: f.start, kind: f.kind, system: f.system, smazzate: f.smazzate, absent: f.absent };
    if (f.start === "sitgo") body.size = f.size;
    else body.starts_at = f.startsAt ? new Date(f.startsAt).toISOString() : null;
    if (f.system === "danish") body.rounds = f.rounds;
    if (f.sameCards) body.same_cards = true;
    if (f.system === "danish" && f.rounds > 1 && f.elimination.trim()) {
      const elimination = parseElimination(f.elimination);
      if (!elimination) {
        this.message = t("tour.form.elimination_hint");
        this.render();
        return;
      }
      body.elimination = elimination;
    }
    if (clock.round) {
      body.round_seconds = clock.round;
      body.hand_seconds = clock.hand;
    }
    try {
      const tour = await tournamentApi.create(body);
      this.ctx.navigate(`/?tournament=${encodeURIComponent(tour.id)}`);
    } catch (error) {
      this.message = errorText(error);
      this.render();
    }
  }
}

// ------------------------------------------------------------------------ one tournament

export class TournamentScreen {
  constructor(app, ctx, id) {
    this.app = app;
    this.ctx = ctx;
    this.id = id;
    this.tour = null;
    this.message = "";
    this.myTable = null;
    // A same-cards round's commitments as first received ("round:deal" -> commitment): the
    // reveal is checked against them, not against what the reveal itself says.
    this.scKept = {};
    this.botLevel = "greedy";
    this.botCount = 1;
    this.partnerName = "";
    this.conn = null;
  }

  mount() {
    ensureStyles();
    this.root = h("div", { class: "screen lobby-screen tournament-screen", dataset: { tournament: this.id } });
    replace(this.app, this.root);
    this.render();
    this.load();
    this.conn = new Connection({
      onOpen: () => this.conn.send({ type: "watch_tournament", tournament: this.id }),
      onMessage: (message) => this.onMessage(message),
      onStatus: (status) => {
        this.root.dataset.conn = status;
        if (status === "unauthenticated") this.ctx.navigate("/");
      },
    });
    this.conn.connect();
  }

  destroy() {
    if (this.conn) this.conn.close();
  }

  async load() {
    try {
      this.tour = await tournamentApi.get(this.id);
    } catch (error) {
      this.message = errorText(error);
    }
    this.render();
  }

  onMessage(message) {
    if (message.type === "tournament" && message.tournament && message.tournament.id === this.id) {
      this.tour = message.tournament;
      this.root.dataset.pushes = String(Number(this.root.dataset.pushes || 0) + 1);
      this.render();
    } else if (message.type === "tournament_notice" && message.tournament === this.id) {
      if (message.notice === "table") this.myTable = message.table;
      else this.message = t(`tour.notice.${message.notice}`, { by: message.by || "" });
      // A partner's answer changes the entrants: fetch the tournament again.
      if (message.notice.startsWith("partner_")) this.load();
      this.render();
    } else if (message.type === "error" && message.code === "no_such_tournament") {
      this.message = t("tour.err.no_such_tournament");
      this.render();
    }
  }

  me() {
    const user = this.ctx.user;
    return this.tour && user ? this.tour.entrants.find((e) => e.user_id === user.id || e.partner_id === user.id) : null;
  }

  render() {
    const tour = this.tour;
    // Every push redraws the page: what the player is typing (kept in this.partnerName, ...)
    // must survive it, and so must the focus.
    const focused = this.root.contains(document.activeElement) ? document.activeElement.getAttribute("name") : null;
    replace(this.root,
      topbar(this.ctx, tour ? tour.name : t("tour.title")),
      h("div", { class: "tour-grid" },
        h("p", { class: "tour-back" },
          h("a", { href: "/?tournaments", onclick: (e) => { e.preventDefault(); this.ctx.navigate("/?tournaments"); } }, t("tour.back"))),
        this.message ? h("p", { class: "notice warn", role: "status", text: this.message }) : null,
        tour ? this.body(tour) : h("p", { class: "muted", text: t("app.loading") }),
      ),
    );
    if (focused) {
      const again = this.root.querySelector(`[name="${focused}"]`);
      if (again) again.focus();
    }
  }

  body(tour) {
    const mine = this.me();
    const myTable = this.myTable || this.currentTableOf(mine);
    return [
      h("section", { class: "panel tour-head" },
        h("div", { class: "tour-status", dataset: { status: tour.status } }, t(`tour.status.${tour.status}`)),
        h("p", { text: startText(tour) }),
        h("p", { class: "muted", text: describeTournament(tour) }),
        h("details", { class: "tour-vp" },
          h("summary", { text: t("tour.vp_table", { table: tour.vp_table }) }),
          h("table", { class: "tour-table" },
            h("thead", {}, h("tr", {}, h("th", { text: "MP" }), h("th", { text: t("tour.col.winner") }), h("th", { text: t("tour.col.loser") }))),
            h("tbody", {}, (tour.vp_rows || []).map(([range, win, lose]) =>
              h("tr", {}, h("td", { text: range }), h("td", { class: "num", text: String(win) }), h("td", { class: "num", text: String(lose) })))))),
        tour.note ? h("p", { class: "muted", text: tour.note }) : null,
        mine && mine.status === "excluded" ? h("p", { class: "notice warn", text: t("tour.you_excluded") }) : null,
        mine && mine.status === "unconfirmed" ? h("p", { class: "notice warn", text: t("tour.you_unconfirmed") }) : null,
        myTable && tour.status === "running"
          ? h("p", { class: "tour-mytable" },
            h("a", { class: "btn primary", href: `/?table=${encodeURIComponent(myTable)}`, dataset: { cmd: "my-table" }, onclick: (e) => { e.preventDefault(); this.ctx.navigate(`/?table=${encodeURIComponent(myTable)}`); } }, t("tour.go_to_table")))
          : null,
        this.registration(tour, mine),
      ),
      h("section", { class: "panel tour-standings" }, h("h2", { text: tour.status === "finished" ? t("tour.final") : t("tour.standings") }), this.standings(tour)),
      h("section", { class: "panel tour-rounds" }, h("h2", { text: t("tour.rounds") }), this.rounds(tour)),
      h("section", { class: "panel tour-entrants" }, h("h2", { text: t("tour.entrants", { n: tour.entrant_count }) }), this.entrants(tour)),
    ];
  }

  currentTableOf(mine) {
    if (!mine || !this.tour.rounds.length) return null;
    const last = this.tour.rounds[this.tour.rounds.length - 1];
    for (const table of last.tables) {
      if (table.result || table.finished) continue;
      if (table.lines.some((line) => line.some((e) => e.id === mine.id))) return table.table_id;
    }
    return null;
  }

  registration(tour, mine) {
    if (tour.status !== "registering") return null;
    const actions = [];
    if (!tour.registration_open) actions.push(h("p", { class: "muted", text: t("tour.closed") }));
    else if (mine && mine.status === "invited" && this.ctx.user && mine.partner_id === this.ctx.user.id) {
      // Named as partner: nobody plays a tournament without agreeing to it.
      const by = mine.name.split(" & ")[0];
      actions.push(
        h("p", { class: "notice", dataset: { invited: "yes" }, text: t("tour.invited_you", { by }) }),
        h("button", { type: "button", class: "btn primary", dataset: { cmd: "confirm" }, onclick: () => this.act(() => tournamentApi.confirm(this.id)) }, t("tour.confirm")),
        h("button", { type: "button", class: "btn", dataset: { cmd: "decline" }, onclick: () => this.act(() => tournamentApi.unregister(this.id)) }, t("tour.decline")),
      );
    } else if (mine) {
      if (mine.status === "invited") actions.push(h("p", { class: "muted", dataset: { awaiting: "yes" }, text: t("tour.awaiting_partner") }));
      actions.push(h("button", { type: "button", class: "btn", dataset: { cmd: "unregister" }, onclick: () => this.act(() => tournamentApi.unregister(this.id)) }, t("tour.unregister")));
    }
    else {
      const pairs = tour.settings.kind === "pairs";
      const partner = pairs
        ? h("input", {
          name: "partner", maxlength: "24", value: this.partnerName, placeholder: t("tour.partner"), "aria-label": t("tour.partner"),
          oninput: (e) => { this.partnerName = e.target.value; },
        })
        : null;
      actions.push(partner, h("button", {
        type: "button", class: "btn primary", dataset: { cmd: "register" },
        onclick: () => this.act(async () => {
          const registered = await tournamentApi.register(this.id, pairs ? this.partnerName.trim() : null);
          this.partnerName = "";
          return registered;
        }),
      }, t(pairs ? "tour.register_pair" : "tour.register")));
    }
    if (tour.registration_open && this.ctx.user && tour.created_by === this.ctx.user.id) {
      const levels = this.ctx.info ? this.ctx.info.bots.filter((b) => b !== "cmd") : ["greedy"];
      actions.push(h("div", { class: "tour-bots" },
        h("select", { name: "level", "aria-label": t("tour.bot_level"), onchange: (e) => { this.botLevel = e.target.value; } },
          levels.map((l) => h("option", { value: l, selected: l === this.botLevel, text: botLabel(l) }))),
        h("input", { name: "count", type: "number", min: "1", max: "64", value: String(this.botCount), "aria-label": t("tour.bot_count"), onchange: (e) => { this.botCount = Math.max(1, Number(e.target.value) || 1); } }),
        h("button", { type: "button", class: "btn", dataset: { cmd: "bots" }, onclick: () => this.act(() => tournamentApi.bots(this.id, this.botLevel, this.botCount)) }, t("tour.add_bots")),
      ));
    }
    return h("div", { class: "tour-actions" }, actions);
  }

  async act(work) {
    try {
      this.tour = await work();
      this.message = "";
    } catch (error) {
      this.message = errorText(error);
    }
    this.render();
  }

  standings(tour) {
    if (!tour.standings.length) return h("p", { class: "muted", text: t("tour.no_standings") });
    const me = this.me();
    return h("table", { class: "tour-table standings" },
      h("thead", {}, h("tr", {},
        h("th", { text: t("tour.col.place") }), h("th", { text: t("tour.col.name") }),
        h("th", { text: "VP" }), h("th", { text: "MP" }), h("th", { text: t("tour.col.played") }))),
      h("tbody", {}, tour.standings.map((row) => {
        const out = (tour.eliminated || {})[row.entrant];
        return h("tr", { class: me && me.id === row.entrant ? "me" : null, dataset: out ? { entrant: row.entrant, eliminated: String(out) } : { entrant: row.entrant } },
          h("td", { text: row.place === null ? "–" : `${row.place}${row.tied ? "=" : ""}` }),
          h("td", { text: out ? `${row.name} (${t("tour.eliminated_after", { n: out })})` : row.name }),
          h("td", { class: "num", text: String(row.vp) }),
          h("td", { class: "num", text: String(row.mp) }),
          h("td", { class: "num", text: String(row.played) }),
        );
      })),
    );
  }

  rounds(tour) {
    if (!tour.rounds.length) return h("p", { class: "muted", text: t("tour.no_rounds") });
    return [...tour.rounds].reverse().map((round) =>
      h("div", { class: "tour-round", dataset: { round: String(round.number), status: round.status } },
        h("h3", { text: t("tour.round", { n: round.number, total: tour.rounds_total || "?" }) + (round.status === "playing" ? ` · ${t("tour.playing")}` : "") }),
        round.same_cards ? this.sameCardsRound(tour, round) : null,
        h("ul", { class: "rows" },
          round.tables.map((table) => this.tableRow(table, round)),
          round.byes.map((bye) => h("li", { class: "row bye" }, h("span", { text: t("tour.bye", { name: bye.name }) }))),
        ),
      ));
  }

  /** A same-cards round: its commitments (published at its start), and once it is over a
   * link per deal to every table's play of it side by side. */
  sameCardsRound(tour, round) {
    const sc = round.same_cards;
    const over = round.status === "finished";
    return h("div", { class: "sc-round", dataset: { sameCards: over ? "revealed" : "committed" } },
      h("p", { class: "muted small", text: over ? t("tour.sc.revealed") : t("tour.sc.hidden") }),
      this.sameCardsCheck(round),
      h("details", { class: "fairness" },
        h("summary", { text: t("tour.sc.commitments") }),
        sc.deals.map((d) => h("p", { class: "mono small", dataset: { deal: String(d.number) } }, `${d.number}. ${d.commitment}`, d.salt ? ` · ${t("sheet.salt")}: ${d.salt}` : ""))),
      over
        ? h("p", { class: "sc-links" }, sc.deals.map((d) => {
          const url = sameCardsUrl(tour.id, round.number, d.number);
          return h("a", { class: "btn small", href: url, dataset: { link: "same-cards", deal: String(d.number) }, onclick: (e) => { e.preventDefault(); this.ctx.navigate(url); } }, t("tour.sc.side_by_side", { n: d.number }));
        }))
        : null,
    );
  }

  /** Every revealed deck of a same-cards round checked here (SHA-256 of deck and salt against
   * the commitment this page kept from before the reveal): "verified" or a loud warning. */
  sameCardsCheck(round) {
    const deals = round.same_cards.deals;
    for (const d of deals) {
      const key = `${round.number}:${d.number}`;
      if (!(key in this.scKept)) this.scKept[key] = d.commitment;
    }
    const revealed = deals.filter((d) => d.deck && d.salt);
    if (!revealed.length) return null;
    const bad = revealed.filter((d) => {
      const kept = this.scKept[`${round.number}:${d.number}`];
      return d.commitment !== kept || commitmentOf(d.deck, d.salt) !== kept;
    });
    if (bad.length) {
      return h("div", { class: "fair-warning", role: "alert", dataset: { fair: "tampered" } },
        h("strong", { text: t("tour.sc.tampered", { deals: bad.map((d) => d.number).join(", ") }) }));
    }
    return h("p", { class: "fair-ok", dataset: { fair: "verified" }, text: `✓ ${t("tour.sc.verified", { n: revealed.length })}` });
  }

  tableRow(table, round) {
    const names = table.lines.map((line) => line.map((e) => e.name).join(" & "));
    const result = table.result;
    const sameCards = Boolean(round && round.same_cards);
    const hidden = sameCards && round.status !== "finished";
    let outcome = hidden && table.finished ? t("tour.sc.finished") : t("tour.in_play");
    if (result) {
      const against = result.comparison ? ` ${t("tour.sc.vs_field")}` : "";
      outcome = `${result.totals[0]} – ${result.totals[1]} ·${against} MP ${result.mp[0]} / ${result.mp[1]} · VP ${result.vp[0]} – ${result.vp[1]}`;
      if (result.ended === "timeout") outcome += ` · ${t("tour.timeout")}`;
      if (result.ended === "forfeit") outcome += ` · ${t("tour.forfeit")}`;
    }
    return h("li", { class: "row", dataset: { table: table.table_id || "" } },
      h("div", { class: "row-main" },
        h("span", { class: "row-title", text: `${t("tour.table_n", { n: table.number })}: ${names[0]} – ${names[1]}` }),
        h("span", { class: "muted", text: outcome }),
        result && result.comparison ? this.comparisonTable(result) : null,
      ),
      // A table of a same-cards round is not watched while the round is played (the others
      // play the same cards): the player's own link is "go to your table" above.
      table.table_id && !hidden
        ? h("div", { class: "row-actions" },
          h("a", { class: "btn small ghost", href: `/?table=${encodeURIComponent(table.table_id)}`, onclick: (e) => { e.preventDefault(); this.ctx.navigate(`/?table=${encodeURIComponent(table.table_id)}`); } }, result ? t("tour.see_table") : t("lobby.watch")))
        : null,
    );
  }

  /** Each deal of a compared table: line 0's MP, the field's average and the difference. */
  comparisonTable(result) {
    return h("details", { class: "sc-detail" },
      h("summary", { text: t("tour.sc.per_deal") }),
      h("table", { class: "tour-table sc-compare" },
        h("thead", {}, h("tr", {},
          h("th", { text: t("tour.sc.deal") }), h("th", { text: "MP" }),
          h("th", { text: t("sc.field") }), h("th", { text: t("sc.difference") }))),
        h("tbody", {}, result.comparison.map((c) => h("tr", { dataset: { deal: String(c.deal) } },
          h("td", { text: String(c.deal) }),
          h("td", { class: "num", text: signedMp(c.mp) }),
          h("td", { class: "num", text: signedMp(c.field) }),
          h("td", { class: "num", text: signedMp(c.difference) })))),
        h("tfoot", {}, h("tr", {},
          h("th", { colspan: "3", text: t("tour.sc.sum") }),
          h("td", { class: "num", text: `${signedMp(result.exact)} → ${signedMp(result.mp[0])}` })))));
  }

  entrants(tour) {
    if (!tour.entrants.length) return h("p", { class: "muted", text: t("tour.no_entrants") });
    return h("ol", { class: "tour-entrant-list" }, tour.entrants.map((e) =>
      h("li", { dataset: { status: e.status } }, e.name, ENTRANT_TAGS.has(e.status) ? ` (${t(`tour.entrant.${e.status}`)})` : "")));
  }
}

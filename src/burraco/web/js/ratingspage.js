// Ratings (docs/ratings.md): the leaderboards, /?ratings=MODE[&month=YYYY-MM], and a player's
// profile, /?player=NAME, with his rating per mode, its chart and his last rated matches. Both
// are public (no login needed), as a chess site's are.

import { api, recordUrl } from "./api.js";
import { h, replace, svg } from "./dom.js";
import { errorWords as errorText, language, t } from "./i18n.js";
import { pageHeader } from "./header.js";
import { botLabel, botMark, presetName, recordPlayerName } from "./tableview.js";

const MODES = ["2p", "4p", "3p"];

function thisMonth() {
  return new Date().toISOString().slice(0, 7);
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function playerLink(ctx, name) {
  const href = `/?player=${encodeURIComponent(name)}`;
  return h("a", { href, onclick: (ev) => { ev.preventDefault(); ctx.navigate(href); }, text: name });
}

export class LeaderboardScreen {
  constructor(app, ctx, mode, month) {
    this.app = app;
    this.ctx = ctx;
    this.mode = MODES.includes(mode) ? mode : "2p";
    this.month = month || null;
    this.boards = null;
    this.error = "";
  }

  mount() {
    this.root = h("div", { class: "screen ratings-screen" });
    replace(this.app, this.root);
    this.render();
    this.load();
  }

  destroy() {
    this.gone = true;
  }

  async load() {
    const wanted = `${this.mode}|${this.month}`;
    try {
      const [main, provisional] = await Promise.all([
        api.leaderboard(this.mode, { month: this.month }),
        api.leaderboard(this.mode, { month: this.month, provisional: true }),
      ]);
      if (this.gone || wanted !== `${this.mode}|${this.month}`) return;
      this.boards = { main, provisional };
      this.error = "";
    } catch (error) {
      this.error = errorText(error);
    }
    this.render();
  }

  go(mode, month) {
    this.mode = mode;
    this.month = month;
    const query = new URLSearchParams({ ratings: mode });
    if (month) query.set("month", month);
    history.replaceState(null, "", `/?${query}`);
    this.boards = null;
    this.render();
    this.load();
  }

  table(players, monthly) {
    if (!players.length) return h("p", { class: "muted", text: t(monthly ? "ratings.empty_month" : "ratings.empty") });
    return h("table", { class: "sheet ratings-table" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", text: "#" }),
        h("th", { scope: "col", text: t("ratings.player") }),
        h("th", { scope: "col", text: t("ratings.rating") }),
        h("th", { scope: "col", text: t(monthly ? "ratings.month_matches" : "ratings.matches") }),
        monthly ? h("th", { scope: "col", text: t("ratings.month_delta") }) : null,
      )),
      h("tbody", {}, players.map((p) => h("tr", { dataset: { player: p.name } },
        h("td", { text: String(p.rank) }),
        h("th", { scope: "row" }, playerLink(this.ctx, p.name), p.bot ? [" ", botMark()] : null),
        h("td", { title: t("ratings.sigma", { n: p.sigma }), text: String(p.rating) }),
        h("td", { text: String(p.matches) }),
        monthly ? h("td", { text: signed(p.delta ?? 0) }) : null,
      ))),
    );
  }

  render() {
    const monthly = Boolean(this.month);
    const tabs = h("div", { class: "tabs", role: "tablist", "aria-label": t("ratings.modes") },
      MODES.map((mode) => h("button", {
        type: "button", role: "tab", class: mode === this.mode ? "active" : "", "aria-selected": String(mode === this.mode),
        dataset: { mode }, onclick: () => this.go(mode, this.month), text: t(`ratings.mode.${mode}`),
      })));
    const period = h("div", { class: "tabs period", role: "tablist", "aria-label": t("ratings.period") },
      h("button", { type: "button", role: "tab", class: monthly ? "" : "active", "aria-selected": String(!monthly), dataset: { period: "all" }, onclick: () => this.go(this.mode, null), text: t("ratings.all_time") }),
      h("button", { type: "button", role: "tab", class: monthly ? "active" : "", "aria-selected": String(monthly), dataset: { period: "month" }, onclick: () => this.go(this.mode, thisMonth()), text: t("ratings.this_month") }),
    );
    const b = this.boards;
    replace(this.root,
      pageHeader(this.ctx, { title: t("ratings.title") }),
      h("main", { class: "ratings-page" },
        h("h1", { text: t("ratings.title") }),
        tabs, period,
        this.error ? h("p", { class: "notice error", role: "alert", text: this.error }) : null,
        b ? h("section", { class: "board", dataset: { board: "main" } },
          h("h2", { text: monthly ? t("ratings.month_title", { month: this.month }) : t("ratings.established") }),
          this.table(b.main.players, monthly)) : h("p", { class: "muted", text: t("ratings.loading") }),
        b ? h("section", { class: "board", dataset: { board: "provisional" } },
          h("h2", { text: t("ratings.provisional") }),
          h("p", { class: "muted", text: t("ratings.provisional_note") }),
          this.table(b.provisional.players, monthly)) : null,
        b ? h("section", { class: "board bots", dataset: { board: "bots" } },
          h("h2", { text: t("ratings.bots") }),
          h("p", { class: "muted", text: t("ratings.bots_note") }),
          h("ul", {}, b.main.bots.map((bot) => h("li", { dataset: { bot: bot.level } },
            t("ratings.bot", { name: t("seat.bot", { level: botLabel(bot.level) }), rating: bot.rating }))))) : null,
      ),
    );
  }
}

/** The rating history as a line: x the matches in order, y the rating (an inline SVG: a few
 * dozen points need no chart library). */
function chart(points, label) {
  const width = 560;
  const height = 160;
  const pad = 28;
  const ratings = points.map((p) => p.rating);
  const low = Math.min(...ratings) - 20;
  const high = Math.max(...ratings) + 20;
  const x = (i) => pad + (points.length === 1 ? 0 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (r) => height - pad - ((r - low) * (height - 2 * pad)) / Math.max(1, high - low);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  return svg("svg", { class: "rating-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label },
    svg("line", { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, class: "axis" }),
    svg("text", { x: 2, y: y(high - 20) + 4, class: "tick" }, String(Math.round(high - 20))),
    svg("text", { x: 2, y: y(low + 20) + 4, class: "tick" }, String(Math.round(low + 20))),
    svg("polyline", { points: line, class: "rating-line" }),
    ...points.map((p, i) => svg("circle", { cx: x(i), cy: y(p.rating), r: 3, class: `dot ${p.result}` })),
  );
}

export class ProfileScreen {
  constructor(app, ctx, name) {
    this.app = app;
    this.ctx = ctx;
    this.name = name;
    this.data = null;
    this.error = "";
  }

  mount() {
    this.root = h("div", { class: "screen ratings-screen profile-screen" });
    replace(this.app, this.root);
    this.render();
    this.load();
  }

  destroy() {
    this.gone = true;
  }

  async load() {
    try {
      this.data = await api.player(this.name);
    } catch (error) {
      this.error = errorText(error);
    }
    if (!this.gone) this.render();
  }

  modeCard(rating) {
    const points = (this.data.history[rating.mode] || []);
    const last = points.slice(-10).reverse();
    const date = (iso) => new Date(iso).toLocaleDateString(language() === "it" ? "it-IT" : "en-GB");
    return h("section", { class: "mode-card", dataset: { mode: rating.mode } },
      h("h2", { text: t(`ratings.mode.${rating.mode}`) }),
      h("p", { class: "big-rating" },
        h("strong", { text: String(rating.rating) }),
        h("span", { class: "muted", text: ` ±${rating.sigma}` }),
        rating.provisional ? h("span", { class: "badge-provisional", text: t("ratings.provisional_badge") }) : null),
      h("p", { class: "muted", text: t("ratings.record", { matches: rating.matches, wins: rating.wins, draws: rating.draws, abandoned: rating.abandoned }) }),
      points.length ? chart(points, t("ratings.chart", { mode: t(`ratings.mode.${rating.mode}`) })) : null,
      last.length ? h("table", { class: "sheet history-table" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col", text: t("ratings.date") }),
          h("th", { scope: "col", text: t("ratings.result") }),
          h("th", { scope: "col", text: t("ratings.rating") }),
          h("th", { scope: "col", text: t("ratings.replay") }))),
        h("tbody", {}, last.map((p) => h("tr", { dataset: { result: p.result } },
          h("td", { text: date(p.at) }),
          h("td", { text: t(`ratings.result.${p.result}`) }),
          h("td", { text: `${p.rating} (${signed(p.delta)})` }),
          h("td", {}, h("a", { href: `/?replay=${encodeURIComponent(p.table)}&match=${p.match}`, text: t("ratings.replay") })),
        )))) : null,
    );
  }

  statsTable(stats) {
    const pct = (x) => `${Math.round(x * 100)}%`;
    const rows = [
      ["profile.matches", (st) => String(st.matches)],
      ["profile.wins", (st) => `${st.wins} (${pct(st.matches ? st.wins / st.matches : 0)})`],
      ["profile.smazzate", (st) => String(st.smazzate)],
      ["profile.mp", (st) => st.mp_per_smazzata.toFixed(0)],
      ["profile.clean", (st) => st.clean_per_smazzata.toFixed(2)],
      ["profile.dirty", (st) => st.dirty_per_smazzata.toFixed(2)],
      ["profile.pozzetto", (st) => pct(st.pozzetto_rate)],
      ["profile.closing", (st) => pct(st.closing_rate)],
    ];
    return h("table", { class: "sheet stats-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "" }), stats.map((st) => h("th", { scope: "col", text: t(`ratings.mode.${st.mode}`) })))),
      h("tbody", {}, rows.map(([key, value]) => h("tr", { dataset: { stat: key } },
        h("th", { scope: "row", text: t(key) }), stats.map((st) => h("td", { text: value(st) }))))),
    );
  }

  async loadMatches() {
    const f = this.filters || {};
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(f)) if (value) query.set(key, value);
    // Filters changed quickly: only the answer to the last question is shown.
    const asked = (this.asked = (this.asked || 0) + 1);
    try {
      const found = await api.playerMatches(this.name, query.toString());
      if (asked !== this.asked) return;
      this.matches = found;
      this.matchesError = "";
    } catch (error) {
      if (asked !== this.asked) return;
      this.matchesError = errorText(error);
    }
    if (!this.gone) this.render();
  }

  historyPanel() {
    const f = this.filters || {};
    // Each filter is the query parameter of its name (GET /api/players/{name}/matches); the
    // options are [value, words] pairs, "" for any.
    const select = (name, options) => h("select", { name, "aria-label": t(`profile.filter.${name}`),
      onchange: (e) => { this.filters = { ...this.filters, [name]: e.target.value }; this.loadMatches(); } },
      options.map(([value, text]) => h("option", { value, selected: (f[name] || "") === value, text })));
    const choices = (pairs) => pairs.map(([value, key]) => [value, t(key)]);
    // The rulesets the server knows (/api/info), by their names in the page's language.
    const presets = this.ctx.info ? this.ctx.info.presets : ["italian"];
    const versus = h("form", { class: "versus-form" },
      h("input", { name: "versus", value: f.versus || "", maxlength: "32", placeholder: t("profile.versus.placeholder"), "aria-label": t("profile.versus") }),
      h("button", { type: "submit", class: "btn small", text: t("profile.versus") }));
    versus.addEventListener("submit", (e) => {
      e.preventDefault();
      this.filters = { ...this.filters, versus: String(new FormData(versus).get("versus") || "").trim() };
      this.loadMatches();
    });
    const m = this.matches;
    const date = (iso) => new Date(iso).toLocaleDateString(language() === "it" ? "it-IT" : "en-GB");
    return h("section", { class: "board history", dataset: { board: "history" } },
      h("h2", { text: t("profile.history") }),
      h("div", { class: "filters" },
        select("mode", choices([["", "profile.filter.any_mode"], ["2p", "ratings.mode.2p"], ["4p", "ratings.mode.4p"], ["3p", "ratings.mode.3p"]])),
        select("rules", [["", t("profile.filter.any_rules")], ...presets.map((p) => [p, presetName(p)])]),
        select("rated", choices([["", "profile.filter.any_rated"], ["true", "profile.filter.rated"], ["false", "profile.filter.casual"]])),
        select("result", choices([["", "profile.filter.any_result"], ["win", "ratings.result.win"], ["loss", "ratings.result.loss"], ["draw", "ratings.result.draw"]])),
        versus),
      this.matchesError ? h("p", { class: "notice error", role: "alert", text: this.matchesError }) : null,
      m && m.versus ? h("p", { class: "versus", dataset: { versus: m.versus.name } },
        t("profile.versus.count", { name: m.versus.name, played: m.versus.played, won: m.versus.won, lost: m.versus.lost, drawn: m.versus.drawn })) : null,
      m && !m.matches.length ? h("p", { class: "muted", text: t("profile.no_matches") }) : null,
      m && m.matches.length ? h("table", { class: "sheet history-table" },
        h("thead", {}, h("tr", {},
          ["ratings.date", "profile.players", "profile.rules", "ratings.result", "profile.mp.short", ""].map((key) => h("th", { scope: "col", text: key ? t(key) : "" })))),
        h("tbody", {}, m.matches.map((row) => h("tr", { dataset: { table: row.table, result: row.result } },
          h("td", { text: date(row.finished_at) }),
          h("td", { text: row.players.map((p, seat) => recordPlayerName(p, seat, row.players.length)).join(" · ") }),
          h("td", { dataset: { rules: row.rules }, text: presetName(row.rules) }),
          h("td", { text: `${t(`ratings.result.${row.result}`)}${row.rated ? ` · ${t("profile.filter.rated")}` : ""}` }),
          h("td", { text: String(row.mp) }),
          h("td", {},
            h("a", { href: `/?replay=${encodeURIComponent(row.table)}&match=${row.match}`, text: t("ratings.replay") }), " ",
            h("a", { href: recordUrl(row.table, row.match), download: `burraco-${row.table}-${row.match}.toml`, dataset: { link: "record" }, text: t("profile.record") })),
        )))) : null,
    );
  }

  render() {
    const d = this.data;
    if (d && this.matches === undefined) {
      this.matches = null;
      this.loadMatches();
    }
    replace(this.root,
      pageHeader(this.ctx, { title: t("ratings.profile_title") }),
      h("main", { class: "ratings-page" },
        h("h1", {}, this.name, d && d.bot ? [" ", botMark()] : null),
        d && d.bot && d.owner ? h("p", { class: "muted", dataset: { botOwner: d.owner } }, t("bot.owner", { name: d.owner })) : null,
        h("p", {}, h("a", { href: "/?ratings=2p", onclick: (ev) => { ev.preventDefault(); this.ctx.navigate("/?ratings=2p"); }, text: t("ratings.to_boards") })),
        this.error ? h("p", { class: "notice error", role: "alert", text: this.error }) : null,
        d && !d.ratings.length ? h("p", { class: "muted", text: t("ratings.no_rated") }) : null,
        d ? h("div", { class: "mode-cards" }, d.ratings.map((r) => this.modeCard(r))) : (this.error ? null : h("p", { class: "muted", text: t("ratings.loading") })),
        d && d.stats.length ? h("section", { class: "board", dataset: { board: "stats" } }, h("h2", { text: t("profile.stats") }), this.statsTable(d.stats)) : null,
        d ? this.historyPanel() : null,
      ),
    );
  }
}

// The lobby: open tables, a new table, finished matches with their replays and records.
// (Signing in is on the first screen: firstscreen.js and authcard.js.)

import { api, recordUrl } from "./api.js";
import { h, replace } from "./dom.js";
import { errorWords, has, t } from "./i18n.js";
import { clockEach, describeConfig } from "./play.js";
import { FriendsPanel } from "./friendspanel.js";
import { QuickPlayPanel } from "./quickplaypanel.js";
import { botLabel, botMark, recordPlayerName } from "./tableview.js";

// A refusal in the page's language (i18n.js): the lobby's forms, the first screen's, the
// login card's.
export const errorText = errorWords;

export function brand() {
  return h("div", { class: "brand" },
    h("img", { src: "/img/icon.svg", alt: "", width: "36", height: "36" }),
    h("span", { class: "brand-name", text: "Burraco" }),
  );
}

export function langButton(ctx) {
  return h("button", { type: "button", class: "lang-btn", title: t("lang.switch.title"), onclick: () => ctx.toggleLanguage() }, t("lang.switch"));
}

/** The players of a finished match by line (seats i and i + 2 at four, each seat its own line
 * otherwise), as the lines of `totals`. */
function matchLines(m) {
  const lines = m.totals.length;
  const names = m.players.map((name, seat) => recordPlayerName(name, seat, m.players.length));
  return m.totals.map((_, line) => names.filter((_, seat) => seat % lines === line).join(" & "));
}

/** A finished match of the lobby's list: a line per side (winner in bold with a crown, totals,
 * T14's MP and VP, "lost on time" on the line that ran out), then who won, the smazzate scored
 * and when. After a timeout the totals may well be 0-0: the technical score says who won. */
function matchSummary(m) {
  const names = matchLines(m);
  const winner = Number.isInteger(m.winner) ? m.winner : null;
  const technical = (m.ended === "timeout" || m.ended === "forfeit") && Array.isArray(m.mp) && winner !== null;
  const signed = (n) => (n > 0 ? `+${n}` : String(n));
  const lines = names.map((name, line) => {
    const won = line === winner;
    const lost = technical && !won;
    return h("li", { class: `match-line${won ? " winner" : ""}${lost ? " lost" : ""}`, dataset: { line: String(line) } },
      won ? h("span", { class: "crown", "aria-hidden": "true", text: "♛" }) : null,
      h("span", { class: "who", text: name }),
      h("span", { class: "total", text: String(m.totals[line]) }),
      Array.isArray(m.mp) && Array.isArray(m.vp)
        ? h("span", { class: "mpvp", text: t("lobby.match.mpvp", { mp: signed(m.mp[line]), vp: m.vp[line] }) })
        : null,
      lost ? h("span", { class: "lost-label", text: t(m.ended === "timeout" ? "lobby.match.lost_timeout" : "lobby.match.lost_forfeit") }) : null,
    );
  });
  const outcome = winner !== null
    ? t("lobby.match.wins", { name: names[winner] ?? "" })
    : t(m.ended === "forfeit" ? "lobby.match.no_winner" : "lobby.match.draw");
  const facts = [];
  if (technical) facts.push(t("lobby.match.technical"));
  if (Number.isInteger(m.smazzate)) facts.push(t("lobby.match.smazzate", { n: m.smazzate }));
  facts.push(new Date(m.finished_at).toLocaleString());
  return h("div", { class: "row-main" },
    h("ul", { class: "match-lines" }, lines),
    h("span", { class: "match-facts" },
      h("strong", { class: "match-winner", text: outcome }),
      h("span", { class: "muted", text: ` · ${facts.join(" · ")}` })),
  );
}

// ----------------------------------------------------------------------------------- lobby

const LENGTHS = {
  smazzate: [1, 2, 3, 4],
  target: [505, 1005, 1505, 2005],
};
const CLOCKS = [
  { key: "none", round: null, hand: null },
  { key: "10", round: 600, hand: 60 },
  { key: "25", round: 1500, hand: 60 },
  { key: "35", round: 2100, hand: 60 },
  { key: "45", round: 2700, hand: 90 },
];

/** The value of a seat's select that keeps the seat open for a person. */
const OPEN_SEAT = "open";

export class LobbyScreen {
  constructor(app, ctx) {
    this.app = app;
    this.ctx = ctx;
    this.tables = [];
    this.matches = [];
    this.invitations = [];
    this.mine = false;
    this.message = "";
    this.form = {
      players: 2, rules: "italian", length: "smazzate", smazzate: 3, target: 2005, clock: "none", public: true,
      bots: { 1: "heuristic", 2: "heuristic", 3: "heuristic" }, opponents: "bots",
    };
  }

  mount() {
    this.root = h("div", { class: "screen lobby-screen" });
    replace(this.app, this.root);
    this.quick = new QuickPlayPanel(this.ctx); // keeps its own state across the lobby's renders
    this.friends = new FriendsPanel(this.ctx);
    this.render();
    this.refresh();
    this.timer = setInterval(() => this.refresh(), 4000);
  }

  destroy() {
    clearInterval(this.timer);
    if (this.quick) this.quick.destroy();
  }

  async refresh() {
    try {
      // Invitations change rarely: asked at the first refresh and then every eighth (~30 s).
      const askInvitations = (this.refreshes = (this.refreshes || 0) + 1) % 8 === 1;
      const [tables, matches, invitations, announced] = await Promise.all([
        api.tables(), api.matches(this.mine), askInvitations ? api.invitations() : this.invitations,
        askInvitations ? api.announcement() : this.announced]);
      this.announced = announced;
      this.presence = await api.presence();
      this.friends.refresh();
      this.tables = tables;
      this.matches = matches;
      this.invitations = invitations;
      this.renderLists();
    } catch (error) {
      if (error.status === 401) this.ctx.navigate("/");
    }
  }

  /** Learning the game: the guided first game (POST /api/lessons) and the rules page. */
  learnPanel() {
    return h("section", { class: "panel learn" },
      h("h2", { text: t("lobby.learn") }),
      h("p", { class: "muted", text: t("lesson.start.title") }),
      h("div", { class: "learn-actions" },
        h("button", { type: "button", class: "btn primary", dataset: { cmd: "lesson" }, onclick: () => this.startLesson() }, t("lesson.start")),
        h("a", { class: "btn ghost", href: "/?rules", dataset: { cmd: "rules" }, onclick: (e) => { e.preventDefault(); this.ctx.navigate("/?rules"); } }, t("learn.link")),
      ),
    );
  }

  async startLesson() {
    try {
      const table = await api.lesson();
      this.ctx.navigate(`/?table=${encodeURIComponent(table.id)}`);
    } catch (error) {
      this.message = errorText(error);
      this.render();
    }
  }

  render() {
    const user = this.ctx.user;
    replace(this.root,
      h("header", { class: "topbar lobby-top" },
        brand(),
        h("span", { class: "spacer" }),
        user.guest
          ? h("span", { class: "user-name", text: t("lobby.guest_as", { name: user.name }) })
          : h("a", { class: "user-name", href: `/?player=${encodeURIComponent(user.name)}`, title: t("ratings.profile_title"), onclick: (e) => { e.preventDefault(); this.ctx.navigate(`/?player=${encodeURIComponent(user.name)}`); } }, user.name),
        user.guest ? null : h("a", { class: "btn ghost small", href: "/?account", dataset: { cmd: "account" }, onclick: (e) => { e.preventDefault(); this.ctx.navigate("/?account"); } }, t("account.title")),
        h("a", { class: "btn ghost small", href: "/?ratings=2p", dataset: { cmd: "ratings" }, onclick: (e) => { e.preventDefault(); this.ctx.navigate("/?ratings=2p"); } }, t("ratings.title")),
        h("a", { class: "btn ghost small", href: "/?tournaments", dataset: { cmd: "tournaments" }, onclick: (e) => { e.preventDefault(); this.ctx.navigate("/?tournaments"); } }, t("tour.link")),
        h("a", { class: "btn ghost small", href: "/?club", dataset: { cmd: "clubs" }, onclick: (e) => { e.preventDefault(); this.ctx.navigate("/?club"); } }, t("club.link")),
        h("button", { type: "button", class: "btn ghost small", dataset: { cmd: "logout" }, onclick: () => this.ctx.logout() }, t("auth.logout")),
        langButton(this.ctx),
      ),
      h("p", { class: "lobby-presence muted", role: "status" }),
      h("div", { class: "lobby-announcement" }),
      h("div", { class: "lobby-invitations", role: "status" }),
      h("div", { class: "lobby-grid" },
        this.quick.el(),
        this.friends.el(),
        h("section", { class: "panel new-table" }, h("h2", { text: t("lobby.new") }), this.newTableForm()),
        this.learnPanel(),
        h("section", { class: "panel" }, h("h2", { text: t("lobby.tables") }), h("div", { class: "table-list" })),
        h("section", { class: "panel" },
          h("div", { class: "panel-head" },
            h("h2", { text: t("lobby.matches") }),
            h("label", { class: "check" },
              h("input", {
                type: "checkbox", checked: this.mine, onchange: (e) => {
                  this.mine = e.target.checked;
                  this.refresh();
                },
              }),
              t("lobby.mine"),
            ),
          ),
          h("div", { class: "match-list" }),
        ),
      ),
    );
    this.renderLists();
  }

  newTableForm() {
    const f = this.form;
    const presets = this.ctx.info ? this.ctx.info.presets : ["italian"];
    const levels = this.ctx.info ? this.ctx.info.bots : ["heuristic"];
    const radio = (name, value, label, checked) =>
      h("label", { class: "pill" },
        h("input", { type: "radio", name, value: String(value), checked }),
        h("span", { text: label }),
      );
    const form = h("form", { class: "create-form", dataset: { form: "create" } },
      h("fieldset", {}, h("legend", { text: t("create.players") }),
        radio("players", 2, t("create.players.2"), f.players === 2),
        // RULES.md 3.5: three players, each on his own.
        radio("players", 3, t("create.players.3"), f.players === 3),
        radio("players", 4, t("create.players.4"), f.players === 4),
      ),
      h("label", { class: "field" }, h("span", { text: t("create.rules") }),
        h("select", { name: "rules" }, presets.map((p) => h("option", { value: p, selected: p === f.rules, text: has(`preset.${p}`) ? t(`preset.${p}`) : p })))),
      h("fieldset", {}, h("legend", { text: t("create.length") }),
        radio("length", "smazzate", t("create.length.smazzate"), f.length === "smazzate"),
        radio("length", "target", t("create.length.target"), f.length === "target"),
        f.length === "smazzate"
          ? h("select", { name: "smazzate", "aria-label": t("create.length.smazzate") }, LENGTHS.smazzate.map((n) => h("option", { value: String(n), selected: n === f.smazzate, text: t("cfg.smazzate", { n }) })))
          : h("select", { name: "target", "aria-label": t("create.length.target") }, LENGTHS.target.map((n) => h("option", { value: String(n), selected: n === f.target, text: t("cfg.target", { n }) }))),
      ),
      h("label", { class: "field" }, h("span", { text: t("create.clock") }),
        h("select", { name: "clock" }, CLOCKS.map((c) => h("option", { value: c.key, selected: c.key === f.clock, text: c.round ? t("create.clock.minutes", { minutes: c.round / 60, each: clockEach(c.round, f.players), seconds: c.hand }) : t("cfg.no_clock") })))),
      h("fieldset", {}, h("legend", { text: t("create.opponents") }),
        radio("opponents", "bots", t("create.opponents.bots"), f.opponents === "bots"),
        radio("opponents", "people", t("create.opponents.people"), f.opponents === "people"),
      ),
      f.opponents === "bots"
        ? h("div", { class: "bot-seats" },
          Array.from({ length: f.players - 1 }, (_, i) => i + 1).map((seat) =>
            h("label", { class: "field" },
              h("span", { text: f.players === 4 && seat === 2 ? t("create.bot.partner") : t("create.bot.seat", { n: seat + 1 }) }),
              h("select", { name: `bot${seat}` }, [
                ...levels.map((level) => h("option", { value: level, selected: level === f.bots[seat], text: t("seat.bot", { level: botLabel(level) }) })),
                // Mixed tables: a seat may stay open for a person while the others get bots.
                h("option", { value: OPEN_SEAT, selected: f.bots[seat] === OPEN_SEAT, text: t("create.seat.open") }),
              ]),
            )))
        : null,
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "public", checked: f.public }), t("create.public")),
      this.ratedField(f),
      h("button", { type: "submit", class: "btn primary wide", text: t("create.submit") }),
      h("p", { class: "form-error", role: "alert", text: this.message }),
    );
    form.addEventListener("change", (e) => {
      this.readForm(form);
      const name = e.target && e.target.name;
      // Choices that change other fields (the seats, the length's control, whether the match
      // can be rated) redraw the form; the focus stays on the field just changed.
      if (!["players", "length", "opponents", "smazzate"].includes(name)) return;
      const replacement = this.newTableForm();
      form.replaceWith(replacement);
      const again = replacement.querySelector(`input[name="${name}"][value="${e.target.value}"]`)
        || replacement.querySelector(`select[name="${name}"]`);
      if (again) again.focus();
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
    f.players = Number(data.get("players") || f.players);
    f.rules = String(data.get("rules") || f.rules);
    f.length = String(data.get("length") || f.length);
    if (data.get("smazzate")) f.smazzate = Number(data.get("smazzate"));
    if (data.get("target")) f.target = Number(data.get("target"));
    f.clock = String(data.get("clock") || f.clock);
    f.opponents = String(data.get("opponents") || f.opponents);
    f.public = data.get("public") !== null;
    f.rated = data.get("rated") !== null;
    for (const seat of [1, 2, 3]) if (data.get(`bot${seat}`)) f.bots[seat] = String(data.get(`bot${seat}`));
  }

  async create() {
    const f = this.form;
    const clock = CLOCKS.find((c) => c.key === f.clock) || CLOCKS[0];
    const body = { rules: f.rules, players: f.players, public: f.public, seat: 0, bots: {} };
    if (f.rated && this.mayRate(f)) body.rated = true;
    if (f.length === "target") body.target = f.target;
    else body.smazzate = f.smazzate;
    if (clock.round) {
      body.round_seconds = clock.round;
      body.hand_seconds = clock.hand;
    }
    if (f.opponents === "bots") {
      for (let seat = 1; seat < f.players; seat++) if (f.bots[seat] !== OPEN_SEAT) body.bots[seat] = f.bots[seat];
    }
    try {
      const table = await api.create(body);
      this.ctx.navigate(`/?table=${encodeURIComponent(table.id)}`);
    } catch (error) {
      this.message = errorText(error);
      this.render();
    }
  }

  /** A rated match (docs/ratings.md): registered players only, to a target or of 3 smazzate
   * or more; otherwise the box is off and says why. */
  mayRate(f) {
    return !this.ctx.user.guest && (f.length === "target" || f.smazzate >= 3);
  }

  ratedField(f) {
    const why = this.ctx.user.guest ? t("create.rated.guest") : this.mayRate(f) ? t("create.rated.hint") : t("create.rated.short");
    return h("label", { class: "check", title: why },
      h("input", { type: "checkbox", name: "rated", checked: Boolean(f.rated) && this.mayRate(f), disabled: !this.mayRate(f), "aria-describedby": "rated-why" }),
      t("create.rated"),
      h("small", { id: "rated-why", class: "muted field-note", text: ` ${why}` }));
  }

  renderLists() {
    // A pairs tournament waits for this player's answer: say so where he is.
    const invites = this.root.querySelector(".lobby-invitations");
    if (invites) {
      replace(invites, this.invitations.map((inv) =>
        h("p", { class: "notice", dataset: { invitation: inv.tournament } },
          t("tour.invited_you_in", { by: inv.by, name: inv.name }), " ",
          h("a", { href: `/?tournament=${encodeURIComponent(inv.tournament)}`, onclick: (e) => { e.preventDefault(); this.ctx.navigate(`/?tournament=${encodeURIComponent(inv.tournament)}`); } }, t("tour.answer")))));
    }
    const here = this.root.querySelector(".lobby-presence");
    if (here && this.presence) {
      here.textContent = t("lobby.presence", this.presence);
    }
    const banner = this.root.querySelector(".lobby-announcement");
    if (banner) {
      // An administrator's announcement of the last day (docs/moderation.md).
      const a = this.announced;
      const fresh = a && a.text && Date.now() / 1000 - a.at < 24 * 3600;
      replace(banner, fresh ? h("p", { class: "notice warn", role: "status", text: t("announcement", { text: a.text }) }) : null);
    }
    const list = this.root.querySelector(".table-list");
    if (list) {
      const rows = this.tables.map((table) => this.tableRow(table));
      replace(list, rows.length ? h("ul", { class: "rows" }, rows) : h("p", { class: "muted", text: t("lobby.no_tables") }));
    }
    const matches = this.root.querySelector(".match-list");
    if (matches) {
      const rows = this.matches.slice(0, 30).map((m) =>
        h("li", { class: "row", dataset: { match: `${m.table}:${m.match}`, ended: m.ended } },
          matchSummary(m),
          h("div", { class: "row-actions" },
            h("button", { type: "button", class: "btn small", dataset: { cmd: "replay" }, onclick: () => this.ctx.navigate(`/?replay=${encodeURIComponent(m.table)}&match=${m.match}`) }, t("lobby.replay")),
            h("a", { class: "btn small ghost", href: recordUrl(m.table, m.match), download: `burraco-${m.table}-${m.match}.toml`, text: t("lobby.download") }),
          ),
        ));
      replace(matches, rows.length ? h("ul", { class: "rows" }, rows) : h("p", { class: "muted", text: t("lobby.no_matches") }));
    }
  }

  tableRow(table) {
    const seats = table.seats.map((s) => (s.bot ? t("seat.bot", { level: botLabel(s.bot) }) : s.name || t("seat.free")));
    const title = [];
    table.seats.forEach((s, i) => {
      if (i) title.push(" · ");
      title.push(seats[i]);
      if (s.bot_account) title.push(" ", botMark());
    });
    const actions = [];
    const mine = table.seats.some((s) => !s.bot && s.name === this.ctx.user.name);
    if (mine) {
      actions.push(h("button", { type: "button", class: "btn small primary", onclick: () => this.ctx.navigate(`/?table=${encodeURIComponent(table.id)}`) }, t("lobby.back_to_table")));
    } else if (table.status === "open") {
      for (const seat of table.free_seats || []) {
        actions.push(h("button", {
          type: "button", class: "btn small primary", dataset: { cmd: "sit", seat: String(seat) },
          onclick: async () => {
            try {
              await api.sit(table.id, seat);
              this.ctx.navigate(`/?table=${encodeURIComponent(table.id)}`);
            } catch (error) {
              this.message = errorText(error);
              this.render();
            }
          },
        }, t("lobby.sit", { n: seat + 1 })));
      }
    }
    if (!mine) {
      actions.push(h("button", { type: "button", class: "btn small ghost", onclick: () => this.ctx.navigate(`/?table=${encodeURIComponent(table.id)}`) }, t("lobby.watch")));
    }
    return h("li", { class: "row", dataset: { table: table.id } },
      h("div", { class: "row-main" },
        h("span", { class: "row-title" }, title),
        h("span", { class: "muted", text: `${t(`status.table.${table.status}`)} · ${describeConfig(table.config)}` }),
      ),
      h("div", { class: "row-actions" }, actions),
    );
  }
}

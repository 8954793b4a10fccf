// The first screen of a visitor without a session (/, and every page that needs one): the site's
// life comes first - tables being played now (watch), tables waiting for players (sit), the
// coming tournaments - then one click to play as a guest, and the login / registration card
// beside them instead of filling the page.
//
// It reads only public endpoints (GET /api/tables, GET /api/tournaments), so a logged-out visit
// logs no 401 in the console. Watching, sitting and opening a tournament need a session: those
// buttons first make the visitor a guest (POST /api/guest) and then go there, in one click.

import { api } from "./api.js";
import { AuthCard } from "./authcard.js";
import { cardEl } from "./cards.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { brand, errorText, langButton } from "./lobby.js";
import { botLabel, presetName } from "./tableview.js";
import { startText, tournamentApi } from "./tournament.js";

/** Lists are asked again this often while the screen is open (cleared in destroy()). */
const REFRESH_MS = 12000;
/** Rows per list: the first screen is a window on the site, not the whole lobby. */
const SHOWN = 5;

function tablePath(id) {
  return `/?table=${encodeURIComponent(id)}`;
}

function seatName(seat) {
  return seat.bot ? t("seat.bot", { level: botLabel(seat.bot) }) : seat.name;
}

/** Who plays at a table; at four the partners (seats 0 & 2, 1 & 3) are written together. */
function playerNames(table) {
  const names = table.seats.map(seatName);
  if (names.length === 4) return `${names[0]} & ${names[2]} · ${names[1]} & ${names[3]}`;
  return names.join(" · ");
}

/** Who already sits at an open table (the free seats are counted on the line below). */
function seatedNames(table) {
  return table.seats.filter((s) => s.bot || s.name).map(seatName).join(" · ");
}

/** The rules and the length of a table's match, shorter than the lobby's describeConfig(). */
function tableLine(table) {
  const cfg = table.config || {};
  const parts = [presetName(cfg.rules)];
  if (cfg.target) parts.push(t("cfg.target", { n: cfg.target }));
  if (cfg.smazzate) parts.push(t("cfg.smazzate", { n: cfg.smazzate }));
  if (table.match_no > 1) parts.push(t("front.match_no", { n: table.match_no }));
  return parts.join(" · ");
}

/** Scheduled tournaments by start time, then the Sit&Go (they start when they fill up). */
function upcoming(tournaments) {
  const key = (tour) => (tour.starts_at ? Date.parse(tour.starts_at) : Infinity);
  return tournaments.filter((tour) => tour.status === "registering").sort((a, b) => key(a) - key(b));
}

export class FirstScreen {
  constructor(app, ctx) {
    this.app = app;
    this.ctx = ctx;
    this.card = new AuthCard(ctx);
    this.tables = null; // null until the first answer; then the public tables
    this.tournaments = null;
    this.tablesFailed = false;
    this.toursFailed = false;
    this.message = "";
    this.busy = false;
    this.shown = ""; // the lists last drawn (a signature), so that a refresh redraws only changes
    this.gone = false;
  }

  mount() {
    this.root = h("div", { class: "screen auth-screen first-screen" });
    replace(this.app, this.root);
    this.render();
    this.refresh();
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
  }

  destroy() {
    clearInterval(this.timer);
    this.timer = null;
    this.gone = true; // an answer arriving after leaving must not draw on the next screen
  }

  async refresh() {
    // A hidden tab needs no fresh lists; the next tick after it shows again brings them.
    if (document.hidden && this.tables !== null) return;
    const [tables, tournaments] = await Promise.allSettled([api.tables(), tournamentApi.list()]);
    if (this.gone) return;
    this.tablesFailed = tables.status === "rejected";
    if (!this.tablesFailed) this.tables = tables.value;
    this.toursFailed = tournaments.status === "rejected";
    if (!this.toursFailed) this.tournaments = tournaments.value;
    this.renderLists();
  }

  render() {
    replace(this.root,
      h("header", { class: "topbar front-top" },
        brand(),
        h("span", { class: "spacer" }),
        h("a", { class: "btn ghost small", href: "/?rules", dataset: { cmd: "rules" }, onclick: (e) => { e.preventDefault(); this.ctx.navigate("/?rules"); } }, t("learn.link")),
        // On a phone the card is below the lists: this takes a returning player straight to it.
        h("a", { class: "btn ghost small", href: "#auth", dataset: { cmd: "to-login" }, onclick: (e) => { e.preventDefault(); this.toLogin(); } }, t("auth.login")),
        langButton(this.ctx),
      ),
      h("main", { class: "front-body" },
        h("section", { class: "front-hero", "aria-labelledby": "front-title" },
          h("div", { class: "fan", "aria-hidden": "true" }, ["AS", "KH", "JK", "QD", "2C"].map((c) => cardEl(c))),
          h("h1", { id: "front-title", text: t("auth.title") }),
          h("p", { class: "front-lead", text: t("auth.subtitle") }),
          h("p", { class: "front-pulse", dataset: { pulse: "" } }),
          h("button", { type: "button", class: "btn primary front-guest", dataset: { cmd: "guest" }, onclick: () => this.guest() }, t("front.guest")),
          h("p", { class: "front-hint", text: t("front.guest.hint") }),
          h("p", { class: "front-error", role: "alert", text: this.message }),
        ),
        h("div", { class: "front-lists" },
          this.panel("live", t("front.live")),
          this.panel("open", t("front.open")),
          this.panel("tours", t("front.tours")),
        ),
        h("div", { class: "front-side" }, this.card.render()),
      ),
    );
    this.shown = "";
    this.renderLists();
  }

  panel(name, title) {
    return h("section", { class: `panel front-panel front-${name}`, "aria-labelledby": `front-${name}-title` },
      h("h2", { id: `front-${name}-title`, text: title }),
      h("div", { class: "front-list", dataset: { list: name }, "aria-busy": "true" }),
    );
  }

  renderLists() {
    const live = (this.tables || []).filter((table) => table.status === "playing");
    const open = (this.tables || []).filter((table) => table.status === "open" && (table.free_seats || []).length);
    const tours = upcoming(this.tournaments || []);
    // Redraw only what changed: a keyboard user's focus on a row's button survives a refresh
    // that brought the same lists.
    const signature = JSON.stringify([live, open, tours, this.tablesFailed, this.toursFailed, this.tables === null, this.tournaments === null]);
    if (signature === this.shown) return;
    this.shown = signature;
    const pulse = this.root.querySelector("[data-pulse]");
    if (pulse) {
      const parts = [];
      if (live.length) parts.push(t("front.pulse.live", { n: live.length }));
      if (open.length) parts.push(t("front.pulse.open", { n: open.length }));
      pulse.textContent = parts.join(" · ");
    }
    // null: no answer yet (the list stays busy and blank rather than saying "none").
    const tablesKnown = this.tables !== null || this.tablesFailed;
    const toursKnown = this.tournaments !== null || this.toursFailed;
    this.fill("live", tablesKnown ? live : null, (table) => this.liveRow(table), this.tablesFailed ? "front.tables.error" : "front.live.empty");
    // One failure is said once (in the first list): the same sentence twice says nothing more.
    this.fill("open", tablesKnown ? open : null, (table) => this.openRow(table), this.tablesFailed ? null : "front.open.empty");
    this.fill("tours", toursKnown ? tours : null, (tour) => this.tourRow(tour), this.toursFailed ? "front.tours.error" : "front.tours.empty");
  }

  fill(name, items, row, emptyKey) {
    const list = this.root.querySelector(`[data-list="${name}"]`);
    if (!list) return;
    list.setAttribute("aria-busy", items === null ? "true" : "false");
    if (items === null) return;
    if (!items.length) {
      replace(list, emptyKey ? h("p", { class: "muted front-empty", text: t(emptyKey) }) : null);
      return;
    }
    const more = items.length - SHOWN;
    replace(list,
      h("ul", { class: "rows" }, items.slice(0, SHOWN).map(row)),
      more > 0 ? h("p", { class: "muted front-more", text: t("front.more", { n: more }) }) : null,
    );
  }

  liveRow(table) {
    return h("li", { class: "row", dataset: { table: table.id } },
      h("div", { class: "row-main" },
        h("span", { class: "row-title", text: playerNames(table) }),
        h("span", { class: "muted", text: tableLine(table) }),
      ),
      h("div", { class: "row-actions" },
        h("a", { class: "btn small", href: tablePath(table.id), dataset: { cmd: "watch" }, onclick: (e) => { e.preventDefault(); this.asGuest(tablePath(table.id)); } }, t("front.watch")),
      ),
    );
  }

  openRow(table) {
    const seat = table.free_seats[0];
    return h("li", { class: "row", dataset: { table: table.id } },
      h("div", { class: "row-main" },
        h("span", { class: "row-title", text: seatedNames(table) }),
        h("span", { class: "muted", text: `${tableLine(table)} · ${t("front.free", { n: table.free_seats.length })}` }),
      ),
      h("div", { class: "row-actions" },
        h("button", {
          type: "button", class: "btn small primary", dataset: { cmd: "join" },
          // If the seat went in the meantime the table's own page still offers the others (or
          // shows the match to watch): the visitor lands there either way.
          onclick: () => this.asGuest(tablePath(table.id), () => api.sit(table.id, seat).catch(() => null)),
        }, t("front.join")),
      ),
    );
  }

  tourRow(tour) {
    const path = `/?tournament=${encodeURIComponent(tour.id)}`;
    return h("li", { class: "row", dataset: { tournament: tour.id } },
      h("div", { class: "row-main" },
        h("span", { class: "row-title", text: tour.name }),
        h("span", { class: "muted", text: startText(tour) }),
      ),
      h("div", { class: "row-actions" },
        h("a", { class: "btn small", href: path, dataset: { cmd: "tournament" }, onclick: (e) => { e.preventDefault(); this.asGuest(path); } }, t("front.tour.open")),
      ),
    );
  }

  toLogin() {
    const card = this.root.querySelector("#auth");
    if (card) card.scrollIntoView({ block: "start" });
    const name = this.root.querySelector("#auth-name");
    if (name) name.focus({ preventScroll: true });
  }

  /** The guest button: a guest session, then the page asked for (the lobby at /). */
  async guest() {
    await this.asGuest(null);
  }

  /** Become a guest, do `then` (sit down), and go to `path` (null: stay on this address). */
  async asGuest(path, then) {
    if (this.busy) return; // a double click must not make two guests
    this.busy = true;
    try {
      const result = await api.guest();
      if (path === null) {
        this.ctx.signedIn(result.user);
        return;
      }
      this.ctx.user = result.user;
      if (then) await then();
      this.ctx.navigate(path);
    } catch (error) {
      this.busy = false;
      this.message = errorText(error);
      const line = this.root.querySelector(".front-error");
      if (line) line.textContent = this.message;
    }
  }
}

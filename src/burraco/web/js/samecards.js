// A same-cards round's deal at every table, side by side: /?samecards=TOURNAMENT&round=R&deal=K
// (docs/tournaments.md, "Same cards"). Once the round is over, each table's replay
// (GET /api/tables/{id}/replay) gives smazzata K as that table played it: one column per table,
// with its lines, the deal's score sheet, its MP against the field's and the felt at the chosen
// step. One slider moves every column (a table that played fewer steps stays at its last).

import { api } from "./api.js";
import { h, icon, replace } from "./dom.js";
import { errorWords, t } from "./i18n.js";
import { actionWords, lastFromText } from "./replay.js";
import { endedText, sheetTable } from "./scoresheet.js";
import { layoutHand, lineName, recordPlayerName, renderFelt } from "./tableview.js";
import { tournamentApi } from "./tournament.js";

export function sameCardsUrl(tournament, round, deal) {
  return `/?samecards=${encodeURIComponent(tournament)}&round=${round}&deal=${deal}`;
}

/** A difference in MP as the page shows it: signed, one decimal only when it has one. */
export function signedMp(value) {
  if (value === null || value === undefined) return "–";
  const text = Number.isInteger(value) ? String(value) : value.toFixed(1);
  return value > 0 ? `+${text}` : text;
}

export class SameCardsScreen {
  constructor(app, ctx, tournamentId, round, deal) {
    this.app = app;
    this.ctx = ctx;
    this.id = tournamentId;
    this.roundNo = round;
    this.deal = deal;
    this.tour = null;
    this.columns = [];
    this.step = 0;
    this.error = "";
  }

  async mount() {
    this.root = h("div", { class: "screen samecards-screen", dataset: { tournament: this.id, round: String(this.roundNo), deal: String(this.deal) } });
    replace(this.app, this.root);
    this.render();
    try {
      this.tour = await tournamentApi.get(this.id);
      const round = this.round();
      if (!round) throw new Error(t("sc.no_round"));
      const tables = round.tables.filter((table) => table.table_id);
      const replays = await Promise.all(tables.map((table) => api.replay(table.table_id, 1).catch((error) => ({ error }))));
      this.columns = tables.map((table, i) => ({ table, replay: replays[i] }));
    } catch (error) {
      this.error = error && error.code ? errorWords(error) : String(error && error.message ? error.message : error);
    }
    this.render();
  }

  destroy() {
    if (this.resize) this.resize.disconnect();
  }

  round() {
    return this.tour ? this.tour.rounds.find((r) => r.number === this.roundNo) : null;
  }

  hand(column) {
    const replay = column.replay;
    if (!replay || replay.error) return null;
    return replay.hands.find((hd) => hd.number === this.deal) || null;
  }

  get maxStep() {
    return Math.max(0, ...this.columns.map((c) => {
      const hand = this.hand(c);
      return hand ? hand.steps.length - 1 : 0;
    }));
  }

  go(step) {
    this.step = Math.max(0, Math.min(this.maxStep, step));
    this.render();
  }

  navigate(deal) {
    this.ctx.navigate(sameCardsUrl(this.id, this.roundNo, deal));
  }

  render() {
    const tour = this.tour;
    const round = this.round();
    const deals = round && round.same_cards ? round.same_cards.deals : [];
    const top = h("header", { class: "topbar" },
      h("button", { type: "button", class: "icon-btn", "aria-label": t("tour.back"), title: t("tour.back"), onclick: () => this.ctx.navigate(`/?tournament=${encodeURIComponent(this.id)}`), text: "←" }),
      h("div", { class: "topbar-title" },
        h("span", { class: "title-main", text: t("sc.title", { deal: this.deal, round: this.roundNo }) }),
        tour ? h("span", { class: "title-sub muted", text: tour.name }) : null),
      h("button", { type: "button", class: "lang-btn", onclick: () => this.ctx.toggleLanguage(), text: t("lang.switch"), title: t("lang.switch.title") }),
    );
    if (!this.columns.length) {
      replace(this.root, top, h("div", { class: "waiting-msg", text: this.error || t("replay.loading") }));
      return;
    }
    const button = (name, key, onclick, disabled) =>
      h("button", { type: "button", class: "btn", dataset: { cmd: key }, onclick, disabled, "aria-label": t(`replay.${key}`), title: t(`replay.${key}`) }, icon(name));
    const controls = h("div", { class: "replay-controls" },
      h("label", { class: "field inline" },
        h("span", { text: t("replay.smazzata") }),
        h("select", { class: "sc-deal", onchange: (e) => this.navigate(Number(e.target.value)) },
          deals.map((d) => h("option", { value: String(d.number), selected: d.number === this.deal, text: t("table.smazzata", { n: d.number }) })))),
      button("first", "first", () => this.go(0), this.step === 0),
      button("back", "back", () => this.go(this.step - 1), this.step === 0),
      button("forward", "forward", () => this.go(this.step + 1), this.step >= this.maxStep),
      button("last", "last", () => this.go(this.maxStep), this.step >= this.maxStep),
      h("input", {
        type: "range", min: "0", max: String(this.maxStep), value: String(this.step), class: "replay-range",
        "aria-label": t("replay.position"), oninput: (e) => this.go(Number(e.target.value)),
      }),
      h("span", { class: "replay-pos", dataset: { step: String(this.step) }, text: t("replay.step", { n: this.step, total: this.maxStep }) }),
    );
    const dealInfo = deals.find((d) => d.number === this.deal);
    const proof = dealInfo && dealInfo.deck
      ? h("details", { class: "fairness sc-proof" },
        h("summary", { text: t("sc.same_deck") }),
        h("p", { class: "mono", text: `${t("sheet.commitment")}: ${dealInfo.commitment}` }),
        h("p", { class: "mono", text: `${t("sheet.salt")}: ${dealInfo.salt}` }),
        h("p", { class: "mono small", text: dealInfo.deck }))
      : null;
    replace(this.root, top, controls, proof,
      h("div", { class: "sc-columns" }, this.columns.map((column) => this.column(column))));
    for (const host of this.root.querySelectorAll(".sc-felt")) layoutHand(host);
    if (!this.resize) {
      this.resize = new ResizeObserver(() => {
        for (const host of this.root.querySelectorAll(".sc-felt")) layoutHand(host);
      });
      this.resize.observe(this.root);
    }
    this.root.dataset.step = String(this.step);
  }

  column(column) {
    const { table, replay } = column;
    const lineTitles = table.lines.map((line) => line.map((e) => e.name).join(" & "));
    const head = h("div", { class: "sc-head" },
      h("h2", { text: t("tour.table_n", { n: table.number }) }),
      h("p", { class: "sc-lines", text: `${lineTitles[0]} – ${lineTitles[1]}` }),
      this.comparison(table));
    const hand = this.hand(column);
    if (!hand) {
      const why = replay && replay.error ? errorWords(replay.error) : t("sc.not_played");
      return h("section", { class: "sc-column panel", dataset: { table: String(table.number) } }, head, h("p", { class: "muted", text: why }));
    }
    const names = replay.players.map((name, seat, all) => recordPlayerName(name, seat, all.length));
    const step = hand.steps[Math.min(this.step, hand.steps.length - 1)];
    const view = step.view;
    const lineNames = view.lines.map((l) => lineName(view, l.line, null, names));
    const felt = renderFelt({
      view, seats: null, names, bottom: 0, hands: step.hands, sort: "suit", selection: null, hints: null,
      interactive: false, myTurn: false, playing: false, players: view.players, timed: false, away: {},
      status: actionWords(step.action, names), notice: null, last: lastFromText(step.action, view),
    });
    return h("section", { class: "sc-column panel", dataset: { table: String(table.number) } },
      head,
      h("div", { class: "felt-host sc-felt" }, felt),
      hand.score ? h("div", { class: "sc-sheet" }, h("p", { class: "muted", text: endedText(hand.score, lineNames) }), sheetTable(hand.score, lineNames, null)) : null,
    );
  }

  /** The deal's MP at this table, the field's average at the others and the difference. */
  comparison(table) {
    const result = table.result;
    const row = result && result.comparison ? result.comparison.find((c) => c.deal === this.deal) : null;
    if (!row) return h("p", { class: "muted", text: result ? t("sc.technical") : "" });
    return h("table", { class: "tour-table sc-compare", dataset: { deal: String(this.deal) } },
      h("thead", {}, h("tr", {}, h("th", { text: "MP" }), h("th", { text: t("sc.field") }), h("th", { text: t("sc.difference") }))),
      h("tbody", {}, h("tr", {},
        h("td", { class: "num", text: signedMp(row.mp) }),
        h("td", { class: "num", text: signedMp(row.field) }),
        h("td", { class: "num sc-diff", text: signedMp(row.difference) }))));
  }
}

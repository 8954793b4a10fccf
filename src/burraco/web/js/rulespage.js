// The rules page (/?rules=PRESET): how to play one preset, with pictures of melds drawn by
// cards.js and every number (card values, bonuses, sizes) read from the server's own Rules
// (/api/rulesets). The words are the catalogs' (learn.*), so the page is Italian or English
// like the rest; rule ids (RULES.md) are shown small, for whoever wants to look them up.

import { api } from "./api.js";
import { cardEl, cardName } from "./cards.js";
import { h, replace } from "./dom.js";
import { pageHeader } from "./header.js";
import { has, t } from "./i18n.js";

/** A row of cards, each labelled; `wild` marks the index of the card used as a wild. */
function picture(codes, { wild = -1, caption = "" } = {}) {
  const cards = codes.map((code, i) => {
    const el = cardEl(code);
    if (i === wild) el.classList.add("wild");
    return el;
  });
  const label = codes.map(cardName).join(", ");
  return h("figure", { class: "rules-picture" },
    h("div", { class: "rules-cards", role: "img", "aria-label": label }, cards),
    caption ? h("figcaption", { text: caption }) : null,
  );
}

function section(id, title, ...body) {
  return h("section", { class: "panel rules-section", id: `rules-${id}` }, h("h2", { text: title }), body);
}

function para(key, params, rule) {
  return h("p", {}, t(key, params), rule ? h("span", { class: "rule-id", text: ` (${rule})` }) : null);
}

/** The meld pictures the preset allows: sets only where it has set ranks. */
function meldPictures(p) {
  const out = [picture(["5H", "6H", "7H", "8H"], { caption: t("learn.pic.run") })];
  if (p.set_ranks.length) {
    const rank = p.set_ranks.includes(7) ? "7" : p.set_ranks.includes(1) ? "A" : "3";
    out.push(picture([`${rank}S`, `${rank}H`, `${rank}D`], { caption: t("learn.pic.set") }));
  }
  const wild = p.jokers > 0 ? "JK" : "2C";
  out.push(picture(["9S", wild, "JS", "QS"], { wild: 1, caption: t("learn.pic.wild", { card: cardName(wild) }) }));
  out.push(picture(["AH", "2H", "3H", "4H"], { caption: t("learn.pic.natural2") }));
  return out;
}

function burracoPictures(p) {
  const clean = ["3D", "4D", "5D", "6D", "7D", "8D", "9D"];
  const dirty = ["8C", "9C", "10C", p.jokers > 0 ? "JK" : "2H", "QC", "KC", "AC"]; // the wild is the J
  return [
    picture(clean, { caption: t("learn.pic.clean", { bonus: p.bonus_clean }) }),
    picture(dirty, { wild: 3, caption: t("learn.pic.dirty", { bonus: p.bonus_dirty }) }),
  ];
}

function valuesTable(p) {
  const rows = [
    ["learn.value.low", p.low_value],
    ["learn.value.high", p.high_value],
    ["learn.value.ace", p.ace_value],
    ["learn.value.two", p.two_value],
  ];
  if (p.jokers > 0) rows.push(["learn.value.joker", p.joker_value]);
  return h("table", { class: "rules-values" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("learn.value.card") }), h("th", { scope: "col", text: t("learn.value.points") }))),
    h("tbody", {}, rows.map(([key, value]) => h("tr", {}, h("th", { scope: "row", text: t(key) }), h("td", { text: String(value) })))),
  );
}

function bonusList(p) {
  const items = [
    t("learn.bonus.clean", { n: p.burraco_min_length, points: p.bonus_clean }),
    t("learn.bonus.dirty", { points: p.bonus_dirty }),
  ];
  if (p.bonus_semiclean !== null) items.push(t("learn.bonus.semiclean", { points: p.bonus_semiclean }));
  if (p.bonus_nobile !== null) items.push(t("learn.bonus.nobile", { points: p.bonus_nobile }));
  if (p.bonus_reale !== null) items.push(t("learn.bonus.reale", { points: p.bonus_reale }));
  items.push(t("learn.bonus.closing", { points: p.closing_bonus }));
  items.push(t("learn.bonus.no_pozzetto", { points: p.no_pozzetto_penalty }));
  return h("ul", { class: "rules-list" }, items.map((text) => h("li", { text })));
}

export class RulesScreen {
  constructor(app, ctx, preset) {
    this.app = app;
    this.ctx = ctx;
    this.preset = preset || "italian";
    this.presets = null;
    this.error = "";
  }

  mount() {
    this.root = h("div", { class: "screen rules-screen" });
    replace(this.app, this.root);
    this.render();
    this.load();
  }

  destroy() {}

  async load() {
    try {
      this.presets = (await api.rulesets()).presets;
    } catch {
      this.error = t("learn.unavailable");
    }
    this.render();
  }

  choose(name) {
    this.preset = name;
    history.replaceState(null, "", `/?rules=${encodeURIComponent(name)}`);
    this.render();
    window.scrollTo(0, 0);
  }

  render() {
    const found = this.presets && this.presets.find((p) => p.name === this.preset);
    replace(this.root,
      pageHeader(this.ctx, { title: t("learn.title") }),
      h("main", { class: "rules-page" },
        this.presets ? this.chooser() : null,
        this.error ? h("p", { class: "notice error", role: "alert", text: this.error }) : null,
        found ? this.body(found.parameters) : this.presets ? h("p", { class: "notice error", role: "alert", text: t("learn.unknown", { name: this.preset }) }) : h("p", { text: t("app.loading") }),
      ),
    );
  }

  chooser() {
    return h("nav", { class: "rules-presets", "aria-label": t("learn.presets") },
      this.presets.map((p) => h("button", {
        type: "button",
        class: `btn small${p.name === this.preset ? " primary" : ""}`,
        "aria-pressed": String(p.name === this.preset),
        dataset: { preset: p.name },
        onclick: () => this.choose(p.name),
      }, has(`preset.${p.name}`) ? t(`preset.${p.name}`) : p.name)),
    );
  }

  body(p) {
    const deck = 104 + p.jokers;
    const sets = p.set_ranks.length === 0 ? t("learn.sets.none")
      : p.set_ranks.length < 12 ? t("learn.sets.some", { ranks: p.set_ranks.map((r) => ({ 1: "A", 11: "J", 12: "Q", 13: "K" })[r] || String(r)).join(", ") })
      : t("learn.sets.all");
    return [
      section("goal", t("learn.goal.title"),
        para(p.jokers ? "learn.goal" : "learn.goal.no_jokers", { cards: deck, jokers: p.jokers }, "R2"),
        para("learn.deal", { hand: p.hand_size, pozzetto: p.pozzetto_sizes[0] }, "R8-R11"),
        p.initial_discard ? para("learn.deal.discard", {}, "R9") : para("learn.deal.no_discard", {}, "§3.2"),
      ),
      section("turn", t("learn.turn.title"),
        h("ol", { class: "rules-list" },
          h("li", { text: t("learn.turn.acquire") }),
          h("li", { text: t("learn.turn.meld") }),
          h("li", { text: t("learn.turn.discard") }),
        ),
        para("learn.turn.lock", {}, "R17"),
        p.pickup_requires_meld ? para("learn.turn.pickup_meld", {}, "§3.7") : null,
      ),
      section("melds", t("learn.melds.title"),
        para("learn.melds", {}, "R21-R23"),
        para("learn.melds.sets", { sets }, "R26-R27"),
        para("learn.melds.wild", { wilds: p.jokers > 0 ? t("learn.wilds.both") : t("learn.wilds.twos") }, "R24"),
        para("learn.melds.natural2", {}, "R34"),
        h("div", { class: "rules-pictures" }, meldPictures(p)),
      ),
      section("burraco", t("learn.burraco.title"),
        para("learn.burraco", { n: p.burraco_min_length }, "R40-R41"),
        h("div", { class: "rules-pictures" }, burracoPictures(p)),
      ),
      section("pozzetto", t("learn.pozzetto.title"),
        para("learn.pozzetto", { n: p.pozzetto_sizes[0] }, "R43-R48"),
        para("learn.pozzetto.after", {}, "R49"),
      ),
      section("closing", t("learn.closing.title"),
        para(p.closing_requires_clean ? "learn.closing.clean" : "learn.closing", { points: p.closing_bonus }, "R55"),
        para("learn.closing.stock", { n: p.stock_end_threshold }, "R57"),
      ),
      section("scoring", t("learn.scoring.title"),
        para("learn.scoring", {}, "R59-R60"),
        valuesTable(p),
        bonusList(p),
        p.target_score ? para("learn.scoring.target", { target: p.target_score }, "§3.6") : null,
      ),
      section("three", t("learn.three.title"),
        para("learn.three", { big: p.three_player_pozzetto_sizes[0], small: p.three_player_pozzetto_sizes[1] }, "§3.5"),
        para("learn.three.later", { score: p.three_player_switch_score }, "§3.5"),
      ),
    ];
  }
}

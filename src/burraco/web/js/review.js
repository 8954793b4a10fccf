// The bot's review of a finished match in the replay (docs/review-server.md): the button that
// asks for it (POST /api/tables/{id}/review), the waiting (polled), then the reviewed seat's
// decisions marked inaccuracy/mistake/blunder with their cost and interval, a summary per
// smazzata, and the decision chosen shown on the table with the better move drawn on it.
// The review's JSON is burraco-review/1 (docs/review.md); this module decides nothing.

import { api } from "./api.js";
import { h } from "./dom.js";
import { errorWords, language, t } from "./i18n.js";

const POLL_MS = 1500;
const VERDICTS = ["inaccuracy", "mistake", "blunder"];

/** An action's words: "0 discard 7H" -> {verb, cards} (cards without a wild's stand-in). */
export function actionParts(text) {
  const [, verb, ...words] = text.split(" ");
  const cards = words.map((w) => w.replace(/\(.*$/, "").replace(/\*$/, ""));
  return { verb, cards: verb === "attach" ? cards.slice(1) : cards, meld: verb === "attach" ? Number(words[0]) : null };
}

/** Where a decision's cost was lost, for the summary: discard, draw, pickup or play. */
function where(decision) {
  if (decision.phase === "acquire") return actionParts(decision.played[0]).verb === "pickup" ? "pickup" : "draw";
  return decision.played.length === 1 && actionParts(decision.played[0]).verb === "discard" ? "discard" : "play";
}

function mp(x) {
  return String(Math.round(x));
}

export class ReviewPanel {
  /** screen: the ReplayScreen (its id, match, data, go(), actionText(), render()). */
  constructor(screen) {
    this.screen = screen;
    this.info = null; // {you, players, reviews}
    this.seat = null; // the seat whose review is shown
    this.focus = null; // {hand, decision}: the decision shown on the table
    this.error = "";
    this.timer = null;
    this.asking = false;
  }

  async load() {
    try {
      this.info = await api.reviews(this.screen.id, this.screen.matchNo);
    } catch {
      this.info = null; // no review area (an old server, a match without record)
    }
    if (this.info && this.seat === null) {
      const done = this.info.reviews.find((r) => r.status === "done");
      this.seat = this.info.you ?? (done ? done.seat : null);
    }
    this.schedule();
  }

  destroy() {
    clearTimeout(this.timer);
    this.timer = null;
  }

  get current() {
    if (!this.info || this.seat === null) return null;
    return this.info.reviews.find((r) => r.seat === this.seat) || null;
  }

  schedule() {
    clearTimeout(this.timer);
    const review = this.current;
    if (review && (review.status === "queued" || review.status === "running")) {
      this.timer = setTimeout(() => this.refresh(), POLL_MS);
    }
  }

  async refresh() {
    await this.load();
    this.screen.render();
  }

  async ask() {
    this.asking = true;
    this.error = "";
    this.screen.render();
    try {
      const review = await api.askReview(this.screen.id, this.screen.matchNo, this.seat);
      const others = this.info.reviews.filter((r) => r.seat !== review.seat);
      this.info.reviews = [...others, review];
    } catch (error) {
      this.error = errorWords(error);
    }
    this.asking = false;
    this.schedule();
    this.screen.render();
  }

  /** Show a decision on the table: the replay goes to the position it was taken in. */
  show(handIndex, decision) {
    this.focus = { hand: handIndex, decision };
    this.screen.go(handIndex, decision.action_index);
  }

  /** The focused decision if the replay stands where it was taken. */
  shown() {
    const f = this.focus;
    if (!f || f.hand !== this.screen.hand || f.decision.action_index !== this.screen.step) return null;
    return f.decision;
  }

  names() {
    return this.screen.names();
  }

  movesText(actions) {
    return actions.map((a) => this.screen.actionText(a)).join(" ");
  }

  /** The side's section: the button, the waiting, or the summary and the decisions. */
  section() {
    if (!this.info) return null;
    const review = this.current;
    const parts = [h("h3", { text: t("review.title") })];
    if (this.error) parts.push(h("p", { class: "review-error", role: "alert", text: this.error }));
    if (!review) {
      if (this.info.you === null) {
        parts.push(h("p", { class: "muted", text: t("review.players_only") }));
      } else {
        parts.push(h("p", { class: "muted", text: t("review.intro") }));
        parts.push(h("button", { type: "button", class: "btn primary", dataset: { cmd: "review" }, disabled: this.asking, onclick: () => this.ask(), text: t("review.ask") }));
      }
      return h("section", { class: "review-panel", dataset: { review: "none" } }, parts);
    }
    const player = this.names()[review.seat] ?? String(review.seat);
    if (review.status === "queued") {
      parts.push(h("p", { class: "review-wait", text: review.position ? t("review.queued", { n: review.position }) : t("review.queued.here") }));
    } else if (review.status === "running") {
      const p = review.progress;
      parts.push(h("p", { class: "review-wait", text: p && p.total ? t("review.running", { done: p.done, total: p.total }) : t("review.starting") }));
    } else if (review.status === "failed") {
      // The cause is the server's English sentence: said on an English page only.
      const words = language() === "en" && review.error ? t("review.failed.detail", { error: review.error }) : t("review.failed");
      parts.push(h("p", { class: "review-error", text: words }));
      if (this.info.you !== null) {
        parts.push(h("button", { type: "button", class: "btn", dataset: { cmd: "review" }, disabled: this.asking, onclick: () => this.ask(), text: t("review.again") }));
      }
    } else {
      parts.push(h("p", { class: "review-of", text: t("review.of", { name: player, lost: review.review.mp_lost }) }));
      parts.push(this.results(review.review));
    }
    return h("section", { class: "review-panel", dataset: { review: review.status } }, parts);
  }

  results(review) {
    const data = this.screen.data;
    const blocks = review.smazzate.map((smazzata) => {
      const handIndex = data.hands.findIndex((hd) => hd.number === smazzata.number);
      const marked = smazzata.decisions.filter((d) => VERDICTS.includes(d.verdict));
      const worst = marked.reduce((a, b) => (b.cost > (a ? a.cost : -1) ? b : a), null);
      const summary = worst
        ? t(`review.summary.${where(worst)}`, { lost: smazzata.mp_lost, worst: mp(worst.cost), turn: worst.turn })
        : t("review.summary.none");
      const items = marked.map((d) => {
        const focused = this.focus && this.focus.decision === d;
        return h("li", {},
          h("button", {
            type: "button",
            class: `review-item ${d.verdict}${focused ? " focused" : ""}`,
            dataset: { turn: String(d.turn), verdict: d.verdict, step: String(d.action_index) },
            "aria-pressed": focused ? "true" : "false",
            onclick: () => this.show(handIndex, d),
          },
          h("span", { class: "review-verdict", text: t(`review.verdict.${d.verdict}`) }),
          h("span", { class: "review-what", text: t("review.item", { turn: d.turn, moves: this.movesText(d.played) }) }),
          h("span", { class: "review-cost", text: t("review.cost", { cost: mp(d.cost), low: mp(d.low), high: mp(d.high) }) })));
      });
      return h("div", { class: "review-smazzata", dataset: { number: String(smazzata.number) } },
        h("h4", { text: t("table.smazzata", { n: smazzata.number }) }),
        h("p", { class: "review-summary", text: summary }),
        items.length ? h("ol", { class: "review-list" }, items) : null);
    });
    return h("div", { class: "review-results" }, blocks);
  }

  /** The line over the table for the decision shown: what was played, what was better. */
  note() {
    const d = this.shown();
    if (!d) return null;
    return h("div", { class: `review-note ${d.verdict}`, role: "status" },
      h("strong", { text: t(`review.verdict.${d.verdict}`) }), " ",
      h("span", { text: t("review.note.cost", { cost: mp(d.cost), low: mp(d.low), high: mp(d.high) }) }), " ",
      h("span", { class: "review-played", text: t("review.note.played", { moves: this.movesText(d.played) }) }), " ",
      h("span", { class: "review-better", text: t("review.note.better", { moves: this.movesText(d.best) }) }));
  }

  /** Draw the better move on the felt: its cards in the hand, the pile or the stock, its meld. */
  mark(felt, view) {
    const d = this.shown();
    if (!d) return;
    const entry = view.lines.find((l) => l.seats.includes(this.seat));
    const used = new Set();
    const markCards = (cards, cls) => {
      for (const code of cards) {
        const el = [...felt.querySelectorAll(".hand .card[data-card]")].find((c) => c.dataset.card === code && !used.has(c));
        if (el) {
          used.add(el);
          el.classList.add(cls);
        }
      }
    };
    for (const action of d.best) {
      const { verb, cards, meld } = actionParts(action);
      if (verb === "draw") felt.querySelector(".stock")?.classList.add("review-better");
      else if (verb === "pickup") felt.querySelector(".pile")?.classList.add("review-better");
      else markCards(cards, "review-better");
      if (verb === "attach" && meld !== null && entry) {
        felt.querySelector(`.meld[data-meld="${meld}"][data-line="${entry.line}"]`)?.classList.add("review-better");
      }
    }
    used.clear();
    for (const action of d.played) {
      const { verb, cards } = actionParts(action);
      if (verb === "draw") felt.querySelector(".stock")?.classList.add("review-played");
      else if (verb === "pickup") felt.querySelector(".pile")?.classList.add("review-played");
      else markCards(cards, "review-played");
    }
  }
}

// The replay viewer of a finished match. The server replays the stored record with the engine
// (GET /api/tables/{id}/replay) and sends the public view after every action, with every hand;
// the viewer only steps through them: forward, back, to a smazzata, first and last.

import { api, recordUrl } from "./api.js";
import { cardsText } from "./cards.js";
import { h, icon, replace } from "./dom.js";
import { errorWords, t } from "./i18n.js";
import { ReviewPanel } from "./review.js";
import { endedText, historyTable, sheetTable } from "./scoresheet.js";
import { layoutHand, lineName, recordPlayerName, renderFelt } from "./tableview.js";

export class ReplayScreen {
  constructor(app, ctx, tableId, matchNo) {
    this.app = app;
    this.ctx = ctx;
    this.id = tableId;
    this.matchNo = matchNo;
    this.data = null;
    this.hand = 0;
    this.step = 0;
    this.playing = null;
    this.sort = "suit";
    this.error = "";
    this.review = new ReviewPanel(this);
    // From the end of the match's "Bot review" link: asked as soon as the page knows the seat.
    this.askReview = new URLSearchParams(location.search).get("review") === "1";
  }

  async mount() {
    this.root = h("div", { class: "screen replay-screen" });
    replace(this.app, this.root);
    this.keyHandler = (e) => this.key(e);
    document.addEventListener("keydown", this.keyHandler);
    this.render();
    try {
      [this.data] = await Promise.all([api.replay(this.id, this.matchNo), this.review.load()]);
    } catch (error) {
      this.error = errorWords(error);
    }
    this.render();
    const info = this.review.info;
    if (this.data && this.askReview && info && info.you !== null && !this.review.current) await this.review.ask();
  }

  destroy() {
    clearInterval(this.playing);
    this.review.destroy();
    if (this.resize) this.resize.disconnect();
    document.removeEventListener("keydown", this.keyHandler);
  }

  get steps() {
    return this.data ? this.data.hands[this.hand].steps : [];
  }

  go(hand, step) {
    if (!this.data) return;
    const hands = this.data.hands;
    this.hand = Math.max(0, Math.min(hands.length - 1, hand));
    const steps = hands[this.hand].steps;
    this.step = Math.max(0, Math.min(steps.length - 1, step));
    this.render();
  }

  forward() {
    if (!this.data) return;
    if (this.step < this.steps.length - 1) this.go(this.hand, this.step + 1);
    else if (this.hand < this.data.hands.length - 1) this.go(this.hand + 1, 0);
    else this.stop();
  }

  back() {
    if (!this.data) return;
    if (this.step > 0) this.go(this.hand, this.step - 1);
    else if (this.hand > 0) this.go(this.hand - 1, this.data.hands[this.hand - 1].steps.length - 1);
  }

  togglePlay() {
    if (this.playing) this.stop();
    else {
      this.playing = setInterval(() => this.forward(), 700);
      this.render();
    }
  }

  stop() {
    clearInterval(this.playing);
    this.playing = null;
    this.render();
  }

  key(event) {
    if (event.target instanceof HTMLElement && ["INPUT", "SELECT"].includes(event.target.tagName) && event.target.type !== "range") return;
    const actions = {
      ArrowRight: () => this.forward(),
      ArrowLeft: () => this.back(),
      Home: () => this.go(this.hand, 0),
      End: () => this.go(this.hand, this.steps.length - 1),
      PageDown: () => this.go(this.hand + 1, 0),
      PageUp: () => this.go(this.hand - 1, 0),
      " ": () => this.togglePlay(),
    };
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  names() {
    return this.data ? this.data.players.map((name, seat, all) => recordPlayerName(name, seat, all.length)) : [];
  }

  actionText(text) {
    return actionWords(text, this.names());
  }

  render() {
    const top = h("header", { class: "topbar" },
      h("button", { type: "button", class: "icon-btn", "aria-label": t("nav.lobby"), title: t("nav.lobby"), onclick: () => this.ctx.navigate("/"), text: "←" }),
      h("div", { class: "topbar-title" }, h("span", { class: "title-main", text: t("replay.title", { n: this.matchNo }) })),
      h("a", { class: "btn small ghost", href: recordUrl(this.id, this.matchNo), download: `burraco-${this.id}-${this.matchNo}.toml`, dataset: { link: "download" }, text: t("final.download") }),
      h("button", { type: "button", class: "lang-btn", onclick: () => this.ctx.toggleLanguage(), text: t("lang.switch"), title: t("lang.switch.title") }),
    );
    if (!this.data) {
      replace(this.root, top, h("div", { class: "waiting-msg", text: this.error || t("replay.loading") }));
      return;
    }
    const hand = this.data.hands[this.hand];
    const step = hand.steps[this.step];
    const view = step.view;
    const felt = renderFelt({
      view,
      seats: null,
      names: this.names(),
      bottom: this.review.seat ?? 0, // the reviewed seat's hand at the bottom
      hands: step.hands,
      sort: this.sort,
      selection: null,
      hints: null,
      interactive: false,
      myTurn: false,
      playing: false,
      players: view.players,
      timed: false,
      away: {},
      status: this.actionText(step.action),
      notice: null,
      last: lastFromText(step.action, view),
    });
    const last = this.step === hand.steps.length - 1;
    const lineNames = view.lines.map((l) => lineName(view, l.line, null, this.names()));
    const button = (name, key, onclick, disabled) =>
      h("button", { type: "button", class: "btn", dataset: { cmd: key }, onclick, disabled, "aria-label": t(`replay.${key}`), title: t(`replay.${key}`) }, icon(name));
    const controls = h("div", { class: "replay-controls" },
      button("first", "first", () => this.go(this.hand, 0), this.step === 0),
      button("back", "back", () => this.back(), this.step === 0 && this.hand === 0),
      button(this.playing ? "pause" : "play", "play", () => this.togglePlay(), false),
      button("forward", "forward", () => this.forward(), last && this.hand === this.data.hands.length - 1),
      button("last", "last", () => this.go(this.hand, hand.steps.length - 1), last),
      h("input", {
        type: "range", min: "0", max: String(hand.steps.length - 1), value: String(this.step), class: "replay-range",
        "aria-label": t("replay.position"),
        oninput: (e) => this.go(this.hand, Number(e.target.value)),
      }),
      h("span", { class: "replay-pos", dataset: { step: String(this.step) }, text: t("replay.step", { n: this.step, total: hand.steps.length - 1 }) }),
      h("label", { class: "field inline" },
        h("span", { text: t("replay.smazzata") }),
        h("select", { class: "replay-hand", onchange: (e) => this.go(Number(e.target.value), 0) },
          this.data.hands.map((hd, i) => h("option", { value: String(i), selected: i === this.hand, text: t("table.smazzata", { n: hd.number }) }))),
      ),
    );
    this.review.mark(felt, view);
    // The review beside the table on a wide screen, under the controls on a narrow one.
    const wide = window.matchMedia("(min-width: 1100px)").matches;
    const review = this.review.section();
    const side = h("aside", { class: "side replay-side" },
      wide ? review : null,
      h("h3", { text: t("replay.scores") }),
      last && hand.score ? [h("p", { class: "muted", text: endedText(hand.score, lineNames) }), sheetTable(hand.score, lineNames, hand.totals)] : null,
      historyTable(this.data.hands.filter((x) => x.score).map((x) => x.score), lineNames, this.data.totals, null),
      h("p", { class: "muted", text: t("replay.keys") }),
    );
    const host = h("main", { class: "felt-host" }, felt);
    const drawer = !wide && review ? h("details", { class: "review-drawer", open: Boolean(this.review.current) }, h("summary", { text: t("review.title") }), review) : null;
    replace(this.root, top, controls, drawer, this.review.note(), h("div", { class: "table-layout" }, host, side));
    layoutHand(host);
    if (!this.resize) {
      this.resize = new ResizeObserver(() => layoutHand(this.root.querySelector(".felt-host")));
      this.resize.observe(this.root);
    }
    this.root.dataset.hand = String(this.hand);
    this.root.dataset.step = String(this.step);
  }
}

/** A record's action in words ("Anna draws"), ``names`` by seat; the deal when none. */
export function actionWords(text, names) {
  if (!text) return t("replay.deal");
  const [seatText, verb, ...args] = text.split(" ");
  const name = names[Number(seatText)] ?? seatText;
  if (verb === "draw") return t("replay.draw", { name });
  if (verb === "pickup") return t("replay.pickup", { name });
  if (verb === "open") return t("replay.open", { name, cards: cardsText(args) });
  if (verb === "attach") return t("replay.attach", { name, n: args[0], cards: cardsText(args.slice(1)) });
  if (verb === "discard") return t("replay.discard", { name, card: cardsText(args) });
  return text;
}

/** The step's action as the felt's "last move" (tableview.js lastMove reads engine-event
 * shapes): a record's text names the seat, the verb and its cards; a new meld is the line's
 * highest-numbered one. */
export function lastFromText(text, view) {
  if (!text) return null;
  const [seatText, verb, ...words] = text.split(" ");
  const seat = Number(seatText);
  const args = words.map((w) => w.replace(/\(.*$/, "").replace(/\*$/, "")); // "JK(7H)" -> "JK"
  if (verb === "discard") return { seat, events: [{ e: "discarded", seat, card: args[0] }] };
  if (verb === "attach") return { seat, events: [{ e: "attached", seat, meld: { number: Number(args[0]) }, cards: args.slice(1) }] };
  if (verb === "open") {
    const entry = view.lines.find((l) => l.seats.includes(seat));
    const numbers = entry ? entry.melds.map((m) => m.number) : [];
    if (!numbers.length) return { seat, events: [] };
    return { seat, events: [{ e: "opened", seat, meld: { number: Math.max(...numbers), cards: args } }] };
  }
  return { seat, events: [] };
}

// The live table: the WebSocket conversation for one table (join, act, chat), the waiting room
// before the match, the card table during it, score sheets, chat, and the pointer, touch and
// keyboard controls. Legality is the server's: `legal` only lights up what is possible, and any
// action the player tries is sent and, if refused, explained.

import { api, recordUrl } from "./api.js";
import { cardEl, cardText, cardsText, sortCards } from "./cards.js";
import { actionCards, actionMeld, actionVerb, coachEl, coachHint } from "./coach.js";
import { Connection } from "./conn.js";
import { actionReasons, refusalText, ruleNote, showReasons } from "./explain.js";
import { formatClock, h, icon, replace } from "./dom.js";
import { errorWords, has, language, t } from "./i18n.js";
import { endedText, historyTable, sheetTable, technicalTable } from "./scoresheet.js";
import { TableModel } from "./tablemodel.js";
import { HandOrder, groupMelds } from "./handorder.js";
import { turnTitle } from "./notify.js";
import { quickChat } from "./quickchat.js";
import { openSettings, setting } from "./settings.js";
import { ClockAlarm, playSound, soundsForAction } from "./sounds.js";
import { hexCommitment, newSeed } from "./fairdeal.js";
import { botLabel, bottomHand, layoutHand, lineName, presetName, renderFelt, seatName } from "./tableview.js";

function sameMultiset(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}

/** The cards of `big` left after taking out `small`, or null if `small` is not inside it. */
function minus(big, small) {
  const rest = [...big];
  for (const card of small) {
    const i = rest.indexOf(card);
    if (i < 0) return null;
    rest.splice(i, 1);
  }
  return rest;
}

export class TableScreen {
  constructor(app, ctx, tableId) {
    this.app = app;
    this.ctx = ctx;
    this.id = tableId;
    this.model = TableModel.restore(tableId);
    this.order = new HandOrder(tableId, setting("sort")); // the hand's order (comfort)
    this.alarm = new ClockAlarm();
    this.wasMyTurn = false;
    this.selection = new Set();
    this.handKey = "";
    this.focus = 0;
    this.pending = null;
    this.refs = 0;
    this.notice = null;
    this.noticeTimer = null;
    this.sheetOpen = false;
    this.finalOpen = false;
    this.sideTab = "chat";
    this.drawerOpen = false;
    this.unread = 0;
    this.drag = null;
    this.lastTap = null;
    this.renderQueued = false;
    this.destroyed = false;
    this.conn = new Connection({
      onOpen: () => this.join(),
      onMessage: (message) => this.receive(message),
      onStatus: (status) => this.connStatus(status),
    });
  }

  // -------------------------------------------------------------------------------- life

  mount() {
    this.root = h("div", { class: "screen table-screen", dataset: { table: this.id } });
    this.topbar = h("header", { class: "topbar" });
    this.host = h("main", { class: "felt-host" });
    this.side = h("aside", { class: "side", "aria-label": t("side.label") });
    this.modal = h("div", { class: "modal-host" });
    this.root.append(this.topbar, h("div", { class: "table-layout" }, this.host, this.side), this.modal);
    replace(this.app, this.root);
    this.root.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.root.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.root.addEventListener("pointerup", (e) => this.pointerUp(e));
    this.root.addEventListener("pointercancel", () => this.cancelDrag());
    this.root.addEventListener("click", (e) => this.click(e));
    // A greyed button gets no click, but pointer events: a tap on it tells why (touch has no
    // tooltip).
    this.root.addEventListener("pointerup", (e) => this.greyedTap(e));
    this.root.addEventListener("dblclick", (e) => this.doubleClick(e));
    this.keyHandler = (e) => this.key(e);
    document.addEventListener("keydown", this.keyHandler);
    this.resize = new ResizeObserver(() => this.layoutHand());
    this.resize.observe(this.host);
    this.ticker = setInterval(() => this.tick(), 250);
    this.connStatusText = "connecting";
    this.render();
    this.conn.connect();
    if (!this.ctx.user.guest) {
      // Whose chat this player does not want to see (mute, block): hidden in the chat panel.
      api.relations().then((found) => {
        this.hidden = new Set([...found.mute, ...found.block]);
        this.renderSide();
      }, () => {
        this.hidden = new Set(); // unknown: nothing hidden, the chat still works
      });
    }
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.ticker);
    document.removeEventListener("keydown", this.keyHandler);
    this.resize.disconnect();
    this.conn.close();
    turnTitle(false, t("app.title"));
  }

  join() {
    this.seedSent = false;
    const message = { type: "join", table: this.id };
    if (Number.isInteger(this.model.seq) && this.model.info) message.last_seq = this.model.seq;
    this.conn.send(message);
  }

  connStatus(status) {
    this.connStatusText = status;
    if (status === "unauthenticated") {
      this.ctx.navigate("/");
      return;
    }
    this.renderTopbar();
  }

  // ----------------------------------------------------------------------------- messages

  receive(message) {
    if (message.type === "invitation") {
      this.showNotice("warn", { code: "invitation", text: t(`friends.${message.kind}`, { name: message.by }) });
      return;
    }
    if (message.type === "announcement") {
      this.showNotice("warn", { code: "announcement", text: t("announcement", { text: message.text }) });
      return;
    }
    if (message.type === "tournament_notice") {
      // A tournament's next table is ready (the arrow goes back to the tournament's page).
      if (message.notice === "table" && message.table !== this.id) this.showNotice("warn", { code: "tournament_table" });
      return;
    }
    if (message.table && message.table !== this.id) return;
    if (message.type === "error") {
      this.error(message);
      return;
    }
    if (message.type === "ack") {
      if (message.ref === this.pending) this.pending = null;
      this.queueRender();
      return;
    }
    const effects = this.model.apply(message);
    this.updateYou();
    this.seedExchange(message, effects);
    if (effects.sheet) this.sheetOpen = true;
    if (effects.fair && effects.fair.status === "tampered") {
      this.showNotice("error", { code: "fair_tampered", text: t("fair.tampered", { n: effects.fair.number }) });
    }
    if (effects.final) {
      this.finalOpen = true;
      this.sheetOpen = false;
    }
    if (effects.dealt) this.sheetOpen = this.sheetOpen && Boolean(this.model.sheet);
    if (effects.chat && !(this.sideVisible() && this.sideTab === "chat")) this.unread += 1;
    this.comfortAfter(effects);
    if (effects.action && effects.action.seat === this.model.you) this.clearNotice("error");
    this.model.save();
    this.queueRender();
  }

  /** The player's part in the deal (docs/protocol.md, "Fair deals"): a commitment to a fresh
   * random seed for the next deal, sent whenever the page is (again) up to date with the
   * table, and the seed itself as soon as the server has committed to its secret (`shuffle`).
   * Spectators take no part. */
  seedExchange(message, effects) {
    const model = this.model;
    const seat = model.you;
    if (seat === null || seat === undefined || !["snapshot", "synced", "event"].includes(message.type)) return;
    if (model.info && !["open", "playing"].includes(model.info.status)) return;
    const shuffle = effects.shuffle;
    if (shuffle && model.seed && (shuffle.seed_commitments || [])[seat] === model.seed.commitment) {
      const { seed } = model.seed;
      this.conn.send({ type: "seed_reveal", table: this.id, number: shuffle.number, seed });
      model.keep(shuffle.number, { mySeat: seat, mySeed: seed });
      model.seed = null; // a seed is good for one deal
      this.seedSent = false;
    }
    // Once per connection (the server forgets commitments when it restarts) and after each
    // reveal, for the next deal.
    if (!this.seedSent) {
      if (!model.seed || model.seed.commitment !== hexCommitment(model.seed.seed)) model.seed = newSeed();
      this.seedSent = this.conn.send({ type: "seed_commit", table: this.id, commitment: model.seed.commitment });
    }
  }

  updateYou() {
    const model = this.model;
    if (!model.info) return;
    const me = this.ctx.user;
    const mine = model.info.seats.find((s) => !s.bot && s.name === me.name);
    model.you = mine ? mine.seat : null;
  }

  error(message) {
    if (message.ref && message.ref === this.pending) this.pending = null;
    if (message.code === "stale") return; // a snapshot follows
    if (message.code === "no_such_table") this.model.forget();
    // An illegal action is worded from its `detail` (explain.js): the server's English
    // sentence is not shown.
    const illegal = message.code === "illegal_action";
    this.showNotice("error", { code: message.code, rule: message.rule, refusal: message.detail }, illegal ? null : message.message);
  }

  /** A notice: `what` is {code, rule, refusal?, text?} (explained in the page's language when
   * drawn; `text` is already in it). */
  showNotice(kind, what, detail) {
    this.notice = { kind, code: what.code, rule: what.rule, refusal: what.refusal, text: what.text, detail };
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => this.clearNotice(kind), 12000);
    this.queueRender();
  }

  noticeTitle(notice) {
    if (notice.text) return notice.text;
    if (notice.code === "illegal_action" && notice.refusal) {
      return `${t("err.refused")} ${refusalText(notice.refusal)} ${ruleNote(notice.rule)}`.trim();
    }
    if (notice.code === "illegal_action") {
      const why = notice.rule && has(`rule.${notice.rule}`) ? t(`rule.${notice.rule}`) : t("err.illegal_action");
      return `${t("err.refused")} ${why}${notice.rule ? ` (${notice.rule})` : ""}`;
    }
    return errorWords({ code: notice.code, detail: notice.refusal });
  }

  /** The server's own sentence under a refusal's title: English, so on an English page only,
   * and not when the title already says the precise cause. */
  noticeDetail(notice) {
    if (!notice.detail || language() !== "en") return null;
    const precise = notice.refusal && notice.refusal.code && has(`err.${notice.refusal.code}`);
    return precise ? null : notice.detail;
  }

  clearNotice(kind) {
    if (this.notice && (!kind || this.notice.kind === kind)) {
      this.notice = null;
      this.queueRender();
    }
  }

  // ------------------------------------------------------------------------------ actions

  get seat() {
    return this.model.you;
  }

  get sort() {
    return this.order.sort;
  }

  /** Comfort: the sounds of what happened, and "your turn" in the title and as a notification. */
  comfortAfter(effects) {
    if (effects.action) soundsForAction(effects.action);
    const mine = this.myTurn;
    if (mine && !this.wasMyTurn) playSound("turn");
    this.wasMyTurn = mine;
    turnTitle(mine, t("app.title"));
  }

  /** Move the cards at `indices` of the shown hand to insertion point `to` (counted in the hand
   * without them), keeping them selected if they were. */
  reorder(indices, to) {
    const hand = this.hand();
    const wasSelected = indices.every((i) => this.selection.has(i));
    const placed = this.order.moveBlock(hand, indices, to);
    this.selection.clear();
    if (wasSelected) for (const i of placed) this.selection.add(i);
    this.focus = placed[0];
    this.handKey = this.hand().join(",");
    this.render();
  }

  /** Where a card dropped at (x, y) goes: an insertion point in the hand without `indices`. */
  handInsertion(x, y, indices) {
    const handEl = this.host.querySelector(".hand");
    if (!handEl) return null;
    const box = handEl.getBoundingClientRect();
    if (x < box.left || x > box.right || y < box.top - 20 || y > box.bottom + 20) return null;
    const moving = new Set(indices);
    let to = 0;
    for (const el of handEl.querySelectorAll(".card[data-index]")) {
      const i = Number(el.dataset.index);
      if (moving.has(i)) continue;
      const r = el.getBoundingClientRect();
      const sameRow = y >= r.top && y <= r.bottom;
      // Cards overlap: past a card's visible left part counts as after it.
      if (r.bottom < y || (sameRow && x > r.left + Math.min(r.width / 2, 18))) to += 1;
    }
    return to;
  }

  groupMyMelds() {
    this.order.setCustom(groupMelds(this.hand(), this.model.legal));
    this.handKey = "";
    this.render();
  }

  /** The comfort buttons of the action bar (kept out of tableview, which draws the table). */
  addHandTools() {
    const sortBtn = this.host.querySelector(".action-bar .sort-btn");
    if (!sortBtn || this.seat === null) return;
    sortBtn.after(h("button", {
      type: "button", class: "btn ghost group-btn", dataset: { cmd: "group" }, title: t("hand.group.title"), "aria-keyshortcuts": "G",
    }, t("hand.group")));
  }

  get myTurn() {
    const { view, you, info } = this.model;
    return Boolean(view && you !== null && info && info.status === "playing" && view.phase !== "over" && view.current === you);
  }

  hand() {
    const view = this.model.view;
    if (!view || this.seat === null) return [];
    return bottomHand({ view, hands: null, bottom: this.seat, sort: this.sort, arrange: (cards) => this.order.arrange(cards) });
  }

  selectedCards() {
    const hand = this.hand();
    return [...this.selection].sort((a, b) => a - b).map((i) => hand[i]).filter(Boolean);
  }

  act(words) {
    if (this.seat === null) return;
    if (this.pending) return;
    const ref = `r${++this.refs}`;
    if (this.conn.send({ type: "act", table: this.id, action: `${this.seat} ${words}`, ref })) {
      this.pending = ref;
      this.clearNotice("error");
      this.queueRender();
    }
  }

  draw() {
    this.act("draw");
  }

  pickup() {
    this.act("pickup");
  }

  open(cards = this.selectedCards()) {
    if (cards.length) this.act(`open ${cards.join(" ")}`);
  }

  attach(meld, cards = this.selectedCards()) {
    if (cards.length) this.act(`attach ${meld} ${cards.join(" ")}`);
  }

  discard(card) {
    // Settings: a discard of the hand's last card (closing or taking the pozzetto) is confirmed.
    if (card && this.hand().length === 1 && setting("confirmLast") && !confirm(t("confirm.last_discard"))) return;
    if (card) this.act(`discard ${card}`);
  }

  hints() {
    const hints = { draw: false, pickup: false, open: false, discard: false, attach: new Set(), extend: new Set(), playable: new Set() };
    const legal = this.model.legal;
    if (!legal || !this.myTurn) return hints;
    const hand = this.hand();
    const chosen = this.selectedCards();
    const extend = new Set();
    for (const text of legal) {
      const words = text.split(" ");
      const verb = words[1];
      if (verb === "draw") hints.draw = true;
      else if (verb === "pickup") hints.pickup = true;
      else if (verb === "discard") {
        if (chosen.length === 1 && words[2] === chosen[0]) hints.discard = true;
      } else if (verb === "open" || verb === "attach") {
        const cards = words.slice(verb === "open" ? 2 : 3);
        if (!chosen.length) {
          for (const card of cards) extend.add(card);
          continue;
        }
        if (sameMultiset(cards, chosen)) {
          if (verb === "open") hints.open = true;
          else hints.attach.add(Number(words[2]));
        }
        const rest = minus(cards, chosen);
        if (rest) for (const card of rest) extend.add(card);
      }
    }
    // Nothing chosen: the cards that take part in some meld are "playable"; with a choice, the
    // cards that could join it are hinted.
    const target = chosen.length ? hints.extend : hints.playable;
    hand.forEach((card, i) => {
      if (!this.selection.has(i) && extend.has(card)) target.add(i);
    });
    return hints;
  }

  toggle(index) {
    if (this.selection.has(index)) this.selection.delete(index);
    else this.selection.add(index);
    this.focus = index;
    this.refreshSelection();
  }

  /** Show the selection and what it makes possible, without rebuilding the table (the cards
   * under the pointer stay the same elements, so double clicks and drags keep working). */
  refreshSelection() {
    const hints = this.hints();
    for (const el of this.host.querySelectorAll(".hand .card[data-index]")) {
      const i = Number(el.dataset.index);
      const chosen = this.selection.has(i);
      el.classList.toggle("selected", chosen);
      el.setAttribute("aria-pressed", chosen ? "true" : "false");
      el.classList.toggle("hint", hints.extend.has(i));
      el.classList.toggle("playable", hints.playable.has(i));
    }
    const set = (cmd, enabled) => {
      const button = this.host.querySelector(`.action-bar [data-cmd="${cmd}"]`);
      if (button) button.disabled = !enabled;
    };
    set("open", hints.open);
    set("attach", hints.attach.size === 1);
    set("discard", hints.discard);
    for (const el of this.host.querySelectorAll(".line-area.ours .meld[data-meld]")) {
      el.classList.toggle("target", hints.attach.has(Number(el.dataset.meld)));
    }
    const fresh = this.host.querySelector(".new-meld");
    if (fresh) fresh.classList.toggle("target", hints.open);
    this.explainActions(hints);
  }

  /** Why each greyed action is greyed (explain.js), as a tooltip and a line under the bar. */
  reasons(hints = this.hints()) {
    return actionReasons({
      view: this.model.view,
      seat: this.seat,
      myTurn: this.myTurn,
      pending: Boolean(this.pending),
      hand: this.hand(),
      chosen: this.selectedCards(),
      hints,
    });
  }

  explainActions(hints) {
    if (this.model.view && this.seat !== null) showReasons(this.host, this.reasons(hints), this.selectedCards());
  }

  /** A tap or click on a greyed Cala/Attacca/Scarta: with a selection the engine can judge,
   * the action is sent (it is not in `legal`, so it is refused and changes nothing) and the
   * server's refusal gives the exact cause; otherwise the page's own reason is shown. */
  greyedTap(event) {
    const target = event.target instanceof Element ? event.target : null;
    const button = target ? target.closest(".action-bar button[data-cmd]") : null;
    if (!button || !button.disabled || !["open", "attach", "discard"].includes(button.dataset.cmd)) return;
    const cmd = button.dataset.cmd;
    const chosen = this.selectedCards();
    const view = this.model.view;
    const ask = this.myTurn && !this.pending && view && view.phase === "play";
    if (ask && cmd === "open" && chosen.length >= 3) this.open(chosen);
    else if (ask && cmd === "discard" && chosen.length === 1) this.discard(chosen[0]);
    else {
      const reason = this.reasons()[cmd];
      if (reason) this.showNotice("warn", { code: "why", text: reason });
    }
  }

  // ------------------------------------------------------------------------------- render

  queueRender() {
    if (this.renderQueued) return;
    this.renderQueued = true;
    requestAnimationFrame(() => {
      this.renderQueued = false;
      if (!this.destroyed && !this.drag) this.render();
    });
  }

  sideVisible() {
    return this.drawerOpen || window.matchMedia("(min-width: 1100px)").matches;
  }

  lineNames() {
    const { view, info } = this.model;
    if (!view) return [];
    return view.lines.map((l) => lineName(view, l.line, info ? info.seats : null));
  }

  render() {
    const model = this.model;
    const key = model.view && this.seat !== null ? this.hand().join(",") : "";
    if (key !== this.handKey) {
      this.handKey = key;
      this.selection.clear();
    }
    this.root.dataset.seq = String(model.seq ?? "");
    this.root.dataset.status = model.info ? model.info.status : "";
    this.root.dataset.you = String(model.you ?? "");
    this.root.dataset.phase = model.view ? model.view.phase : "";
    this.root.dataset.myTurn = String(this.myTurn);
    this.root.dataset.pending = this.pending ? "true" : "false";
    this.root.dataset.number = String(model.match ? model.match.number : "");
    this.renderTopbar();
    if (!model.info) {
      replace(this.host, h("div", { class: "waiting-msg", text: t("table.connecting") }));
    } else if (model.info.status === "open" || !model.view) {
      // Drawn again at each event (a seat taken, a notice): a name being typed stays.
      const typing = this.host.querySelector("#invite-name");
      const typed = typing ? typing.value : "";
      const focused = typing !== null && document.activeElement === typing;
      replace(this.host, this.waitingRoom());
      const again = this.host.querySelector("#invite-name");
      if (again && typed) again.value = typed;
      if (again && focused) again.focus();
    } else {
      const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.index : undefined;
      const felt = renderFelt({
        view: model.view,
        seats: model.info.seats,
        names: null,
        bottom: model.you ?? 0,
        hands: null,
        sort: this.sort,
        arrange: (cards) => this.order.arrange(cards),
        selection: this.selection,
        hints: this.hints(),
        interactive: model.you !== null && model.info.status === "playing",
        myTurn: this.myTurn,
        playing: model.you !== null,
        players: model.view.players,
        timed: Boolean(model.info.config.round_seconds),
        away: model.away,
        status: this.statusText(),
        notice: this.noticeEl(),
        focus: this.focus,
        last: model.lastAction,
      });
      replace(this.host, felt);
      this.explainActions();
      this.renderCoach();
      this.addHandTools();
      this.layoutHand();
      if (focused !== undefined) {
        const el = this.host.querySelector(`.hand [data-index="${focused}"]`);
        if (el) el.focus({ preventScroll: true });
      }
    }
    this.renderSide();
    this.renderModal();
    this.tick();
  }

  /** A lesson table (the guided first game) shows the coach's hint under the status line. */
  renderCoach() {
    const info = this.model.info;
    if (!info || !info.config.lesson || this.seat === null) return;
    const hint = coachHint({ view: this.model.view, legal: this.model.legal, myTurn: this.myTurn && !this.pending });
    const row = this.host.querySelector(".status-row");
    if (!hint || !row) return;
    row.after(coachEl(hint, () => this.showHint(hint)));
    if (this.coachTarget && this.coachTarget.action === hint.action) {
      const target = this.host.querySelector(this.coachTarget.selector);
      if (target) target.classList.add("coach-target");
    }
  }

  /** "Show me": select the hint's cards and mark where they go (the stock, a meld, a button). */
  showHint(hint) {
    const verb = actionVerb(hint.action);
    const mine = this.model.view.lines.find((l) => l.seats.includes(this.seat));
    const selectors = {
      draw: ".stock",
      pickup: ".pile",
      open: '.action-bar [data-cmd="open"]',
      discard: '.action-bar [data-cmd="discard"]',
      attach: `.line-area[data-line="${mine ? mine.line : ""}"] .meld[data-meld="${actionMeld(hint.action)}"]`,
    };
    this.coachTarget = { action: hint.action, selector: selectors[verb] };
    this.selection.clear();
    const hand = this.hand();
    const used = new Set();
    for (const code of actionCards(hint.action)) {
      const index = hand.findIndex((c, i) => c === code && !used.has(i));
      if (index >= 0) used.add(index);
    }
    for (const index of used) this.selection.add(index);
    this.queueRender();
  }

  /** Move the keyboard focus to the hand's card ``this.focus`` (the hand's one tab stop). */
  focusHandCard() {
    const el = this.host.querySelector(`.hand [data-index="${this.focus}"]`);
    if (!el) return;
    for (const card of this.host.querySelectorAll(".hand .card")) card.tabIndex = -1;
    el.tabIndex = 0;
    el.focus();
  }

  statusText() {
    const { view, info, you, final } = this.model;
    if (!view) return "";
    if (info.status === "finished" || final) return t("status.finished");
    if (view.phase === "over") return t("status.over");
    const name = seatName(info.seats, view.current);
    if (you === null) return t("status.watching", { name });
    if (view.current !== you) return t("status.waiting", { name });
    if (this.pending) return t("status.sending");
    if (view.phase === "acquire") return t("status.acquire");
    return t("status.play");
  }

  noticeEl() {
    const notices = [];
    const { info } = this.model;
    for (const [seat, away] of Object.entries(this.model.away)) {
      if (Number(seat) === this.model.you) continue;
      const counted = away && away.then !== "wait";
      notices.push(
        h("div", { class: "notice warn", role: "status" },
          h("strong", { text: t("notice.away", { name: seatName(info.seats, Number(seat)) }) }),
          counted ? h("span", { class: "countdown", dataset: { deadline: String(away.deadline), then: away.then } }) : null,
          away && away.then === "wait" ? h("span", { text: ` ${t("notice.away.wait")}` }) : null,
        ),
      );
    }
    if (this.notice) {
      const n = this.notice;
      notices.push(
        h("div", { class: `notice ${n.kind}`, role: "alert", dataset: { rule: n.rule || "" } },
          h("div", { class: "notice-text" },
            h("strong", { class: "notice-title", text: this.noticeTitle(n) }),
            this.noticeDetail(n) ? h("span", { class: "notice-detail", text: this.noticeDetail(n) }) : null,
          ),
          h("button", { type: "button", class: "notice-close", dataset: { cmd: "close-notice" }, "aria-label": t("common.close"), text: "×" }),
        ),
      );
    }
    return notices.length ? h("div", { class: "notices" }, notices) : null;
  }

  renderTopbar() {
    const { match, info, view } = this.model;
    const title = [];
    if (match && match.number && view) {
      const of = match.smazzate ? `/${match.smazzate}` : "";
      title.push(t("table.smazzata", { n: `${match.number}${of}` }));
    } else if (info) title.push(t("table.title", { players: info.config.players, rules: presetName(info.config.rules) }));
    const statusClass = this.connStatusText === "open" ? "ok" : "bad";
    replace(this.topbar,
      h("button", { type: "button", class: "icon-btn", dataset: { cmd: "lobby" }, "aria-label": t("nav.lobby"), title: t("nav.lobby"), text: "←" }),
      h("div", { class: "topbar-title" },
        h("span", { class: "title-main", text: title.join(" · ") || t("table.connecting") }),
        match && view ? this.topScore() : null,
      ),
      h("span", { class: `conn-dot ${statusClass}`, role: "img", title: t(`conn.${this.connStatusText}`), "aria-label": t(`conn.${this.connStatusText}`) }),
      h("button", { type: "button", class: "icon-btn side-toggle", dataset: { cmd: "side" }, "aria-label": t("side.label"), title: t("side.label") },
        icon("chat"), this.unread ? h("span", { class: "unread", text: String(this.unread) }) : null),
      h("button", { type: "button", class: "icon-btn settings-btn", dataset: { cmd: "settings" }, "aria-label": t("settings.title"), title: t("settings.title"), text: "⚙" }),
      h("button", { type: "button", class: "lang-btn", dataset: { cmd: "lang" }, text: t("lang.switch"), title: t("lang.switch.title") }),
    );
  }

  /** The match totals with the names they belong to ("Giulia 1250 · Bot Esperto 980"), one
   * entry per line of the totals (per seat with 3 players, R 3.5), the viewer's own first. */
  topScore() {
    const { match, view, info } = this.model;
    const totals = match.totals || [];
    const seats = info ? info.seats : null;
    const names = totals.length === view.lines.length
      ? this.lineNames()
      : totals.map((_, seat) => seatName(seats, seat));
    const mine = this.model.you === null ? -1 : (totals.length === view.lines.length
      ? view.lines.findIndex((l) => l.seats.includes(this.model.you))
      : this.model.you);
    const items = totals.map((n, i) => ({ n, i, name: names[i] ?? "" }));
    if (mine > 0) items.unshift(...items.splice(mine, 1));
    const full = items.map((x) => `${x.name} ${x.n}`).join(" · ") + (match.target ? ` / ${match.target}` : "");
    return h("span", { class: "title-score", title: `${t("table.totals")}: ${full}`, "aria-label": `${t("table.totals")}: ${full}` },
      items.map((x, k) => h("span", { class: `score-item${x.i === mine ? " us" : ""}`, dataset: { line: String(x.i) } },
        k ? h("span", { class: "score-sep", "aria-hidden": "true", text: "·" }) : null,
        h("span", { class: "score-name", text: x.name }),
        h("strong", { class: "score-n", text: String(x.n) }),
      )),
      match.target ? h("span", { class: "score-target", text: `/ ${match.target}` }) : null,
    );
  }

  /** Invite a player by name (friends.py): his open pages are told at once. */
  inviteForm() {
    const form = h("form", { class: "invite-friend", dataset: { form: "invite" } },
      h("label", { for: "invite-name", text: t("wait.invite_friend") }),
      h("div", { class: "invite-row" },
        h("input", { id: "invite-name", name: "player", maxlength: "32", required: true, autocomplete: "off" }),
        h("button", { type: "submit", class: "btn", text: t("wait.invite") })));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const name = String(new FormData(form).get("player") || "").trim();
      try {
        const done = await api.invite(this.id, name);
        const typing = this.host.querySelector("#invite-name");
        if (typing && typing.value.trim() === name) typing.value = "";  // invited: done with it
        this.showNotice("warn", { code: "invited", text: t(done.online ? "wait.invited" : "wait.invited_offline", { name }) });
      } catch (error) {
        this.showNotice("error", { code: error && error.code ? error.code : "generic", refusal: error && error.detail }, error && error.message);
      }
    });
    return form;
  }

  waitingRoom() {
    const { info, final } = this.model;
    const me = this.ctx.user;
    const you = this.model.you;
    const levels = this.ctx.info ? this.ctx.info.bots : ["greedy"];
    const mayBot = you !== null || info.created_by === me.id;
    const rows = info.seats.map((seat) => {
      const who = seat.bot
        ? t("seat.bot", { level: botLabel(seat.bot) })
        : seat.name || t("seat.free");
      const controls = [];
      if (info.status === "open") {
        if (!seat.bot && !seat.name && you === null) {
          controls.push(h("button", { type: "button", class: "btn primary", dataset: { cmd: "sit", seat: String(seat.seat) }, text: t("wait.sit") }));
        }
        if (!seat.bot && !seat.name && mayBot) {
          const select = h("select", { class: "bot-level", dataset: { seat: String(seat.seat) }, "aria-label": t("wait.bot_level") },
            levels.map((level) => h("option", { value: level, text: botLabel(level), selected: level === "heuristic" })));
          controls.push(select, h("button", { type: "button", class: "btn", dataset: { cmd: "add-bot", seat: String(seat.seat) }, text: t("wait.add_bot") }));
        }
        if (seat.bot && mayBot) {
          controls.push(h("button", { type: "button", class: "btn ghost", dataset: { cmd: "remove-bot", seat: String(seat.seat) }, text: t("wait.remove_bot") }));
        }
        if (seat.seat === you) {
          controls.push(h("button", { type: "button", class: "btn ghost", dataset: { cmd: "stand" }, text: t("wait.stand") }));
        }
      }
      return h("li", { class: `wait-seat${seat.seat === you ? " mine" : ""}`, dataset: { seat: String(seat.seat) } },
        h("span", { class: "wait-seat-no", text: t("seat.n", { n: seat.seat + 1 }) }),
        h("span", { class: `wait-seat-who${seat.bot || seat.name ? "" : " free"}`, text: who }),
        h("span", { class: "wait-seat-controls" }, controls),
      );
    });
    const link = `${location.origin}/?table=${encodeURIComponent(this.id)}`;
    const cfg = info.config;
    if (info.status === "cancelled") {
      return h("div", { class: "waiting" },
        h("h2", { text: t("wait.cancelled") }),
        h("div", { class: "wait-actions" },
          h("button", { type: "button", class: "btn primary", dataset: { cmd: "lobby" }, text: t("nav.lobby") }),
        ),
      );
    }
    return h("div", { class: "waiting" },
      h("h2", { text: info.status === "finished" ? t("wait.finished") : t("wait.title") }),
      this.notice ? this.noticeEl() : null,
      h("p", { class: "muted", text: describeConfig(cfg) }),
      h("ul", { class: "wait-seats" }, rows),
      info.status === "open" ? h("p", { class: "muted", text: t("wait.starts") }) : null,
      h("div", { class: "invite" },
        h("label", { for: "invite-link", text: cfg.public ? t("wait.link") : t("wait.private_link") }),
        h("div", { class: "invite-row" },
          h("input", { id: "invite-link", readonly: true, value: link }),
          h("button", { type: "button", class: "btn", dataset: { cmd: "copy-link" }, text: t("wait.copy") }),
        ),
      ),
      info.status === "open" && you !== null && !me.guest ? this.inviteForm() : null,
      info.status === "open" && info.created_by === me.id ? h("div", { class: "wait-actions" },
        h("button", { type: "button", class: "btn ghost", dataset: { cmd: "cancel-table" }, text: t("wait.cancel") }),
      ) : null,
      final && info.status === "finished" ? h("div", { class: "wait-actions" },
        h("button", { type: "button", class: "btn primary", dataset: { cmd: "rematch" }, text: t("final.rematch") }),
      ) : null,
    );
  }

  renderSide() {
    // Rebuilt only when what it shows changed (typing in the chat is not disturbed).
    const model = this.model;
    const key = JSON.stringify([
      this.sideTab, this.unread, this.drawerOpen, document.documentElement.lang, model.chat.length,
      this.hidden ? this.hidden.size : 0,
      model.logSeq || 0, model.match ? model.match.scores.length : 0, Boolean(model.final), Boolean(model.sheet),
    ]);
    if (key === this.sideKey) return;
    this.sideKey = key;
    const tabs = ["chat", "log", "scores", "help"];
    const panel = h("div", { class: "side-panel" });
    if (this.sideTab === "chat") panel.append(this.chatPanel());
    else if (this.sideTab === "log") panel.append(this.logPanel());
    else if (this.sideTab === "scores") panel.append(this.scoresPanel());
    else panel.append(this.helpPanel());
    const keep = this.side.querySelector(".chat-input");
    const draft = keep ? keep.value : "";
    const hadFocus = keep && document.activeElement === keep;
    replace(this.side,
      h("div", { class: "side-tabs", role: "tablist" }, tabs.map((tab) =>
        h("button", {
          type: "button", role: "tab", class: `side-tab${tab === this.sideTab ? " active" : ""}`,
          "aria-selected": tab === this.sideTab ? "true" : "false", dataset: { cmd: "tab", tab },
        }, t(`side.${tab}`), tab === "chat" && this.unread ? h("span", { class: "unread", text: String(this.unread) }) : null))),
      panel,
    );
    this.side.classList.toggle("open", this.drawerOpen);
    const input = this.side.querySelector(".chat-input");
    if (input) {
      input.value = draft;
      if (hadFocus) input.focus();
    }
    const list = this.side.querySelector(".chat-list, .log-list");
    if (list) list.scrollTop = list.scrollHeight;
  }

  chatPanel() {
    // Muted and blocked players' lines are not shown (docs/moderation.md); the others' may
    // be reported or muted from here.
    const hidden = this.hidden || new Set();
    const me = this.ctx.user;
    const lines = this.model.chat.filter((line) => !hidden.has(line.name));
    const list = h("ol", { class: "chat-list", "aria-live": "polite" },
      lines.map((line) =>
        h("li", { class: "chat-line", dataset: { author: line.name } },
          h("span", { class: "chat-name", text: line.name }),
          h("span", { class: "chat-text", text: line.text }),
          !me.guest && line.name !== me.name && !line.name.startsWith("Bot")
            ? h("span", { class: "chat-tools" },
              h("button", { type: "button", class: "icon-btn small", dataset: { cmd: "report-line" }, title: t("chat.report"), "aria-label": t("chat.report.who", { name: line.name }),
                onclick: () => this.reportLine(line) }, "⚑"),
              h("button", { type: "button", class: "icon-btn small", dataset: { cmd: "mute-player" }, title: t("chat.mute"), "aria-label": t("chat.mute.who", { name: line.name }),
                onclick: () => this.mutePlayer(line.name) }, "🔇"))
            : null,
        )));
    if (!this.model.chat.length) list.append(h("li", { class: "muted", text: t("chat.empty") }));
    const form = h("form", { class: "chat-form", dataset: { form: "chat" } },
      h("input", { class: "chat-input", name: "text", maxlength: "300", autocomplete: "off", placeholder: t("chat.placeholder"), "aria-label": t("chat.placeholder") }),
      h("button", { type: "submit", class: "btn", text: t("chat.send") }),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const input = form.querySelector("input");
      const text = input.value.trim();
      if (!text) return;
      if (this.conn.send({ type: "chat", table: this.id, text })) input.value = "";
    });
    const quick = quickChat((text) => this.conn.send({ type: "chat", table: this.id, text }));
    return h("div", { class: "chat" }, list, quick, form);
  }

  async reportLine(line) {
    const reason = prompt(t("chat.report.reason", { name: line.name }));
    if (!reason) return;
    try {
      const body = { player: line.name, reason };
      if (Number.isInteger(line.seq)) Object.assign(body, { table: this.id, seq: line.seq });
      await api.report(body);
      this.showNotice("warn", { code: "report", text: t("chat.report.sent") });
    } catch (error) {
      this.showNotice("error", { code: error && error.code ? error.code : "generic", refusal: error && error.detail }, error && error.message);
    }
  }

  async mutePlayer(name) {
    try {
      const relations = await api.relate(name, "mute");
      this.hidden = new Set([...relations.mute, ...relations.block]);
      this.renderSide();
    } catch (error) {
      this.showNotice("error", { code: error && error.code ? error.code : "generic", refusal: error && error.detail }, error && error.message);
    }
  }

  logPanel() {
    const seats = this.model.info ? this.model.info.seats : null;
    const items = this.model.log.map((entry) => h("li", { class: entry.kind === "fair" ? `log-fair log-fair-${entry.status}` : `log-${entry.kind}` }, logText(entry, seats)));
    if (!items.length) items.push(h("li", { class: "muted", text: t("log.empty") }));
    return h("ol", { class: "log-list" }, items);
  }

  scoresPanel() {
    const { match, final } = this.model;
    const names = this.lineNames();
    const out = [historyTable(match ? match.scores : [], names, match ? match.totals : null, final)];
    if (this.model.sheet) {
      out.push(h("button", { type: "button", class: "btn", dataset: { cmd: "show-sheet" }, text: t("sheet.show_last") }));
    }
    return h("div", { class: "scores" }, out);
  }

  helpPanel() {
    const keys = [
      ["←  →", "help.keys.move"],
      [t("help.key.space"), "help.keys.select"],
      ["S", "help.keys.draw"],
      ["P", "help.keys.pickup"],
      ["O", "help.keys.open"],
      ["1 … 9", "help.keys.attach"],
      ["X", "help.keys.discard"],
      ["R", "help.keys.sort"],
      ["⇧ ←  →", "help.keys.reorder"],
      ["G", "help.keys.group"],
      ["Esc", "help.keys.clear"],
    ];
    return h("div", { class: "help" },
      h("p", { text: t("help.mouse") }),
      h("p", { text: t("help.touch") }),
      h("dl", { class: "keys" }, keys.map(([key, text]) => [h("dt", {}, h("kbd", { text: key })), h("dd", { text: t(text) })])),
      h("p", { class: "muted", text: t("help.legal") }),
    );
  }

  renderModal() {
    const model = this.model;
    let content = null;
    if (this.finalOpen && model.final) content = this.finalSheet();
    else if (this.sheetOpen && model.sheet) content = this.smazzataSheet();
    if (!content) {
      replace(this.modal);
      this.modal.classList.remove("open");
      return;
    }
    replace(this.modal, h("div", { class: "modal", role: "dialog", "aria-modal": "true", "aria-labelledby": "modal-title" }, content));
    this.modal.classList.add("open");
  }

  smazzataSheet() {
    const { sheet } = this.model;
    const names = this.lineNames();
    return h("div", { class: "sheet-box", dataset: { sheet: String(sheet.score.number) } },
      h("h2", { id: "modal-title", text: t("sheet.title", { n: sheet.score.number }) }),
      h("p", { class: "muted", text: endedText(sheet.score, names) }),
      sheetTable(sheet.score, names, sheet.totals),
      sheet.hands ? this.handsLeft(sheet.hands) : null,
      fairStatus(sheet),
      h("details", { class: "fairness" },
        h("summary", { text: t("sheet.fairness") }),
        h("p", { class: "mono", text: `${t("sheet.commitment")}: ${sheet.reveal.commitment}` }),
        // A same-cards table: the tournament reveals the round's decks once the round is over.
        sheet.reveal.salt
          ? h("p", { class: "mono", text: `${t("sheet.salt")}: ${sheet.reveal.salt}` })
          : h("p", { class: "muted", dataset: { revealLater: "yes" }, text: t("sheet.reveal_later") }),
        ...fairSeeds(sheet, this.model.info ? this.model.info.seats : []),
      ),
      h("div", { class: "modal-actions" },
        sheet.nextDealAt ? h("span", { class: "muted next-deal", dataset: { nextDeal: String(sheet.nextDealAt) }, "aria-live": "off" }) : null,
        h("button", { type: "button", class: "btn primary", dataset: { cmd: "close-sheet" }, text: t("sheet.continue") }),
      ),
    );
  }

  /** The cards each seat was left holding (they count against its line, R60). */
  handsLeft(hands) {
    const seats = this.model.info ? this.model.info.seats : [];
    return h("div", { class: "hands-left" },
      h("h3", { text: t("sheet.hands_left") }),
      h("ul", {}, hands.map((cards, seat) =>
        h("li", { dataset: { handLeft: String(seat) } },
          h("span", { class: "who", text: seatName(seats, seat) }),
          cards.length
            ? h("span", { class: "cards", "aria-label": cardsText(cards) }, sortCards(cards, "suit").map((code) => cardEl(code, { small: true })))
            : h("span", { class: "muted", text: t("sheet.hand_empty") }),
        ))),
    );
  }

  /** Tells the server this seat has read the score sheet: the next deal waits for the people
   * seated (at most the table's sheet_seconds), so nobody starts a smazzata behind the sheet. */
  sheetRead() {
    const { sheet } = this.model;
    if (!sheet || !sheet.nextDealAt || sheet.readSent || this.model.you === null) return;
    sheet.readSent = true;
    this.conn.send({ type: "ready", table: this.id });
  }

  /** What a rated match did to the ratings: each seat's before and after (a bot's fixed); a
   * same-cards round's match is rated once the round is over (rating.pending). */
  ratingChanges(rating) {
    if (rating.pending) {
      return h("p", { class: "muted rating-news", dataset: { pending: rating.pending }, text: t("final.rating_pending") });
    }
    if (!rating.changes) {
      return h("p", { class: "muted rating-news", dataset: { unrated: rating.unrated || "" }, text: t("final.unrated") });
    }
    const seats = this.model.info ? this.model.info.seats : [];
    return h("div", { class: "rating-news" },
      h("h3", { text: t("final.ratings") }),
      h("ul", {}, rating.changes.map((c) => h("li", { dataset: { seat: String(c.seat), result: c.result } },
        h("span", { class: "who", text: seatName(seats, c.seat) }), " ",
        h("strong", { text: String(c.after) }),
        h("span", { class: c.delta >= 0 ? "up" : "down", text: ` (${c.delta > 0 ? "+" : ""}${c.delta})` }),
        c.result === "abandoned" ? h("span", { class: "muted", text: ` · ${t("ratings.result.abandoned")}` }) : null,
        c.result === "held" ? h("span", { class: "muted", text: ` · ${t("final.held")}` }) : null,
      ))));
  }

  finalSheet() {
    const { final, info, match } = this.model;
    const names = this.lineNames();
    const winner = final.winner === null || final.winner === undefined ? t("final.draw") : t("final.winner", { name: names[final.winner] ?? "" });
    const matchNo = info ? info.match_no : 1;
    const scores = (match && match.scores) || [];
    // T14: lost on time (or by forfeit), the technical score decides, whatever the totals (often
    // 0-0 when the first smazzata was cut): say who lost, and show the MP and VP by line.
    const technical = (final.ended === "timeout" || final.ended === "forfeit") && Array.isArray(final.mp) && Number.isInteger(final.winner);
    const cut = this.model.log.findLast((e) => e.kind === final.ended);
    const loser = cut && Number.isInteger(cut.seat) ? seatName(info ? info.seats : [], cut.seat) : names.find((_, line) => line !== final.winner);
    return h("div", { class: "sheet-box final", dataset: { final: "true", ended: final.ended || "" } },
      h("h2", { id: "modal-title", text: t("final.title") }),
      h("p", { class: "final-winner", text: winner }),
      technical ? h("p", { class: "final-reason", text: t(final.ended === "timeout" ? "final.ran_out" : "final.forfeited", { name: loser ?? "" }) }) : null,
      final.ended === "timeout" ? h("p", { class: "muted", text: t("final.timeout") }) : null,
      h("p", { class: "final-smazzate", text: t("final.smazzate", { n: scores.length }) }),
      this.model.sheet ? sheetTable(this.model.sheet.score, names, null) : null,
      this.model.sheet && this.model.sheet.hands ? this.handsLeft(this.model.sheet.hands) : null,
      scores.length ? historyTable(scores, names, final.totals, technical ? null : final) : null,
      technical ? technicalTable(names, final, scores.length ? null : final.totals) : null,
      final.rating ? this.ratingChanges(final.rating) : null,
      h("div", { class: "modal-actions" },
        this.model.you !== null ? h("button", { type: "button", class: "btn primary", dataset: { cmd: "rematch" }, text: t("final.rematch") }) : null,
        h("a", { class: "btn", href: `/?replay=${encodeURIComponent(this.id)}&match=${matchNo}`, dataset: { link: "replay" }, text: t("final.replay") }),
        // A player's match: the bot's review of his seat, asked as the replay opens (review.js).
        this.model.you !== null ? h("a", { class: "btn", href: `/?replay=${encodeURIComponent(this.id)}&match=${matchNo}&review=1`, dataset: { link: "review" }, text: t("review.ask") }) : null,
        h("a", { class: "btn", href: recordUrl(this.id, matchNo), download: `burraco-${this.id}-${matchNo}.toml`, text: t("final.download") }),
        h("button", { type: "button", class: "btn ghost", dataset: { cmd: "close-final" }, text: t("common.close") }),
      ),
    );
  }

  // ----------------------------------------------------------------------------- clocks

  tick() {
    const { clock, view, info } = this.model;
    const now = this.conn.serverNow();
    const elapsed = clock ? Math.max(0, now - clock.server_time) : 0;
    const lineOf = (seat) => {
      if (!view) return seat;
      const entry = view.lines.find((l) => l.seats.includes(seat));
      return entry ? entry.line : seat;
    };
    for (const el of this.root.querySelectorAll("[data-bank]")) {
      const seat = Number(el.dataset.bank);
      if (!clock || !clock.banks) {
        el.textContent = info && info.config.round_seconds ? "–" : "";
        continue;
      }
      let left = clock.banks[seat];
      const running = clock.running !== null && clock.running !== undefined && lineOf(clock.running) === lineOf(seat);
      if (running) left -= elapsed;
      el.textContent = formatClock(left);
      el.classList.toggle("running", running);
      if (seat === this.model.you) {
        const crossed = this.alarm.update(running ? left : null);
        if (crossed) this.showNotice("warn", { code: "clock_low", text: t("clock.low", { s: crossed }) });
      }
      // Three levels, as a chess clock: under a minute, under 30 s, under 10 s (the sounds' levels).
      el.classList.toggle("low", left < 60);
      el.classList.toggle("warn", left <= 30);
      el.classList.toggle("crit", left <= 10);
    }
    for (const el of this.root.querySelectorAll("[data-turn-timer]")) {
      if (!clock || clock.turn_left === null || clock.turn_left === undefined || clock.running === null) {
        el.textContent = "";
        continue;
      }
      const left = clock.turn_left - elapsed;
      el.textContent = formatClock(left);
      el.classList.toggle("low", left < 10);
    }
    for (const el of this.root.querySelectorAll("[data-next-deal]")) {
      const left = Math.max(0, Math.ceil(Number(el.dataset.nextDeal) - now));
      el.textContent = t("sheet.next_deal", { s: left });
    }
    for (const el of this.root.querySelectorAll("[data-deadline]")) {
      const key = el.dataset.then === "forfeit" ? "notice.away.forfeit" : "notice.away.countdown";
      el.textContent = ` ${t(key, { time: formatClock(Number(el.dataset.deadline) - now) })}`;
    }
  }

  // ---------------------------------------------------------------------------- hand layout

  layoutHand() {
    layoutHand(this.host);
  }

  // ------------------------------------------------------------------------------- input

  click(event) {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    const cmdEl = target.closest("[data-cmd]");
    if (cmdEl && this.root.contains(cmdEl)) {
      if (cmdEl.tagName === "BUTTON" && cmdEl.disabled) return;
      this.command(cmdEl.dataset.cmd, cmdEl);
      return;
    }
    const replayLink = target.closest("a[data-link]");
    if (replayLink) {
      event.preventDefault();
      this.ctx.navigate(replayLink.getAttribute("href"));
      return;
    }
    if (this.model.you === null || !this.model.view) return;
    const actEl = target.closest("[data-act]");
    if (actEl) {
      if (actEl.dataset.act === "draw") this.draw();
      else if (actEl.dataset.act === "pickup") {
        const chosen = this.selectedCards();
        // With one card chosen while melding, a click on the pile is a discard.
        if (this.model.view.phase === "play" && chosen.length === 1) this.discard(chosen[0]);
        else this.pickup();
      }
      return;
    }
    const drop = target.closest("[data-drop]");
    if (drop && this.selection.size) {
      if (drop.dataset.drop === "attach") this.attach(Number(drop.dataset.meld));
      else if (drop.dataset.drop === "open") this.open();
    }
  }

  async command(cmd, el) {
    try {
      switch (cmd) {
        case "lobby": {
          const tournament = this.model.info && this.model.info.config.tournament;
          this.ctx.navigate(tournament ? `/?tournament=${encodeURIComponent(tournament)}` : "/");
          break;
        }
        case "lang":
          this.ctx.toggleLanguage();
          break;
        case "side":
          this.drawerOpen = !this.drawerOpen;
          if (this.drawerOpen && this.sideTab === "chat") this.unread = 0;
          this.render();
          break;
        case "tab":
          this.sideTab = el.dataset.tab;
          if (this.sideTab === "chat") this.unread = 0;
          this.render();
          break;
        case "sort":
          this.order.toggle();
          this.handKey = "";
          this.render();
          break;
        case "group":
          this.groupMyMelds();
          break;
        case "settings":
          openSettings(() => this.render());
          break;
        case "open":
          this.open();
          break;
        case "attach": {
          const targets = [...this.hints().attach];
          if (targets.length === 1) this.attach(targets[0]);
          break;
        }
        case "discard": {
          const chosen = this.selectedCards();
          if (chosen.length === 1) this.discard(chosen[0]);
          break;
        }
        case "close-notice":
          this.clearNotice();
          break;
        case "close-sheet":
          this.sheetOpen = false;
          this.sheetRead();
          this.render();
          break;
        case "show-sheet":
          this.sheetOpen = true;
          this.drawerOpen = false;
          this.render();
          break;
        case "close-final":
          this.finalOpen = false;
          this.render();
          break;
        case "sit":
          await api.sit(this.id, Number(el.dataset.seat));
          break;
        case "stand":
          await api.stand(this.id);
          break;
        case "cancel-table":
          if (confirm(t("wait.cancel_confirm"))) await api.cancel(this.id);
          break;

        case "add-bot": {
          const select = this.host.querySelector(`select[data-seat="${el.dataset.seat}"]`);
          await api.bot(this.id, Number(el.dataset.seat), select ? select.value : "heuristic");
          break;
        }
        case "remove-bot":
          await api.bot(this.id, Number(el.dataset.seat), null);
          break;
        case "rematch":
          this.finalOpen = false;
          await api.rematch(this.id);
          break;
        case "copy-link": {
          const input = this.host.querySelector("#invite-link");
          if (input) {
            input.select();
            try {
              await navigator.clipboard.writeText(input.value);
            } catch {
              document.execCommand("copy");
            }
            el.textContent = t("wait.copied");
          }
          break;
        }
        default:
          break;
      }
    } catch (error) {
      this.showNotice("error", { code: error && error.code ? error.code : "generic", refusal: error && error.detail }, error && error.message);
    }
  }

  key(event) {
    if (this.destroyed) return;
    const target = event.target;
    if (target instanceof HTMLElement && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape") {
      if (this.modal.classList.contains("open")) {
        if (this.sheetOpen) this.sheetRead();
        this.sheetOpen = false;
        this.finalOpen = false;
      } else if (this.drawerOpen) this.drawerOpen = false;
      else {
        this.selection.clear();
        this.refreshSelection();
        return;
      }
      this.render();
      return;
    }
    if (!this.model.view || this.model.you === null || this.modal.classList.contains("open")) return;
    const hand = this.hand();
    const focused = target instanceof HTMLElement && target.dataset.index !== undefined ? Number(target.dataset.index) : null;
    const key = event.key.toLowerCase();
    if ((event.key === "ArrowLeft" || event.key === "ArrowRight") && event.shiftKey && focused !== null) {
      // Shift+arrow moves the focused card (or the chosen cards with it) one place.
      const block = this.selection.has(focused) ? [...this.selection].sort((a, b) => a - b) : [focused];
      const first = block[0];
      const to = event.key === "ArrowLeft" ? Math.max(0, first - 1) : Math.min(hand.length - block.length, first + 1);
      this.reorder(block, to);
      this.focusHandCard();
      event.preventDefault();
      return;
    }
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      if (!hand.length) return;
      const from = focused ?? this.focus;
      this.focus = Math.max(0, Math.min(hand.length - 1, from + (event.key === "ArrowLeft" ? -1 : 1)));
      this.focusHandCard();
      event.preventDefault();
      return;
    }
    if ((event.key === " " || event.key === "Enter") && focused !== null) {
      this.toggle(focused);
      event.preventDefault();
      return;
    }
    if ((event.key === " " || event.key === "Enter") && target instanceof HTMLElement && target.dataset.drop && target.dataset.drop !== "discard") {
      // A focused meld of one's own line (or the new-meld slot) takes the chosen cards, as a
      // click does.
      if (target.dataset.drop === "attach") this.attach(Number(target.dataset.meld));
      else this.open();
      event.preventDefault();
      return;
    }
    if ((event.key === " " || event.key === "Enter") && target instanceof HTMLElement && target.dataset.act) {
      if (target.dataset.act === "draw") this.draw();
      else this.pickup();
      event.preventDefault();
      return;
    }
    if (key === "s") this.draw();
    else if (key === "p") this.pickup();
    else if (key === "o") this.open();
    else if (key === "a") this.command("attach");
    else if (key === "r") this.command("sort");
    else if (key === "g") this.command("group");
    else if (key === "x" || event.key === "Delete") {
      const chosen = this.selectedCards();
      if (chosen.length === 1) this.discard(chosen[0]);
      else if (focused !== null) this.discard(hand[focused]);
    } else if (/^[1-9]$/.test(event.key)) this.attach(Number(event.key));
    else return;
    event.preventDefault();
  }

  pointerDown(event) {
    const card = event.target instanceof Element ? event.target.closest(".hand [data-index]") : null;
    if (!card || this.model.you === null || event.button > 0) return;
    this.press = { index: Number(card.dataset.index), x: event.clientX, y: event.clientY, id: event.pointerId, el: card };
  }

  pointerMove(event) {
    const press = this.press;
    if (!press || press.id !== event.pointerId) return;
    if (!this.drag) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < 10) return;
      this.startDrag(press);
    }
    const ghost = this.drag.ghost;
    ghost.style.transform = `translate(${event.clientX - this.drag.dx}px, ${event.clientY - this.drag.dy}px)`;
    const over = this.dropAt(event.clientX, event.clientY);
    for (const el of this.root.querySelectorAll(".drop-over")) el.classList.remove("drop-over");
    if (over) over.classList.add("drop-over");
  }

  startDrag(press) {
    const hand = this.hand();
    const indices = this.selection.has(press.index) ? [...this.selection] : [...this.selection, press.index];
    const cards = indices.sort((a, b) => a - b).map((i) => hand[i]);
    const rect = press.el.getBoundingClientRect();
    const ghost = h("div", { class: "drag-ghost" });
    for (const i of indices) {
      const src = this.host.querySelector(`.hand [data-index="${i}"]`);
      if (src) ghost.append(src.cloneNode(true));
    }
    document.body.append(ghost);
    this.drag = { cards, indices, ghost, dx: press.x - rect.left, dy: press.y - rect.top };
    this.root.classList.add("dragging");
  }

  dropAt(x, y) {
    const el = document.elementFromPoint(x, y);
    return el ? el.closest("[data-drop]") : null;
  }

  pointerUp(event) {
    const press = this.press;
    this.press = null;
    if (!press || press.id !== event.pointerId) return;
    if (this.drag) {
      const { cards, indices } = this.drag;
      const target = this.dropAt(event.clientX, event.clientY);
      this.cancelDrag();
      const into = target ? null : this.handInsertion(event.clientX, event.clientY, indices);
      if (into !== null) {
        this.reorder(indices, into); // dropped on the hand: the player's own order
        return;
      }
      if (target) {
        if (target.dataset.drop === "discard" && cards.length === 1) this.discard(cards[0]);
        else if (target.dataset.drop === "attach") this.attach(Number(target.dataset.meld), cards);
        else if (target.dataset.drop === "open") this.open(cards);
      }
      this.render();
      return;
    }
    // A tap selects; with a finger, a second tap on the same card soon after discards it (the
    // mouse has the browser's own double click, see dblclick).
    const now = performance.now();
    const last = this.lastTap;
    if (event.pointerType === "touch" && last && last.index === press.index && now - last.time < 400) {
      this.lastTap = null;
      const card = this.hand()[press.index];
      this.selection.clear();
      this.refreshSelection();
      this.discard(card);
      return;
    }
    this.lastTap = { index: press.index, time: now };
    this.toggle(press.index);
  }

  doubleClick(event) {
    const card = event.target instanceof Element ? event.target.closest(".hand [data-index]") : null;
    if (!card || this.model.you === null) return;
    event.preventDefault();
    const code = this.hand()[Number(card.dataset.index)];
    this.selection.clear();
    this.refreshSelection();
    this.discard(code);
  }

  cancelDrag() {
    if (this.drag) {
      this.drag.ghost.remove();
      this.drag = null;
    }
    this.root.classList.remove("dragging");
    for (const el of this.root.querySelectorAll(".drop-over")) el.classList.remove("drop-over");
  }
}

export function describeConfig(cfg) {
  const parts = [t("cfg.players", { n: cfg.players }), presetName(cfg.rules)];
  if (cfg.target) parts.push(t("cfg.target", { n: cfg.target }));
  if (cfg.smazzate) parts.push(t("cfg.smazzate", { n: cfg.smazzate }));
  if (cfg.round_seconds) {
    parts.push(t("cfg.clock", { each: clockEach(cfg.round_seconds, cfg.players), seconds: cfg.hand_seconds ?? "–" }));
  } else parts.push(t("cfg.no_clock"));
  parts.push(cfg.public ? t("cfg.public") : t("cfg.private"));
  return parts.join(" · ");
}

/** Each side's bank as a clock text: T5 splits the match's time between the lines (2 with 2
 * or 4 players, 3 while three play on their own), so "10 minutes" is 5:00 for each side. */
export function clockEach(roundSeconds, players) {
  return formatClock(roundSeconds / (players === 3 ? 3 : 2));
}

/** The browser's own check of the deal just revealed (fairdeal.js): a quiet line when it is the
 * deck committed to before the first card, a loud alert when it is not. */
function fairStatus(sheet) {
  const fair = sheet.fair || { status: "unchecked", problems: [] };
  const n = sheet.score.number;
  if (fair.status === "tampered") {
    return h("div", { class: "fair-warning", role: "alert", dataset: { fair: "tampered" } },
      h("strong", { text: t("fair.tampered", { n }) }),
      h("ul", {}, fair.problems.map((p) => h("li", { text: t(`fair.problem.${p}`) }))),
    );
  }
  if (fair.status === "verified") {
    return h("div", {},
      h("p", { class: "fair-ok", dataset: { fair: "verified" }, text: `✓ ${t("fair.verified", { n })}` }),
      fair.ownMissing ? h("p", { class: "muted", dataset: { fairOwn: "missing" }, text: t("fair.own_missing") }) : null,
    );
  }
  if (fair.status === "later") {
    return h("p", { class: "muted", dataset: { fair: "later" }, text: t("fair.later", { n }) });
  }
  return h("p", { class: "muted", dataset: { fair: "unchecked" }, text: t("fair.unchecked", { n }) });
}

/** With the players' seeds: whose seeds made the deck, and whose were missing. */
function fairSeeds(sheet, seats) {
  const reveal = sheet.reveal;
  if (!reveal.seeds) return [];
  const names = (list) => list.map((seat) => seatName(seats, seat)).join(", ") || "–";
  const used = reveal.seeds.map((seed, seat) => (seed ? seat : null)).filter((seat) => seat !== null);
  const missing = reveal.seeds.map((seed, seat) => (seed ? null : seat)).filter((seat) => seat !== null);
  return [
    h("p", { text: t("fair.seeds", { used: names(used), missing: names(missing) }) }),
    reveal.derived ? null : h("p", { class: "muted", text: t("fair.not_derived") }),
  ];
}

/** A log line in words, from the events the seat was allowed to see. */
export function logText(entry, seats, names) {
  const name = (seat) => seatName(seats, seat, names);
  switch (entry.kind) {
    case "started":
      return t("log.started");
    case "dealt":
      return t("log.dealt", { n: entry.number, name: name(entry.first) });
    case "resumed":
      return t("log.resumed");
    case "smazzata_end":
      return t("log.smazzata_end", { n: entry.number });
    case "fair":
      return t(`log.fair.${entry.status}`, { n: entry.number });
    case "match_end":
      return t("log.match_end");
    case "timeout":
      return t("log.timeout", { name: name(entry.seat) });
    case "forfeit":
      return t("log.forfeit", { name: name(entry.seat) });
    case "away":
      return t("log.away", { name: name(entry.seat) });
    case "substitute":
      return t("log.substitute", { name: name(entry.seat) });
    case "back":
      return t("log.back", { name: name(entry.seat) });
    case "action":
      return actionText(entry, name);
    default:
      return entry.kind;
  }
}

function actionText(entry, name) {
  const parts = [];
  for (const e of entry.events || []) {
    const who = name(e.seat);
    if (e.e === "drew") parts.push(e.card ? t("log.drew.card", { name: who, card: cardText(e.card) }) : t("log.drew", { name: who }));
    else if (e.e === "picked_up") parts.push(t("log.picked_up", { name: who, cards: cardsText(e.cards) }));
    else if (e.e === "opened") parts.push(t("log.opened", { name: who, cards: cardsText(e.meld.cards) }));
    else if (e.e === "attached") parts.push(t("log.attached", { name: who, cards: cardsText(e.cards), n: e.meld.number }));
    else if (e.e === "discarded") parts.push(t("log.discarded", { name: who, card: cardText(e.card) }));
    else if (e.e === "pozzetto") parts.push(t(e.direct ? "log.pozzetto.direct" : "log.pozzetto.discard", { name: who }));
    else if (e.e === "ended") parts.push(t(`log.ended.${e.reason}`));
  }
  if (!parts.length) parts.push(entry.action);
  if (entry.auto) parts.push(t("log.auto"));
  return parts.join(" · ");
}


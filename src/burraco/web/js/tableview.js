// Drawing the card table from a view (SeatView.to_json): the other players, both lines' melds,
// the stock, the discard pile, the pozzetti, one's own hand and the action bar. Used by the live
// table (play.js) and by the replay viewer (replay.js). It decides nothing about the rules: what
// is possible comes in `hints`, computed from the server's `legal` list.

import { cardEl, cardName, cardText, sortCards } from "./cards.js";
import { h, icon } from "./dom.js";
import { has, t } from "./i18n.js";

export function botLabel(level) {
  const name = String(level || "").split(":")[0];
  const key = `bot.${name}`;
  const known = ["random", "greedy", "heuristic", "search"];
  return known.includes(name) ? t(key) : name;
}

/** The English titles records give bots (bots/registry.py BOT_NAMES) back to their levels. */
const BOT_TITLES = { Beginner: "random", Easy: "greedy", Expert: "heuristic", Champion: "search" };

/** A player's name as a record or the match list stores it, for a person to read: records name
 * bots "Bot Expert" or "Bot Expert 3" (older ones "bot LEVEL"), said in the page's language,
 * numbered by seat with 3 or 4 players. */
export function recordPlayerName(name, seat, players) {
  const bot = /^bot (\S+)$/.exec(name) || /^Bot (Beginner|Easy|Expert|Champion)(?: \d+)?$/.exec(name);
  if (!bot) return name;
  const level = botLabel(BOT_TITLES[bot[1]] || bot[1]);
  return players >= 3 ? t("seat.bot.n", { level, n: seat + 1 }) : t("seat.bot", { level });
}

/** The mark of a bot account (an outside program playing online), wherever its name is shown. */
export function botMark() {
  return h("abbr", { class: "bot-mark", title: t("bot.mark.title"), dataset: { botMark: "" }, text: t("bot.mark") });
}

export function presetName(preset) {
  return has(`preset.${preset}`) ? t(`preset.${preset}`) : preset;
}

export function seatName(seats, seat, names) {
  if (names && names[seat]) return names[seat];
  const info = seats && seats[seat];
  if (!info) return t("seat.n", { n: seat + 1 });
  if (info.bot && seats.length >= 3) return t("seat.bot.n", { level: botLabel(info.bot), n: seat + 1 });
  if (info.bot) return t("seat.bot", { level: botLabel(info.bot) });
  return info.name || t("seat.free");
}

export function lineName(view, line, seats, names) {
  const entry = view.lines.find((l) => l.line === line);
  const members = entry ? entry.seats : [line];
  return members.map((s) => seatName(seats, s, names)).join(" & ");
}

/** The seats around the table from the bottom seat, clockwise. */
function around(players, bottom) {
  return Array.from({ length: players }, (_, i) => (bottom + i) % players);
}

/** Where the other seats sit, seen from the bottom seat (R5: play goes clockwise, so the next
 * player is on the left): 2 players face each other; 3 take three sides; 4 put the partner
 * opposite (R1) and the opponents left and right. */
export function seatPositions(players, bottom) {
  const others = around(players, bottom).slice(1);
  const names = players === 2 ? ["top"] : players === 3 ? ["left", "right"] : ["left", "top", "right"];
  return others.map((seat, i) => ({ seat, pos: names[i] }));
}

/** What the last turn touched, from its events: melds (line:number) with the cards it laid
 * there, and its discard. */
function lastMove(view, last) {
  if (!last) return null;
  const out = { seat: last.seat, melds: new Map(), discard: null };
  const laid = (seat, number, cards) => {
    const key = `${lineOf(view, seat)}:${number}`;
    out.melds.set(key, [...(out.melds.get(key) || []), ...(cards || [])]);
  };
  for (const e of last.events || []) {
    if (e.e === "opened" && e.meld) laid(e.seat, e.meld.number, e.meld.cards);
    else if (e.e === "attached" && e.meld) laid(e.seat, e.meld.number, e.cards);
    else if (e.e === "discarded") out.discard = e.card;
  }
  return out;
}

function lineOf(view, seat) {
  const entry = view.lines.find((l) => l.seats.includes(seat));
  return entry ? entry.line : seat;
}

/** The hand shown at the bottom, sorted as asked: the player's own, or a replay's. */
export function bottomHand(state) {
  const { view, hands, bottom } = state;
  const cards = hands ? hands[bottom] || [] : view.seat === bottom ? view.hand : [];
  if (state.arrange) return state.arrange(cards); // the player's own order (handorder.js)
  return sortCards(cards, state.sort);
}

/** Cards of a meld in table order, each with the card a wild stands for (runs). */
export function meldCards(meld) {
  if (meld.kind === "run" && meld.notation) {
    return meld.notation.split(" ").map((word) => {
      const match = /^([^()*]+)(?:\(([^)]+)\))?(\*)?$/.exec(word);
      const code = match ? match[1] : word;
      return { code, stands: match && match[2] ? match[2] : null, wild: Boolean(match && match[2]) };
    });
  }
  let wildLeft = meld.wild ? 1 : 0;
  const out = meld.cards.map((code) => ({ code, stands: null, wild: false }));
  for (let i = out.length - 1; i >= 0 && wildLeft; i--) {
    if (out[i].code === meld.wild) {
      out[i].wild = true;
      wildLeft = 0;
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------ parts

function chip(state, seat, role, pos) {
  const { view, seats, names, away, hands } = state;
  const current = view.phase !== "over" && view.current === seat;
  const info = seats ? seats[seat] : null;
  const count = view.hand_sizes[seat];
  const classes = ["chip", role];
  if (pos) classes.push(`at-${pos}`);
  if (current) classes.push("turn");
  if (state.last && state.last.seat === seat && !current) classes.push("last-mover");
  if (info && info.connected === false && !info.bot) classes.push("offline");
  const backs = h(
    "div",
    { class: "chip-backs", "aria-hidden": "true" },
    Array.from({ length: Math.min(count, 5) }, () => cardEl(null, { back: true })),
  );
  const body = [
    h("div", { class: "chip-head" },
      h("span", { class: "chip-name", text: seatName(seats, seat, names) }),
      info && info.bot_account ? botMark() : null,
    ),
    h("div", { class: "chip-row" },
      role === "partner" ? h("span", { class: "chip-role", text: t("seat.partner") }) : null,
      hands ? null : backs,
      h("span", { class: "chip-count", dataset: { count: String(count) }, text: t("hand.count", { n: count }) }),
      current && state.timed ? h("span", { class: "timer-wrap" }, icon("hourglass"), h("span", { class: "turn-timer", dataset: { turnTimer: String(seat) } })) : null,
    ),
  ];
  if (hands && role !== "me") {
    body.push(h("div", { class: "mini-hand" }, sortCards(hands[seat] || [], "suit").map((c) => cardEl(c))));
  } else {
    const known = view.known ? view.known[String(seat)] : null;
    if (known && known.length) {
      body.push(
        h("div", { class: "chip-known", title: t("seat.known") },
          h("span", { class: "chip-known-label", text: t("seat.known.title") }),
          known.map((c) => cardEl(c)),
        ),
      );
    }
  }
  if (view.unplayed_pozzetto && view.unplayed_pozzetto[seat]) {
    body.push(h("div", { class: "chip-note", text: t("seat.unplayed", { n: view.unplayed_pozzetto[seat] }) }));
  }
  if (info && info.substitute) {
    body.push(h("div", { class: "chip-note warn", text: t("seat.substitute") }));
  } else if (away && seat in away) {
    body.push(
      h("div", { class: "chip-note warn", dataset: { awaySeat: String(seat) } }, t("seat.away")),
    );
  }
  const attrs = { class: classes.join(" "), dataset: { seat: String(seat) } };
  if (pos) attrs.dataset.pos = pos;
  return h("div", attrs, body);
}

function meldView(meld, line, state, own) {
  const burraco = meld.burraco;
  const classes = ["meld", meld.kind];
  if (burraco) classes.push("burraco", `burraco-${burraco}`);
  const target = own && state.hints && state.hints.attach && state.hints.attach.has(meld.number);
  if (target) classes.push("target");
  // The last move's cards in this meld (opened or attached): lit, each card once.
  const fresh = state.last ? state.last.melds.get(`${line}:${meld.number}`) : null;
  if (fresh) classes.push("last-move");
  const toLight = fresh ? [...fresh] : [];
  const cards = meldCards(meld).map((entry) => {
    const label = entry.stands
      ? t("meld.wild.stands", { card: cardName(entry.code), stands: cardName(entry.stands) })
      : cardName(entry.code);
    const el = cardEl(entry.code, { label });
    if (entry.wild) {
      el.classList.add("wild");
      if (entry.stands) el.title = label;
    }
    const at = toLight.indexOf(entry.code);
    if (at >= 0) {
      toLight.splice(at, 1);
      el.classList.add("last-card");
    }
    return el;
  });
  const tag = burraco
    ? h("span", { class: `burraco-tag ${burraco}`, text: t(`burraco.${burraco}`) })
    : null;
  const attrs = {
    class: classes.join(" "),
    dataset: { meld: String(meld.number), line: String(line) },
    "aria-label": t("meld.label", { n: meld.number, cards: meld.notation, points: meld.points }),
  };
  if (own && state.interactive) {
    attrs.dataset.drop = "attach";
    attrs.role = "button";
    attrs.tabindex = "0"; // reachable with Tab: Enter attaches the chosen cards (play.js key())
  }
  return h("div", attrs, h("div", { class: "meld-head" }, h("span", { class: "meld-no", text: String(meld.number) }), tag), h("div", { class: "meld-cards" }, cards));
}

function lineArea(state, line, own) {
  const { view, seats, names } = state;
  const entry = view.lines.find((l) => l.line === line) || { melds: [], taken_pozzetto: false, seats: [] };
  const points = entry.melds.reduce((sum, m) => sum + (m.points || 0), 0);
  const bankSeat = entry.seats.length ? entry.seats[0] : line;
  const title = own && state.playing ? t("line.us") : lineName(view, line, seats, names);
  const header = h("div", { class: "line-head" },
    h("span", { class: "line-name", text: title }),
    h("span", { class: "line-points", text: t("line.points", { n: points }) }),
    h("span", {
      class: `pozzetto-flag ${entry.taken_pozzetto ? "taken" : ""}`,
      text: entry.taken_pozzetto ? t("pozzetto.taken") : t("pozzetto.not_taken"),
    }),
    state.timed ? h("span", { class: "clock-wrap", title: t("line.clock") }, icon("clock"), h("span", { class: "line-clock", dataset: { bank: String(bankSeat) } })) : null,
  );
  const melds = entry.melds.map((m) => meldView(m, line, state, own));
  if (own && state.interactive && state.myTurn && view.phase === "play") {
    melds.push(
      h("div", {
        class: `meld new-meld${state.hints && state.hints.open ? " target" : ""}`,
        dataset: { drop: "open" },
        role: "button",
        tabindex: "0",
        "aria-label": t("meld.new"),
      }, h("span", { text: t("meld.new") })),
    );
  }
  if (!melds.length) melds.push(h("div", { class: "melds-empty", text: t("line.no_melds") }));
  // Focusable and named: the melds may scroll, and a keyboard must be able to scroll them.
  return h("section", { class: `line-area ${own ? "ours" : "theirs"}`, tabindex: "0", "aria-label": title, dataset: { line: String(line) } },
    header,
    h("div", { class: "melds" }, melds),
  );
}

function centre(state) {
  const { view, hints } = state;
  const stockCount = view.stock;
  const canDraw = Boolean(hints && hints.draw);
  const canPick = Boolean(hints && hints.pickup);
  const stock = h("div", {
    class: `stock${canDraw ? " target" : ""}`,
    dataset: { act: "draw" },
    role: "button",
    tabindex: state.interactive ? "0" : "-1",
    "aria-label": t("stock.label", { n: stockCount }),
    title: t("stock.label", { n: stockCount }),
  },
    h("div", { class: "stack" }, Array.from({ length: Math.min(3, Math.max(1, Math.ceil(stockCount / 20))) }, () => cardEl(null, { back: true }))),
    h("span", { class: "badge stock-count", text: String(stockCount) }),
  );
  const pileCards = view.discard_pile.map((c) => cardEl(c));
  const top = pileCards[pileCards.length - 1];
  if (top && state.last && state.last.discard === view.discard_pile[view.discard_pile.length - 1]) top.classList.add("last-card");
  const pile = h("div", {
    class: `pile${canPick ? " target" : ""}${view.discard_pile.length ? "" : " empty"}`,
    dataset: { act: "pickup", drop: "discard", count: String(view.discard_pile.length) },
    role: "button",
    tabindex: state.interactive ? "0" : "-1",
    "aria-label": t("pile.label", { n: view.discard_pile.length, cards: view.discard_pile.map(cardText).join(" ") }),
  },
    h("div", { class: "pile-cards", style: { "--pn": String(Math.max(2, pileCards.length)) } }, pileCards.length ? pileCards : h("span", { class: "pile-empty", text: t("pile.empty") })),
  );
  const pozzetti = h("div", { class: "pozzetti", title: t("pozzetti.label", { n: view.pozzetti_left.length }) },
    view.pozzetti_left.length
      ? view.pozzetti_left.map((size) => h("div", { class: "pozzetto" }, cardEl(null, { back: true }), h("span", { class: "badge", text: String(size) })))
      : h("span", { class: "pozzetti-none", text: t("pozzetti.none") }),
    h("span", { class: "centre-label", text: t("pozzetti.title") }),
  );
  return h("div", { class: "centre" },
    h("div", { class: "centre-slot" }, stock, h("span", { class: "centre-label", text: t("stock.title") })),
    h("div", { class: "centre-slot pile-slot" }, pile, h("span", { class: "centre-label", text: t("pile.title") })),
    h("div", { class: "centre-slot" }, pozzetti),
  );
}

function handArea(state) {
  const { view, bottom, hints, selection } = state;
  const cards = bottomHand(state);
  const own = view.seat === bottom || Boolean(state.hands);
  const hand = h("div", { class: "hand", role: "group", "aria-label": t("hand.label") });
  if (!own) {
    const count = view.hand_sizes[bottom];
    for (let i = 0; i < count; i++) hand.append(cardEl(null, { back: true }));
    return hand;
  }
  let drawnLeft = view.drawn && state.interactive ? 1 : 0;
  cards.forEach((code, i) => {
    const el = cardEl(code, { role: state.interactive ? "button" : "img" });
    el.dataset.index = String(i);
    if (state.interactive) {
      el.tabIndex = i === (state.focus ?? 0) ? 0 : -1;
      el.setAttribute("aria-pressed", selection && selection.has(i) ? "true" : "false");
    }
    if (selection && selection.has(i)) el.classList.add("selected");
    if (hints && hints.extend && hints.extend.has(i)) el.classList.add("hint");
    if (hints && hints.playable && hints.playable.has(i)) el.classList.add("playable");
    if (drawnLeft && code === view.drawn) {
      el.classList.add("drawn");
      drawnLeft = 0;
    }
    if (view.locked_card && code === view.locked_card && state.interactive) {
      el.classList.add("locked");
      el.title = t("hand.locked");
      el.append(h("span", { class: "lock-tag", text: t("hand.locked.short") }));
    }
    hand.append(el);
  });
  if (!cards.length) hand.append(h("span", { class: "hand-empty", text: t("hand.empty") }));
  return hand;
}

function actionBar(state) {
  const { hints, view, bottom } = state;
  const count = state.hands ? (state.hands[bottom] || []).length : view.seat === bottom ? view.hand.length : view.hand_sizes[bottom];
  const button = (cmd, key, enabled, extra = {}) =>
    h("button", {
      type: "button",
      class: `btn ${extra.class || ""}`,
      dataset: { cmd },
      disabled: !enabled,
      title: extra.title,
      "aria-keyshortcuts": extra.keys,
    }, t(key));
  const interactive = state.interactive;
  const sort = h("button", {
    type: "button", class: "btn ghost sort-btn", dataset: { cmd: "sort", sort: state.sort }, "aria-keyshortcuts": "R", title: t("hand.sort.title"),
  }, icon("sort"), t(state.sort === "suit" ? "hand.sort.suit" : "hand.sort.rank"));
  const bar = h("div", { class: "action-bar", dataset: { count: String(count) } },
    sort,
    view.hidden_pozzetto && view.seat === bottom ? h("span", { class: "hidden-pozzetto", text: t("hand.hidden_pozzetto", { n: view.hidden_pozzetto }) }) : null,
    h("span", { class: "spacer" }),
  );
  if (interactive) {
    bar.append(
      button("open", "act.open", Boolean(hints && hints.open), { class: "primary", keys: "O" }),
      button("attach", "act.attach", Boolean(hints && hints.attach && hints.attach.size === 1), { keys: "A" }),
      button("discard", "act.discard", Boolean(hints && hints.discard), { class: "danger", keys: "X" }),
    );
  }
  return bar;
}

// ------------------------------------------------------------------------------------ table

/**
 * The felt: `state` = {view, seats, names, bottom, hands, sort, selection, hints, interactive,
 * myTurn, playing, players, timed, away, status, notice, focus}.
 */
export function renderFelt(state) {
  const { view } = state;
  const players = view.players;
  state = { ...state, last: lastMove(view, state.last) };
  const myLine = lineOf(view, state.bottom);
  // Three lines while three players each play on their own (R 3.5), else the other line.
  const others = view.lines.map((l) => l.line).filter((l) => l !== myLine);
  if (!others.length) others.push(myLine === 0 ? 1 : 0);
  const chips = seatPositions(players, state.bottom).map(({ seat, pos }) =>
    chip(state, seat, lineOf(view, seat) === myLine ? "partner" : "opponent", pos),
  );
  const me = chip(state, state.bottom, "me");
  const felt = h("div", { class: `felt players-${players}${state.myTurn ? " my-turn" : ""}` },
    // The board: the other seats around the middle (a grid: see app.css, "seats around").
    h("div", { class: "board" },
      chips,
      // The lines' panels are as tall as their melds (no card is ever clipped); when they do not
      // fit, this middle scrolls as a whole while the hand and the actions stay in view.
      h("div", { class: "felt-middle" },
        others.map((line) => lineArea(state, line, false)),
        centre(state),
        lineArea(state, myLine, true),
      ),
    ),
    h("div", { class: "status-row" },
      me,
      h("div", { class: "status", role: "status", "aria-live": "polite" }, state.status || ""),
    ),
    state.notice ? state.notice : null,
    actionBar(state),
    handArea(state),
  );
  return felt;
}

/** Spread the hand's cards over the width (one row, or two when they would hide each other). */
export function layoutHand(host) {
  const hand = host ? host.querySelector(".hand") : null;
  if (!hand) return;
  const cards = [...hand.querySelectorAll(".card")];
  if (!cards.length) return;
  const width = hand.clientWidth;
  const cardWidth = cards[0].getBoundingClientRect().width || 60;
  const fit = (n) => (n > 1 ? (width - cardWidth - 4) / (n - 1) : cardWidth);
  const rows = fit(cards.length) < cardWidth * 0.3 && cards.length > 12 ? 2 : 1;
  const perRow = Math.ceil(cards.length / rows);
  const step = Math.max(8, Math.min(cardWidth * 0.72, fit(perRow)));
  const used = cardWidth + step * (Math.min(perRow, cards.length) - 1);
  hand.style.setProperty("--step", `${step}px`);
  hand.style.setProperty("--left", `${Math.max(0, (width - used) / 2)}px`);
  hand.classList.toggle("two-rows", rows === 2);
  cards.forEach((card, i) => {
    card.style.setProperty("--col", String(i % perRow));
    card.style.setProperty("--row", String(Math.floor(i / perRow)));
  });
}


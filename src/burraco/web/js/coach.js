// The coach: one hint for the player to act, chosen among the legal actions the server sent
// (`legal`, the engine's own list: a hint is always a legal move) with the view. Used by the
// guided first game (a lesson table, config.lesson) and by whoever turns hints on. It teaches
// the habits of a careful beginner, not the best play: meld what you can with natural cards
// first, keep the wild cards, throw away a high card that goes with nothing.

import { cardText, isWild, parseCard } from "./cards.js";
import { t } from "./i18n.js";

const RANK_POS = { A: 1, J: 11, Q: 12, K: 13 };

function verbOf(text) {
  return text.split(" ")[1];
}

function cardsOf(text) {
  const words = text.split(" ");
  return verbOf(text) === "attach" ? words.slice(3) : words.slice(2);
}

function value(code) {
  const card = parseCard(code);
  if (card.joker) return 30;
  if (card.rank === "2") return 20;
  if (card.rank === "A") return 15;
  return ["8", "9", "10", "J", "Q", "K"].includes(card.rank) ? 10 : 5;
}

function position(code) {
  const rank = parseCard(code).rank;
  return RANK_POS[rank] || Number(rank);
}

/** How much a card goes with the rest of the hand: same rank, or same suit within two. */
function company(code, hand) {
  const card = parseCard(code);
  let n = 0;
  let skipped = false;
  for (const other of hand) {
    if (other === code && !skipped) {
      skipped = true;
      continue;
    }
    const o = parseCard(other);
    if (o.joker || o.rank === "2") continue;
    if (o.rank === card.rank) n += 2;
    else if (o.suit === card.suit && Math.abs(position(other) - position(code)) <= 2) n += 1;
  }
  return n;
}

function naturalOnly(text) {
  return !cardsOf(text).some(isWild);
}

function longest(actions) {
  return [...actions].sort((a, b) => cardsOf(b).length - cardsOf(a).length || a.localeCompare(b))[0];
}

/** The discard a beginner should make: no wild, the card that goes with nothing, the highest. */
function bestDiscard(discards, hand) {
  const scored = discards.map((text) => {
    const code = cardsOf(text)[0];
    return { text, code, wild: isWild(code), company: company(code, hand), value: value(code) };
  });
  scored.sort((a, b) => a.wild - b.wild || a.company - b.company || b.value - a.value || a.code.localeCompare(b.code));
  return scored[0];
}

/**
 * One hint: {key, params, action}: `key` is a catalog key (coach.*), `params` its values (cards
 * already written with suit symbols), `action` the legal action suggested (null: none to make).
 */
export function coachHint({ view, legal, myTurn }) {
  if (!view || view.phase === "over") return null;
  if (!myTurn || !legal || !legal.length) return { key: "coach.wait", params: {}, action: null };
  const by = (verb) => legal.filter((text) => verbOf(text) === verb);
  if (view.phase === "acquire") {
    const draw = by("draw")[0] || null;
    if (draw) return { key: "coach.draw", params: {}, action: draw };
    return { key: "coach.pickup", params: {}, action: by("pickup")[0] || null };
  }
  const hand = view.hand || [];
  const opens = by("open");
  const attaches = by("attach");
  const natural = opens.filter(naturalOnly);
  if (natural.length) {
    const open = longest(natural);
    return { key: "coach.open", params: { cards: cardsOf(open).map(cardText).join(" ") }, action: open };
  }
  const naturalAttach = attaches.filter(naturalOnly);
  if (naturalAttach.length) {
    const attach = longest(naturalAttach);
    return { key: "coach.attach", params: { cards: cardsOf(attach).map(cardText).join(" ") }, action: attach };
  }
  if (opens.length) {
    const open = longest(opens);
    return { key: "coach.open_wild", params: { cards: cardsOf(open).map(cardText).join(" ") }, action: open };
  }
  const discards = by("discard");
  if (discards.length) {
    const best = bestDiscard(discards, hand);
    const line = (view.lines || []).find((l) => l.seats.includes(view.seat));
    const last = hand.length === 1;
    const key = !last ? "coach.discard" : line && line.taken_pozzetto ? "coach.close" : "coach.pozzetto";
    return { key, params: { card: cardText(best.code) }, action: best.text };
  }
  if (attaches.length) {
    const attach = longest(attaches);
    return { key: "coach.attach", params: { cards: cardsOf(attach).map(cardText).join(" ") }, action: attach };
  }
  return null;
}

/** The cards an action moves from the hand (to select them for the player). */
export function actionCards(action) {
  return action ? cardsOf(action) : [];
}

/** The meld number an attach goes to (null for other actions). */
export function actionMeld(action) {
  return action && verbOf(action) === "attach" ? Number(action.split(" ")[2]) : null;
}

export function actionVerb(action) {
  return action ? verbOf(action) : null;
}

/** The hint's line: its words and a "Show me" button (when there is a move to show). */
export function coachEl(hint, onShow) {
  const el = document.createElement("div");
  el.className = "coach";
  el.setAttribute("role", "status");
  el.setAttribute("aria-live", "polite");
  if (hint.action) el.dataset.action = hint.action.split(" ").slice(1).join(" ");
  const title = document.createElement("strong");
  title.textContent = `${t("coach.title")}: `;
  const text = document.createElement("span");
  text.className = "coach-text";
  text.textContent = t(hint.key, hint.params);
  text.prepend(title);
  el.append(text);
  if (hint.action) {
    const show = document.createElement("button");
    show.type = "button";
    show.className = "btn small coach-show";
    show.textContent = t("coach.show");
    show.addEventListener("click", onShow);
    el.append(show);
  }
  return el;
}

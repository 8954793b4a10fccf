// The order of the player's own hand at one table: sorted by suit or by rank, or arranged by the
// player (dragging, Shift+arrows, "group my melds"). The server only knows the hand as a set, so
// the custom order is reconciled with every new hand: cards that left it are dropped, cards that
// arrived (drawn, picked up) are appended. Kept in sessionStorage per table, so that a reload
// keeps it but another tab or a later visit starts from the default sort.

import { isWild, parseCard, sortCards } from "./cards.js";

const PREFIX = "burraco:hand:";

/** `order` with the cards not in `hand` removed and the cards of `hand` not in it appended. */
export function reconcile(order, hand) {
  const left = [...hand];
  const kept = [];
  for (const card of order) {
    const i = left.indexOf(card);
    if (i >= 0) {
      kept.push(card);
      left.splice(i, 1);
    }
  }
  return kept.concat(left);
}

/** Melds from the legal openings ("S open C1 C2 C3"), largest first, no card used twice; the
 * cards of the hand arranged with those groups first, then the rest sorted by suit. */
export function groupMelds(hand, legal) {
  const openings = (legal || [])
    .map((text) => text.split(" "))
    .filter((words) => words[1] === "open")
    .map((words) => words.slice(2))
    .sort((a, b) => b.length - a.length);
  let rest = [...hand];
  const grouped = [];
  for (const cards of openings) {
    const left = [...rest];
    let fits = true;
    for (const card of cards) {
      const i = left.indexOf(card);
      if (i < 0) {
        fits = false;
        break;
      }
      left.splice(i, 1);
    }
    if (!fits) continue;
    grouped.push(...cards);
    rest = left;
  }
  if (!grouped.length) return sameRankFirst(rest);
  return grouped.concat(sortCards(rest, "suit"));
}

/** Out of turn (no legal openings known): three or more natural cards of a rank side by side
 * (the makings of a set, R30), then the rest by suit (runs then sit together). */
function sameRankFirst(hand) {
  const byRank = new Map();
  for (const card of hand) {
    if (isWild(card)) continue;
    const rank = parseCard(card).rank;
    byRank.set(rank, [...(byRank.get(rank) || []), card]);
  }
  const sets = [...byRank.values()].filter((cards) => cards.length >= 3);
  const inSets = sets.flat();
  const rest = [...hand];
  for (const card of inSets) rest.splice(rest.indexOf(card), 1);
  return sets.flatMap((cards) => sortCards(cards, "suit")).concat(sortCards(rest, "suit"));
}

export class HandOrder {
  constructor(tableId, defaultMode) {
    this.key = PREFIX + tableId;
    this.mode = defaultMode === "rank" ? "rank" : "suit";
    this.custom = [];
    try {
      const saved = JSON.parse(sessionStorage.getItem(this.key) || "null");
      if (saved && ["suit", "rank", "custom"].includes(saved.mode)) {
        this.mode = saved.mode;
        this.custom = Array.isArray(saved.custom) ? saved.custom : [];
      }
    } catch {
      // a damaged entry: start from the default sort
    }
  }

  /** The hand in the order to show. */
  arrange(hand) {
    if (this.mode !== "custom") return sortCards(hand, this.mode);
    const order = reconcile(this.custom, hand);
    if (order.join(",") !== this.custom.join(",")) {
      this.custom = order;
      this.save();
    }
    return order;
  }

  /** The sort the sort button shows (a custom order shows "by suit", its next press). */
  get sort() {
    return this.mode === "rank" ? "rank" : "suit";
  }

  /** The sort button: by suit -> by rank -> by suit; a custom order goes back to by suit. */
  toggle() {
    this.setSort(this.mode === "suit" ? "rank" : "suit");
  }

  setSort(mode) {
    this.mode = mode === "rank" ? "rank" : "suit";
    this.custom = [];
    this.save();
  }

  /** Take the cards at `indices` of the shown hand and put them, in their order, at insertion
   * point `to` of the hand without them; returns their new positions. */
  moveBlock(hand, indices, to) {
    const order = this.arrange(hand);
    const moving = new Set(indices.filter((i) => i >= 0 && i < order.length));
    const block = order.filter((_, i) => moving.has(i));
    const rest = order.filter((_, i) => !moving.has(i));
    const at = Math.max(0, Math.min(rest.length, to));
    rest.splice(at, 0, ...block);
    this.setCustom(rest);
    return block.map((_, k) => at + k);
  }

  setCustom(order) {
    this.mode = "custom";
    this.custom = [...order];
    this.save();
  }

  save() {
    try {
      sessionStorage.setItem(this.key, JSON.stringify({ mode: this.mode, custom: this.custom }));
    } catch {
      // storage full or disabled: the order lasts for this page only
    }
  }
}

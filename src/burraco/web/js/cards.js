// Cards: notation ("7H", "10S", "JK"), display order, names, and the card faces and backs, drawn
// here in SVG (suit shapes and the back's pattern are in index.html's sprite).

import { h, svg } from "./dom.js";
import { t } from "./i18n.js";

export const SUIT_ORDER = ["S", "H", "C", "D"]; // alternating colours in the hand
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const RED = "#c62828";
const BLACK = "#1b1b1f";
const JOKER = "#5b2a86";

export function parseCard(code) {
  if (code === "JK") return { code, rank: "JK", suit: null, joker: true };
  return { code, rank: code.slice(0, -1), suit: code.slice(-1), joker: false };
}

export function isWild(code) {
  return code === "JK" || parseCard(code).rank === "2";
}

function rankIndex(rank) {
  return RANKS.indexOf(rank);
}

/** Sort key: "suit" groups by suit (♠ ♥ ♣ ♦), "rank" by rank; wild kinds (2s, jokers) last. */
function sortKey(code, mode) {
  const card = parseCard(code);
  if (card.joker) return [2, 0, 0];
  const suit = SUIT_ORDER.indexOf(card.suit);
  const rank = rankIndex(card.rank);
  if (card.rank === "2") return [1, suit, 0];
  return mode === "rank" ? [0, rank, suit] : [0, suit, rank];
}

export function sortCards(cards, mode) {
  return [...cards].sort((a, b) => {
    const ka = sortKey(a, mode);
    const kb = sortKey(b, mode);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return 0;
  });
}

export function cardName(code) {
  const card = parseCard(code);
  if (card.joker) return t("card.joker");
  const rank = ["A", "J", "Q", "K"].includes(card.rank) ? t(`rank.${card.rank}`) : card.rank;
  return t("card.name", { rank, suit: t(`suit.${card.suit}`) });
}

/** A short text form with suit symbols, for logs and messages: "7♥", "JK". */
export function cardText(code) {
  const card = parseCard(code);
  if (card.joker) return "★";
  return card.rank + { C: "♣", D: "♦", H: "♥", S: "♠" }[card.suit];
}

export function cardsText(codes) {
  return codes.map(cardText).join(" ");
}

// ------------------------------------------------------------------------------ the artwork

// Pip positions (x, y) in the 100 x 140 card for the number cards; lower pips are turned.
const L = 35;
const C = 50;
const R = 65;
const PIPS = {
  2: [[C, 30], [C, 110]],
  3: [[C, 30], [C, 70], [C, 110]],
  4: [[L, 30], [R, 30], [L, 110], [R, 110]],
  5: [[L, 30], [R, 30], [C, 70], [L, 110], [R, 110]],
  6: [[L, 30], [R, 30], [L, 70], [R, 70], [L, 110], [R, 110]],
  7: [[L, 30], [R, 30], [C, 50], [L, 70], [R, 70], [L, 110], [R, 110]],
  8: [[L, 30], [R, 30], [C, 50], [L, 70], [R, 70], [C, 90], [L, 110], [R, 110]],
  9: [[L, 30], [R, 30], [L, 57], [R, 57], [C, 70], [L, 83], [R, 83], [L, 110], [R, 110]],
  10: [[L, 30], [R, 30], [C, 43], [L, 57], [R, 57], [L, 83], [R, 83], [C, 97], [L, 110], [R, 110]],
};

function pip(suit, x, y, size, turned) {
  const attrs = { href: `#suit-${suit}`, x: x - size / 2, y: y - size / 2, width: size, height: size };
  if (turned) attrs.transform = `rotate(180 ${x} ${y})`;
  return svg("use", attrs);
}

function index(card, color) {
  const rankText = svg("text", {
    x: 13,
    y: 25,
    "text-anchor": "middle",
    "font-size": card.rank === "10" ? 21 : 24,
    "font-weight": 700,
    "font-family": "Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif",
    fill: color,
    text: card.rank,
    ...(card.rank === "10" ? { textLength: 22, lengthAdjust: "spacingAndGlyphs" } : {}),
  });
  return svg("g", {}, rankText, pip(card.suit, 13, 38, 15, false));
}

function buildFace(code) {
  const card = parseCard(code);
  const color = card.joker ? JOKER : card.suit === "H" || card.suit === "D" ? RED : BLACK;
  const parts = [
    svg("rect", {
      x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, fill: "#fffdf7", stroke: "#b9b3a5", "stroke-width": 2,
    }),
  ];
  if (card.joker) {
    parts.push(
      svg("use", { href: "#star", x: 4, y: 5, width: 18, height: 18, fill: JOKER }),
      svg("use", { href: "#star", x: 79, y: 5, width: 16, height: 16, fill: JOKER }),
      svg("rect", { x: 20, y: 24, width: 60, height: 92, rx: 6, fill: "#f1e8fa", stroke: JOKER, "stroke-width": 1.5 }),
      svg("use", { href: "#star", x: 27, y: 40, width: 46, height: 46, fill: "#c9a24a", stroke: JOKER, "stroke-width": 3 }),
      svg("text", {
        x: 50, y: 106, "text-anchor": "middle", "font-size": 13, "font-weight": 700, "letter-spacing": 1.5,
        "font-family": "Georgia, 'DejaVu Serif', serif", fill: JOKER, text: "JOKER",
        // The fallback serif fonts are wider than Georgia: fit the word inside the panel.
        textLength: 50, lengthAdjust: "spacingAndGlyphs",
      }),
      svg("use", { href: "#star", x: 78, y: 117, width: 18, height: 18, fill: JOKER }),
    );
  } else {
    parts.push(svg("g", { fill: color }, index(card, color)));
    parts.push(svg("use", { href: `#suit-${card.suit}`, x: 80, y: 6, width: 15, height: 15, fill: color }));
    parts.push(svg("g", { fill: color, transform: "rotate(180 50 70)" }, index(card, color)));
    const pips = PIPS[card.rank];
    if (pips) {
      parts.push(svg("g", { fill: color }, pips.map(([x, y]) => pip(card.suit, x, y, 19, y > 75))));
    } else if (card.rank === "A") {
      parts.push(svg("use", { href: `#suit-${card.suit}`, x: 25, y: 45, width: 50, height: 50, fill: color }));
    } else {
      const tint = color === RED ? "#fbe3e0" : "#e3e9f4";
      parts.push(
        svg("rect", { x: 25, y: 22, width: 50, height: 96, rx: 5, fill: tint, stroke: color, "stroke-width": 1.5 }),
        svg("path", {
          d: crown(card.rank), fill: "#c9a24a", stroke: color, "stroke-width": 1.2,
        }),
        svg("text", {
          x: 50, y: 90, "text-anchor": "middle", "font-size": 40, "font-weight": 700,
          "font-family": "Georgia, 'DejaVu Serif', serif", fill: color, text: card.rank,
        }),
        svg("use", { href: `#suit-${card.suit}`, x: 42, y: 96, width: 16, height: 16, fill: color }),
      );
    }
  }
  return svg("svg", { viewBox: "0 0 100 140", class: "face", "aria-hidden": "true" }, parts);
}

function crown(rank) {
  if (rank === "K") return "M34 50 L34 32 L42 41 L50 28 L58 41 L66 32 L66 50 Z";
  if (rank === "Q") return "M36 50 L38 36 L45 43 L50 32 L55 43 L62 36 L64 50 Z";
  return "M38 50 L40 38 Q50 30 60 38 L62 50 Z"; // the jack's cap
}

function buildBack() {
  return svg(
    "svg",
    { viewBox: "0 0 100 140", class: "face", "aria-hidden": "true" },
    svg("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, fill: "#fffdf7", stroke: "#b9b3a5", "stroke-width": 2 }),
    svg("rect", { x: 8, y: 8, width: 84, height: 124, rx: 5, fill: "url(#back-lattice)" }),
    svg("rect", { x: 8, y: 8, width: 84, height: 124, rx: 5, fill: "none", stroke: "#c9a24a", "stroke-width": 2 }),
    svg("use", { href: "#suit-H", x: 38, y: 58, width: 24, height: 24, fill: "#c9a24a" }),
  );
}

const faces = new Map();
let back = null;

/** A card element (div.card holding the SVG face); opts: {back, small, label}. */
export function cardEl(code, opts = {}) {
  let art;
  if (opts.back || !code) {
    back = back || buildBack();
    art = back.cloneNode(true);
  } else {
    if (!faces.has(code)) faces.set(code, buildFace(code));
    art = faces.get(code).cloneNode(true);
  }
  const el = h("div", {
    class: `card${opts.back || !code ? " back" : ""}${code && !opts.back && isWild(code) ? " wild-kind" : ""}`,
    role: opts.role || "img",
    "aria-label": opts.back || !code ? t("card.back") : opts.label || cardName(code),
  });
  if (code && !opts.back) el.dataset.card = code;
  el.append(art);
  return el;
}

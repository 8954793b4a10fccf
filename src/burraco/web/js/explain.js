// Explanations in the player's language (issue 15): the engine's refusals worded from the
// catalogs (`refusal.<code>`, with the cards named as a player names them, Q♣ and Jolly, never
// "QC"), and why each greyed action is greyed, derived from the server's `legal` list and the
// selection. The server's English sentence never reaches the page: an unknown code gets a
// generic line in the page's language.

import { cardText, isWild } from "./cards.js";
import { has, t } from "./i18n.js";

/** A card as a player writes it: "Q♣", "10♥", "Jolly". */
export function cardWord(code) {
  return code === "JK" ? t("card.joker") : cardText(code);
}

function rankWord(rank) {
  return has(`rank.${rank}`) ? t(`rank.${rank}`) : rank;
}

/** The parameters of a refusal as words: cards with suit symbols, ranks and suits named. */
function words(params) {
  const out = {};
  for (const [key, value] of Object.entries(params || {})) {
    if (key === "card") out.card = cardWord(String(value));
    else if (key === "cards") out.cards = String(value).split(" ").filter(Boolean).map(cardWord).join(" ");
    else if (key === "rank") out.rank = rankWord(String(value));
    else if (key === "suit") out.suit = t(`suit.${value}`);
    else out[key] = value;
  }
  return out;
}

/** The sentence of a refusal `{code, rule, params}` (the `detail` of an `error` message). */
export function refusalText(detail) {
  if (!detail || !detail.code || !has(`refusal.${detail.code}`)) return t("refusal.generic");
  const params = words(detail.params);
  const why = t(`refusal.${detail.code}`, params);
  // A meld refused because the card it would leave could not be discarded (R53): say so first.
  if (detail.params && detail.params.after_meld) return t("refusal.after_meld", { card: params.card, why });
  return why;
}

/** The small secondary note "(regola R17)". */
export function ruleNote(rule) {
  return rule ? t("refusal.rule", { rule }) : "";
}

// ----------------------------------------------------------------- why an action is greyed

function myLine(view, seat) {
  return view.lines.find((l) => l.seats.includes(seat));
}

function lineFacts(view, seat) {
  const line = view && seat !== null ? myLine(view, seat) : null;
  if (!line) return { taken: false, burraco: false };
  return { taken: Boolean(line.taken_pozzetto), burraco: line.melds.some((m) => Boolean(m.burraco)) };
}

/**
 * Why the melding and discarding actions are not possible, from what the page knows:
 * `state` = {view, seat, myTurn, pending, legal, hand, chosen, hints}. Returns
 * {open, attach, discard} (a sentence, or null when the button is lit) and `hint`, a contextual
 * line ("serve un burraco per chiudere") or null.
 */
export function actionReasons(state) {
  const { view, seat, myTurn, pending, hand, chosen, hints } = state;
  const out = { open: null, attach: null, discard: null, hint: null };
  if (!view || seat === null) return out;
  let common = null;
  if (view.phase === "over") common = t("why.over");
  else if (!myTurn) common = t("why.not_your_turn");
  else if (pending) common = t("why.pending");
  else if (view.phase === "acquire") common = t("why.acquire_first");
  if (common) {
    out.open = out.attach = out.discard = common;
    return out;
  }
  const { taken, burraco } = lineFacts(view, seat);
  const left = hand.length - chosen.length;
  // With the pozzetto taken and no burraco, the last card cannot close (R55).
  const noClosing = taken && !burraco;
  if (noClosing && hand.length <= 3) out.hint = t("why.hint_burraco");
  if (!hints.open) {
    if (chosen.length < 3) out.open = t("why.open_few");
    else if (noClosing && left <= 1) out.open = t("why.needs_burraco");
    else if (taken && left === 0) out.open = t("why.keep_a_card");
    else out.open = t("why.not_a_meld", { cards: chosen.map(cardWord).join(" ") });
  }
  if (hints.attach.size !== 1) {
    if (!chosen.length) out.attach = t("why.attach_none");
    else if (hints.attach.size > 1) out.attach = t("why.attach_many");
    else if (noClosing && left <= 1) out.attach = t("why.needs_burraco");
    else if (taken && left === 0) out.attach = t("why.keep_a_card");
    else out.attach = t("why.attach_nowhere", { cards: chosen.map(cardWord).join(" ") });
  }
  if (!hints.discard) {
    if (chosen.length !== 1) out.discard = t("why.discard_one");
    else {
      const card = chosen[0];
      if (view.locked_card && card === view.locked_card) out.discard = t("why.discard_locked", { card: cardWord(card) });
      else if (hand.length === 1 && noClosing) out.discard = t("why.needs_burraco");
      else if (hand.length === 1 && taken && isWild(card)) out.discard = t("why.discard_wild_closing", { card: cardWord(card) });
      else out.discard = t("why.discard_not_now", { card: cardWord(card) });
    }
  }
  return out;
}

/** The line under the action bar: the reason of the action the selection points at. */
export function reasonLine(reasons, chosen) {
  const first = chosen.length === 1 ? reasons.discard || reasons.open : reasons.open && chosen.length ? reasons.open : null;
  return [reasons.hint, first].filter(Boolean).join(" ");
}

/**
 * Show the reasons on the page: a tooltip on each greyed button (title, and aria-describedby)
 * and the line under the action bar. Only touches the action bar and that line.
 */
export function showReasons(host, reasons, chosen) {
  const bar = host.querySelector(".action-bar");
  if (!bar) return;
  const line = reasonLine(reasons, chosen);
  let why = host.querySelector("#action-why");
  if (!why) {
    why = document.createElement("div");
    why.id = "action-why";
    why.className = "action-why muted";
    why.setAttribute("role", "status");
    bar.after(why);
  }
  why.textContent = line;
  why.hidden = !line;
  for (const cmd of ["open", "attach", "discard"]) {
    const button = bar.querySelector(`[data-cmd="${cmd}"]`);
    if (!button) continue;
    const reason = button.disabled ? reasons[cmd] : null;
    if (reason) {
      // A hidden description per button (aria-describedby may name a hidden element), so that
      // a screen reader hears this button's own reason, not the line's.
      let note = bar.querySelector(`#why-${cmd}`);
      if (!note) {
        note = document.createElement("span");
        note.id = `why-${cmd}`;
        note.hidden = true;
        bar.append(note);
      }
      note.textContent = reason;
      button.title = reason;
      button.dataset.why = reason;
      button.setAttribute("aria-describedby", `why-${cmd}`);
    } else {
      button.removeAttribute("title");
      delete button.dataset.why;
      button.removeAttribute("aria-describedby");
    }
  }
}

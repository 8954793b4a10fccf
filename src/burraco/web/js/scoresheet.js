// The score sheet of a smazzata (RULES.md R60: melds, burraco bonus, closing bonus, cards in
// hand, pozzetto) and the match totals, with MP and VP when the server gives them.

import { h } from "./dom.js";
import { t } from "./i18n.js";

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function burrachiText(list) {
  if (!list || !list.length) return "";
  const counts = {};
  for (const kind of list) counts[kind] = (counts[kind] || 0) + 1;
  return Object.entries(counts)
    .map(([kind, n]) => t(`burraco.${kind}.count`, { n }))
    .join(", ");
}

export function endedText(score, lineNames) {
  if (score.ended === "closing") {
    const line = score.lines.findIndex((l) => l.seats.includes(score.closed_by));
    return t("sheet.ended.closing", { name: lineNames[line] ?? "" });
  }
  if (score.ended === "stock") return t("sheet.ended.stock");
  if (score.ended === "stall") return t("sheet.ended.stall");
  return score.ended;
}

/** One smazzata's sheet: a row per item, a column per line. */
export function sheetTable(score, lineNames, totals) {
  const rows = [
    ["sheet.melds", (l) => l.melds],
    ["sheet.burraco_bonus", (l) => l.burraco_bonus, (l) => burrachiText(l.burrachi)],
    ["sheet.closing_bonus", (l) => l.closing_bonus],
    ["sheet.hand", (l) => l.hand],
    ["sheet.pozzetto", (l) => l.pozzetto_penalty],
  ];
  const head = h("tr", {}, h("th", { scope: "col", text: t("sheet.item") }),
    score.lines.map((_, i) => h("th", { scope: "col", text: lineNames[i] ?? "" })));
  const body = rows.map(([key, value, note]) =>
    h("tr", { class: key.replace(".", "-") },
      h("th", { scope: "row", text: t(key) }),
      score.lines.map((line) =>
        h("td", {}, signed(value(line)), note && note(line) ? h("small", { class: "note", text: ` (${note(line)})` }) : null),
      ),
    ),
  );
  const total = h("tr", { class: "sheet-total" },
    h("th", { scope: "row", text: t("sheet.smazzata", { n: score.number }) }),
    score.lines.map((line) => h("td", { text: signed(line.score) })));
  const rowsOut = [...body, total];
  if (totals) {
    rowsOut.push(h("tr", { class: "sheet-match" },
      h("th", { scope: "row", text: t("sheet.totals") }),
      totals.map((n) => h("td", { text: String(n) }))));
  }
  return h("table", { class: "sheet" }, h("thead", {}, head), h("tbody", {}, rowsOut));
}

/** The match so far: one row per smazzata and the totals. */
export function historyTable(scores, lineNames, totals, final) {
  if (!scores || !scores.length) return h("p", { class: "muted", text: t("sheet.none") });
  const head = h("tr", {}, h("th", { scope: "col", text: "#" }), lineNames.map((n) => h("th", { scope: "col", text: n })));
  const rows = scores.map((score) =>
    h("tr", {}, h("th", { scope: "row", text: String(score.number) }), score.result.map((n) => h("td", { text: signed(n) }))),
  );
  if (totals) {
    rows.push(h("tr", { class: "sheet-match" }, h("th", { scope: "row", text: t("sheet.totals") }), totals.map((n) => h("td", { text: String(n) }))));
  }
  if (final && final.mp) {
    rows.push(h("tr", {}, h("th", { scope: "row", text: t("sheet.mp") }), final.mp.map((n) => h("td", { text: signed(n) }))));
  }
  if (final && final.vp) {
    rows.push(h("tr", {}, h("th", { scope: "row", text: t("sheet.vp") }), final.vp.map((n) => h("td", { text: String(n) }))));
  }
  return h("table", { class: "sheet history" }, h("thead", {}, head), h("tbody", {}, rows));
}

/** T14's technical score of a match lost on time (or by forfeit): MP and VP by line, and the
 * match totals when no smazzata was scored (then they are no history's last row). */
export function technicalTable(lineNames, final, totals) {
  const head = h("tr", {}, h("th", { scope: "col", text: t("sheet.item") }), lineNames.map((n) => h("th", { scope: "col", text: n })));
  const rows = [];
  if (totals) {
    rows.push(h("tr", { class: "sheet-match" }, h("th", { scope: "row", text: t("sheet.totals") }), totals.map((n) => h("td", { text: String(n) }))));
  }
  rows.push(h("tr", { class: "technical-mp" }, h("th", { scope: "row", text: t("sheet.mp") }), final.mp.map((n) => h("td", { text: signed(n) }))));
  if (final.vp) {
    rows.push(h("tr", { class: "technical-vp" }, h("th", { scope: "row", text: t("sheet.vp") }), final.vp.map((n) => h("td", { text: String(n) }))));
  }
  return h("table", { class: "sheet technical" },
    h("caption", { text: t("final.technical") }),
    h("thead", {}, head), h("tbody", {}, rows));
}

// The player's comfort settings (card size, sounds, confirming the last discard, the default sort
// of a new table's hand), kept in this browser's localStorage, and the panel that edits them.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { notificationsAsked, requestNotifications } from "./notify.js";

const KEY = "burraco:settings";
const DEFAULTS = { cardSize: "medium", sound: true, confirmLast: false, sort: "suit" };
const SIZES = ["small", "medium", "large"];

export function loadSettings() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    saved = {};
  }
  // The sort chosen before settings existed is the default sort.
  if (saved.sort === undefined && localStorage.getItem("burraco:sort") === "rank") saved.sort = "rank";
  const s = { ...DEFAULTS, ...saved };
  if (!SIZES.includes(s.cardSize)) s.cardSize = DEFAULTS.cardSize;
  s.sort = s.sort === "rank" ? "rank" : "suit";
  s.sound = s.sound !== false;
  s.confirmLast = s.confirmLast === true;
  return s;
}

export function setting(name) {
  return loadSettings()[name];
}

export function saveSettings(changes) {
  const next = { ...loadSettings(), ...changes };
  localStorage.setItem(KEY, JSON.stringify(next));
  applySettings(next);
  return next;
}

/** What the settings change in the page as a whole (the card size is a CSS attribute). */
export function applySettings(s = loadSettings()) {
  document.documentElement.dataset.cardSize = s.cardSize;
}

/** The settings panel, a dialog over the page; `onClose` runs when it is closed. */
export function openSettings(onClose) {
  const old = document.querySelector(".settings-panel");
  if (old) old.remove();
  const s = loadSettings();
  const close = () => {
    panel.remove();
    if (onClose) onClose();
  };
  const radio = (name, value, label, checked) =>
    h("label", { class: "settings-choice" },
      h("input", { type: "radio", name, value, checked, onchange: () => saveSettings({ [name]: value }) }),
      h("span", { text: label }));
  const check = (name, label) =>
    h("label", { class: "settings-choice" },
      h("input", { type: "checkbox", name, checked: s[name], onchange: (e) => saveSettings({ [name]: e.target.checked }) }),
      h("span", { text: label }));
  const notifyButton = h("button", {
    type: "button", class: "btn ghost", dataset: { setting: "notify" },
    text: t(notificationsAsked() ? "settings.notify.on" : "settings.notify.ask"),
    onclick: async () => {
      await requestNotifications();
      notifyButton.textContent = t(notificationsAsked() ? "settings.notify.on" : "settings.notify.denied");
    },
  });
  const panel = h("div", { class: "settings-panel", role: "dialog", "aria-modal": "true", "aria-label": t("settings.title") },
    h("div", { class: "settings-box" },
      h("h2", { text: t("settings.title") }),
      h("fieldset", {}, h("legend", { text: t("settings.card_size") }),
        SIZES.map((size) => radio("cardSize", size, t(`settings.card_size.${size}`), s.cardSize === size))),
      h("fieldset", {}, h("legend", { text: t("settings.sort") }),
        radio("sort", "suit", t("hand.sort.suit"), s.sort === "suit"),
        radio("sort", "rank", t("hand.sort.rank"), s.sort === "rank")),
      h("fieldset", {}, h("legend", { text: t("settings.other") }),
        check("sound", t("settings.sound")),
        check("confirmLast", t("settings.confirm_last"))),
      h("div", { class: "settings-notify" }, notifyButton),
      h("div", { class: "settings-actions" },
        h("button", { type: "button", class: "btn primary", dataset: { setting: "close" }, text: t("common.close"), onclick: close })),
    ),
  );
  panel.addEventListener("click", (e) => {
    if (e.target === panel) close();
  });
  panel.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.stopPropagation();
      close();
    }
  });
  document.body.append(panel);
  panel.querySelector("input").focus();
  return panel;
}

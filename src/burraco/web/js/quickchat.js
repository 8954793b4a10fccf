// Quick chat: a few ready phrases, one tap each, sent as an ordinary chat message in the page's
// language (so the other players read them as if typed).

import { h } from "./dom.js";
import { t } from "./i18n.js";

const PHRASES = ["hello", "good_game", "well_done", "thanks"];

export function quickChat(send) {
  return h("div", { class: "quick-chat", role: "group", "aria-label": t("quickchat.label") },
    PHRASES.map((phrase) =>
      h("button", {
        type: "button", class: "btn ghost quick-phrase", dataset: { phrase },
        text: t(`quickchat.${phrase}`), onclick: () => send(t(`quickchat.${phrase}`)),
      })));
}

// "Your turn" where the player will see it: in the tab's title, and, when the tab is hidden and
// the player allowed it (asked only from a click in the settings), as a browser notification.

import { t } from "./i18n.js";

let base = null;

export function notificationsAsked() {
  return "Notification" in window && Notification.permission === "granted";
}

export async function requestNotifications() {
  if (!("Notification" in window)) return "unsupported";
  if (Notification.permission === "granted") return "granted";
  return Notification.requestPermission();
}

/** Mark the title (and notify, if hidden) when the turn becomes the player's; restore it after. */
export function turnTitle(mine, plain) {
  if (!mine) {
    if (base !== null) document.title = plain;
    base = null;
    return;
  }
  const marked = `${t("turn.title")} · ${plain}`;
  const fresh = base === null;
  base = plain;
  document.title = marked;
  if (fresh && document.hidden && notificationsAsked()) {
    try {
      new Notification(t("turn.title"), { body: t("turn.body"), icon: "/img/icon.svg", tag: "burraco-turn" });
    } catch {
      // some browsers allow notifications only from a service worker: the title says it anyway
    }
  }
}

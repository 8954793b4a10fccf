// The header the tournament and club pages share (the main page's may use it too): the brand,
// the page's title, then who is signed in, the way back to the lobby, logout and the language.
// One module so that every page offers the same ways out, in the same places.

import { h } from "./dom.js";
import { t } from "./i18n.js";

function link(ctx, href, text, cmd) {
  return h("a", {
    class: "btn ghost small", href, dataset: { header: cmd },
    onclick: (ev) => { ev.preventDefault(); ctx.navigate(href); },
  }, text);
}

/**
 * The page header. `title` names the page (a club, "Tornei"); `extra` are elements shown before
 * the user's name (a club's "all clubs" link, the member's role).
 */
export function pageHeader(ctx, { title = "", titleClass = "tour-title", extra = [] } = {}) {
  const user = ctx.user;
  return h("header", { class: "topbar lobby-top page-header" },
    h("a", { class: "brand", href: "/", onclick: (ev) => { ev.preventDefault(); ctx.navigate("/"); } },
      h("img", { src: "/img/icon.svg", alt: "", width: "32", height: "32" }),
      h("span", { class: "brand-name", text: "Burraco" }),
    ),
    title ? h("span", { class: titleClass, text: title }) : null,
    h("span", { class: "spacer" }),
    ...extra,
    user ? h("span", { class: "user-name", dataset: { header: "user" }, text: user.guest ? t("lobby.guest_as", { name: user.name }) : user.name }) : null,
    link(ctx, "/?ratings=2p", t("ratings.title"), "ratings"),
    link(ctx, "/", t("header.lobby"), "lobby"),
    user ? h("button", { type: "button", class: "btn ghost small", dataset: { header: "logout" }, onclick: () => ctx.logout() }, t("auth.logout")) : null,
    h("button", { type: "button", class: "lang-btn", title: t("lang.switch.title"), onclick: () => ctx.toggleLanguage() }, t("lang.switch")),
  );
}

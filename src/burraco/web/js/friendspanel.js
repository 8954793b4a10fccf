// Friends in the lobby (issue 16; docs/friends.md): follow a player (a follow not returned is a
// friend request), friends online with the table they play at, the invitations and challenges
// received, and who is online on the site. Refreshed with the lobby's lists.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { errorWords as errorText, t } from "./i18n.js";
import { botMark } from "./tableview.js";

export class FriendsPanel {
  constructor(ctx) {
    this.ctx = ctx;
    this.data = null;
    this.message = "";
    // The lobby's poll asks for the list every 4 s; an answer that left the server before a
    // follow changed it must not put the old list back (a friend just followed vanished from
    // the panel until the next poll). Each ask is numbered; a follow's answer makes every ask
    // already sent stale.
    this.asked = 0;
    this.staleUpTo = 0;
    this.root = h("section", { class: "panel friends", "aria-labelledby": "friends-title" });
  }

  el() {
    this.render();
    return this.root;
  }

  async refresh() {
    if (!this.ctx.user || this.ctx.user.guest) return;
    const ask = ++this.asked;
    try {
      const data = await api.friends();
      if (ask <= this.staleUpTo) return; // a follow answered since: its list is newer
      this.data = data;
    } catch (error) {
      this.message = errorText(error);
    }
    this.render();
  }

  async follow(name, undo = false) {
    try {
      this.data = undo ? await api.unfollow(name) : await api.follow(name);
      this.staleUpTo = this.asked;
      this.message = "";
      // Followed: the name typed for it is done with (a refusal leaves it, to be corrected).
      const typing = this.root.querySelector('.friends-form input[name="player"]');
      if (typing && typing.value.trim() === name) typing.value = "";
    } catch (error) {
      this.message = errorText(error);
    }
    this.render();
  }

  go(table) {
    return (e) => {
      e.preventDefault();
      this.ctx.navigate(`/?table=${encodeURIComponent(table)}`);
    };
  }

  render() {
    // The lobby's poll may answer after a logout: nobody to show the panel to any more.
    if (!this.ctx.user) return;
    if (this.ctx.user.guest) {
      replace(this.root, h("h2", { id: "friends-title", text: t("friends.title") }), h("p", { class: "muted", text: t("friends.guest") }));
      return;
    }
    const d = this.data || { friends: [], following: [], requests: [], invitations: [] };
    // The panel is drawn again with the lobby's lists: a name being typed stays, and its focus.
    const typing = this.root.querySelector('.friends-form input[name="player"]');
    const typed = typing ? typing.value : "";
    const focused = typing !== null && document.activeElement === typing;
    const input = h("input", { name: "player", maxlength: "32", required: true, value: typed, placeholder: t("friends.placeholder"), "aria-label": t("friends.placeholder") });
    const form = h("form", { class: "friends-form" },
      input,
      h("button", { type: "submit", class: "btn small", text: t("friends.follow") }));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.follow(String(new FormData(form).get("player") || "").trim());
    });
    replace(this.root,
      h("h2", { id: "friends-title", text: t("friends.title") }),
      d.invitations.length ? h("ul", { class: "invitations" }, d.invitations.map((i) =>
        h("li", { dataset: { invitation: i.table } },
          t(`friends.${i.kind}`, { name: i.by }), " ",
          h("a", { class: "btn small primary", href: `/?table=${encodeURIComponent(i.table)}`, onclick: this.go(i.table), text: t("friends.go") })))) : null,
      d.requests.length ? h("ul", { class: "requests" }, d.requests.map((name) =>
        h("li", { dataset: { request: name } }, t("friends.request", { name }), " ",
          h("button", { type: "button", class: "btn small", onclick: () => this.follow(name), text: t("friends.accept") })))) : null,
      d.friends.length
        ? h("ul", { class: "friend-list" }, d.friends.map((f) => h("li", { dataset: { friend: f.name, online: String(f.online) } },
          h("span", { class: `dot ${f.online ? "on" : "off"}`, role: "img", "aria-label": t(f.online ? "friends.online" : "friends.offline") }),
          ` ${f.name} `,
          f.bot ? [botMark(), " "] : null,
          f.table ? h("a", { href: `/?table=${encodeURIComponent(f.table)}`, onclick: this.go(f.table), text: t("friends.watch") }) : null,
          h("button", { type: "button", class: "btn small ghost", onclick: () => this.follow(f.name, true), text: t("friends.unfollow") }))))
        : h("p", { class: "muted", text: t("friends.none") }),
      d.following.length ? h("p", { class: "muted", text: t("friends.pending", { names: d.following.join(", ") }) }) : null,
      form,
      h("p", { class: "form-error", role: "alert", text: this.message }),
    );
    if (focused) input.focus();
  }
}

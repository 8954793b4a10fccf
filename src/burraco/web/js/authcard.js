// The login / registration card. It was the whole first page (AuthScreen); it is now one panel
// of the first screen (firstscreen.js), so it owns only its element and re-renders in place:
// the live lists around it refresh without touching what the visitor is typing.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./lobby.js";

export class AuthCard {
  constructor(ctx) {
    this.ctx = ctx;
    this.mode = "login";
    this.message = "";
    this.el = h("section", { class: "auth-card", id: "auth", "aria-labelledby": "auth-title" });
  }

  render() {
    const tab = (mode) =>
      h("button", {
        type: "button", role: "tab", class: `tab${this.mode === mode ? " active" : ""}`,
        "aria-selected": this.mode === mode ? "true" : "false",
        dataset: { mode },
        onclick: () => {
          this.mode = mode;
          this.message = "";
          this.render();
        },
      }, t(`auth.${mode}`));
    const form = h("form", { class: "auth-form", dataset: { form: this.mode } },
      h("label", { for: "auth-name", text: t("auth.name") }),
      h("input", { id: "auth-name", name: "name", autocomplete: "username", required: true, minlength: "3", maxlength: "24" }),
      h("label", { for: "auth-password", text: t("auth.password") }),
      h("input", {
        id: "auth-password", name: "password", type: "password", required: true, minlength: "8", maxlength: "128",
        autocomplete: this.mode === "register" ? "new-password" : "current-password",
      }),
      this.mode === "register" ? h("p", { class: "hint", text: t("auth.rules") }) : null,
      h("button", { type: "submit", class: "btn primary wide", text: t(this.mode === "register" ? "auth.register.submit" : "auth.login.submit") }),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const data = new FormData(form);
      this.submit(String(data.get("name") || ""), String(data.get("password") || ""));
    });
    replace(this.el,
      h("h2", { id: "auth-title", text: t("front.auth.title") }),
      h("p", { class: "muted", text: t("front.auth.subtitle") }),
      h("div", { class: "tabs", role: "tablist" }, tab("login"), tab("register")),
      form,
      h("p", { class: "auth-error", role: "alert", text: this.message }),
      h("p", { class: "auth-links" },
        h("a", { href: "/?forgot", dataset: { link: "forgot" }, onclick: (e) => { e.preventDefault(); this.ctx.navigate("/?forgot"); }, text: t("account.forgot.link") }),
        " · ",
        h("a", { href: "/?privacy", onclick: (e) => { e.preventDefault(); this.ctx.navigate("/?privacy"); }, text: t("legal.privacy") }),
        " · ",
        h("a", { href: "/?terms", onclick: (e) => { e.preventDefault(); this.ctx.navigate("/?terms"); }, text: t("legal.terms") })),
    );
    return this.el;
  }

  async submit(name, password) {
    try {
      const result = this.mode === "register" ? await api.register(name, password) : await api.login(name, password);
      this.ctx.signedIn(result.user);
    } catch (error) {
      this.message = errorText(error);
      this.render();
      const input = this.el.querySelector("#auth-name");
      if (input) input.value = name;
      // Keep the password too: a mistyped name should not cost typing the password again.
      const secret = this.el.querySelector("#auth-password");
      if (secret) secret.value = password;
    }
  }
}

// Accounts that last (docs/accounts.md): /?account (the address, standings and invitations by
// mail, the password, the sessions with "log out everywhere", the export, the deletion), and
// the pages the mailed links open: /?verify=TOKEN and /?reset=TOKEN; /?forgot asks for a reset
// link; /?privacy and /?terms are the site's notes. Every word from the catalogs (it/en).
// The account page also has the bot accounts (create, a new token shown once, revoke, delete).

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { has, language, t } from "./i18n.js";
import { pageHeader } from "./header.js";
import { botMark } from "./tableview.js";

function errorText(error) {
  const detail = error && error.detail && error.detail.code;
  if (detail && has(`err.${detail}`)) return t(`err.${detail}`, error.detail.params || {});
  const code = error && error.code ? error.code : "generic";
  return has(`err.${code}`) ? t(`err.${code}`) : t("err.generic");
}

function field(label, attrs) {
  return h("label", { class: "field" }, h("span", { text: label }), h("input", attrs));
}

function go(ctx, href) {
  return (ev) => {
    ev.preventDefault();
    ctx.navigate(href);
  };
}

/** A small page: the shared header, a title, the body; `notice` an answer shown on top. */
class Page {
  constructor(app, ctx) {
    this.app = app;
    this.ctx = ctx;
    this.notice = null;
  }

  mount() {
    this.root = h("div", { class: "screen account-screen" });
    replace(this.app, this.root);
    this.render();
    this.load();
  }

  destroy() {
    this.gone = true;
  }

  async load() {}

  say(kind, text) {
    this.notice = { kind, text };
    this.render();
  }

  frame(title, ...body) {
    replace(this.root,
      pageHeader(this.ctx, { title }),
      h("main", { class: "account-page" },
        h("h1", { text: title }),
        this.notice ? h("p", { class: `notice ${this.notice.kind}`, role: this.notice.kind === "error" ? "alert" : "status", text: this.notice.text }) : null,
        ...body),
    );
  }
}

export class AccountScreen extends Page {
  async load() {
    try {
      this.data = await api.account();
      this.bots = await api.bots();
    } catch (error) {
      this.notice = { kind: "error", text: errorText(error) };
    }
    if (!this.gone) this.render();
  }

  async act(work, done) {
    try {
      await work();
      this.notice = done ? { kind: "ok", text: done } : null;
      await this.load();
    } catch (error) {
      this.say("error", errorText(error));
    }
  }

  render() {
    const d = this.data;
    if (!d) {
      this.frame(t("account.title"), this.notice ? null : h("p", { class: "muted", text: t("ratings.loading") }));
      return;
    }
    const email = h("form", { class: "account-form", dataset: { form: "email" } },
      h("p", { text: d.email ? t("account.email.is", { email: d.email }) : t("account.email.none") }),
      d.mail
        ? [field(t("account.email.new"), { name: "email", type: "email", autocomplete: "email", required: true, maxlength: "254" }),
          h("button", { type: "submit", class: "btn primary", text: t("account.email.send") })]
        : h("p", { class: "muted", text: t("err.mail_unavailable") }),
    );
    email.addEventListener("submit", (e) => {
      e.preventDefault();
      const address = String(new FormData(email).get("email") || "");
      this.act(() => api.accountEmail(address, language()), t("account.email.sent", { email: address }));
    });
    const standings = h("label", { class: "check" },
      h("input", {
        type: "checkbox", name: "standings", checked: d.mail_standings, disabled: !d.email,
        onchange: (e) => this.act(() => api.accountStandings(e.target.checked), t("account.saved")),
      }),
      t("account.standings"));
    const invitations = h("label", { class: "check" },
      h("input", {
        type: "checkbox", name: "invitations", checked: d.mail_invitations, disabled: !d.email,
        onchange: (e) => this.act(() => api.accountInvitations(e.target.checked), t("account.saved")),
      }),
      t("account.invitations"));
    const password = h("form", { class: "account-form", dataset: { form: "password" } },
      field(t("account.password.current"), { name: "current", type: "password", autocomplete: "current-password", required: true }),
      field(t("account.password.new"), { name: "new", type: "password", autocomplete: "new-password", required: true, minlength: "8", maxlength: "128" }),
      h("button", { type: "submit", class: "btn", text: t("account.password.change") }),
    );
    password.addEventListener("submit", (e) => {
      e.preventDefault();
      const data = new FormData(password);
      this.act(() => api.accountPassword(String(data.get("current")), String(data.get("new"))), t("account.password.changed"));
    });
    const date = (iso) => new Date(iso).toLocaleString(language() === "it" ? "it-IT" : "en-GB");
    const sessions = h("ul", { class: "sessions" }, d.sessions.map((s) =>
      h("li", { dataset: { session: s.id } }, t("account.session", { since: date(s.created_at), until: date(s.expires_at) }),
        s.current ? h("strong", { text: ` · ${t("account.session.current")}` }) : null)));
    const everywhere = h("button", {
      type: "button", class: "btn", dataset: { cmd: "logout-everywhere" },
      onclick: async () => {
        try {
          await api.logoutEverywhere();
          this.ctx.logout();
        } catch (error) {
          this.say("error", errorText(error));
        }
      },
    }, t("account.logout_everywhere"));
    const remove = h("form", { class: "account-form danger-zone", dataset: { form: "delete" } },
      h("p", { text: t("account.delete.what") }),
      field(t("account.password.current"), { name: "password", type: "password", autocomplete: "current-password", required: true }),
      h("button", { type: "submit", class: "btn danger", text: t("account.delete") }),
    );
    remove.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (!confirm(t("account.delete.confirm"))) return;
      try {
        await api.deleteAccount(String(new FormData(remove).get("password")));
        this.ctx.logout();
      } catch (error) {
        this.say("error", errorText(error));
      }
    });
    this.frame(t("account.title"),
      h("section", { class: "panel" }, h("h2", { text: t("account.email") }), email, standings, invitations),
      this.botsPanel(),
      h("section", { class: "panel" }, h("h2", { text: t("account.password") }), password,
        h("p", { class: "muted", text: t("account.password.others") })),
      h("section", { class: "panel" }, h("h2", { text: t("account.sessions") }), sessions, everywhere),
      h("section", { class: "panel" }, h("h2", { text: t("account.data") }),
        h("p", {}, h("a", { class: "btn", href: "/api/account/export", download: "", dataset: { link: "export" }, text: t("account.export") })),
        remove),
      h("p", {}, h("a", { href: "/?privacy", onclick: go(this.ctx, "/?privacy"), text: t("legal.privacy") }), " · ",
        h("a", { href: "/?terms", onclick: go(this.ctx, "/?terms"), text: t("legal.terms") })),
    );
  }
}

/** The bot accounts' panel: a token is shown once, right after it was made (`this.shown`). */
AccountScreen.prototype.botsPanel = function botsPanel() {
  const b = this.bots;
  if (!b) return null;
  const tokenMade = (name) => async (answer) => {
    this.shown = { name, token: answer.token };
  };
  const create = h("form", { class: "account-form", dataset: { form: "bot" } },
    field(t("bots.name"), { name: "name", required: true, maxlength: "24", autocomplete: "off" }),
    h("button", { type: "submit", class: "btn", text: t("bots.create") }),
  );
  create.addEventListener("submit", (e) => {
    e.preventDefault();
    const name = String(new FormData(create).get("name") || "").trim();
    this.act(async () => tokenMade(name)(await api.createBot(name)), t("bots.created", { name }));
  });
  const shown = this.shown;
  const rows = b.bots.map((bot) => h("li", { dataset: { bot: bot.name } },
    h("strong", { text: bot.name }), " ", botMark(), " ",
    h("span", { class: "muted", text: bot.token ? t("bots.token_live") : t("bots.token_none") }), " ",
    h("button", {
      type: "button", class: "btn small", dataset: { cmd: "bot-token" },
      onclick: () => this.act(async () => tokenMade(bot.name)(await api.newBotToken(bot.name)), t("bots.new_token_done", { name: bot.name })),
    }, t("bots.new_token")),
    bot.token ? h("button", {
      type: "button", class: "btn small ghost", dataset: { cmd: "bot-revoke" },
      onclick: () => this.act(() => { this.shown = null; return api.revokeBotToken(bot.name); }, t("bots.revoked", { name: bot.name })),
    }, t("bots.revoke")) : null,
    h("button", {
      type: "button", class: "btn small danger", dataset: { cmd: "bot-delete" },
      onclick: () => {
        if (!confirm(t("bots.delete.confirm", { name: bot.name }))) return;
        this.act(() => { this.shown = null; return api.deleteBot(bot.name); }, t("bots.deleted", { name: bot.name }));
      },
    }, t("bots.delete")),
  ));
  return h("section", { class: "panel", dataset: { panel: "bots" } },
    h("h2", { text: t("bots.title") }),
    h("p", { text: t("bots.what", { limit: b.limit }) }),
    shown ? h("div", { class: "bot-token", role: "status", dataset: { token: shown.name } },
      h("p", { text: t("bots.token_once", { name: shown.name }) }),
      h("code", { class: "token", dataset: { secret: "" }, text: shown.token }),
      h("p", { class: "muted", text: t("bots.connect") }),
      h("code", { text: `burraco bot-connect --server ${location.origin} --token ${shown.token} --cmd "python my_bot.py"` }),
    ) : null,
    rows.length ? h("ul", { class: "bot-list" }, rows) : h("p", { class: "muted", text: t("bots.none") }),
    b.bots.length < b.limit ? create : h("p", { class: "muted", text: t("bots.limit", { limit: b.limit }) }),
  );
};

export class VerifyScreen extends Page {
  constructor(app, ctx, token) {
    super(app, ctx);
    this.token = token;
  }

  async load() {
    try {
      const done = await api.verifyEmail(this.token);
      this.notice = { kind: "ok", text: t("account.verified", { email: done.email }) };
    } catch (error) {
      this.notice = { kind: "error", text: errorText(error) };
    }
    if (!this.gone) this.render();
  }

  render() {
    this.frame(t("account.verify.title"), this.notice ? null : h("p", { class: "muted", text: t("ratings.loading") }),
      h("p", {}, h("a", { href: "/", onclick: go(this.ctx, "/"), text: t("header.lobby") })));
  }
}

export class ForgotScreen extends Page {
  render() {
    const form = h("form", { class: "account-form", dataset: { form: "forgot" } },
      h("p", { text: t("account.forgot.what") }),
      field(t("account.email"), { name: "email", type: "email", autocomplete: "email", required: true, maxlength: "254" }),
      h("button", { type: "submit", class: "btn primary", text: t("account.forgot.send") }),
    );
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        await api.forgotPassword(String(new FormData(form).get("email") || ""), language());
        this.say("ok", t("account.forgot.sent"));
      } catch (error) {
        this.say("error", errorText(error));
      }
    });
    this.frame(t("account.forgot.title"), form);
  }
}

export class ResetScreen extends Page {
  constructor(app, ctx, token) {
    super(app, ctx);
    this.token = token;
  }

  render() {
    const form = h("form", { class: "account-form", dataset: { form: "reset" } },
      field(t("account.password.new"), { name: "password", type: "password", autocomplete: "new-password", required: true, minlength: "8", maxlength: "128" }),
      h("button", { type: "submit", class: "btn primary", text: t("account.reset.save") }),
    );
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        await api.resetPassword(this.token, String(new FormData(form).get("password") || ""));
        this.done = true;
        this.say("ok", t("account.reset.done"));
      } catch (error) {
        this.say("error", errorText(error));
      }
    });
    this.frame(t("account.reset.title"), this.done ? h("p", {}, h("a", { href: "/", onclick: go(this.ctx, "/"), text: t("account.reset.login") })) : form);
  }
}

export class LegalScreen extends Page {
  constructor(app, ctx, which) {
    super(app, ctx);
    this.which = which;
  }

  render() {
    const paragraphs = t(`legal.${this.which}.text`).split("\n\n");
    this.frame(t(`legal.${this.which}`), ...paragraphs.map((p) => h("p", { text: p })));
  }
}

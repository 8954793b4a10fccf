// Start-up and navigation: / (lobby, or signing in), /?table=ID (a table: play, wait, or watch),
// /?replay=ID&match=N (the replay of a finished match).

import { api } from "./api.js";
import { applyI18n, language, loadCatalogs, onLanguage, setLanguage, t } from "./i18n.js";
import { AuthScreen, LobbyScreen } from "./lobby.js";
import { TableScreen } from "./play.js";
import { ReplayScreen } from "./replay.js";

const app = document.getElementById("app");
let screen = null;

const ctx = {
  user: null,
  info: null,
  navigate(path, { replace = false } = {}) {
    if (replace) history.replaceState(null, "", path);
    else history.pushState(null, "", path);
    route();
  },
  signedIn(user) {
    ctx.user = user;
    route();
  },
  async logout() {
    try {
      await api.logout();
    } catch {
      // signed out anyway
    }
    ctx.user = null;
    ctx.navigate("/");
  },
  toggleLanguage() {
    setLanguage(language() === "it" ? "en" : "it");
  },
};

function show(next) {
  if (screen) screen.destroy();
  screen = next;
  screen.mount();
}

async function route() {
  const params = new URLSearchParams(location.search);
  const replayId = params.get("replay");
  if (replayId) {
    show(new ReplayScreen(app, ctx, replayId, Number(params.get("match")) || 1));
    return;
  }
  if (!ctx.user) {
    try {
      ctx.user = await api.me();
    } catch {
      ctx.user = null;
    }
  }
  if (!ctx.user) {
    show(new AuthScreen(app, ctx));
    return;
  }
  const tableId = params.get("table");
  if (tableId) show(new TableScreen(app, ctx, tableId));
  else show(new LobbyScreen(app, ctx));
}

async function boot() {
  await loadCatalogs();
  applyI18n(document);
  document.title = t("app.title");
  try {
    ctx.info = await api.info();
  } catch {
    ctx.info = null;
  }
  onLanguage(() => {
    document.title = t("app.title");
    if (screen) screen.render();
  });
  window.addEventListener("popstate", route);
  await route();
}

boot();

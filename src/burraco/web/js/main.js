// Start-up and navigation: / (lobby, or the first screen with signing in), /?table=ID (a table: play, wait, or watch),
// /?replay=ID&match=N (the replay of a finished match), /?samecards=TOURNAMENT&round=R&deal=K
// (a same-cards round's deal at every table, side by side), /?club[=ID] (the club manager),
// /?timer=EVENING (a club evening's room timer, no login needed), /?tournaments and
// /?tournament=ID (online tournaments), /?rules[=PRESET] (how to play; no login needed),
// /?ratings=MODE[&month=YYYY-MM] (leaderboards) and /?player=NAME (a profile; both public).

import { api } from "./api.js";
import { ClubListScreen, ClubScreen } from "./club.js";
import { TimerScreen } from "./clubtimer.js";
import { applyI18n, language, loadCatalogs, onLanguage, setLanguage, t } from "./i18n.js";
import { FirstScreen } from "./firstscreen.js";
import { LobbyScreen } from "./lobby.js";
import { TableScreen } from "./play.js";
import { registerWorker } from "./pwa.js";
import { ReplayScreen } from "./replay.js";
import { LeaderboardScreen, ProfileScreen } from "./ratingspage.js";
import { AccountScreen, ForgotScreen, LegalScreen, ResetScreen, VerifyScreen } from "./accountpage.js";
import { AdminScreen } from "./adminpage.js";
import { RulesScreen } from "./rulespage.js";
import { SameCardsScreen } from "./samecards.js";
import { applySettings } from "./settings.js";
import { TournamentListScreen, TournamentScreen } from "./tournament.js";

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
  const sameCards = params.get("samecards");
  if (sameCards) {
    show(new SameCardsScreen(app, ctx, sameCards, Number(params.get("round")) || 1, Number(params.get("deal")) || 1));
    return;
  }
  if (params.get("rules") !== null) {
    show(new RulesScreen(app, ctx, params.get("rules")));
    return;
  }
  if (params.get("ratings") !== null) {
    show(new LeaderboardScreen(app, ctx, params.get("ratings"), params.get("month")));
    return;
  }
  if (params.get("player")) {
    show(new ProfileScreen(app, ctx, params.get("player")));
    return;
  }
  // The pages mailed links open, and the site's notes: no login needed.
  if (params.get("verify")) {
    show(new VerifyScreen(app, ctx, params.get("verify")));
    return;
  }
  if (params.get("reset")) {
    show(new ResetScreen(app, ctx, params.get("reset")));
    return;
  }
  if (params.get("forgot") !== null) {
    show(new ForgotScreen(app, ctx));
    return;
  }
  for (const which of ["privacy", "terms"]) {
    if (params.get(which) !== null) {
      show(new LegalScreen(app, ctx, which));
      return;
    }
  }
  const timerId = params.get("timer");
  if (timerId) {
    show(new TimerScreen(app, ctx, timerId));
    return;
  }
  if (!ctx.user) {
    try {
      ctx.user = (await api.session()).user;
    } catch {
      ctx.user = null;
    }
  }
  if (!ctx.user) {
    // Signing in is part of the first screen, which shows the site's life around it.
    show(new FirstScreen(app, ctx));
    return;
  }
  if (params.get("admin") !== null) {
    show(new AdminScreen(app, ctx));
    return;
  }
  if (params.get("account") !== null && !ctx.user.guest) {
    show(new AccountScreen(app, ctx));
    return;
  }
  const tableId = params.get("table");
  const clubId = params.get("club");
  const tournamentId = params.get("tournament");
  if (tournamentId) show(new TournamentScreen(app, ctx, tournamentId));
  else if (params.get("tournaments") !== null) show(new TournamentListScreen(app, ctx));
  else if (clubId) show(new ClubScreen(app, ctx, clubId, params));
  else if (clubId !== null) show(new ClubListScreen(app, ctx));
  else if (tableId) show(new TableScreen(app, ctx, tableId));
  else show(new LobbyScreen(app, ctx));
}

async function boot() {
  applySettings();
  registerWorker();
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

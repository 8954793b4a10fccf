// The HTTP API of docs/protocol.md. The session travels in the HttpOnly cookie the server sets.

export class ApiError extends Error {
  constructor(status, code, message, detail = null) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.detail = detail; // {code, params}: the precise cause, for the page's own words
  }
}

async function call(method, path, body) {
  const options = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, "network", "network error");
  }
  if (response.status === 204) return null;
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) {
    // {error, message, detail?} (docs/protocol.md); an older or foreign answer may nest it.
    const body = data && typeof data === "object" ? (data.error ? data : data.detail || {}) : {};
    const code = typeof body === "object" && body.error ? body.error : `http_${response.status}`;
    const message = typeof body === "object" ? body.message : String(body);
    const detail = body && typeof body.detail === "object" && !Array.isArray(body.detail) ? body.detail : null;
    throw new ApiError(response.status, code, message, detail);
  }
  return data;
}

export const api = {
  me: () => call("GET", "/api/me"),
  // {user: null} without a session (not a 401): the page's first look logs no console error.
  session: () => call("GET", "/api/session"),
  info: () => call("GET", "/api/info"),
  rulesets: () => call("GET", "/api/rulesets"),
  lesson: () => call("POST", "/api/lessons"),
  register: (name, password) => call("POST", "/api/register", { name, password }),
  login: (name, password) => call("POST", "/api/login", { name, password }),
  guest: () => call("POST", "/api/guest"),
  logout: () => call("POST", "/api/logout"),
  tables: () => call("GET", "/api/tables"),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  create: (settings) => call("POST", "/api/tables", settings),
  sit: (id, seat) => call("POST", `/api/tables/${encodeURIComponent(id)}/sit`, { seat }),
  stand: (id) => call("POST", `/api/tables/${encodeURIComponent(id)}/stand`),
  cancel: (id) => call("POST", `/api/tables/${encodeURIComponent(id)}/cancel`),
  bot: (id, seat, level) =>
    call("POST", `/api/tables/${encodeURIComponent(id)}/bots`, { seat, level }),
  rematch: (id) => call("POST", `/api/tables/${encodeURIComponent(id)}/rematch`),
  matches: (mine) => call("GET", `/api/matches${mine ? "?mine=true" : ""}`),
  invitations: () => call("GET", "/api/tournaments/invitations"),
  leaderboard: (mode, { month = null, provisional = false } = {}) => {
    const query = new URLSearchParams();
    if (month) query.set("month", month);
    if (provisional) query.set("provisional", "true");
    const tail = query.toString();
    return call("GET", `/api/ratings/${encodeURIComponent(mode)}${tail ? `?${tail}` : ""}`);
  },
  player: (name) => call("GET", `/api/players/${encodeURIComponent(name)}`),
  playerMatches: (name, query) =>
    call("GET", `/api/players/${encodeURIComponent(name)}/matches${query ? `?${query}` : ""}`),
  account: () => call("GET", "/api/account"),
  accountEmail: (email, lang) => call("POST", "/api/account/email", { email, lang }),
  verifyEmail: (token) => call("POST", "/api/account/verify", { token }),
  accountStandings: (wanted) => call("POST", "/api/account/standings", { wanted }),
  accountInvitations: (wanted) => call("POST", "/api/account/invitations", { wanted }),
  // Bot accounts (docs/accounts.md): the token is in the answer of create and newBotToken only.
  bots: () => call("GET", "/api/account/bots"),
  createBot: (name) => call("POST", "/api/account/bots", { name }),
  newBotToken: (name) => call("POST", `/api/account/bots/${encodeURIComponent(name)}/token`),
  revokeBotToken: (name) => call("DELETE", `/api/account/bots/${encodeURIComponent(name)}/token`),
  deleteBot: (name) => call("DELETE", `/api/account/bots/${encodeURIComponent(name)}`),
  accountPassword: (current, next) => call("POST", "/api/account/password", { current, new: next }),
  logoutEverywhere: () => call("POST", "/api/account/logout-everywhere"),
  deleteAccount: (password) => call("DELETE", "/api/account", { password }),
  forgotPassword: (email, lang) => call("POST", "/api/password/forgot", { email, lang }),
  resetPassword: (token, password) => call("POST", "/api/password/reset", { token, password }),
  presence: () => call("GET", "/api/presence"),
  friends: () => call("GET", "/api/friends"),
  follow: (player) => call("POST", "/api/friends", { player }),
  unfollow: (player) => call("DELETE", "/api/friends", { player }),
  invite: (table, player) => call("POST", `/api/tables/${encodeURIComponent(table)}/invite`, { player }),
  relations: () => call("GET", "/api/relations"),
  relate: (player, kind) => call("POST", "/api/relations", { player, kind }),
  unrelate: (player, kind) => call("DELETE", "/api/relations", { player, kind }),
  report: (body) => call("POST", "/api/reports", body),
  announcement: () => call("GET", "/api/announcement"),
  serverStats: () => call("GET", "/api/server/stats"),
  adminReports: () => call("GET", "/api/admin/reports"),
  adminAudit: () => call("GET", "/api/admin/audit"),
  adminUser: (name) => call("GET", `/api/admin/users/${encodeURIComponent(name)}`),
  adminSanction: (name, action, body) =>
    call("POST", `/api/admin/users/${encodeURIComponent(name)}/${action}`, body),
  adminCloseReport: (id, resolution) => call("POST", `/api/admin/reports/${id}/close`, { resolution }),
  adminCloseTable: (id) => call("POST", `/api/admin/tables/${encodeURIComponent(id)}/close`, {}),
  adminAnnounce: (text) => call("POST", "/api/admin/announce", { text }),
  quickplayJoin: (body) => call("POST", "/api/quickplay", body),
  quickplayStatus: () => call("GET", "/api/quickplay"),
  quickplayLeave: () => call("DELETE", "/api/quickplay"),
  reviews: (id, match) =>
    call("GET", `/api/tables/${encodeURIComponent(id)}/reviews?match=${Number(match) || 1}`),
  askReview: (id, match, seat) =>
    call("POST", `/api/tables/${encodeURIComponent(id)}/review?match=${Number(match) || 1}`, seat === null || seat === undefined ? {} : { seat }),
  replay: (id, match) =>
    call("GET", `/api/tables/${encodeURIComponent(id)}/replay?match=${Number(match) || 1}`),
};

export function recordUrl(id, match) {
  return `/api/tables/${encodeURIComponent(id)}/record?match=${Number(match) || 1}`;
}

// The club manager's HTTP API (/api/club/..., docs/club.md "On the web"). Errors come back as
// ApiError with the server's code (forbidden, bad_input, conflict, late, not_found, ...).

import { ApiError } from "./api.js";

const BASE = "/api/club";

async function call(method, path, body) {
  const options = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(BASE + path, options);
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
    const code = data && data.error ? data.error : `http_${response.status}`;
    const error = new ApiError(response.status, code, data && data.message ? data.message : String(text));
    // The precise cause ({code, params}) when the server names one; bad_request's detail is a list.
    if (data && data.detail && !Array.isArray(data.detail)) error.detail = data.detail;
    throw error;
  }
  return data;
}

const e = encodeURIComponent;

export const clubApi = {
  clubs: () => call("GET", "/clubs"),
  createClub: (body) => call("POST", "/clubs", body),
  club: (id) => call("GET", `/clubs/${e(id)}`),
  addMember: (id, body) => call("POST", `/clubs/${e(id)}/members`, body),
  changeMember: (id, member, body) => call("PATCH", `/clubs/${e(id)}/members/${e(member)}`, body),
  audit: (id, params = {}) => call("GET", `/clubs/${e(id)}/audit?${new URLSearchParams(params)}`),
  createSeason: (id, body) => call("POST", `/clubs/${e(id)}/seasons`, body),
  season: (id) => call("GET", `/seasons/${e(id)}`),
  createCalendar: (id, body) => call("POST", `/seasons/${e(id)}/calendar`, body),
  addEvening: (id, body) => call("POST", `/seasons/${e(id)}/evenings`, body),
  changeEvening: (id, body) => call("PATCH", `/evenings/${e(id)}`, body),
  evening: (id) => call("GET", `/evenings/${e(id)}`),
  checkin: (id, member, override) =>
    call("POST", `/evenings/${e(id)}/checkins`, { member, override: override || null }),
  uncheck: (id, member, reason) => call("POST", `/evenings/${e(id)}/checkins/remove`, { member, reason }),
  draw: (id) => call("POST", `/evenings/${e(id)}/draw`, {}),
  undoDraw: (id, reason) => call("POST", `/evenings/${e(id)}/undo-draw`, { reason }),
  setSeating: (id, game, body) => call("PUT", `/evenings/${e(id)}/games/${game}/seating`, body),
  changeRest: (id, game, body) => call("POST", `/evenings/${e(id)}/games/${game}/rest`, body),
  startGame: (id, game) => call("POST", `/evenings/${e(id)}/games/${game}/start`, {}),
  result: (id, game, table, ns, ew) =>
    call("POST", `/evenings/${e(id)}/games/${game}/tables/${table}/result`, { ns, ew }),
  correct: (id, game, table, ns, ew, reason) =>
    call("POST", `/evenings/${e(id)}/games/${game}/tables/${table}/correction`, { ns, ew, reason }),
  askCheck: (id, game, table, note) =>
    call("POST", `/evenings/${e(id)}/games/${game}/tables/${table}/check`, { note }),
  resolveCheck: (id, resolution) => call("POST", `/checks/${e(id)}/resolve`, { resolution }),
  timer: (id) => call("GET", `/evenings/${e(id)}/timer`),
  standings: (id) => call("GET", `/seasons/${e(id)}/standings`),
  fees: (id) => call("GET", `/seasons/${e(id)}/fees`),
  payment: (id, body) => call("POST", `/seasons/${e(id)}/payments`, body),
  charge: (id, body) => call("POST", `/seasons/${e(id)}/charges`, body),
  prizes: (id) => call("GET", `/seasons/${e(id)}/prizes`),
  closeSeason: (id) => call("POST", `/seasons/${e(id)}/close`, {}),
  changeSeason: (id, body) => call("PATCH", `/seasons/${e(id)}`, body),
  mailStandings: (id, lang) => call("POST", `/evenings/${e(id)}/mail/standings?lang=${lang}`, {}),
  mailCalendar: (id, lang) => call("POST", `/seasons/${e(id)}/mail/calendar?lang=${lang}`, {}),
};

/** Where the exports are: links the page offers (CSV, printable HTML, PNG chart, .ics). */
export const exportUrl = {
  calendarIcs: (season, lang) => `${BASE}/seasons/${e(season)}/calendar.ics?lang=${lang}`,
  calendarHtml: (season, lang) => `${BASE}/seasons/${e(season)}/calendar.html?lang=${lang}`,
  standingsCsv: (season) => `${BASE}/seasons/${e(season)}/standings.csv`,
  standingsHtml: (season, lang) => `${BASE}/seasons/${e(season)}/standings.html?lang=${lang}`,
  standingsPng: (season, lang, stamp) =>
    `${BASE}/seasons/${e(season)}/standings.png?lang=${lang}&v=${stamp}`,
  feesCsv: (season) => `${BASE}/seasons/${e(season)}/fees.csv`,
  eveningCsv: (evening) => `${BASE}/evenings/${e(evening)}/ranking.csv`,
  resultsCsv: (evening) => `${BASE}/evenings/${e(evening)}/results.csv`,
  eveningHtml: (evening, lang) => `${BASE}/evenings/${e(evening)}/ranking.html?lang=${lang}`,
};

/** Euros as typed ("12", "12,50", "12.5") to cents; NaN when it is not an amount. */
export function parseEuros(text) {
  const cleaned = String(text).trim().replace(",", ".").replace("€", "").trim();
  if (!/^-?\d+(\.\d{1,2})?$/.test(cleaned)) return NaN;
  return Math.round(Number(cleaned) * 100);
}

export function euros(cents) {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, "0")} €`;
}

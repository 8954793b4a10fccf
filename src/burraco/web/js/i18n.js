// The two message catalogs (i18n/it.json, i18n/en.json): Italian by default, English on request
// (?lang=en or the language button), remembered in localStorage. t(key, params) fills {names};
// with a numeric {n} equal to 1 the "KEY.one" variant is used when it exists.

const STORAGE = "burraco:lang";
export const LANGUAGES = ["it", "en"];
const catalogs = {};
let lang = "it";
const listeners = new Set();

export async function loadCatalogs() {
  const loaded = await Promise.all(
    LANGUAGES.map((code) => fetch(`/i18n/${code}.json`).then((r) => r.json())),
  );
  LANGUAGES.forEach((code, i) => {
    catalogs[code] = loaded[i];
  });
  lang = initialLanguage();
  document.documentElement.lang = lang;
}

function initialLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGUAGES.includes(asked)) {
    localStorage.setItem(STORAGE, asked);
    return asked;
  }
  const stored = localStorage.getItem(STORAGE);
  if (LANGUAGES.includes(stored)) return stored;
  return browserLanguage();
}

// Nothing stored or asked: the browser's first preference that we speak (en-US is English);
// Italian for everything else.
function browserLanguage() {
  const preferred = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  for (const tag of preferred) {
    const base = String(tag || "").toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "it";
}

export function language() {
  return lang;
}

export function setLanguage(code) {
  if (!LANGUAGES.includes(code) || code === lang) return;
  lang = code;
  localStorage.setItem(STORAGE, code);
  document.documentElement.lang = code;
  for (const listener of listeners) listener(code);
}

export function onLanguage(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function has(key) {
  return Object.hasOwn(catalogs[lang] || {}, key);
}

export function t(key, params) {
  const catalog = catalogs[lang] || {};
  let text = catalog[key];
  if (params && params.n === 1 && Object.hasOwn(catalog, `${key}.one`)) {
    text = catalog[`${key}.one`];
  }
  if (text === undefined) {
    console.warn(`missing message ${lang}:${key}`);
    text = key;
  }
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** Fill the elements marked data-i18n (text), data-i18n-title, -placeholder and -label. */
export function applyI18n(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) {
    el.title = t(el.dataset.i18nTitle);
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
}

/** A moment (an ISO date and time) as the page's language writes it: "12 mar 2026, 21:30". */
export function momentText(iso) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return String(iso);
  return when.toLocaleString(lang === "it" ? "it-IT" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
}

const MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A server's refusal (an ApiError, or a WebSocket error: {code, message, detail?}) in the
 * page's language: its precise cause when the catalogs word it (`detail` {code, params}:
 * err.CAUSE filled with its params, moments as local dates), else its code's line (err.CODE).
 * The server's own sentence is English, for programs and logs: an English page falls back on
 * it, an Italian one on a generic line, so that no English shows there. */
export function errorWords(error) {
  const detail = error && error.detail;
  if (detail && detail.code && !detail.rule && has(`err.${detail.code}`)) {
    const params = {};
    for (const [name, value] of Object.entries(detail.params || {})) {
      params[name] = typeof value === "string" && MOMENT.test(value) ? momentText(value) : value;
    }
    return t(`err.${detail.code}`, params);
  }
  const code = error && error.code ? error.code : "generic";
  if (has(`err.${code}`)) return t(`err.${code}`);
  const message = error && error.message;
  if (lang === "en" && message && message !== code) return message;
  return t("err.generic");
}

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

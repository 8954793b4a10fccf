// Small DOM helpers. Text always goes in as text nodes (never innerHTML), so names and chat
// messages from other people can never become markup.

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  appendAll(el, children);
  return el;
}

export function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, v);
    }
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
}

export function appendAll(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export function replace(el, ...children) {
  clear(el);
  return appendAll(el, children);
}

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null) continue;
    if (key === "text") el.textContent = value;
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) if (child) el.append(child);
  return el;
}

/** "m:ss" (or "h:mm:ss") for a number of seconds; negative values show as 0:00. */
export function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const secs = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

const ICONS = {
  chat: "M4 5h16a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H10l-4 4v-4H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1z",
  clock: "M12 3a9 9 0 1 1 0 18a9 9 0 0 1 0-18zm0 2a7 7 0 1 0 0 14a7 7 0 0 0 0-14zm-1 2h2v5l4 2-1 1.7-5-2.7z",
  hourglass: "M6 2h12v2c0 3-2 5-4 6.5v3c2 1.5 4 3.5 4 6.5v2H6v-2c0-3 2-5 4-6.5v-3C8 9 6 7 6 4zm2 2c0 2 1.5 3.5 4 5c2.5-1.5 4-3 4-5z",
  sort: "M7 3l4 4H8v10H6V7H3zm10 18l-4-4h3V7h2v10h3z",
  first: "M6 5h2v14H6zm3 7l9-7v14z",
  back: "M15.5 4L17 5.5 10.5 12l6.5 6.5-1.5 1.5-8-8z",
  play: "M7 4l12 8-12 8z",
  pause: "M6 5h4v14H6zm8 0h4v14h-4z",
  forward: "M8.5 4L7 5.5 13.5 12 7 18.5 8.5 20l8-8z",
  last: "M16 5h2v14h-2zm-1 7l-9 7V5z",
};

/** A small inline icon drawn here (no icon font, no emoji font needed). */
export function icon(name, label) {
  const el = svg("svg", { viewBox: "0 0 24 24", class: `icon icon-${name}`, "aria-hidden": label ? null : "true", role: label ? "img" : null, "aria-label": label || null },
    svg("path", { d: ICONS[name], fill: "currentColor" }));
  return el;
}

// The table's sounds, synthesised with the Web Audio API (no audio files): the player's turn, a
// pozzetto taken, a closing, and the player's clock at 30 s and 10 s. Silent when the settings
// say so. Every sound played is counted in window.__burracoSounds (what the tests look at).

import { setting } from "./settings.js";

// Each sound: notes as [frequency Hz, start s, length s].
const TUNES = {
  turn: [[660, 0, 0.12], [880, 0.12, 0.16]],
  pozzetto: [[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.18]],
  closing: [[784, 0, 0.12], [659, 0.12, 0.12], [523, 0.24, 0.12], [1047, 0.36, 0.3]],
  low30: [[440, 0, 0.15]],
  low10: [[880, 0, 0.1], [880, 0.2, 0.1]],
};

let audio = null;

function context() {
  const Ctor = window.AudioContext || window.webkitAudioContext;
  if (!Ctor) return null;
  if (!audio) audio = new Ctor();
  // Browsers start the context suspended until the page has had a user gesture.
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

export function playSound(name) {
  if (!setting("sound") || !TUNES[name]) return false;
  window.__burracoSounds = window.__burracoSounds || {};
  window.__burracoSounds[name] = (window.__burracoSounds[name] || 0) + 1;
  const ac = context();
  if (!ac) return true;
  const now = ac.currentTime;
  for (const [freq, start, length] of TUNES[name]) {
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(0.18, now + start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(ac.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
  return true;
}

/** Sounds for what a table message brought: a pozzetto taken, a smazzata closed. */
export function soundsForAction(message) {
  for (const e of message.events || []) {
    if (e.e === "pozzetto") playSound("pozzetto");
    else if (e.e === "ended" && e.reason === "closing") playSound("closing");
  }
}

/** The low-time sounds, once each time the player's clock crosses 30 s and 10 s. */
export class ClockAlarm {
  constructor() {
    this.last = null;
  }

  /** Plays the 30 s and 10 s sounds as ``left`` crosses them; returns the level crossed
   * (30 or 10) so that the page can show it too, or null. */
  update(left) {
    const before = this.last;
    this.last = left;
    if (before === null || left === null) return null;
    if (before > 30 && left <= 30) {
      playSound("low30");
      return 30;
    }
    if (before > 10 && left <= 10) {
      playSound("low10");
      return 10;
    }
    return null;
  }
}

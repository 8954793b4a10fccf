// What the client knows of one table, built only from the server's messages (snapshot, events,
// synced). It is kept in sessionStorage with the last event number, so that a page reload joins
// again with last_seq and receives only what it missed.

import { checkReveal } from "./fairdeal.js";

const PREFIX = "burraco:table:";
const LOG_SIZE = 120;

export class TableModel {
  constructor(id) {
    this.id = id;
    this.seq = null;
    this.you = null;
    this.info = null;
    this.match = null;
    this.view = null;
    this.legal = null;
    this.clock = null;
    this.commitment = null;
    // What this page received before the first card of each smazzata, by its number (the
    // deck's commitment; with players' seeds also the server's secret commitment and the
    // seeds' commitments): checked against the reveal at its end (fairdeal.js).
    this.kept = {};
    this.fair = {}; // each smazzata's check: {status, problems, missing}
    this.chat = [];
    this.log = [];
    this.away = {};
    this.sheet = null; // the last smazzata_end (score sheet) not yet dismissed
    this.final = null; // the match_end of the current match
  }

  static restore(id) {
    const model = new TableModel(id);
    try {
      const saved = JSON.parse(sessionStorage.getItem(PREFIX + id) || "null");
      if (saved && saved.id === id && Number.isInteger(saved.seq)) Object.assign(model, saved);
    } catch {
      // a damaged entry: start from a snapshot
    }
    return model;
  }

  save() {
    try {
      sessionStorage.setItem(PREFIX + this.id, JSON.stringify(this));
    } catch {
      // storage full or disabled: a reload will ask for a snapshot
    }
  }

  forget() {
    sessionStorage.removeItem(PREFIX + this.id);
  }

  get players() {
    return this.info ? this.info.config.players : this.view ? this.view.players : 2;
  }

  setPlay(message) {
    if ("view" in message && message.view !== undefined) this.view = message.view;
    if ("legal" in message) this.legal = message.legal ?? null;
    if ("clock" in message) this.clock = message.clock ?? null;
  }

  /** Apply one server message; returns what the screen should react to. */
  apply(message) {
    const effects = {};
    switch (message.type) {
      case "snapshot":
        this.lastAction = null;
        this.seq = message.seq;
        this.you = message.you;
        this.info = message.info;
        this.match = message.match;
        this.view = message.view;
        this.legal = message.legal;
        this.clock = message.clock;
        this.commitment = message.commitment;
        if (message.commitment && this.match && this.match.number) this.keep(this.match.number, { commitment: message.commitment });
        this.chat = message.chat || [];
        this.away = {};
        for (const seat of this.info.seats) {
          if (seat.away && !seat.substitute) this.away[seat.seat] = null;
        }
        if (this.match && this.match.ended && !this.final) {
          this.final = { totals: this.match.totals, winner: this.match.winner, ended: this.match.ended };
        }
        effects.full = true;
        break;
      case "synced":
        this.seq = message.seq;
        this.setPlay(message);
        effects.full = true;
        break;
      case "event":
        if (this.seq !== null && message.seq <= this.seq) return effects; // already seen
        this.seq = message.seq;
        this.event(message, effects);
        break;
      default:
        break;
    }
    return effects;
  }

  event(message, effects) {
    const info = this.info;
    if (message.seats && info) info.seats = message.seats;
    switch (message.kind) {
      case "seats":
        break;
      case "started":
        if (info) {
          info.status = "playing";
          info.match_no = message.match_no;
        }
        this.match = {
          match_no: message.match_no,
          number: 0,
          totals: [0, 0],
          scores: [],
          target: info ? info.config.target : null,
          smazzate: info ? info.config.smazzate : null,
          ended: null,
          winner: null,
        };
        this.final = null;
        this.sheet = null;
        this.kept = {};
        this.fair = {};
        this.log = [];
        this.logSeq = (this.logSeq || 0) + 1;
        this.pushLog({ kind: "started" });
        break;
      case "shuffle":
        // Before the deal: the server's commitment to its secret and each seat's to its seed,
        // kept to check the reveal; this seat's page answers with its seed (play.js).
        this.keep(message.number, { secretCommitment: message.secret_commitment, seedCommitments: message.seed_commitments });
        effects.shuffle = message;
        break;
      case "dealt":
        if (this.match) this.match.number = message.number;
        this.commitment = message.commitment;
        this.keep(message.number, { commitment: message.commitment });
        this.setPlay(message);
        this.lastAction = null;
        this.pushLog({ kind: "dealt", number: message.number, first: message.first });
        effects.dealt = true;
        break;
      case "resumed":
        if (this.match) this.match.number = message.number;
        this.setPlay(message);
        this.pushLog({ kind: "resumed" });
        break;
      case "action":
        this.setPlay(message);
        // The turn just played (or being played) is lit on the felt: a seat's actions add up
        // until another seat acts, so the opponent's melds stay lit with its discard.
        if (this.lastAction && this.lastAction.seat === message.seat) {
          this.lastAction = { seat: message.seat, events: [...this.lastAction.events, ...(message.events || [])] };
        } else this.lastAction = { seat: message.seat, events: message.events || [] };
        this.pushLog({
          kind: "action",
          seat: message.seat,
          action: message.action,
          auto: message.auto,
          events: message.events,
        });
        effects.action = message;
        break;
      case "smazzata_end":
        if (this.match) {
          this.match.scores = [...(this.match.scores || []), message.score];
          this.match.totals = message.totals;
        }
        {
          const number = message.score.number;
          const fair = checkReveal(this.kept[number], message.reveal);
          this.fair[number] = fair;
          this.sheet = {
            score: message.score,
            totals: message.totals,
            reveal: message.reveal,
            fair,
            hands: message.hands || null,
            nextDealAt: message.next_deal_at || null,
          };
          this.pushLog({ kind: "smazzata_end", number });
          this.pushLog({ kind: "fair", number, status: fair.status });
          effects.sheet = true;
          effects.fair = { number, status: fair.status };
        }
        break;
      case "match_end":
        if (info) info.status = "finished";
        if (this.match) {
          this.match.ended = message.ended;
          this.match.winner = message.winner;
          this.match.totals = message.totals;
        }
        this.final = {
          totals: message.totals,
          winner: message.winner,
          ended: message.ended,
          mp: message.mp,
          vp: message.vp,
          technical: message.technical,
          rating: message.rating || null, // a rated table's changes (docs/ratings.md)
        };
        this.legal = null;
        this.pushLog({ kind: "match_end" });
        effects.final = true;
        break;
      case "timeout":
        this.pushLog({ kind: "timeout", seat: message.seat });
        break;
      case "away":
        // What comes at the deadline: a bot, a forfeit, or nothing (the table waits for him).
        this.away[message.seat] = { deadline: message.deadline, then: message.then || "bot" };
        this.pushLog({ kind: "away", seat: message.seat });
        effects.away = true;
        break;
      case "substitute":
        delete this.away[message.seat];
        this.pushLog({ kind: "substitute", seat: message.seat });
        break;
      case "back":
        delete this.away[message.seat];
        this.pushLog({ kind: "back", seat: message.seat });
        break;
      case "chat":
        this.chat = [...this.chat, { name: message.name, text: message.text, at: message.at, seat: message.seat, seq: message.seq }].slice(-100);
        effects.chat = true;
        break;
      case "cancelled":
        if (info) info.status = "cancelled";
        break;
      case "rematch":
        if (info) {
          info.status = "open";
          info.match_no = message.match_no;
        }
        this.final = null;
        this.sheet = null;
        this.view = null;
        this.legal = null;
        this.clock = null;
        break;
      default:
        break;
    }
  }

  /** Keep what arrived before a smazzata's first card; the first one kept stands (a later
   * snapshot cannot change a commitment this page already holds). */
  keep(number, fields) {
    if (!Number.isInteger(number)) return;
    const kept = this.kept[number] || {};
    for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null && !(key in kept)) kept[key] = value;
    this.kept = { ...this.kept, [number]: kept };
  }

  pushLog(entry) {
    // logSeq grows forever: the log is capped at LOG_SIZE, so its length stops changing and
    // cannot tell the side panel that a new entry arrived (issue 15, defect 2).
    this.logSeq = (this.logSeq || 0) + 1;
    this.log = [...this.log, entry].slice(-LOG_SIZE);
  }
}

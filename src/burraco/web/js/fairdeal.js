// Deals the browser checks itself (docs/protocol.md, "Fair deals"): the same functions as the
// server's src/burraco/engine/fairness.py, on the same texts, tested against it on fixed vectors
// (tests/web/test_fairdeal_js.py).
//
// SHA-256 is computed here in plain JavaScript, synchronously, rather than with crypto.subtle:
// crypto.subtle exists only in secure contexts (https, localhost), and a server played on a LAN
// over plain http would otherwise check nothing. Hashing a deck (a few hundred bytes) and the
// shuffle's stream (a few dozen blocks) takes well under a millisecond.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 of a byte array (Uint8Array): the 32-byte digest. */
export function sha256Bytes(data) {
  const length = data.length;
  const blocks = Math.ceil((length + 9) / 64);
  const buffer = new Uint8Array(blocks * 64);
  buffer.set(data);
  buffer[length] = 0x80;
  const bits = length * 8;
  const view = new DataView(buffer.buffer);
  view.setUint32(buffer.length - 8, Math.floor(bits / 0x100000000));
  view.setUint32(buffer.length - 4, bits >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  for (let block = 0; block < blocks; block++) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block * 64 + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15], b = w[i - 2];
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + s1 + ch + K[i] + w[i]) >>> 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (s0 + maj) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0;
      d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]);
  return out;
}

export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** SHA-256 of a text (UTF-8), in lowercase hex. */
export function sha256Hex(text) {
  return toHex(sha256Bytes(new TextEncoder().encode(text)));
}

/** The deck's commitment: sha256(DECK + " " + SALT). */
export function commitmentOf(deck, salt) {
  return sha256Hex(`${deck} ${salt}`);
}

/** A secret's or a seed's commitment: the SHA-256 of its hex text. */
export function hexCommitment(value) {
  return sha256Hex(value);
}

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/** The ruleset's standard deck in the engine's fixed order: AC AC 2C 2C ... KS KS, then jokers. */
export function standardDeck(jokers) {
  const deck = [];
  for (const suit of "CDHS") for (const rank of RANKS) deck.push(rank + suit, rank + suit);
  for (let i = 0; i < jokers; i++) deck.push("JK");
  return deck;
}

/** The deck the server's secret and the seats' seeds decide (engine/fairness.py's seeded_deck:
 * Fisher-Yates from the last place down, driven by SHA-256 in counter mode). `seeds` by seat,
 * "" or null for a missing seed. Returns the cards top first. */
export function seededDeck(secret, seeds, jokers) {
  const words = ["burraco-deck/1", secret, ...seeds.map((s) => s || "-")];
  const key = sha256Bytes(new TextEncoder().encode(words.join(" ")));
  const input = new Uint8Array(36);
  input.set(key);
  const inputView = new DataView(input.buffer);
  let counter = 0;
  let block = null;
  let at = 8;
  const next = () => {
    if (at === 8) {
      inputView.setUint32(32, counter++);
      block = new DataView(sha256Bytes(input).buffer);
      at = 0;
    }
    return block.getUint32(4 * at++);
  };
  const deck = standardDeck(jokers);
  for (let i = deck.length - 1; i > 0; i--) {
    const n = i + 1;
    const limit = 0x100000000 - (0x100000000 % n);
    let w = next();
    while (w >= limit) w = next();
    const r = w % n;
    [deck[i], deck[r]] = [deck[r], deck[i]];
  }
  return deck;
}

/** A fresh random seed (32 bytes, hex) and its commitment. crypto.getRandomValues exists in
 * every context, secure or not. */
export function newSeed() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  const seed = toHex(bytes);
  return { seed, commitment: hexCommitment(seed) };
}

/** Check a smazzata's reveal against what this browser kept before its first card:
 * `kept = {commitment, secretCommitment?, seedCommitments?, mySeat?, mySeed?}`. Returns
 * `{status, problems, missing, ownMissing}` (ownMissing: this page revealed its seed and the
 * deal went without it, too late): status "verified", "tampered" (problems lists the checks that
 * failed, as catalog keys) or "unchecked" (nothing was kept: this page came after the deal). */
export function checkReveal(kept, reveal) {
  if (!kept || !kept.commitment || !reveal) return { status: "unchecked", problems: [], missing: [] };
  // A same-cards tournament's table: the deck is revealed with the round, on the tournament's
  // page (the other tables play the same cards); nothing to check here yet, nothing wrong.
  if (reveal.deck === null && reveal.salt === null && reveal.commitment === kept.commitment) {
    return { status: "later", problems: [], missing: [] };
  }
  const problems = [];
  const deck = String(reveal.deck || "");
  const salt = String(reveal.salt || "");
  if (reveal.commitment !== kept.commitment) problems.push("commitment_changed");
  if (commitmentOf(deck, salt) !== kept.commitment) problems.push("deck_commitment");
  const missing = [];
  let ownMissing = false;
  if (reveal.seeds) {
    const seeds = reveal.seeds;
    const sealed = reveal.seed_commitments || [];
    // The secret's commitment as received in `shuffle` (or, for a page that came later, as
    // revealed): S must give it, and the reveal must not have changed it.
    const secretBefore = kept.secretCommitment || reveal.secret_commitment;
    if (hexCommitment(salt) !== secretBefore || (reveal.secret_commitment || secretBefore) !== secretBefore) problems.push("secret_commitment");
    seeds.forEach((seed, seat) => {
      const before = kept.seedCommitments ? kept.seedCommitments[seat] : sealed[seat];
      if ((before || null) !== (sealed[seat] || null)) problems.push("seed_commitment");
      if (!seed) missing.push(seat);
      else if (!before || hexCommitment(seed) !== before) problems.push("seed_commitment");
    });
    if (kept.mySeed && kept.mySeat !== null && kept.mySeat !== undefined) {
      const mine = seeds[kept.mySeat];
      if (mine && mine !== kept.mySeed) problems.push("own_seed");
      if (!mine) ownMissing = true;
    }
    if (reveal.derived) {
      const cards = deck.split(" ");
      const jokers = cards.filter((c) => c === "JK").length;
      if (seededDeck(salt, seeds, jokers).join(" ") !== deck) problems.push("seeded_deck");
    }
  }
  return { status: problems.length ? "tampered" : "verified", problems: [...new Set(problems)], missing, ownMissing };
}

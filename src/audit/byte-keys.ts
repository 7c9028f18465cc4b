// A hash table keyed by bytes read in place: a tag and up to four ranges of a line's bytes (ASCII),
// compared as they are, without making a string of them. PURE: no IO.
//
// `policy replay` decides a request once per distinct request: its decisions are found by the bytes
// the request is read from (a protocol and a resource, or an HTTP request's method, host, port and
// path). Equal bytes are equal values (JSON gives one value to one spelling), so an entry found by
// bytes is the entry of the same request; two spellings of one value (an escape) are two entries
// holding the same answer. A key is checked byte for byte, never trusted to its hash.
//
// Laid out for a table larger than the processor's caches (a replay of many distinct requests): a
// slot holds its key's hash beside its record, and a record holds its caller's numbers (DATA words)
// beside its key, so that a lookup reads two places of memory.

/** Keys longer than this (their ranges' bytes together) are not taken: the caller keeps to strings. */
export const MAX_KEY_BYTES = 4096;
/** The numbers a record holds for its caller (`data`, `setData`). */
export const DATA = 2;

const EMPTY = new Uint8Array(0);
/** A record: DATA words, the tag, the four ranges' lengths, then their bytes (to a word's end). */
const HEAD = DATA + 5;

/** A multiplicative mix of one word into a hash (murmur's constant). */
const mix = (h: number, w: number): number => {
  const x = Math.imul(h ^ w, 0x5bd1e995);
  return x ^ (x >>> 13);
};

export class ByteKeys {
  /** Two words a slot: the key's hash and 1 + its record's first word (0: empty). Linear probing. */
  private slots = new Int32Array(2048);
  private mask = 1023;
  private count = 0;
  /** The records, one after another; `words` and `arena` are views of one buffer. */
  private words = new Int32Array(1 << 14);
  private arena = new Uint8Array(this.words.buffer);
  private arenaView = new DataView(this.words.buffer);
  /** Words of `words` in use. */
  private used = 0;
  /** The line's bytes and a view of them (made again only for other bytes). */
  private bytes: Uint8Array = EMPTY;
  private view: DataView = new DataView(EMPTY.buffer);
  /** The slot a `find` that failed ended on, and its hash: where `add` puts the key. */
  private freeSlot = 0;
  private freeHash = 0;

  /**
   * `hashBits`: the bits of the hash kept (fewer than 32 only in tests: keys then share hashes, and
   * are told apart by their bytes alone).
   */
  constructor(hashBits = 32) {
    this.hashMask = hashBits >= 32 ? -1 : (1 << hashBits) - 1;
  }

  private readonly hashMask: number;

  get size(): number {
    return this.count;
  }

  /** Bytes the records take (their keys' and numbers'), for a caller bounding its memory. */
  get bytesUsed(): number {
    return this.used * 4;
  }

  clear(): void {
    this.slots.fill(0);
    this.count = 0;
    this.used = 0;
  }

  /** The caller's number i (< DATA) of a record; 0 until set. */
  data(record: number, i: number): number {
    return this.words[record + i]!;
  }

  setData(record: number, i: number, value: number): void {
    this.words[record + i] = value;
  }

  /**
   * The record of the key (tag; b[s0, e0), b[s1, e1), …: an unused range is (0, 0)), or -1. After
   * -1, `add` with the same key stores it.
   */
  find(
    tag: number,
    b: Uint8Array,
    s0: number,
    e0: number,
    s1: number,
    e1: number,
    s2: number,
    e2: number,
    s3: number,
    e3: number,
  ): number {
    if (b !== this.bytes) {
      this.bytes = b;
      this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    }
    const v = this.view;
    let h = mix(0x2545f491, tag);
    h = hashRange(b, v, s0, e0, h);
    h = hashRange(b, v, s1, e1, h);
    h = hashRange(b, v, s2, e2, h);
    h = hashRange(b, v, s3, e3, h);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h = (h ^ (h >>> 13)) & this.hashMask;
    const slots = this.slots;
    const w = this.words;
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const r = slots[slot * 2 + 1]! - 1;
      if (r < 0) {
        this.freeSlot = slot;
        this.freeHash = h;
        return -1;
      }
      if (slots[slot * 2] !== h) continue;
      const k = r + DATA;
      if (
        w[k] !== tag ||
        w[k + 1] !== e0 - s0 ||
        w[k + 2] !== e1 - s1 ||
        w[k + 3] !== e2 - s2 ||
        w[k + 4] !== e3 - s3
      )
        continue;
      let q = (r + HEAD) * 4;
      const a = this.arenaView;
      if (!sameBytes(b, v, s0, e0, this.arena, a, q)) continue;
      q += e0 - s0;
      if (!sameBytes(b, v, s1, e1, this.arena, a, q)) continue;
      q += e1 - s1;
      if (!sameBytes(b, v, s2, e2, this.arena, a, q)) continue;
      q += e2 - s2;
      if (!sameBytes(b, v, s3, e3, this.arena, a, q)) continue;
      return r;
    }
  }

  /** Stores the key a `find` just failed to find (same arguments); its record, its data all 0. */
  add(
    tag: number,
    b: Uint8Array,
    s0: number,
    e0: number,
    s1: number,
    e1: number,
    s2: number,
    e2: number,
    s3: number,
    e3: number,
  ): number {
    const keyBytes = e0 - s0 + (e1 - s1) + (e2 - s2) + (e3 - s3);
    const size = HEAD + ((keyBytes + 3) >> 2);
    if (this.used + size > this.words.length) {
      const grown = new Int32Array(Math.max(this.words.length * 2, this.used + size));
      grown.set(this.words.subarray(0, this.used));
      this.words = grown;
      this.arena = new Uint8Array(grown.buffer);
      this.arenaView = new DataView(grown.buffer);
    }
    const r = this.used;
    const w = this.words;
    for (let i = 0; i < DATA; i++) w[r + i] = 0;
    w[r + DATA] = tag;
    w[r + DATA + 1] = e0 - s0;
    w[r + DATA + 2] = e1 - s1;
    w[r + DATA + 3] = e2 - s2;
    w[r + DATA + 4] = e3 - s3;
    let q = (r + HEAD) * 4;
    this.arena.set(b.subarray(s0, e0), q);
    q += e0 - s0;
    this.arena.set(b.subarray(s1, e1), q);
    q += e1 - s1;
    this.arena.set(b.subarray(s2, e2), q);
    q += e2 - s2;
    this.arena.set(b.subarray(s3, e3), q);
    this.used = r + size;
    this.slots[this.freeSlot * 2] = this.freeHash;
    this.slots[this.freeSlot * 2 + 1] = r + 1;
    this.count++;
    // at most half full: past it, twice the slots
    if (this.count * 2 > this.mask + 1) this.grow();
    return r;
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = (this.mask << 1) | 1;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i + 1] === 0) continue;
      let slot = old[i]! & mask;
      while (slots[slot * 2 + 1] !== 0) slot = (slot + 1) & mask;
      slots[slot * 2] = old[i]!;
      slots[slot * 2 + 1] = old[i + 1]!;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** h with the range b[s, e) mixed in: its length, then its bytes four at a time. */
function hashRange(b: Uint8Array, v: DataView, s: number, e: number, h: number): number {
  h = mix(h, e - s);
  let p = s;
  for (; p + 4 <= e; p += 4) h = mix(h, v.getInt32(p, true));
  // the last one to three bytes, alone (a word would take bytes of the line outside the range)
  if (p < e) {
    let w = b[p]!;
    if (p + 1 < e) w |= b[p + 1]! << 8;
    if (p + 2 < e) w |= b[p + 2]! << 16;
    h = mix(h, w);
  }
  return h;
}

/** Whether b[s, e) equals the bytes at q of the arena. */
function sameBytes(
  b: Uint8Array,
  v: DataView,
  s: number,
  e: number,
  arena: Uint8Array,
  a: DataView,
  q: number,
): boolean {
  const n = e - s;
  let i = 0;
  for (; i + 4 <= n; i += 4) if (v.getInt32(s + i, true) !== a.getInt32(q + i, true)) return false;
  for (; i < n; i++) if (b[s + i] !== arena[q + i]) return false;
  return true;
}

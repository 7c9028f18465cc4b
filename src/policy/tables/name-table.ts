// The names of the network index: hostnames and `*.`/`**.` suffixes in one flat open-addressed
// table, a bit filter in front of it, and their entries per kind. Pure: no IO.
import { addRef, type Bucket, emitRef, FNV_OFFSET, FNV_PRIME, finish, type Hits } from './bucket.js';
import { charsOf, KeyFilter, overLoaded, placeInSlots, roomFor } from './flat-slots.js';

/**
 * Host names and `*.`/`**.` suffixes, flat: one open-addressed table keyed by a hash of the whole
 * name, which a lookup computes for every suffix of whole labels of the destination in one scan from
 * the right (no substring made). Only names that rules use are stored. Everything a lookup needs of
 * a name sits in one small record of `recs` (its length, the entries of the kinds it has, then its
 * characters a byte each), so a hit costs a table slot, a record and the result, each a load from
 * memory once the rule set outgrows the caches, instead of a chain of objects; and records and
 * slots are kept small, so that more of them stay in the caches.
 */
export class NameTable {
  count = 0;
  /**
   * Records: [length | kinds << 16, then a ref and a port per kind it has (exact, `*.`, `**.`, in
   * that order), then the characters, ASCII, a byte each]. A ref is an entry id (one entry, on
   * `port`, 0 for any) or -2 - i for `buckets[i]` (several entries). A record that outgrew its
   * kinds is copied to the end and marked DEAD.
   */
  recs = new Int32Array(4096);
  bytes = new Uint8Array(this.recs.buffer);
  used = 0;
  /** Per slot, 2 ints: the name's key, and its record's offset + 1 (0: empty). */
  table = new Int32Array(256);
  mask = 127;
  buckets: Bucket[] = [];
  /**
   * The keys of the names: most suffixes no rule names (a random host's whole name, the labels a
   * `**.` suffix took) are ruled out without a load from the table.
   */
  filter = new KeyFilter();

  /** The record of the name s[start, end) whose key is `key`, or -1. */
  find(key: number, s: Uint16Array, start: number, end: number): number {
    const table = this.table;
    const mask = this.mask;
    const len = end - start;
    for (let i = key & mask; ; i = (i + 1) & mask) {
      const v = table[2 * i + 1]!;
      if (v === 0) return -1;
      if (table[2 * i] !== key) continue;
      const r = v - 1;
      const head = this.recs[r]!;
      if ((head & 0xffff) !== len) continue;
      const bytes = this.bytes;
      const off = 4 * (r + 1 + 2 * pairsOf(head >>> 16));
      let j = 0;
      while (j < len && bytes[off + j] === s[start + j]) j++;
      if (j === len) return r;
    }
  }

  /** Adds entry `id` on `port` to `name` (ASCII, as rules' names are) for `kind` (EXACT, ONE or MANY). */
  add(name: string, kind: number, id: number, port: number): void {
    const text = charsOf(name);
    if (text.some((c) => c > 127))
      throw new Error(`a host name in a rule is not ASCII: ${JSON.stringify(name)}`);
    const key = nameKey(text, 0, text.length);
    let r = this.find(key, text, 0, text.length);
    if (r < 0) r = this.insert(key, text, 1 << kind);
    else if (((this.recs[r]! >>> 16) & (1 << kind)) === 0) r = this.withKind(key, r, kind);
    addRef(this.recs, pairAt(this.recs[r]!, r, kind), this.buckets, id, port);
  }

  /** Adds the entries of record `r` for `kind` that apply on `port`. */
  emit(r: number, kind: number, port: number, out: Hits): void {
    const head = this.recs[r]!;
    if (((head >>> 16) & (1 << kind)) !== 0)
      emitRef(this.recs, pairAt(head, r, kind), this.buckets, port, out);
  }

  /** A new record for `text` with the kinds `kinds` (no entries yet), under `key`. */
  private insert(key: number, text: Uint16Array, kinds: number): number {
    const r = this.append(text, kinds);
    this.count++;
    if (overLoaded(this.count, this.mask)) this.rehash();
    else this.place(key, r);
    this.filter.add(key);
    return r;
  }

  /** Record `r` copied with room for `kind` too; the copy takes r's slot, and r is marked DEAD. */
  private withKind(key: number, r: number, kind: number): number {
    const head = this.recs[r]!;
    const len = head & 0xffff;
    const kinds = head >>> 16;
    const off = 4 * (r + 1 + 2 * pairsOf(kinds));
    const copy = this.append(Uint16Array.from(this.bytes.subarray(off, off + len)), kinds | (1 << kind));
    const recs = this.recs;
    for (let k = 0; k < 3; k++) {
      if ((kinds & (1 << k)) === 0) continue;
      const from = pairAt(head, r, k);
      const to = pairAt(recs[copy]!, copy, k);
      recs[to] = recs[from]!;
      recs[to + 1] = recs[from + 1]!;
    }
    recs[r] = head | (DEAD << 16);
    const table = this.table;
    let i = key & this.mask;
    while (table[2 * i + 1] !== r + 1) i = (i + 1) & this.mask;
    table[2 * i + 1] = copy + 1;
    return copy;
  }

  /** Writes a record for `text` with the kinds `kinds` (no entries yet) at the end of `recs`. */
  private append(text: Uint16Array, kinds: number): number {
    const pairs = pairsOf(kinds);
    const size = 1 + 2 * pairs + ((text.length + 3) >> 2);
    const recs = roomFor(this.recs, this.used + size);
    if (recs !== this.recs) {
      this.recs = recs;
      this.bytes = new Uint8Array(recs.buffer);
    }
    const r = this.used;
    this.used += size;
    recs[r] = text.length | (kinds << 16);
    for (let k = 1; k <= 2 * pairs; k += 2) recs[r + k] = -1;
    this.bytes.set(text, 4 * (r + 1 + 2 * pairs));
    return r;
  }

  private place(key: number, r: number): void {
    placeInSlots(this.table, this.mask, key, r);
  }

  /** False when no name has the key `key` (true: maybe one has). */
  maybe(key: number): boolean {
    return this.filter.maybe(key);
  }

  /** Places every live record again, in a table twice as large. */
  private rehash(): void {
    const size = (this.mask + 1) * 2;
    this.table = new Int32Array(2 * size);
    this.mask = size - 1;
    this.filter.resize(size);
    for (let r = 0; r < this.used; ) {
      const head = this.recs[r]!;
      const len = head & 0xffff;
      const off = 4 * (r + 1 + 2 * pairsOf(head >>> 16));
      if (((head >>> 16) & DEAD) === 0) {
        const key = nameKey(this.bytes, off, off + len);
        this.place(key, r);
        this.filter.add(key);
      }
      r = (off >> 2) + ((len + 3) >> 2);
    }
  }
}

export const EXACT = 0;
export const ONE = 1;
export const MANY = 2;
/** A kinds bit: the record was copied (withKind) and no slot points to it. */
const DEAD = 8;

/** How many (ref, port) pairs a record of these kinds has. */
function pairsOf(kinds: number): number {
  return (kinds & 1) + ((kinds >> 1) & 1) + ((kinds >> 2) & 1);
}

/** Where the pair of `kind` is in record `r` whose head is `head` (the kind is in it). */
function pairAt(head: number, r: number, kind: number): number {
  return r + 1 + 2 * pairsOf((head >>> 16) & ((1 << kind) - 1));
}

/** The key of s[start, end): FNV-1a read from the right (the order a lookup scans a host in). */
function nameKey(s: Uint8Array | Uint16Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = end - 1; i >= start; i--) h = Math.imul(h ^ s[i]!, FNV_PRIME);
  return finish(h);
}

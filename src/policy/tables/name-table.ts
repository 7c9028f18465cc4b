// The names of the network index: hostnames and `*.`/`**.` suffixes in one flat open-addressed
// table, a bit filter in front of it, and their entries per kind. Pure: no IO.
import { addRef, type Bucket, emitRef, FNV_OFFSET, FNV_PRIME, finish, type Hits } from './bucket.js';
import { placeInSlots, roomFor } from './flat-slots.js';

/**
 * Host names and `*.`/`**.` suffixes, flat: one open-addressed table keyed by a hash of the whole
 * name, which a lookup computes for every suffix of whole labels of the destination in one scan from
 * the right (no substring made). Only names that rules use are stored. Everything a lookup needs of
 * a name sits in one record of `recs` (its length, its entries, then its characters), so a hit costs
 * a table slot, a record and the result, each a load from memory once the rule set outgrows the
 * caches, instead of a chain of objects.
 */
export class NameTable {
  count = 0;
  /**
   * Records: [length, then per kind (exact, `*.`, `**.`) a ref and a port, then the characters two
   * to an int]. A ref is -1 (none), an entry id (one entry, on `port`, 0 for any), or -2 - i for
   * `buckets[i]` (several entries).
   */
  recs = new Int32Array(4096);
  chars = new Uint16Array(this.recs.buffer);
  used = 0;
  /** Per slot, 2 ints: the name's key, and its record's offset + 1 (0: empty). */
  table = new Int32Array(256);
  mask = 127;
  buckets: Bucket[] = [];
  /**
   * One bit per name, at bits of its key that pick no slot: small enough to stay in the CPU's
   * caches, so that most suffixes no rule names (a random host's whole name, the labels a `**.`
   * suffix took) are ruled out without a load from the table. 16 bits per slot, at most 32 KiB.
   */
  filter = new Int32Array(32);
  filterShift = 22;

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
      if (this.recs[r] !== len) continue;
      const chars = this.chars;
      const off = 2 * (r + REC_CHARS);
      let j = 0;
      while (j < len && chars[off + j] === s[start + j]) j++;
      if (j === len) return r;
    }
  }

  /** Adds entry `id` on `port` to `name` for `kind` (EXACT, ONE or MANY). */
  add(name: string, kind: number, id: number, port: number): void {
    const text = Uint16Array.from(name, (ch) => ch.charCodeAt(0));
    const key = nameKey(text, 0, text.length);
    let r = this.find(key, text, 0, text.length);
    if (r < 0) r = this.insert(key, name);
    addRef(this.recs, r + 1 + 2 * kind, this.buckets, id, port);
  }

  /** Adds the entries of record `r` for `kind` that apply on `port`. */
  emit(r: number, kind: number, port: number, out: Hits): void {
    emitRef(this.recs, r + 1 + 2 * kind, this.buckets, port, out);
  }

  private insert(key: number, name: string): number {
    const size = REC_CHARS + ((name.length + 1) >> 1);
    const recs = roomFor(this.recs, this.used + size);
    if (recs !== this.recs) {
      this.recs = recs;
      this.chars = new Uint16Array(recs.buffer);
    }
    const r = this.used;
    this.used += size;
    this.recs[r] = name.length;
    for (let k = 1; k < REC_CHARS; k += 2) this.recs[r + k] = -1;
    const off = 2 * (r + REC_CHARS);
    for (let i = 0; i < name.length; i++) this.chars[off + i] = name.charCodeAt(i);
    this.count++;
    if (this.count * 2 > this.mask + 1) this.rehash();
    else this.place(key, r);
    this.mark(key);
    return r;
  }

  private place(key: number, r: number): void {
    placeInSlots(this.table, this.mask, key, r);
  }

  /** False when no name has the key `key` (true: maybe one has). */
  maybe(key: number): boolean {
    const bit = key >>> this.filterShift;
    return (this.filter[bit >>> 5]! & (1 << (bit & 31))) !== 0;
  }

  private mark(key: number): void {
    const bit = key >>> this.filterShift;
    const f = this.filter;
    f[bit >>> 5] = f[bit >>> 5]! | (1 << (bit & 31));
  }

  private rehash(): void {
    const size = (this.mask + 1) * 2;
    this.table = new Int32Array(2 * size);
    this.mask = size - 1;
    const bits = Math.min(size * 16, 1 << 18);
    this.filter = new Int32Array(bits >>> 5);
    this.filterShift = 32 - Math.log2(bits);
    for (let r = 0; r < this.used; r += REC_CHARS + ((this.recs[r]! + 1) >> 1)) {
      const off = 2 * (r + REC_CHARS);
      let h = FNV_OFFSET;
      for (let i = off + this.recs[r]! - 1; i >= off; i--) h = Math.imul(h ^ this.chars[i]!, FNV_PRIME);
      const key = finish(h);
      this.place(key, r);
      this.mark(key);
    }
  }
}

export const EXACT = 0;
export const ONE = 1;
export const MANY = 2;
/** Where a record's characters start: after its length and three (ref, port) pairs. */
const REC_CHARS = 7;

/** The key of s[start, end): FNV-1a read from the right (the order a lookup scans a host in). */
function nameKey(s: Uint16Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = end - 1; i >= start; i--) h = Math.imul(h ^ s[i]!, FNV_PRIME);
  return finish(h);
}

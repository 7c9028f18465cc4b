// The literal edges of a path index's trie (path-index.ts), flat, and the hashes that key them.
// Pure: no IO.
import { FNV_OFFSET, FNV_PRIME, finish } from './bucket.js';
import { KeyFilter, overLoaded, placeInSlots, roomFor } from './flat-slots.js';

/**
 * Literal edges of the trie, flat: one open-addressed table keyed by a hash of (parent, segment),
 * records of [parent, child, length, then the characters two to an int] in one Int32Array. Thousands
 * of rules under one directory cost a slot and a record per step, not a Map's chain of objects.
 */
export class EdgeTable {
  count = 0;
  recs = new Int32Array(1024);
  chars = new Uint16Array(this.recs.buffer);
  used = 0;
  /** Per slot, 2 ints: the edge's key, and its record's offset + 1 (0: empty). */
  table = new Int32Array(256);
  mask = 127;
  /**
   * The keys of the edges: a step that takes no edge (under a `**` with many literal children, say)
   * mostly costs no load from the table.
   */
  filter = new KeyFilter();

  /** The child of `parent` through the segment c[s, s + len) whose key is `key`, or -1. */
  find(key: number, parent: number, c: Uint16Array, s: number, len: number): number {
    if (!this.filter.maybe(key)) return -1;
    const table = this.table;
    const mask = this.mask;
    for (let i = key & mask; ; i = (i + 1) & mask) {
      const v = table[2 * i + 1]!;
      if (v === 0) return -1;
      if (table[2 * i] !== key) continue;
      const r = v - 1;
      const recs = this.recs;
      if (recs[r] !== parent || recs[r + 2] !== len) continue;
      const chars = this.chars;
      const off = 2 * (r + 3);
      let j = 0;
      while (j < len && chars[off + j] === c[s + j]) j++;
      if (j === len) return recs[r + 1]!;
    }
  }

  /** Adds the edge from `parent` through the segment `text` (its key `key`) to `child`. */
  insert(key: number, parent: number, text: Uint16Array, child: number): void {
    const size = 3 + ((text.length + 1) >> 1);
    const recs = roomFor(this.recs, this.used + size);
    if (recs !== this.recs) {
      this.recs = recs;
      this.chars = new Uint16Array(recs.buffer);
    }
    const r = this.used;
    this.used += size;
    this.recs[r] = parent;
    this.recs[r + 1] = child;
    this.recs[r + 2] = text.length;
    this.chars.set(text, 2 * (r + 3));
    this.count++;
    if (overLoaded(this.count, this.mask)) this.rehash();
    else this.place(key, r);
    this.filter.add(key);
  }

  private place(key: number, r: number): void {
    placeInSlots(this.table, this.mask, key, r);
  }

  private rehash(): void {
    const size = (this.mask + 1) * 2;
    this.table = new Int32Array(2 * size);
    this.mask = size - 1;
    this.filter.resize(size);
    for (let r = 0; r < this.used; r += 3 + ((this.recs[r + 2]! + 1) >> 1)) {
      const off = 2 * (r + 3);
      const h = segmentHash(this.chars, off, off + this.recs[r + 2]!);
      const key = edgeKey(h, this.recs[r]!);
      this.place(key, r);
      this.filter.add(key);
    }
  }
}

/** The hash of the segment c[s, e) (FNV-1a), computed once per segment of a request. */
export function segmentHash(c: Uint16Array, s: number, e: number): number {
  let h = FNV_OFFSET;
  for (let i = s; i < e; i++) h = Math.imul(h ^ c[i]!, FNV_PRIME);
  return h;
}

/** The key of the edge from `parent` through a segment whose hash is `h`. */
export function edgeKey(h: number, parent: number): number {
  return finish(h ^ Math.imul(parent + 1, 0x9e3779b1));
}

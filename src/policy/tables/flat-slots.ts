// What the flat tables of the indexes (name-table.ts, edge-table.ts, path-index.ts) share when built:
// records appended to one growing Int32Array, and open-addressed slots of (key, record + 1) pairs.
// Lookups stay in each table, written for its own kind of key. Pure: no IO.

/** A string's UTF-16 code units, as the tables store and compare them. */
export function charsOf(text: string): Uint16Array {
  const c = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) c[i] = text.charCodeAt(i);
  return c;
}

/** `recs`, or a copy at least twice as large when `need` ints do not fit in it. */
export function roomFor(recs: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  if (need <= recs.length) return recs;
  const grown = new Int32Array(Math.max(recs.length * 2, need));
  grown.set(recs);
  return grown;
}

/**
 * True when `count` keys overfill a table of mask + 1 slots: past two thirds. Linear probing stays
 * short at that load (a probe's next slots are mostly in the same cache line), and the slots take a
 * third less memory than at half, so more of them stay in the caches.
 */
export function overLoaded(count: number, mask: number): boolean {
  return count * 3 > (mask + 1) * 2;
}

/** Puts record `r` under `key` in the first free slot from `key & mask` (linear probing). */
export function placeInSlots(table: Int32Array, mask: number, key: number, r: number): void {
  let i = key & mask;
  while (table[2 * i + 1] !== 0) i = (i + 1) & mask;
  table[2 * i] = key;
  table[2 * i + 1] = r + 1;
}

/**
 * One bit per key, at bits of the key that pick no slot: small enough to stay in the CPU's caches,
 * so that most keys a table does not hold are ruled out without a load from its slots. 16 bits per
 * slot, at most 32 KiB.
 */
export class KeyFilter {
  bits = new Int32Array(32);
  shift = 22;

  /** False when no key added is `key` (true: maybe one is). */
  maybe(key: number): boolean {
    const bit = key >>> this.shift;
    return (this.bits[bit >>> 5]! & (1 << (bit & 31))) !== 0;
  }

  add(key: number): void {
    const bit = key >>> this.shift;
    const f = this.bits;
    f[bit >>> 5] = f[bit >>> 5]! | (1 << (bit & 31));
  }

  /** Empties the filter, sized for a table of `slots` slots; the caller adds every key again. */
  resize(slots: number): void {
    const bits = Math.min(slots * 16, 1 << 18);
    this.bits = new Int32Array(bits >>> 5);
    this.shift = 32 - Math.log2(bits);
  }
}

// What the flat tables of the indexes (name-table.ts, edge-table.ts, path-index.ts) share when built:
// records appended to one growing Int32Array, and open-addressed slots of (key, record + 1) pairs.
// Lookups stay in each table, written for its own kind of key. Pure: no IO.

/** `recs`, or a copy at least twice as large when `need` ints do not fit in it. */
export function roomFor(recs: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  if (need <= recs.length) return recs;
  const grown = new Int32Array(Math.max(recs.length * 2, need));
  grown.set(recs);
  return grown;
}

/** Puts record `r` under `key` in the first free slot from `key & mask` (linear probing). */
export function placeInSlots(table: Int32Array, mask: number, key: number, r: number): void {
  let i = key & mask;
  while (table[2 * i + 1] !== 0) i = (i + 1) & mask;
  table[2 * i] = key;
  table[2 * i + 1] = r + 1;
}

// The entries of one index key, and the hash of index keys, shared by the network and path
// indexes. Lookups collect entry ids (their `seq`) into a reusable buffer: ints, so that a lookup
// loads no entry object at all and the common single match goes straight to its shared result.
// Pure: no IO.

/** The ids of the entries a lookup matched, in a buffer reused from request to request. */
export class Hits {
  ids = new Int32Array(64);
  n = 0;

  push(id: number): void {
    if (this.n === this.ids.length) {
      const grown = new Int32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.n++] = id;
  }
}

/** Entry ids of one index key, split by port (port 0: any port). */
export class Bucket {
  any: number[] = [];
  ports: Map<number, number[]> | null = null;

  add(id: number, port: number): void {
    if (port === 0) {
      this.any.push(id);
      return;
    }
    this.ports ??= new Map();
    const list = this.ports.get(port);
    if (list) list.push(id);
    else this.ports.set(port, [id]);
  }
}

/** Adds the ids of `b` that apply on `port`. */
export function collect(b: Bucket, port: number, out: Hits): void {
  const any = b.any;
  for (let i = 0; i < any.length; i++) out.push(any[i]!);
  if (b.ports !== null) {
    const list = b.ports.get(port);
    if (list !== undefined) for (let i = 0; i < list.length; i++) out.push(list[i]!);
  }
}

/**
 * The entries of one key kept in a flat table as a ref and a port, side by side at refs[at] and
 * refs[at + 1]: a ref is -1 (none), an entry id (one entry, on that port, 0 for any), or -2 - i
 * for `buckets[i]` (several entries). Adds entry `id` on `port`.
 */
export function addRef(refs: Int32Array, at: number, buckets: Bucket[], id: number, port: number): void {
  const ref = refs[at]!;
  if (ref === -1) {
    refs[at] = id;
    refs[at + 1] = port;
    return;
  }
  if (ref >= 0) {
    const b = new Bucket();
    b.add(ref, refs[at + 1]!);
    refs[at] = -2 - buckets.length;
    buckets.push(b);
  }
  buckets[-2 - refs[at]!]!.add(id, port);
}

/** Adds the ids of the ref at refs[at] (see addRef) that apply on `port`. */
export function emitRef(
  refs: Int32Array,
  at: number,
  buckets: readonly Bucket[],
  port: number,
  out: Hits,
): void {
  const ref = refs[at]!;
  if (ref >= 0) {
    const p = refs[at + 1]!;
    if (p === 0 || p === port) out.push(ref);
  } else if (ref !== -1) collect(buckets[-2 - ref]!, port, out);
}

/** FNV-1a, the hash of the names and path segments the indexes look up. */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

/** Mixes the high bits of a hash into the low ones, which pick an index's slot. */
export function finish(h: number): number {
  let k = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  k ^= k >>> 13;
  return k | 0;
}

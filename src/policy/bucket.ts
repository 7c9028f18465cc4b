// The entries of one index key, and the hash of index keys, shared by the network and path
// indexes. Lookups collect entry ids (their `seq`) into a reusable buffer: ints, so that a lookup
// loads no entry object at all and the common single match goes straight to its shared result.
// Pure: no IO.

import type { MatchedRule } from './compile.js';
import type { NetworkPattern } from './network.js';
import type { FilesystemPattern } from './path.js';

/** One resource of one rule, as compiled. `seq` is its id: its position in the compiled set. */
export interface Entry {
  readonly seq: number;
  readonly ruleKey: number;
  readonly deny: boolean;
  readonly out: MatchedRule;
  readonly net: NetworkPattern | null;
  readonly fs: FilesystemPattern | null;
}

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

/** FNV-1a, the hash of the names and path segments the indexes look up. */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

/** Mixes the high bits of a hash into the low ones, which pick an index's slot. */
export function finish(h: number): number {
  let k = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  k ^= k >>> 13;
  return k | 0;
}

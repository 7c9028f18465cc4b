// The entries of one index key, shared by the network and path indexes. Pure: no IO.

import type { EvalResult, MatchedRule } from './engine.js';
import type { NetworkPattern } from './network.js';
import type { FilesystemPattern } from './path.js';

/** One resource of one rule, as compiled. */
export interface Entry {
  readonly seq: number;
  readonly ruleKey: number;
  readonly deny: boolean;
  readonly out: MatchedRule;
  readonly net: NetworkPattern | null;
  readonly fs: FilesystemPattern | null;
  /** The frozen result when this entry alone decides (no allocation on the common path). */
  solo: EvalResult | null;
}

/** Entries of one index key, split by port (port 0: any port). */
export class Bucket {
  /** The single any-port entry, when there is exactly one (saves a load on the hot path). */
  only: Entry | null = null;
  any: Entry[] = [];
  ports: Map<number, Entry[]> | null = null;

  add(e: Entry, port: number): void {
    if (port === 0) {
      this.any.push(e);
      this.only = this.any.length === 1 ? e : null;
      return;
    }
    this.ports ??= new Map();
    const list = this.ports.get(port);
    if (list) list.push(e);
    else this.ports.set(port, [e]);
  }
}

/** Appends the entries of `b` that apply on `port`. */
export function collect(b: Bucket, port: number, out: Entry[]): void {
  if (b.only !== null) out.push(b.only);
  else {
    const any = b.any;
    for (let i = 0; i < any.length; i++) out.push(any[i]!);
  }
  if (b.ports !== null) {
    const list = b.ports.get(port);
    if (list !== undefined) for (let i = 0; i < list.length; i++) out.push(list[i]!);
  }
}

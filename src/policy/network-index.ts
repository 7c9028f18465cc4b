// The network index of one action: hostnames and `*.`/`**.` suffixes in one flat hash table keyed
// by the whole name (a lookup hashes every suffix of the destination in one scan from the right),
// `**` in one bucket, IPv4 CIDRs in one Map per prefix length, IPv6 CIDRs in a binary trie. A lookup
// costs O(length of the destination), whatever the number of rules. Pure: no IO.
import { Bucket, collect, type Entry } from './bucket.js';
import type { NetworkPattern } from './network.js';
import type { NetworkDestination } from './network-destination.js';

/**
 * Host names and `*.`/`**.` suffixes, flat: one open-addressed table keyed by a hash of the whole
 * name, which a lookup computes for every suffix of whole labels of the destination in one scan from
 * the right (no substring made). Only names that rules use are stored, so a lookup probes a small
 * table once per label and compares characters only on a hash match: a few cache lines per request,
 * whatever the number of rules.
 */
class NameTable {
  count = 0;
  /** Per name, 3 ints: offset of its text in `chars`, its length, flags (EXACT|ONE|MANY). */
  names: Int32Array = new Int32Array(192);
  chars = new Uint16Array(1024);
  charCount = 0;
  /** Per slot, 2 ints: the name's key, and name id + 1 (0: empty). */
  table: Int32Array = new Int32Array(256);
  mask = 127;
  /** Per name, 3 buckets: exact, one, many. */
  buckets: (Bucket | null)[] = [];

  /** The id of the name s[start, end) whose key is `key`, or -1. */
  find(key: number, s: string, start: number, end: number): number {
    const table = this.table;
    const mask = this.mask;
    const len = end - start;
    for (let i = key & mask; ; i = (i + 1) & mask) {
      const v = table[2 * i + 1]!;
      if (v === 0) return -1;
      if (table[2 * i] !== key) continue;
      const n = v - 1;
      const names = this.names;
      if (names[3 * n + 1] !== len) continue;
      const chars = this.chars;
      const off = names[3 * n]!;
      let j = 0;
      while (j < len && chars[off + j] === s.charCodeAt(start + j)) j++;
      if (j === len) return n;
    }
  }

  /** The bucket of `name` for `kind` (EXACT, ONE or MANY), created as needed. */
  bucket(name: string, kind: number): Bucket {
    const key = nameKey(name, 0, name.length);
    let n = this.find(key, name, 0, name.length);
    if (n < 0) n = this.insert(key, name);
    const at = 3 * n + (kind === EXACT ? 0 : kind === ONE ? 1 : 2);
    let b = this.buckets[at];
    if (b == null) {
      b = new Bucket();
      this.buckets[at] = b;
      this.names[3 * n + 2]! |= kind;
    }
    return b;
  }

  private insert(key: number, name: string): number {
    const n = this.count++;
    if (3 * n + 3 > this.names.length) {
      const a = new Int32Array(this.names.length * 2);
      a.set(this.names);
      this.names = a;
    }
    if (this.charCount + name.length > this.chars.length) {
      const c = new Uint16Array(Math.max(this.chars.length * 2, this.charCount + name.length));
      c.set(this.chars);
      this.chars = c;
    }
    for (let i = 0; i < name.length; i++) this.chars[this.charCount + i] = name.charCodeAt(i);
    this.names[3 * n] = this.charCount;
    this.names[3 * n + 1] = name.length;
    this.charCount += name.length;
    this.buckets.push(null, null, null);
    if (this.count * 2 > this.mask + 1) this.rehash();
    else this.place(key, n);
    return n;
  }

  private place(key: number, n: number): void {
    const mask = this.mask;
    let i = key & mask;
    while (this.table[2 * i + 1] !== 0) i = (i + 1) & mask;
    this.table[2 * i] = key;
    this.table[2 * i + 1] = n + 1;
  }

  private rehash(): void {
    const size = (this.mask + 1) * 2;
    this.table = new Int32Array(2 * size);
    this.mask = size - 1;
    const names = this.names;
    for (let n = 0; n < this.count; n++) {
      const off = names[3 * n]!;
      let h = FNV_OFFSET;
      for (let i = off + names[3 * n + 1]! - 1; i >= off; i--) h = Math.imul(h ^ this.chars[i]!, FNV_PRIME);
      this.place(finish(h), n);
    }
  }
}

const EXACT = 1;
const ONE = 2;
const MANY = 4;

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** The key of s[start, end): FNV-1a read from the right (the order a lookup scans a host in). */
function nameKey(s: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = end - 1; i >= start; i--) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return finish(h);
}

/** Mixes the high bits of a hash into the low ones, which pick the slot. */
function finish(h: number): number {
  let k = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  k ^= k >>> 13;
  return k | 0;
}

class BitNode {
  zero: BitNode | null = null;
  one: BitNode | null = null;
  bucket: Bucket | null = null;
}

function bitChild(n: BitNode, bit: number): BitNode {
  if (bit === 0) {
    n.zero ??= new BitNode();
    return n.zero;
  }
  n.one ??= new BitNode();
  return n.one;
}

export class NetworkIndex {
  private readonly names = new NameTable();
  anyHost: Bucket | null = null;
  /** IPv4 CIDRs: one Map per prefix length in use, keyed by the prefix's bits (as an int32). */
  private v4Lengths: number[] = [];
  private v4Maps: Map<number, Bucket>[] = [];
  readonly v6 = new BitNode();
  hasV6 = false;

  add(p: NetworkPattern, e: Entry): void {
    switch (p.kind) {
      case 'host': {
        this.names.bucket(p.host, EXACT).add(e, p.port);
        return;
      }
      case 'any':
        this.anyHost ??= new Bucket();
        this.anyHost.add(e, p.port);
        return;
      case 'one':
      case 'many': {
        this.names.bucket(p.suffix, p.kind === 'one' ? ONE : MANY).add(e, p.port);
        return;
      }
      case 'cidr': {
        if (p.family === 4) {
          let k = this.v4Lengths.indexOf(p.prefix);
          if (k < 0) {
            this.v4Lengths.push(p.prefix);
            this.v4Maps.push(new Map());
            k = this.v4Lengths.length - 1;
          }
          const map = this.v4Maps[k]!;
          const key = v4Key(p.v4, p.prefix);
          let b = map.get(key);
          if (b === undefined) {
            b = new Bucket();
            map.set(key, b);
          }
          b.add(e, p.port);
          return;
        }
        this.hasV6 = true;
        let node = this.v6;
        const g = p.v6!;
        for (let i = 0; i < p.prefix; i++) node = bitChild(node, (g[i >>> 4]! >>> (15 - (i & 15))) & 1);
        node.bucket ??= new Bucket();
        node.bucket.add(e, p.port);
        return;
      }
    }
  }

  lookup(d: NetworkDestination, out: Entry[]): void {
    const port = d.port;
    if (this.anyHost !== null) collect(this.anyHost, port, out);
    const family = d.family;
    if (family === 0) {
      this.lookupName(d.host, port, out);
      return;
    }
    if (family === 4) {
      const lengths = this.v4Lengths;
      const v = d.v4;
      for (let i = 0; i < lengths.length; i++) {
        const b = this.v4Maps[i]!.get(v4Key(v, lengths[i]!));
        if (b !== undefined) collect(b, port, out);
      }
      return;
    }
    if (!this.hasV6) return;
    let node: BitNode | null = this.v6;
    const g = d.v6!;
    for (let i = 0; node !== null; i++) {
      if (node.bucket !== null) collect(node.bucket, port, out);
      if (i === 128) break;
      node = ((g[i >>> 4]! >>> (15 - (i & 15))) & 1) === 0 ? node.zero : node.one;
    }
  }

  /** Probes the name table with every suffix of whole labels of `h`, the longest last. */
  private lookupName(h: string, port: number, out: Entry[]): void {
    const t = this.names;
    if (t.count === 0) return;
    const end = h.length;
    let firstDot = -1;
    let hash = FNV_OFFSET;
    for (let i = end - 1; ; i--) {
      const c = i < 0 ? 46 : h.charCodeAt(i);
      if (c === 46) {
        const n = t.find(finish(hash), h, i + 1, end);
        if (n >= 0) {
          const flags = t.names[3 * n + 2]!;
          if (i < 0) {
            // the host itself
            if ((flags & EXACT) !== 0) collect(t.buckets[3 * n]!, port, out);
            return;
          }
          // a suffix h[i + 1 …]; at least one label remains before it
          if ((flags & MANY) !== 0) collect(t.buckets[3 * n + 2]!, port, out);
          if ((flags & ONE) !== 0) {
            if (firstDot < 0) firstDot = h.indexOf('.');
            if (i === firstDot) collect(t.buckets[3 * n + 1]!, port, out);
          }
        }
        if (i < 0) return;
      }
      hash = Math.imul(hash ^ c, FNV_PRIME);
    }
  }
}

/** The bits of a /`prefix` of an IPv4 address, as an int32 (a small integer for V8). */
function v4Key(v4: number, prefix: number): number {
  return prefix === 0 ? 0 : (v4 >>> (32 - prefix)) | 0;
}

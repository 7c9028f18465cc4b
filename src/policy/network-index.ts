// The network index of one action: hostnames and `*.`/`**.` suffixes in one flat hash table keyed
// by the whole name (name-table.ts; a lookup hashes every suffix of the destination in one scan from
// the right), `**` in one bucket, IPv4 CIDRs in one flat table per prefix length (v4-table.ts),
// IPv6 CIDRs in a binary trie. A lookup costs O(length of the destination), whatever the number of
// rules. Pure: no IO.

import { Ascii } from './ascii.js';
import type { NetworkPattern } from './network.js';
import {
  DOTTED_QUAD,
  type HostScratch,
  loadHostChars,
  type NetworkDestination,
  scannedEnd,
  scannedPort,
  v4OfHostChars,
} from './network-destination.js';
import { Bucket, collect, FNV_OFFSET, FNV_PRIME, finish, type Hits } from './tables/bucket.js';
import { EXACT, MANY, NameTable, ONE } from './tables/name-table.js';
import { V4Table } from './tables/v4-table.js';

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
  /** IPv4 CIDRs: one table per prefix length in use, keyed by the prefix's bits (as an int32). */
  private v4Lengths: number[] = [];
  private v4Tables: V4Table[] = [];
  readonly v6 = new BitNode();
  hasV6 = false;

  /** Adds entry `id` for the pattern `p`. */
  add(p: NetworkPattern, id: number): void {
    switch (p.kind) {
      case 'host': {
        this.names.add(p.host, EXACT, id, p.port);
        return;
      }
      case 'any':
        this.anyHost ??= new Bucket();
        this.anyHost.add(id, p.port);
        return;
      case 'one':
      case 'many': {
        this.names.add(p.suffix, p.kind === 'one' ? ONE : MANY, id, p.port);
        return;
      }
      case 'cidr': {
        if (p.family === 4) {
          let k = this.v4Lengths.indexOf(p.prefix);
          if (k < 0) {
            this.v4Lengths.push(p.prefix);
            this.v4Tables.push(new V4Table());
            k = this.v4Lengths.length - 1;
          }
          this.v4Tables[k]!.add(v4Key(p.v4, p.prefix), id, p.port);
          return;
        }
        this.hasV6 = true;
        let node = this.v6;
        const g = p.v6!;
        for (let i = 0; i < p.prefix; i++) node = bitChild(node, (g[i >>> 4]! >>> (15 - (i & 15))) & 1);
        node.bucket ??= new Bucket();
        node.bucket.add(id, p.port);
        return;
      }
    }
  }

  /** The entries matching `d` into `out`; a hostname is read in `s` (the caller's scratch). */
  lookup(d: NetworkDestination, s: HostScratch, out: Hits): void {
    const port = d.port;
    if (this.anyHost !== null) collect(this.anyHost, port, out);
    const family = d.family;
    if (family === 0) {
      // a valid host fits; what does not fit cannot be the name of any rule
      if (loadHostChars(s.chars, d.host)) this.lookupName(s.chars, d.host.length, port, out);
      return;
    }
    if (family === 4) {
      this.lookupV4(d.v4, port, out);
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

  /** The CIDRs that contain the IPv4 address `v4` (its 32 bits, signed or not) and apply on `port`. */
  private lookupV4(v4: number, port: number, out: Hits): void {
    const lengths = this.v4Lengths;
    for (let i = 0; i < lengths.length; i++) this.v4Tables[i]!.emit(v4Key(v4, lengths[i]!), port, out);
  }

  /**
   * The lookup of s.chars[0, n), scanned by scanHostChars: a hostname, or an IPv4 address read in
   * place. False, having looked nothing up, for any other form (the general parser's).
   */
  lookupChars(scanned: number, n: number, s: HostScratch, out: Hits): boolean {
    if (scanned >= 0) {
      this.lookupHost(s.chars, scannedEnd(scanned), scannedPort(scanned), out);
      return true;
    }
    if (scanned !== DOTTED_QUAD || !v4OfHostChars(s, n)) return false;
    const read = s.v4Read;
    const port = read[1]!;
    if (this.anyHost !== null) collect(this.anyHost, port, out);
    this.lookupV4(read[0]!, port, out);
    return true;
  }

  /** The lookup of the hostname chars[0, end) on `port` (see scanHostChars). */
  lookupHost(chars: Uint16Array, end: number, port: number, out: Hits): void {
    if (this.anyHost !== null) collect(this.anyHost, port, out);
    this.lookupName(chars, end, port, out);
  }

  /** Probes the name table with every suffix of whole labels of chars[0, end), the longest last. */
  private lookupName(chars: Uint16Array, end: number, port: number, out: Hits): void {
    const t = this.names;
    if (t.count === 0) return;
    const h = chars;
    let firstDot = -1;
    let hash = FNV_OFFSET;
    for (let i = end - 1; ; i--) {
      const c = i < 0 ? Ascii.Dot : h[i]!;
      if (c === Ascii.Dot) {
        const key = finish(hash);
        const r = t.maybe(key) ? t.find(key, h, i + 1, end) : -1;
        if (r >= 0) {
          if (i < 0) {
            // the host itself
            t.emit(r, EXACT, port, out);
            return;
          }
          // a suffix h[i + 1 …]; at least one label remains before it
          t.emit(r, MANY, port, out);
          if (firstDot < 0) {
            // h[i] is a dot, so the search stops at i at the latest
            firstDot = 0;
            while (h[firstDot] !== Ascii.Dot) firstDot++;
          }
          if (i === firstDot) t.emit(r, ONE, port, out);
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

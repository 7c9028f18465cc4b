// The network index of one action: hostnames and `*.`/`**.` suffixes in one label trie read from
// the last label, `**` in one bucket, CIDRs in binary tries for IPv4 and IPv6. A lookup costs
// O(length of the destination), whatever the number of rules. Pure: no IO.
import { Bucket, collect, type Entry } from './bucket.js';
import type { NetworkPattern } from './network.js';
import type { NetworkDestination } from './network-destination.js';

/**
 * A node of the label trie: one per suffix of whole labels, read from the right (`com`, then
 * `example.com`, …). Children are found by a hash of the label computed over the destination's own
 * characters, then checked character by character: no substring is made on the hot path.
 */
class LabelNode {
  readonly label: string;
  /** Another child of the same parent whose label has the same hash. */
  sibling: LabelNode | null = null;
  next: Map<number, LabelNode> | null = null;
  /** The host itself (`example.com`, any or one port). */
  exact: Bucket | null = null;
  /** `*.<suffix>`: one more label. */
  one: Bucket | null = null;
  /** `**.<suffix>`: one or more labels. */
  many: Bucket | null = null;
  constructor(label: string) {
    this.label = label;
  }
}

/** FNV-1a of s[start, end), folded to 30 bits so that it stays a small integer. */
function labelHash(s: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 2;
}

function childOf(node: LabelNode, s: string, start: number, end: number): LabelNode | null {
  if (node.next === null) return null;
  let c = node.next.get(labelHash(s, start, end)) ?? null;
  const len = end - start;
  while (c !== null) {
    const label = c.label;
    if (label.length === len) {
      let i = 0;
      while (i < len && label.charCodeAt(i) === s.charCodeAt(start + i)) i++;
      if (i === len) return c;
    }
    c = c.sibling;
  }
  return null;
}

function addChild(node: LabelNode, label: string): LabelNode {
  const found = childOf(node, label, 0, label.length);
  if (found !== null) return found;
  const child = new LabelNode(label);
  node.next ??= new Map();
  const key = labelHash(label, 0, label.length);
  child.sibling = node.next.get(key) ?? null;
  node.next.set(key, child);
  return child;
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
  readonly names = new LabelNode('');
  anyHost: Bucket | null = null;
  readonly v4 = new BitNode();
  readonly v6 = new BitNode();
  hasV4 = false;
  hasV6 = false;

  add(p: NetworkPattern, e: Entry): void {
    switch (p.kind) {
      case 'host': {
        const node = this.nameNode(p.host);
        node.exact ??= new Bucket();
        node.exact.add(e, p.port);
        return;
      }
      case 'any':
        this.anyHost ??= new Bucket();
        this.anyHost.add(e, p.port);
        return;
      case 'one':
      case 'many': {
        const node = this.nameNode(p.suffix);
        if (p.kind === 'one') {
          node.one ??= new Bucket();
          node.one.add(e, p.port);
        } else {
          node.many ??= new Bucket();
          node.many.add(e, p.port);
        }
        return;
      }
      case 'cidr': {
        let node: BitNode;
        if (p.family === 4) {
          this.hasV4 = true;
          node = this.v4;
          for (let i = 0; i < p.prefix; i++) node = bitChild(node, (p.v4 >>> (31 - i)) & 1);
        } else {
          this.hasV6 = true;
          node = this.v6;
          const g = p.v6!;
          for (let i = 0; i < p.prefix; i++) node = bitChild(node, (g[i >>> 4]! >>> (15 - (i & 15))) & 1);
        }
        node.bucket ??= new Bucket();
        node.bucket.add(e, p.port);
        return;
      }
    }
  }

  /** The trie node of a name, created as needed. */
  private nameNode(name: string): LabelNode {
    let node = this.names;
    const labels = name.split('.');
    for (let i = labels.length - 1; i >= 0; i--) node = addChild(node, labels[i]!);
    return node;
  }

  lookup(d: NetworkDestination, out: Entry[]): void {
    const port = d.port;
    if (this.anyHost !== null) collect(this.anyHost, port, out);
    if (d.family === 0) {
      // Walk the label trie from the last label; stop at the first suffix no pattern names.
      const h = d.host;
      const firstDot = h.indexOf('.');
      let node: LabelNode | null = this.names;
      let end = h.length;
      for (;;) {
        const dot = h.lastIndexOf('.', end - 1);
        node = childOf(node, h, dot + 1, end);
        if (node === null) return;
        if (dot < 0) {
          // every label consumed: the host itself
          if (node.exact !== null) collect(node.exact, port, out);
          return;
        }
        // node is the suffix h[dot + 1 …]; at least one label remains before it
        if (node.many !== null) collect(node.many, port, out);
        if (node.one !== null && dot === firstDot) collect(node.one, port, out);
        end = dot;
      }
    }
    if (d.family === 4) {
      if (!this.hasV4) return;
      let node: BitNode | null = this.v4;
      const v = d.v4;
      for (let i = 0; node !== null; i++) {
        if (node.bucket !== null) collect(node.bucket, port, out);
        if (i === 32) break;
        node = ((v >>> (31 - i)) & 1) === 0 ? node.zero : node.one;
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
}

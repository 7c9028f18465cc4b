// The path index of one action: rule paths in a segment trie walked as a small NFA over the
// request's segments. Nodes are ints; a node's literal children sit in one flat hash table keyed by
// (node, segment), `*` segments are matchers, `**` is a node that loops. No regular expression is
// built from user input. Pure: no IO.

import { Ascii } from './ascii.js';
import type { FilesystemPattern, PathSegment } from './path.js';
import { matchSegment } from './path-match.js';
import { Bucket, collect, type Hits } from './tables/bucket.js';
import { EdgeTable, edgeKey, segmentHash } from './tables/edge-table.js';
import { charsOf, roomFor } from './tables/flat-slots.js';

/** c[s, e) as a string (for a `*` matcher, which reads strings). */
function textOf(c: Uint16Array, s: number, e: number): string {
  let out = '';
  for (let i = s; i < e; i++) out += String.fromCharCode(c[i]!);
  return out;
}

/** A node's record in `FilesystemIndex.nodes`: its flags, `**` child, entries and walk mark. */
const NODE = 4;
const FLAGS = 0;
const GLOBSTAR = 1;
const END = 2;
const MARK = 3;
/** Flags: entered through `**` (it may take any further segments itself). */
const LOOPS = 1;
/** Flags: it has literal children (in `edges`). */
const HAS_LIT = 2;
/** Flags: it has `*` children (in `globs`). */
const HAS_GLOBS = 4;

export class FilesystemIndex {
  private readonly edges = new EdgeTable();
  /**
   * Per node, NODE ints side by side (one load from memory per node a walk visits, once the rule
   * set outgrows the caches): its flags, the node reached through a `**` segment or -1, the entries
   * of the paths that end there, and the step of the walk that last added it (no node twice in one
   * step). Entries are -1 (none), an entry id (one entry, the common case: no object to load), or
   * -2 - i for `buckets[i]`.
   */
  private nodes: Int32Array<ArrayBuffer> = new Int32Array(16 * NODE);
  private count = 0;
  private readonly globs: ({ seg: PathSegment; node: number }[] | null)[] = [];
  private readonly buckets: Bucket[] = [];
  private gen = 0;
  private readonly absolute = this.node(false);
  private readonly home = this.node(false);
  private cur: number[] = [];
  private nxt: number[] = [];

  private node(loops: boolean): number {
    const n = this.count++;
    this.nodes = roomFor(this.nodes, this.count * NODE);
    const at = n * NODE;
    this.nodes[at + FLAGS] = loops ? LOOPS : 0;
    this.nodes[at + GLOBSTAR] = -1;
    this.nodes[at + END] = -1;
    this.nodes[at + MARK] = 0;
    this.globs.push(null);
    return n;
  }

  /** Adds entry `id` for the pattern `p`. */
  add(p: FilesystemPattern, id: number): void {
    let node = p.home ? this.home : this.absolute;
    for (const seg of p.segments) {
      if (seg.kind === 'lit') {
        const text = charsOf(seg.text);
        const key = edgeKey(segmentHash(text, 0, text.length), node);
        let child = this.edges.find(key, node, text, 0, text.length);
        if (child < 0) {
          child = this.node(false);
          this.edges.insert(key, node, text, child);
          this.nodes[node * NODE + FLAGS]! |= HAS_LIT;
        }
        node = child;
      } else if (seg.kind === 'glob') {
        const list = this.globs[node] ?? [];
        this.globs[node] = list;
        this.nodes[node * NODE + FLAGS]! |= HAS_GLOBS;
        let g = list.find((x) => x.seg.text === seg.text);
        if (!g) {
          g = { seg, node: this.node(false) };
          list.push(g);
        }
        node = g.node;
      } else {
        if (this.nodes[node * NODE + GLOBSTAR]! < 0) {
          const child = this.node(true);
          this.nodes[node * NODE + GLOBSTAR] = child;
        }
        node = this.nodes[node * NODE + GLOBSTAR]!;
      }
    }
    const at = node * NODE + END;
    const ref = this.nodes[at]!;
    if (ref === -1) {
      this.nodes[at] = id;
      return;
    }
    if (ref >= 0) {
      const b = new Bucket();
      b.add(ref, 0);
      this.nodes[at] = -2 - this.buckets.length;
      this.buckets.push(b);
    }
    this.buckets[-2 - this.nodes[at]!]!.add(id, 0);
  }

  private push(list: number[], n: number): void {
    const nodes = this.nodes;
    const at = n * NODE;
    if (nodes[at + MARK] === this.gen) return;
    nodes[at + MARK] = this.gen;
    list.push(n);
    const g = nodes[at + GLOBSTAR]!;
    if (g >= 0) this.push(list, g);
  }

  /** A new step of the walk; marks restart before the counter could wrap around to an old one. */
  private step(): void {
    if (this.gen === 0x7fffffff) {
      for (let at = MARK; at < this.nodes.length; at += NODE) this.nodes[at] = 0;
      this.gen = 0;
    }
    this.gen++;
  }

  /**
   * The entries of the path whose segments are c[from, end) (a path in normal form, its root already
   * read: `home` for `~/`; from === end for the root alone), after the segments of `prefix` if any
   * (home's, `home/me`, for the absolute spelling of a `~/` path). No string is made but for a
   * segment a `*` matcher reads.
   */
  lookup(
    home: boolean,
    prefix: Uint16Array | null,
    c: Uint16Array,
    from: number,
    end: number,
    out: Hits,
  ): void {
    const cur = this.cur;
    while (cur.length > 0) cur.pop();
    this.step();
    this.push(cur, home ? this.home : this.absolute);
    if (prefix !== null) this.walk(prefix, 0, prefix.length);
    this.walk(c, from, end);
    this.ends(out);
  }

  /** Steps through each segment of c[from, end) (none when from === end) while any node is left. */
  private walk(c: Uint16Array, from: number, end: number): void {
    let s = from;
    while (s < end && this.cur.length > 0) {
      let e = s;
      while (e < end && c[e] !== Ascii.Slash) e++;
      this.stepThrough(c, s, e);
      s = e + 1;
    }
  }

  /** One step of the walk through the segment c[s, e). */
  private stepThrough(c: Uint16Array, s: number, e: number): void {
    const cur = this.cur;
    const nxt = this.nxt;
    const h = segmentHash(c, s, e);
    let text: string | null = null;
    this.step();
    while (nxt.length > 0) nxt.pop();
    for (let i = 0; i < cur.length; i++) {
      const n = cur[i]!;
      const flags = this.nodes[n * NODE + FLAGS]!;
      if ((flags & LOOPS) !== 0) this.push(nxt, n);
      if ((flags & HAS_LIT) !== 0) {
        const child = this.edges.find(edgeKey(h, n), n, c, s, e - s);
        if (child >= 0) this.push(nxt, child);
      }
      if ((flags & HAS_GLOBS) !== 0) {
        text ??= textOf(c, s, e);
        for (const g of this.globs[n]!) if (matchSegment(g.seg, text)) this.push(nxt, g.node);
      }
    }
    this.cur = nxt;
    this.nxt = cur;
  }

  /** The entries of the paths that end at the walk's nodes. */
  private ends(out: Hits): void {
    const cur = this.cur;
    for (let i = 0; i < cur.length; i++) {
      const ref = this.nodes[cur[i]! * NODE + END]!;
      if (ref >= 0) out.push(ref);
      else if (ref !== -1) collect(this.buckets[-2 - ref]!, 0, out);
    }
  }
}

// The path index of one action: rule paths in a segment trie (literal segments in a Map, `*`
// segments as matchers, `**` as a node that loops), walked as a small NFA over the request's
// segments. No regular expression is built from user input. Pure: no IO.
import { Bucket, collect, type Hits } from './bucket.js';
import {
  type FilesystemDestination,
  type FilesystemPattern,
  matchSegment,
  type PathSegment,
} from './path.js';

class PathNode {
  lit: Map<string, PathNode> | null = null;
  globs: { seg: PathSegment; node: PathNode }[] | null = null;
  /** The node reached through a `**` segment. */
  globstar: PathNode | null = null;
  /** True for a node entered through `**`: it may take any further segments itself. */
  readonly loops: boolean;
  end: Bucket | null = null;
  mark = 0;
  constructor(loops: boolean) {
    this.loops = loops;
  }
}

export class FilesystemIndex {
  readonly absolute = new PathNode(false);
  readonly home = new PathNode(false);
  private gen = 0;
  private cur: PathNode[] = [];
  private nxt: PathNode[] = [];

  /** Adds entry `id` for the pattern `p`. */
  add(p: FilesystemPattern, id: number): void {
    let node = p.home ? this.home : this.absolute;
    for (const seg of p.segments) {
      if (seg.kind === 'lit') {
        node.lit ??= new Map();
        let child = node.lit.get(seg.text);
        if (!child) {
          child = new PathNode(false);
          node.lit.set(seg.text, child);
        }
        node = child;
      } else if (seg.kind === 'glob') {
        node.globs ??= [];
        let g = node.globs.find((x) => x.seg.text === seg.text);
        if (!g) {
          g = { seg, node: new PathNode(false) };
          node.globs.push(g);
        }
        node = g.node;
      } else {
        node.globstar ??= new PathNode(true);
        node = node.globstar;
      }
    }
    node.end ??= new Bucket();
    node.end.add(id, 0);
  }

  private push(list: PathNode[], n: PathNode): void {
    if (n.mark === this.gen) return;
    n.mark = this.gen;
    list.push(n);
    if (n.globstar !== null) this.push(list, n.globstar);
  }

  lookup(d: FilesystemDestination, out: Hits): void {
    let cur = this.cur;
    let nxt = this.nxt;
    while (cur.length > 0) cur.pop();
    this.gen++;
    this.push(cur, d.home ? this.home : this.absolute);
    const segs = d.segments;
    for (let k = 0; k < segs.length && cur.length > 0; k++) {
      const s = segs[k]!;
      this.gen++;
      while (nxt.length > 0) nxt.pop();
      for (let i = 0; i < cur.length; i++) {
        const n = cur[i]!;
        if (n.loops) this.push(nxt, n);
        if (n.lit !== null) {
          const c = n.lit.get(s);
          if (c !== undefined) this.push(nxt, c);
        }
        if (n.globs !== null) {
          for (const g of n.globs) if (matchSegment(g.seg, s)) this.push(nxt, g.node);
        }
      }
      const t = cur;
      cur = nxt;
      nxt = t;
    }
    for (let i = 0; i < cur.length; i++) {
      const b = cur[i]!.end;
      if (b !== null) collect(b, 0, out);
    }
    this.cur = cur;
    this.nxt = nxt;
  }
}

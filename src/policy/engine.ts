// The compiled evaluator (decisions §4). Rules are compiled per action into indexes: hostnames
// and `*.`/`**.` suffixes in one label trie read from the last label (children found by a hash of
// the label, no substrings made), CIDRs in binary tries for IPv4 and IPv6, path globs in a segment
// trie walked as a small NFA. A decision costs O(length of the destination), not O(number of
// rules), and allocates nothing beyond the parsed destination when one rule decides. Pure: no IO.
import { ValidationError } from '../errors.js';
import type { PolicyDoc } from './document.js';
import { type Decision, type Domain, domainOfAction, KNOWN_ACTIONS } from './model.js';
import {
  type NetworkDestination,
  type NetworkPattern,
  parseNetworkDestination,
  parseNetworkResource,
} from './network.js';
import {
  describePathMatch,
  type FilesystemDestination,
  type FilesystemPattern,
  matchSegment,
  type PathSegment,
  parseFilesystemDestination,
  parseFilesystemResource,
} from './path.js';

export interface MatchedRule {
  policy: string;
  rule: string;
  resource: string;
  decision: Decision;
  /** With `explain`: which resource form matched which part of the destination. */
  why?: string;
}

export interface NotEvaluated {
  policy: string;
  rule?: string;
  reason: string;
}

export interface EvalResult {
  decision: Decision;
  reason: string;
  /** The deciding rules (one line per rule); with `explain`, every matching resource of every rule. */
  matched: MatchedRule[];
  /** Policies and rules hubctl could not evaluate; they never match. */
  notEvaluated: NotEvaluated[];
}

export interface EvaluateOptions {
  explain?: boolean;
}

export const NO_MATCH_REASON = 'no rule matched: denied by default';

interface Entry {
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
class Bucket {
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

function collect(b: Bucket, port: number, out: Entry[]): void {
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

class NetworkIndex {
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

class FilesystemIndex {
  readonly absolute = new PathNode(false);
  readonly home = new PathNode(false);
  private gen = 0;
  private cur: PathNode[] = [];
  private nxt: PathNode[] = [];

  add(p: FilesystemPattern, e: Entry): void {
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
    node.end.add(e, 0);
  }

  private push(list: PathNode[], n: PathNode): void {
    if (n.mark === this.gen) return;
    n.mark = this.gen;
    list.push(n);
    if (n.globstar !== null) this.push(list, n.globstar);
  }

  lookup(d: FilesystemDestination, out: Entry[]): void {
    let cur = this.cur;
    let nxt = this.nxt;
    cur.length = 0;
    this.gen++;
    this.push(cur, d.home ? this.home : this.absolute);
    const segs = d.segments;
    for (let k = 0; k < segs.length && cur.length > 0; k++) {
      const s = segs[k]!;
      this.gen++;
      nxt.length = 0;
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

export interface CompiledPolicySet {
  readonly policies: readonly PolicyDoc[];
  readonly notEvaluated: readonly NotEvaluated[];
  /** Number of rules compiled into the indexes. */
  readonly ruleCount: number;
  /** @internal */
  readonly network: ReadonlyMap<string, NetworkIndex>;
  /** @internal */
  readonly filesystem: ReadonlyMap<string, FilesystemIndex>;
  /** @internal */
  readonly noMatch: EvalResult;
  /** @internal the indexes of the four actions, picked by string comparison (no hashing) */
  readonly tcp: NetworkIndex;
  /** @internal */
  readonly udp: NetworkIndex;
  /** @internal */
  readonly read: FilesystemIndex;
  /** @internal */
  readonly write: FilesystemIndex;
}

/**
 * Compiles policies (already validated documents) into per-action indexes. Policies and rules that
 * are not evaluated are listed in `notEvaluated` and never match.
 */
export function compilePolicies(policies: readonly PolicyDoc[]): CompiledPolicySet {
  const network = new Map<string, NetworkIndex>();
  const filesystem = new Map<string, FilesystemIndex>();
  for (const a of KNOWN_ACTIONS.network) network.set(a, new NetworkIndex());
  for (const a of KNOWN_ACTIONS.filesystem) filesystem.set(a, new FilesystemIndex());
  const notEvaluated: NotEvaluated[] = [];
  let seq = 0;
  let ruleKey = 0;
  let ruleCount = 0;
  for (const p of policies) {
    if (p.notEvaluated) {
      notEvaluated.push(Object.freeze({ policy: p.name, reason: p.notEvaluated }));
      continue;
    }
    for (const r of p.rules) {
      ruleKey++;
      if (r.notEvaluated) {
        notEvaluated.push(Object.freeze({ policy: p.name, rule: r.name, reason: r.notEvaluated }));
        continue;
      }
      if (r.decision !== 'allow' && r.decision !== 'deny') {
        throw new ValidationError(
          `rule "${r.name}" of policy "${p.name}": decision must be "allow" or "deny"`,
        );
      }
      ruleCount++;
      const decision: Decision = r.decision;
      for (const resource of r.resources) {
        const domain = domainOfAction(r.actions[0] ?? '');
        const net = domain === 'network' ? parseNetworkResource(resource) : null;
        const fs = domain === 'filesystem' ? parseFilesystemResource(resource) : null;
        const out = Object.freeze({ policy: p.name, rule: r.name, resource, decision });
        const e: Entry = { seq: seq++, ruleKey, deny: decision === 'deny', out, net, fs, solo: null };
        e.solo = shared({
          decision,
          reason: reasonOf(e.deny, [out]),
          matched: Object.freeze([out]) as unknown as MatchedRule[],
          notEvaluated: notEvaluated as NotEvaluated[],
        });
        for (const a of new Set(r.actions)) {
          if (net) network.get(a)?.add(net, e);
          else if (fs) filesystem.get(a)?.add(fs, e);
        }
      }
    }
  }
  const frozenNE = Object.freeze(notEvaluated) as NotEvaluated[];
  const noMatch = shared({
    decision: 'deny',
    reason: NO_MATCH_REASON,
    matched: Object.freeze([]) as unknown as MatchedRule[],
    notEvaluated: frozenNE,
  });
  return {
    policies,
    notEvaluated: frozenNE,
    ruleCount,
    network,
    filesystem,
    noMatch,
    tcp: network.get('connect:tcp')!,
    udp: network.get('connect:udp')!,
    read: filesystem.get('read')!,
    write: filesystem.get('write')!,
  };
}

const DECISION_JSON: unique symbol = Symbol('decisionJson');

function renderDecisionJson(r: EvalResult): string {
  return `"decision":"${r.decision}","reason":${JSON.stringify(r.reason)},"matched":${JSON.stringify(r.matched)}`;
}

/** A result shared by every request it decides: frozen, with its JSON rendered once. */
function shared(r: EvalResult): EvalResult {
  Object.defineProperty(r, DECISION_JSON, { value: renderDecisionJson(r), enumerable: false });
  return Object.freeze(r);
}

/**
 * `"decision":…,"reason":…,"matched":[…]`: the JSON members of a result (no braces), for writers of
 * one JSON object a line. Rendered once for the shared results of the common cases.
 */
export function decisionJson(r: EvalResult): string {
  return (r as EvalResult & { [DECISION_JSON]?: string })[DECISION_JSON] ?? renderDecisionJson(r);
}

const ALLOWED = `${KNOWN_ACTIONS.network.join(', ')}, ${KNOWN_ACTIONS.filesystem.join(', ')}`;

function unknownAction(action: string): ValidationError {
  return new ValidationError(`unknown action "${action}"; hubctl evaluates ${ALLOWED}`);
}

/** The domain whose destinations an action takes; throws ValidationError for an unknown action. */
export function domainForEvaluation(action: string): Domain {
  const d = domainOfAction(action);
  if (!d) throw unknownAction(action);
  return d;
}

const scratch: Entry[] = [];

/**
 * Decides one request (decisions §4): deny wins; an allow decides when no deny matches; no match
 * is a deny by default. Throws ValidationError for an unknown action or a malformed destination.
 */
export function evaluate(
  set: CompiledPolicySet,
  action: string,
  destination: string,
  opts?: EvaluateOptions,
): EvalResult {
  const out = scratch;
  out.length = 0;
  let nd: NetworkDestination | null = null;
  let fd: FilesystemDestination | null = null;
  const net = action === 'connect:tcp' ? set.tcp : action === 'connect:udp' ? set.udp : null;
  if (net !== null) {
    nd = parseNetworkDestination(destination);
    net.lookup(nd, out);
  } else {
    const fs = action === 'read' ? set.read : action === 'write' ? set.write : null;
    if (fs === null) throw unknownAction(action);
    fd = parseFilesystemDestination(destination);
    fs.lookup(fd, out);
  }
  const explain = opts !== undefined && opts.explain === true;
  if (out.length === 0) return explain ? { ...set.noMatch, matched: [] } : set.noMatch;
  if (out.length === 1 && !explain) {
    const e = out[0]!;
    return e.solo!;
  }
  sortBySeq(out);
  let deny = false;
  for (let i = 0; i < out.length; i++) if (out[i]!.deny) deny = true;
  const decision: Decision = deny ? 'deny' : 'allow';
  const matched: MatchedRule[] = [];
  let lastRule = -1;
  const deciding: MatchedRule[] = [];
  for (let i = 0; i < out.length; i++) {
    const e = out[i]!;
    const first = e.ruleKey !== lastRule;
    lastRule = e.ruleKey;
    if (e.deny === deny && first) deciding.push(e.out);
    if (explain) matched.push({ ...e.out, why: whyOf(e, nd, fd) });
  }
  return {
    decision,
    reason: reasonOf(deny, deciding),
    matched: explain ? matched : deciding,
    notEvaluated: set.notEvaluated as NotEvaluated[],
  };
}

function sortBySeq(a: Entry[]): void {
  for (let i = 1; i < a.length; i++) {
    const x = a[i]!;
    let j = i - 1;
    while (j >= 0 && a[j]!.seq > x.seq) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = x;
  }
}

function reasonOf(deny: boolean, deciding: readonly MatchedRule[]): string {
  const first = deciding[0]!;
  const more =
    deciding.length > 1 ? ` and ${deciding.length - 1} more rule${deciding.length > 2 ? 's' : ''}` : '';
  return `${deny ? 'denied' : 'allowed'} by rule "${first.rule}" of policy "${first.policy}"${more}`;
}

function portWhy(port: number, d: NetworkDestination): string {
  return port === 0 ? `any port (${d.port})` : `port ${port}`;
}

function whyOf(e: Entry, nd: NetworkDestination | null, fd: FilesystemDestination | null): string {
  if (e.net && nd) {
    const p = e.net;
    switch (p.kind) {
      case 'host':
        return `host ${nd.host} is exactly ${p.host}; ${portWhy(p.port, nd)}`;
      case 'any':
        return `"**" matches every host (${nd.host}); ${portWhy(p.port, nd)}`;
      case 'one': {
        const label = nd.host.slice(0, nd.host.length - p.suffix.length - 1);
        return `"*.${p.suffix}" matches one label ("${label}") below ${p.suffix}; ${portWhy(p.port, nd)}`;
      }
      case 'many': {
        const labels = nd.host.slice(0, nd.host.length - p.suffix.length - 1);
        const n = labels.split('.').length;
        return `"**.${p.suffix}" matches ${n} label${n > 1 ? 's' : ''} ("${labels}") below ${p.suffix}; ${portWhy(p.port, nd)}`;
      }
      case 'cidr': {
        const full = p.prefix === (p.family === 4 ? 32 : 128);
        const what = full
          ? `address ${nd.host} is exactly the rule's address`
          : `${p.canonical} contains ${nd.host}`;
        return `${what}; ${portWhy(p.port, nd)}`;
      }
    }
  }
  if (e.fs && fd) {
    const p = e.fs;
    if (p.literal) return `path ${fd.path} is exactly ${p.canonical}`;
    const took = describePathMatch(p, fd);
    return `pattern ${p.canonical} matches ${fd.path}${took ? `: ${took}` : ''}`;
  }
  return '';
}

/** Evaluates many requests against one set; convenience for tests and the bench. */
export function evaluateAll(
  set: CompiledPolicySet,
  requests: readonly { action: string; destination: string }[],
  opts?: EvaluateOptions,
): EvalResult[] {
  return requests.map((r) => evaluate(set, r.action, r.destination, opts));
}

// The compiled evaluator (decisions §4). Rules are compiled per action into indexes: hostnames
// and `*.`/`**.` suffixes in one flat hash table of whole names (every suffix of a destination
// hashed in one scan, no substrings made), IPv4 CIDRs in one map per prefix length, IPv6 CIDRs in a
// binary trie, path globs in a segment trie walked as a small NFA. A decision costs O(length of the
// destination), not O(number of rules), and allocates nothing beyond the parsed destination when
// one rule decides: the result is one shared by every request it decides (results.ts). Pure: no IO.
import { ValidationError } from '../errors.js';
import { type Entry, Hits } from './bucket.js';
import type { PolicyDoc } from './document.js';
import { type Decision, type Domain, domainOfAction, KNOWN_ACTIONS } from './model.js';
import { parseNetworkResource } from './network.js';
import {
  destinationOf,
  type NetworkDestination,
  parseNetworkDestination,
  scanDestination,
  scanHostChars,
} from './network-destination.js';
import { NetworkIndex } from './network-index.js';
import {
  type FilesystemDestination,
  homeAlias,
  homeSegmentsOf,
  homeTail,
  normalPathStart,
  parseFilesystemDestination,
  parseFilesystemResource,
} from './path.js';
import { FilesystemIndex } from './path-index.js';
import { pairResult, reasonOf, sharedResults } from './results.js';
import { whyOf } from './why.js';

export { decisionJson } from './results.js';

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
  /** @internal every compiled entry, by id (`seq`) */
  readonly entries: readonly Entry[];
  /** @internal shared results by code (see `decide`): entry i deciding alone, then no match */
  readonly results: readonly EvalResult[];
  /** @internal the batch line tails of the codes, back to back (see SharedResults) */
  readonly tails: Uint8Array;
  /** @internal */
  readonly tailAt: Int32Array;
  /** @internal */
  readonly denies: Uint8Array;
  /** @internal results of two matching entries, by their sequence numbers */
  readonly pairs: Map<number, EvalResult>;
  /** @internal the indexes of the four actions, picked by string comparison (no hashing) */
  readonly tcp: NetworkIndex;
  /** @internal */
  readonly udp: NetworkIndex;
  /** @internal */
  readonly read: FilesystemIndex;
  /** @internal */
  readonly write: FilesystemIndex;
  /** Segments of the user's home directory, when known: `~` rules then match absolute paths too. */
  readonly homeSegments: readonly string[] | null;
}

export interface CompileOptions {
  /** The home directory (absolute) that `~` stands for on this machine. */
  home?: string;
}

/**
 * Compiles policies (already validated documents) into per-action indexes. Policies and rules that
 * are not evaluated are listed in `notEvaluated` and never match.
 */
export function compilePolicies(
  policies: readonly PolicyDoc[],
  options: CompileOptions = {},
): CompiledPolicySet {
  const network = new Map<string, NetworkIndex>();
  const filesystem = new Map<string, FilesystemIndex>();
  for (const a of KNOWN_ACTIONS.network) network.set(a, new NetworkIndex());
  for (const a of KNOWN_ACTIONS.filesystem) filesystem.set(a, new FilesystemIndex());
  const notEvaluated: NotEvaluated[] = [];
  const entries: Entry[] = [];
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
        const e: Entry = { seq: seq++, ruleKey, deny: decision === 'deny', out, net, fs };
        entries.push(e);
        for (const a of new Set(r.actions)) {
          if (net) network.get(a)?.add(net, e.seq);
          else if (fs) filesystem.get(a)?.add(fs, e.seq);
        }
      }
    }
  }
  const frozenNE = Object.freeze(notEvaluated) as NotEvaluated[];
  const shared = sharedResults(entries, frozenNE, NO_MATCH_REASON);
  return {
    policies,
    notEvaluated: frozenNE,
    ruleCount,
    network,
    filesystem,
    noMatch: shared.list[entries.length]!,
    entries,
    results: shared.list,
    tails: shared.tails,
    tailAt: shared.tailAt,
    denies: shared.denies,
    pairs: new Map(),
    tcp: network.get('connect:tcp')!,
    udp: network.get('connect:udp')!,
    read: filesystem.get('read')!,
    write: filesystem.get('write')!,
    homeSegments: homeSegmentsOf(options.home),
  };
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

const hits = new Hits();
const scratch: Entry[] = [];

/** What `decide` returns when no shared result fits the hits: `mixedResult` makes it. */
export const MIXED = -1;
/**
 * What `decideHostChars` returns for a destination that is neither a plain hostname nor IPv4, and
 * `decidePathBytes` for a path not in normal form.
 */
export const NOT_PLAIN = -2;

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
  if (opts !== undefined && opts.explain === true) return explained(set, action, destination);
  const code = decide(set, action, destination);
  return code >= 0 ? set.results[code]! : mixedResult(set);
}

/**
 * `evaluate` as a code: the index of the shared result in `set.results`, or MIXED when the result
 * is made from the entries that matched (`mixedResult`, to be called before the next decision).
 */
export function decide(set: CompiledPolicySet, action: string, destination: string): number {
  hits.n = 0;
  const net = action === 'connect:tcp' ? set.tcp : action === 'connect:udp' ? set.udp : null;
  if (net !== null) {
    // A plain hostname or IPv4 address is looked up in place; any other form is parsed from the
    // same scan.
    const scanned = scanDestination(destination);
    if (!net.lookupChars(scanned, destination.length, hits)) {
      net.lookup(destinationOf(destination, scanned), hits);
    }
  } else {
    const fs = pathIndex(set, action);
    lookupPath(set, fs, parseFilesystemDestination(destination));
  }
  return hitsCode(set);
}

/**
 * `decide` for a `connect:tcp` (or, with `udp`, `connect:udp`) request whose destination is already
 * in hostChars[0, n), for `policy eval --batch` reading its input bytes; NOT_PLAIN when the
 * destination is neither a plain hostname nor an IPv4 address: it then goes to `decide` as a string.
 */
export function decideHostChars(set: CompiledPolicySet, udp: boolean, n: number): number {
  hits.n = 0;
  if (!(udp ? set.udp : set.tcp).lookupChars(scanHostChars(n), n, hits)) return NOT_PLAIN;
  return hitsCode(set);
}

/**
 * `decide` for a `read` (or, with `write`, `write`) request whose path is b[s, e), printable ASCII,
 * for `policy eval --batch` reading its input bytes; NOT_PLAIN when the path is not in normal form
 * (`//`, `.`, `..`, a trailing `/`, `/` or `~` alone): it then goes to `decide` as a string.
 */
export function decidePathBytes(
  set: CompiledPolicySet,
  write: boolean,
  b: Uint8Array,
  s: number,
  e: number,
): number {
  const from = normalPathStart(b, s, e);
  if (from < 0) return NOT_PLAIN;
  hits.n = 0;
  const fs = write ? set.write : set.read;
  const home = b[s] === 126;
  fs.lookupBytes(home, null, b, from, e, hits);
  // the other spelling under home, as lookupPath does
  const hs = set.homeSegments;
  if (hs !== null) {
    if (home) fs.lookupBytes(false, hs, b, from, e, hits);
    else {
      const tail = homeTail(b, from, e, hs);
      if (tail >= 0) fs.lookupBytes(true, null, b, tail, e, hits);
    }
  }
  return hitsCode(set);
}

/** The result of the last decision that returned MIXED. */
export function mixedResult(set: CompiledPolicySet): EvalResult {
  if (hits.n === 2) {
    const ids = hits.ids;
    return pairResult(
      set.pairs,
      set.notEvaluated as NotEvaluated[],
      set.entries[ids[0]!]!,
      set.entries[ids[1]!]!,
    );
  }
  return combine(set, false, null, null, null);
}

/** The code of the hits' shared result when none or one entry matched; MIXED for more. */
function hitsCode(set: CompiledPolicySet): number {
  const n = hits.n;
  if (n === 1) return hits.ids[0]!;
  return n === 0 ? set.entries.length : MIXED;
}

/** The path index of a filesystem action; throws for an unknown action. */
function pathIndex(set: CompiledPolicySet, action: string): FilesystemIndex {
  const fs = action === 'read' ? set.read : action === 'write' ? set.write : null;
  if (fs === null) throw unknownAction(action);
  return fs;
}

/**
 * Adds the hits of a path, and of its other spelling under home (`~/x` ↔ `/home/me/x`) if known;
 * returns that spelling.
 */
function lookupPath(
  set: CompiledPolicySet,
  fs: FilesystemIndex,
  fd: FilesystemDestination,
): FilesystemDestination | null {
  fs.lookup(fd, hits);
  const alias = set.homeSegments === null ? null : homeAlias(fd, set.homeSegments);
  if (alias !== null) fs.lookup(alias, hits);
  return alias;
}

/** `evaluate` with `explain`: every matching resource of every rule, and why it matched. */
function explained(set: CompiledPolicySet, action: string, destination: string): EvalResult {
  hits.n = 0;
  const net = action === 'connect:tcp' ? set.tcp : action === 'connect:udp' ? set.udp : null;
  if (net !== null) {
    const nd = parseNetworkDestination(destination);
    net.lookup(nd, hits);
    return combine(set, true, nd, null, null);
  }
  const fs = pathIndex(set, action);
  const fd = parseFilesystemDestination(destination);
  const alias = lookupPath(set, fs, fd);
  return combine(set, true, null, fd, alias);
}

/** The result of the hits in general: every matching entry in rule order, explained if asked. */
function combine(
  set: CompiledPolicySet,
  explain: boolean,
  nd: NetworkDestination | null,
  fd: FilesystemDestination | null,
  alias: FilesystemDestination | null,
): EvalResult {
  const n = hits.n;
  if (n === 0) return explain ? { ...set.noMatch, matched: [] } : set.noMatch;
  const ids = hits.ids;
  const out = scratch;
  // emptied by pop, which compiles inline (setting length calls into the runtime)
  while (out.length > 0) out.pop();
  for (let i = 0; i < n; i++) out.push(set.entries[ids[i]!]!);
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
    const spelled = alias !== null && e.fs !== null && e.fs.home === alias.home ? alias : fd;
    if (explain) matched.push({ ...e.out, why: whyOf(e, nd, spelled) });
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

/** Evaluates many requests against one set; convenience for tests and the bench. */
export function evaluateAll(
  set: CompiledPolicySet,
  requests: readonly { action: string; destination: string }[],
  opts?: EvaluateOptions,
): EvalResult[] {
  return requests.map((r) => evaluate(set, r.action, r.destination, opts));
}

// The compiled evaluator (decisions §4). Rules are compiled per action into indexes: hostnames
// and `*.`/`**.` suffixes in one label trie read from the last label (children found by a hash of
// the label, no substrings made), CIDRs in binary tries for IPv4 and IPv6, path globs in a segment
// trie walked as a small NFA. A decision costs O(length of the destination), not O(number of
// rules), and allocates nothing beyond the parsed destination when one rule decides. Pure: no IO.
import { ValidationError } from '../errors.js';
import { type Entry, Hits } from './bucket.js';
import type { PolicyDoc } from './document.js';
import { type Decision, type Domain, domainOfAction, KNOWN_ACTIONS } from './model.js';
import { parseNetworkResource } from './network.js';
import {
  destinationOf,
  type NetworkDestination,
  scanDestination,
  scanHostChars,
} from './network-destination.js';
import { NetworkIndex } from './network-index.js';
import {
  describePathMatch,
  type FilesystemDestination,
  homeAlias,
  homeSegmentsOf,
  parseFilesystemDestination,
  parseFilesystemResource,
} from './path.js';
import { FilesystemIndex } from './path-index.js';

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
  /** @internal the result of each entry deciding alone, by id: one load less than via the entry */
  readonly solo: readonly EvalResult[];
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
        const e: Entry = { seq: seq++, ruleKey, deny: decision === 'deny', out, net, fs, solo: null };
        e.solo = shared({
          decision,
          reason: reasonOf(e.deny, [out]),
          matched: Object.freeze([out]) as unknown as MatchedRule[],
          notEvaluated: notEvaluated as NotEvaluated[],
        });
        entries.push(e);
        for (const a of new Set(r.actions)) {
          if (net) network.get(a)?.add(net, e.seq);
          else if (fs) filesystem.get(a)?.add(fs, e.seq);
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
    entries,
    // allocated together after compiling, so that the results sit side by side in memory
    solo: entries.map((e) => e.solo!),
    pairs: new Map(),
    tcp: network.get('connect:tcp')!,
    udp: network.get('connect:udp')!,
    read: filesystem.get('read')!,
    write: filesystem.get('write')!,
    homeSegments: homeSegmentsOf(options.home),
  };
}

const DECISION_JSON: unique symbol = Symbol('decisionJson');
const DECISION_TAIL: unique symbol = Symbol('decisionTail');

type Rendered = EvalResult & { [DECISION_JSON]?: string; [DECISION_TAIL]?: Uint8Array };

function renderDecisionJson(r: EvalResult): string {
  return `"decision":"${r.decision}","reason":${JSON.stringify(r.reason)},"matched":${JSON.stringify(r.matched)}`;
}

const utf8 = new TextEncoder();

/**
 * A result shared by every request it decides: frozen, with its JSON rendered once, and the UTF-8
 * bytes of a batch line's tail (`,<json>}\n`) beside it, on the result itself (one load less than a
 * side table when thousands of results are in use).
 */
function shared(r: EvalResult): EvalResult {
  const json = renderDecisionJson(r);
  Object.defineProperty(r, DECISION_JSON, { value: json, enumerable: false });
  Object.defineProperty(r, DECISION_TAIL, { value: utf8.encode(`,${json}}\n`), enumerable: false });
  return Object.freeze(r);
}

/**
 * `"decision":…,"reason":…,"matched":[…]`: the JSON members of a result (no braces), for writers of
 * one JSON object a line. Rendered once for the shared results of the common cases.
 */
export function decisionJson(r: EvalResult): string {
  return (r as Rendered)[DECISION_JSON] ?? renderDecisionJson(r);
}

/**
 * The UTF-8 bytes of `,<decisionJson>}\n` for a shared result (encoded once); undefined for a
 * result made for one request (explain, three or more matching resources).
 */
export function decisionTail(r: EvalResult): Uint8Array | undefined {
  return (r as Rendered)[DECISION_TAIL];
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
  hits.n = 0;
  let nd: NetworkDestination | null = null;
  let fd: FilesystemDestination | null = null;
  // The other spelling of a path under the home directory (`~/x` ↔ `/home/me/x`), when known.
  let alias: FilesystemDestination | null = null;
  const explain = opts !== undefined && opts.explain === true;
  const net = action === 'connect:tcp' ? set.tcp : action === 'connect:udp' ? set.udp : null;
  if (net !== null) {
    // A plain hostname is looked up in place; explaining needs the parsed destination. Any other
    // form is parsed from the same scan, not a second one.
    const scanned = scanDestination(destination);
    if (scanned >= 0 && !explain) net.lookupHost(scanned & 0xff, scanned >>> 8, hits);
    else {
      nd = destinationOf(destination, scanned);
      net.lookup(nd, hits);
    }
  } else {
    const fs = action === 'read' ? set.read : action === 'write' ? set.write : null;
    if (fs === null) throw unknownAction(action);
    fd = parseFilesystemDestination(destination);
    fs.lookup(fd, hits);
    if (set.homeSegments !== null) {
      alias = homeAlias(fd, set.homeSegments);
      if (alias !== null) fs.lookup(alias, hits);
    }
  }
  if (explain) return combine(set, true, nd, fd, alias);
  return quickResult(set) ?? combine(set, false, null, fd, alias);
}

/**
 * Decides a `connect:tcp` (or, with `udp`, `connect:udp`) request whose destination is already in
 * hostChars[0, n), for `policy eval --batch` reading its input bytes; null when the destination is
 * not a plain hostname, which then goes to `evaluate` as a string.
 */
export function evaluateHostChars(set: CompiledPolicySet, udp: boolean, n: number): EvalResult | null {
  const scanned = scanHostChars(n);
  if (scanned < 0) return null;
  hits.n = 0;
  (udp ? set.udp : set.tcp).lookupHost(scanned & 0xff, scanned >>> 8, hits);
  return quickResult(set) ?? combine(set, false, null, null, null);
}

/** The shared result of the hits when none, one or two entries matched; null for more. */
function quickResult(set: CompiledPolicySet): EvalResult | null {
  const n = hits.n;
  const ids = hits.ids;
  if (n === 0) return set.noMatch;
  if (n === 1) return set.solo[ids[0]!]!;
  if (n === 2) return pairResult(set, set.entries[ids[0]!]!, set.entries[ids[1]!]!);
  return null;
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

/** Results of two matching entries, shared like single-entry ones (an allow and a deny overlap). */
const PAIR_CACHE_LIMIT = 100_000;

function pairResult(set: CompiledPolicySet, x: Entry, y: Entry): EvalResult {
  const [a, b] = x.seq < y.seq ? [x, y] : [y, x];
  const key = a.seq * 0x100000000 + b.seq;
  const cache = set.pairs;
  let r = cache.get(key);
  if (r !== undefined) return r;
  const deny = a.deny || b.deny;
  const deciding: MatchedRule[] = [];
  if (a.deny === deny) deciding.push(a.out);
  if (b.deny === deny && !(a.deny === deny && a.ruleKey === b.ruleKey)) deciding.push(b.out);
  r = shared({
    decision: deny ? 'deny' : 'allow',
    reason: reasonOf(deny, deciding),
    matched: Object.freeze(deciding) as MatchedRule[],
    notEvaluated: set.notEvaluated as NotEvaluated[],
  });
  if (cache.size >= PAIR_CACHE_LIMIT) cache.clear();
  cache.set(key, r);
  return r;
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

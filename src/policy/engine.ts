// The evaluator (decisions §4) over a compiled set (compile.ts). A decision costs O(length of the
// destination), not O(number of rules), and allocates nothing beyond the parsed destination when
// one rule decides: the result is one shared by every request it decides (results.ts). Pure: no IO.
import { ValidationError } from '../errors.js';
import type { CompiledPolicySet } from './compile.js';
import { HTTP_METHOD_BIT, type HttpRequest, parseHttpRequest, scanRequest } from './http.js';
import { type Decision, type Domain, domainOfAction, isHttpAction, KNOWN_ACTIONS } from './model.js';
import {
  destinationOf,
  type NetworkDestination,
  parseNetworkDestination,
  scanDestination,
  scanHostChars,
} from './network-destination.js';
import type { NetworkIndex } from './network-index.js';
import {
  type FilesystemDestination,
  homeAlias,
  homeTail,
  normalPathStart,
  parseFilesystemDestination,
} from './path.js';
import type { FilesystemIndex } from './path-index.js';
import { pairResult, reasonOf } from './results.js';
import type { Entry, EvalResult, EvaluateOptions, MatchedRule, NotEvaluated } from './types.js';
import { whyOf } from './why.js';

export * from './compile.js';
export { decisionJson } from './results.js';

const ALLOWED = `${KNOWN_ACTIONS.network.filter((a) => !isHttpAction(a)).join(', ')}, ${KNOWN_ACTIONS.filesystem.join(', ')} and request:get … request:trace`;

function unknownAction(action: string): ValidationError {
  return new ValidationError(`unknown action "${action}"; hubctl evaluates ${ALLOWED}`);
}

/** The domain whose destinations an action takes; throws ValidationError for an unknown action. */
export function domainForEvaluation(action: string): Domain {
  const d = domainOfAction(action);
  if (!d) throw unknownAction(action);
  return d;
}

/** What `decide` returns when no shared result fits the hits: `mixedResult` makes it. */
export const MIXED = -1;
/**
 * What `decideHostChars` returns for a destination that is neither a plain hostname nor IPv4, and
 * `decidePathBytes` for a path not in normal form.
 */
export const NOT_PLAIN = -2;

/**
 * Refuses a set holding a policy or rule that hubctl cannot evaluate (a cedar_v1 policy, an unknown
 * action or resource form): any decision could be wrong, since the service evaluates it (fail
 * closed). Throws ValidationError naming the first, and how many more there are.
 */
export function assertDecidable(set: CompiledPolicySet): void {
  const ne = set.notEvaluated;
  if (ne.length === 0) return;
  const first = ne[0]!;
  const what =
    first.rule === undefined
      ? `policy "${first.policy}"`
      : `rule "${first.rule}" of policy "${first.policy}"`;
  const more = ne.length > 1 ? ` (and ${ne.length - 1} more: \`hubctl policy lint\` lists them)` : '';
  throw new ValidationError(
    `cannot decide: ${what} cannot be evaluated: ${first.reason}${more}; fix or remove it, or evaluate without it`,
  );
}

/**
 * Decides one request (decisions §4): deny wins; an allow decides when no deny matches; no match
 * is a deny by default. Throws ValidationError for an unknown action, a malformed destination, or a
 * set that holds what hubctl cannot evaluate (assertDecidable).
 */
export function evaluate(
  set: CompiledPolicySet,
  action: string,
  destination: string,
  opts?: EvaluateOptions,
): EvalResult {
  if (set.notEvaluated.length !== 0) assertDecidable(set);
  if (opts !== undefined && opts.explain === true) return explained(set, action, destination);
  const code = decide(set, action, destination);
  return code >= 0 ? set.results[code]! : mixedResult(set);
}

/**
 * `evaluate` as a code: the index of the shared result in `set.results`, or MIXED when the result
 * is made from the entries that matched (`mixedResult`, to be called before the next decision).
 */
export function decide(set: CompiledPolicySet, action: string, destination: string): number {
  set.hits.n = 0;
  const net = networkIndex(set, action);
  if (net !== null) {
    // A plain hostname or IPv4 address is looked up in place; any other form is parsed from the
    // same scan.
    const host = set.host;
    const scanned = scanDestination(host.chars, destination);
    if (!net.lookupChars(scanned, destination.length, host, set.hits)) {
      net.lookup(destinationOf(destination, scanned), host, set.hits);
    }
  } else {
    const fs = pathIndex(set, action);
    if (fs !== null) lookupPath(set, fs, destination);
    else lookupRequest(set, action, destination);
  }
  return hitsCode(set);
}

/**
 * The hits of an HTTP request: the network rules of its connection (`connect:tcp` to host:port)
 * and the HTTP rules of its method, deny winning over both (http.ts); throws for an unknown action.
 * A plain `http(s)://host[:port]/path` is read in place; any other form parsed (or refused).
 */
function lookupRequest(set: CompiledPolicySet, action: string, destination: string): HttpRequest | null {
  const method = HTTP_METHOD_BIT.get(action);
  if (method === undefined) throw unknownAction(action);
  const index = set.http;
  const bounds = set.pathBounds;
  const host = set.host;
  const scanned = scanRequest(destination, bounds, host.chars);
  if (scanned >= 0) {
    const end = scanned & 0xff;
    const port = scanned >>> 8;
    set.tcp.lookupHost(host.chars, end, port, set.hits);
    index.lookupHost(host.chars, end, port, method, destination, bounds, set.hits);
    return null;
  }
  const req = parseHttpRequest(destination, bounds, host);
  set.tcp.lookup(req.dest, host, set.hits);
  index.lookup(req.dest, method, req.path, bounds, host, set.hits);
  return req;
}

/**
 * `decide` for a `connect:tcp` (or, with `udp`, `connect:udp`) request whose destination is already
 * in set.host.chars[0, n), for `policy eval --batch` reading its input bytes; NOT_PLAIN when the
 * destination is neither a plain hostname nor an IPv4 address: it then goes to `decide` as a string.
 */
export function decideHostChars(set: CompiledPolicySet, udp: boolean, n: number): number {
  set.hits.n = 0;
  const host = set.host;
  if (!(udp ? set.udp : set.tcp).lookupChars(scanHostChars(host.chars, n), n, host, set.hits))
    return NOT_PLAIN;
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
  const n = set.path.loadBytes(b, s, e);
  const from = normalPathStart(set.path.chars, 0, n);
  if (from < 0) return NOT_PLAIN;
  set.hits.n = 0;
  lookupPathChars(set, write ? set.write : set.read, from, n);
  return hitsCode(set);
}

/** The result of the last decision that returned MIXED. */
export function mixedResult(set: CompiledPolicySet): EvalResult {
  if (set.hits.n === 2) {
    const ids = set.hits.ids;
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
  const n = set.hits.n;
  if (n === 1) return set.hits.ids[0]!;
  return n === 0 ? set.entries.length : MIXED;
}

/** The network index of a network action, or null for any other action. */
function networkIndex(set: CompiledPolicySet, action: string): NetworkIndex | null {
  return action === 'connect:tcp' ? set.tcp : action === 'connect:udp' ? set.udp : null;
}

/** The path index of a filesystem action, or null for any other action. */
function pathIndex(set: CompiledPolicySet, action: string): FilesystemIndex | null {
  return action === 'read' ? set.read : action === 'write' ? set.write : null;
}

/**
 * Adds the hits of a path: read in place when in normal form (the common case), else parsed and
 * normalized first (or refused, throwing ValidationError); returns the parsed path, if it was.
 */
function lookupPath(set: CompiledPolicySet, fs: FilesystemIndex, path: string): FilesystemDestination | null {
  const n = set.path.load(path);
  const from = normalPathStart(set.path.chars, 0, n);
  if (from >= 0) {
    lookupPathChars(set, fs, from, n);
    return null;
  }
  const fd = parseFilesystemDestination(path);
  const normal = set.path.load(fd.path);
  // `/` and `~` alone have no segment: the walk ends at the root
  lookupPathChars(set, fs, fd.segments.length === 0 ? normal : fd.home ? 2 : 1, normal);
  return fd;
}

/**
 * Adds the hits of the normal path in set.path.chars[0, end), whose segments start at `from` (end
 * when it has none), and of its other spelling under home (`~/x` and `/home/me/x`) when home is known.
 */
function lookupPathChars(set: CompiledPolicySet, fs: FilesystemIndex, from: number, end: number): void {
  const c = set.path.chars;
  const home = c[0] === 126;
  fs.lookup(home, null, c, from, end, set.hits);
  const hc = set.homeChars;
  if (hc === null) return;
  if (home) fs.lookup(false, hc, c, from, end, set.hits);
  else {
    const tail = homeTail(c, from, end, hc);
    if (tail >= 0) fs.lookup(true, null, c, tail, end, set.hits);
  }
}

/** `evaluate` with `explain`: every matching resource of every rule, and why it matched. */
function explained(set: CompiledPolicySet, action: string, destination: string): EvalResult {
  set.hits.n = 0;
  const net = networkIndex(set, action);
  if (net !== null) {
    const nd = parseNetworkDestination(destination, set.host);
    net.lookup(nd, set.host, set.hits);
    return combine(set, true, nd, null, null);
  }
  const fs = pathIndex(set, action);
  if (fs === null) {
    // explained from the parsed request, whichever way it was looked up
    const req =
      lookupRequest(set, action, destination) ?? parseHttpRequest(destination, set.pathBounds, set.host);
    return combine(set, true, req.dest, null, null, req);
  }
  const fd = lookupPath(set, fs, destination) ?? parseFilesystemDestination(destination);
  const alias = set.homeSegments === null ? null : homeAlias(fd, set.homeSegments);
  return combine(set, true, null, fd, alias);
}

/** The result of the hits in general: every matching entry in rule order, explained if asked. */
function combine(
  set: CompiledPolicySet,
  explain: boolean,
  nd: NetworkDestination | null,
  fd: FilesystemDestination | null,
  alias: FilesystemDestination | null,
  req: HttpRequest | null = null,
): EvalResult {
  const n = set.hits.n;
  if (n === 0) return explain ? { ...set.noMatch, matched: [] } : set.noMatch;
  const ids = set.hits.ids;
  const out = set.scratch;
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
    if (explain) matched.push({ ...e.out, why: whyOf(e, nd, spelled, req) });
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

// The evaluator (decisions §4) over a compiled index (compile.ts). A decision costs O(length of the
// destination), not O(number of rules), and allocates nothing beyond the parsed destination when
// one rule decides: the result is one shared by every request it decides (results.ts). Pure: no IO.
//
// Reading one decision: `evaluate` → `decide` (pick the action's index, scan the destination into the
// evaluator's scratch, look it up: hits) → `hitsCode` (no hit, one hit: a shared result's code; more:
// MIXED) → `mixedResult` (combine the hits: deny wins). `--explain` takes `explained`, which parses
// the destination whole and says why each hit matched (why.ts).
import { ValidationError } from '../errors.js';
import type { PolicyIndex } from './compile.js';
import { HTTP_METHOD_BIT, type HttpRequest, PathBounds, parseHttpRequest, scanRequest } from './http.js';
import { type Decision, type Domain, domainOfAction, isHttpAction, KNOWN_ACTIONS } from './model.js';
import {
  destinationOf,
  HostScratch,
  type NetworkDestination,
  parseNetworkDestination,
  scanDestination,
  scanHostChars,
  scannedEnd,
  scannedPort,
} from './network-destination.js';
import type { NetworkIndex } from './network-index.js';
import {
  type FilesystemDestination,
  homeAlias,
  homeTail,
  normalPathStart,
  PathScratch,
  parseFilesystemDestination,
} from './path.js';
import type { FilesystemIndex } from './path-index.js';
import { pairResult, reasonOf } from './results.js';
import { Hits } from './tables/bucket.js';
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

/**
 * What one line of decisions needs besides the index: the scratch space a decision is read into and
 * the cache of two-entry results. An index can have many evaluators at once (each decision on one
 * evaluator runs to its end before the next starts: nothing here waits).
 */
export class Evaluator {
  /** @internal the segments of the HTTP request path being decided */
  readonly pathBounds = new PathBounds();
  /** @internal the destination being read (its characters, an IPv4 address read in place) */
  readonly host = new HostScratch();
  /** @internal the ids of the entries the decision being made matched */
  readonly hits = new Hits();
  /** @internal those entries, sorted, when several matched */
  readonly scratch: Entry[] = [];
  /** @internal the path being decided (its characters) */
  readonly path = new PathScratch();
  /** @internal results of two matching entries, by their sequence numbers */
  readonly pairs = new Map<number, EvalResult>();

  constructor(readonly index: PolicyIndex) {}

  /** Decides one request: see `evaluate`. */
  evaluate(action: string, destination: string, opts?: EvaluateOptions): EvalResult {
    const set = this.index;
    if (set.notEvaluated.length !== 0) assertDecidable(set);
    if (opts !== undefined && opts.explain === true) return explained(this, action, destination);
    const code = decide(this, action, destination);
    return code >= 0 ? set.results[code]! : mixedResult(this);
  }
}

// `evaluate(index, …)` keeps one evaluator per index, the last one used at hand (no lookup in a loop).
const evaluators = new WeakMap<PolicyIndex, Evaluator>();
let lastEvaluator: Evaluator | null = null;

/** The evaluator `evaluate(index, …)` uses for this index. */
export function evaluatorOf(index: PolicyIndex): Evaluator {
  if (lastEvaluator !== null && lastEvaluator.index === index) return lastEvaluator;
  let ev = evaluators.get(index);
  if (ev === undefined) {
    ev = new Evaluator(index);
    evaluators.set(index, ev);
  }
  lastEvaluator = ev;
  return ev;
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
export function assertDecidable(set: PolicyIndex): void {
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
  target: PolicyIndex | Evaluator,
  action: string,
  destination: string,
  opts?: EvaluateOptions,
): EvalResult {
  return (target instanceof Evaluator ? target : evaluatorOf(target)).evaluate(action, destination, opts);
}

/**
 * `evaluate` as a code: the index of the shared result in `set.results`, or MIXED when the result
 * is made from the entries that matched (`mixedResult`, to be called before the next decision).
 */
export function decide(ev: Evaluator, action: string, destination: string): number {
  ev.hits.n = 0;
  const net = networkIndex(ev.index, action);
  if (net !== null) {
    // A plain hostname or IPv4 address is looked up in place; any other form is parsed from the
    // same scan.
    const host = ev.host;
    const scanned = scanDestination(host.chars, destination);
    if (!net.lookupChars(scanned, destination.length, host, ev.hits)) {
      net.lookup(destinationOf(destination, scanned), host, ev.hits);
    }
  } else {
    const fs = pathIndex(ev.index, action);
    if (fs !== null) lookupPath(ev, fs, destination);
    else lookupRequest(ev, action, destination);
  }
  return hitsCode(ev);
}

/**
 * The hits of an HTTP request: the network rules of its connection (`connect:tcp` to host:port)
 * and the HTTP rules of its method, deny winning over both (http.ts); throws for an unknown action.
 * A plain `http(s)://host[:port]/path` is read in place; any other form parsed (or refused).
 */
function lookupRequest(ev: Evaluator, action: string, destination: string): HttpRequest | null {
  const method = HTTP_METHOD_BIT.get(action);
  if (method === undefined) throw unknownAction(action);
  const set = ev.index;
  const index = set.http;
  const bounds = ev.pathBounds;
  const host = ev.host;
  const scanned = scanRequest(destination, bounds, host.chars);
  if (scanned >= 0) {
    const end = scannedEnd(scanned);
    const port = scannedPort(scanned);
    set.tcp.lookupHost(host.chars, end, port, ev.hits);
    index.lookupHost(host.chars, end, port, method, destination, bounds, ev.hits);
    return null;
  }
  const req = parseHttpRequest(destination, bounds, host);
  set.tcp.lookup(req.dest, host, ev.hits);
  index.lookup(req.dest, method, req.path, bounds, host, ev.hits);
  return req;
}

/**
 * `decide` for a `connect:tcp` (or, with `udp`, `connect:udp`) request whose destination is already
 * in set.host.chars[0, n), for `policy eval --batch` reading its input bytes; NOT_PLAIN when the
 * destination is neither a plain hostname nor an IPv4 address: it then goes to `decide` as a string.
 */
export function decideHostChars(ev: Evaluator, udp: boolean, n: number): number {
  ev.hits.n = 0;
  const host = ev.host;
  if (!(udp ? ev.index.udp : ev.index.tcp).lookupChars(scanHostChars(host.chars, n), n, host, ev.hits))
    return NOT_PLAIN;
  return hitsCode(ev);
}

/**
 * `decide` for a `read` (or, with `write`, `write`) request whose path is b[s, e), printable ASCII,
 * for `policy eval --batch` reading its input bytes; NOT_PLAIN when the path is not in normal form
 * (`//`, `.`, `..`, a trailing `/`, `/` or `~` alone): it then goes to `decide` as a string.
 */
export function decidePathBytes(ev: Evaluator, write: boolean, b: Uint8Array, s: number, e: number): number {
  const n = ev.path.loadBytes(b, s, e);
  const from = normalPathStart(ev.path.chars, 0, n);
  if (from < 0) return NOT_PLAIN;
  ev.hits.n = 0;
  lookupPathChars(ev, write ? ev.index.write : ev.index.read, from, n);
  return hitsCode(ev);
}

/** The result of the last decision that returned MIXED. */
export function mixedResult(ev: Evaluator): EvalResult {
  if (ev.hits.n === 2) {
    const set = ev.index;
    const ids = ev.hits.ids;
    return pairResult(
      ev.pairs,
      set.notEvaluated as NotEvaluated[],
      set.entries[ids[0]!]!,
      set.entries[ids[1]!]!,
    );
  }
  return combine(ev, false, null, null, null);
}

/** The code of the hits' shared result when none or one entry matched; MIXED for more. */
function hitsCode(ev: Evaluator): number {
  const n = ev.hits.n;
  if (n === 1) return ev.hits.ids[0]!;
  return n === 0 ? ev.index.entries.length : MIXED;
}

/** The network index of a network action, or null for any other action. */
function networkIndex(set: PolicyIndex, action: string): NetworkIndex | null {
  return action === 'connect:tcp' ? set.tcp : action === 'connect:udp' ? set.udp : null;
}

/** The path index of a filesystem action, or null for any other action. */
function pathIndex(set: PolicyIndex, action: string): FilesystemIndex | null {
  return action === 'read' ? set.read : action === 'write' ? set.write : null;
}

/**
 * Adds the hits of a path: read in place when in normal form (the common case), else parsed and
 * normalized first (or refused, throwing ValidationError); returns the parsed path, if it was.
 */
function lookupPath(ev: Evaluator, fs: FilesystemIndex, path: string): FilesystemDestination | null {
  const n = ev.path.load(path);
  const from = normalPathStart(ev.path.chars, 0, n);
  if (from >= 0) {
    lookupPathChars(ev, fs, from, n);
    return null;
  }
  const fd = parseFilesystemDestination(path);
  const normal = ev.path.load(fd.path);
  // `/` and `~` alone have no segment: the walk ends at the root
  lookupPathChars(ev, fs, fd.segments.length === 0 ? normal : fd.home ? 2 : 1, normal);
  return fd;
}

/**
 * Adds the hits of the normal path in set.path.chars[0, end), whose segments start at `from` (end
 * when it has none), and of its other spelling under home (`~/x` and `/home/me/x`) when home is known.
 */
function lookupPathChars(ev: Evaluator, fs: FilesystemIndex, from: number, end: number): void {
  const c = ev.path.chars;
  const home = c[0] === TILDE;
  fs.lookup(home, null, c, from, end, ev.hits);
  const hc = ev.index.homeChars;
  if (hc === null) return;
  if (home) fs.lookup(false, hc, c, from, end, ev.hits);
  else {
    const tail = homeTail(c, from, end, hc);
    if (tail >= 0) fs.lookup(true, null, c, tail, end, ev.hits);
  }
}

/** `~`, the first character of a path under home. */
const TILDE = 0x7e;

/** `evaluate` with `explain`: every matching resource of every rule, and why it matched. */
function explained(ev: Evaluator, action: string, destination: string): EvalResult {
  ev.hits.n = 0;
  const set = ev.index;
  const net = networkIndex(set, action);
  if (net !== null) {
    const nd = parseNetworkDestination(destination, ev.host);
    net.lookup(nd, ev.host, ev.hits);
    return combine(ev, true, nd, null, null);
  }
  const fs = pathIndex(set, action);
  if (fs === null) {
    // explained from the parsed request, whichever way it was looked up
    const req =
      lookupRequest(ev, action, destination) ?? parseHttpRequest(destination, ev.pathBounds, ev.host);
    return combine(ev, true, req.dest, null, null, req);
  }
  const fd = lookupPath(ev, fs, destination) ?? parseFilesystemDestination(destination);
  const alias = set.homeSegments === null ? null : homeAlias(fd, set.homeSegments);
  return combine(ev, true, null, fd, alias);
}

/** The result of the hits in general: every matching entry in rule order, explained if asked. */
function combine(
  ev: Evaluator,
  explain: boolean,
  nd: NetworkDestination | null,
  fd: FilesystemDestination | null,
  alias: FilesystemDestination | null,
  req: HttpRequest | null = null,
): EvalResult {
  const set = ev.index;
  const n = ev.hits.n;
  if (n === 0) return explain ? { ...set.noMatch, matched: [] } : set.noMatch;
  const ids = ev.hits.ids;
  const out = ev.scratch;
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
  set: PolicyIndex | Evaluator,
  requests: readonly { action: string; destination: string }[],
  opts?: EvaluateOptions,
): EvalResult[] {
  return requests.map((r) => evaluate(set, r.action, r.destination, opts));
}

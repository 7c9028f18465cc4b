// The compiled form of a rule set (decisions §4). Rules are compiled per action into indexes:
// hostnames and `*.`/`**.` suffixes in one flat hash table of whole names (every suffix of a
// destination hashed in one scan, no substrings made), IPv4 CIDRs in one flat table per prefix length,
// IPv6 CIDRs in a binary trie, path globs in a segment trie walked as a small NFA; and the shared
// results, one per entry deciding alone (results.ts). Pure: no IO.
import { ValidationError } from '../errors.js';
import type { PolicyDoc } from './document.js';
import { HTTP_METHOD_BIT, HttpIndex, parseHttpPattern } from './http.js';
import { type Decision, domainOfAction, httpResourceText, KNOWN_ACTIONS } from './model.js';
import { parseNetworkResource } from './network.js';
import { NetworkIndex } from './network-index.js';
import { homeSegmentsOf, parseFilesystemResource } from './path.js';
import { FilesystemIndex } from './path-index.js';
import { type LineTails, sharedResults } from './results.js';
import { charsOf } from './tables/flat-slots.js';

export type { EvalResult, EvaluateOptions, MatchedRule, NotEvaluated } from './types.js';

import type { Entry, EvalResult, NotEvaluated } from './types.js';

export const NO_MATCH_REASON = 'no rule matched: denied by default';

/**
 * A compiled rule set: immutable once made, so one index serves any number of evaluators (and runs)
 * at once. What one decision needs as scratch space lives in an `Evaluator` (engine.ts).
 */
export interface PolicyIndex {
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
  /** @internal the batch line tails of the codes, rendered when `--batch` first asks */
  readonly lineTails: () => LineTails;
  /** @internal */
  readonly denies: Uint8Array;
  /** @internal the indexes of the four actions, picked by string comparison (no hashing) */
  readonly tcp: NetworkIndex;
  /** @internal */
  readonly udp: NetworkIndex;
  /** @internal */
  readonly read: FilesystemIndex;
  /** @internal */
  readonly write: FilesystemIndex;
  /** @internal the HTTP rules of every `request:*` action, each entry with its methods */
  readonly http: HttpIndex;
  /** Segments of the user's home directory, when known: `~` rules then match absolute paths too. */
  readonly homeSegments: readonly string[] | null;
  /** @internal those segments as characters, `home/me`, which a `~/` path's absolute spelling starts with */
  readonly homeChars: Uint16Array | null;
}

/** The name callers have long used for a PolicyIndex. */
export type CompiledPolicySet = PolicyIndex;

export interface CompileOptions {
  /** The home directory (absolute) that `~` stands for on this machine. */
  home?: string;
}

/**
 * Compiles policies (already validated documents) into per-action indexes. Policies and rules that
 * are not evaluated are listed in `notEvaluated` and never match.
 */
export function compilePolicies(policies: readonly PolicyDoc[], options: CompileOptions = {}): PolicyIndex {
  const network = new Map<string, NetworkIndex>();
  const filesystem = new Map<string, FilesystemIndex>();
  for (const a of KNOWN_ACTIONS.network) network.set(a, new NetworkIndex());
  for (const a of KNOWN_ACTIONS.filesystem) filesystem.set(a, new FilesystemIndex());
  const http = new HttpIndex();
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
      for (const hr of r.http_resources ?? []) {
        const resource = httpResourceText(hr);
        const out = Object.freeze({ policy: p.name, rule: r.name, resource, decision });
        const pattern = parseHttpPattern(hr);
        const e: Entry = {
          seq: seq++,
          ruleKey,
          deny: decision === 'deny',
          out,
          net: null,
          fs: null,
          http: pattern,
        };
        entries.push(e);
        let methods = 0;
        for (const a of r.actions) methods |= HTTP_METHOD_BIT.get(a) ?? 0;
        if (methods !== 0) http.add(pattern, e.seq, methods);
      }
      for (const resource of r.http_resources ? [] : r.resources) {
        const domain = domainOfAction(r.actions[0] ?? '');
        const net = domain === 'network' ? parseNetworkResource(resource) : null;
        const fs = domain === 'filesystem' ? parseFilesystemResource(resource) : null;
        const out = Object.freeze({ policy: p.name, rule: r.name, resource, decision });
        const e: Entry = { seq: seq++, ruleKey, deny: decision === 'deny', out, net, fs, http: null };
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
  const homeSegments = homeSegmentsOf(options.home);
  return {
    policies,
    notEvaluated: frozenNE,
    ruleCount,
    network,
    filesystem,
    noMatch: shared.list[entries.length]!,
    entries,
    results: shared.list,
    lineTails: shared.lineTails,
    denies: shared.denies,
    tcp: network.get('connect:tcp')!,
    udp: network.get('connect:udp')!,
    read: filesystem.get('read')!,
    write: filesystem.get('write')!,
    http,
    homeSegments,
    homeChars: homeSegments === null ? null : charsOf(homeSegments.join('/')),
  };
}

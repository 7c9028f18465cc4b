// Runs `policy test` cases against policies: each case decided as `policy eval` decides it (one
// compiled set per team asked about, compiled once), its outcome compared with what it expects, and
// each rule's hits counted (every rule a case matched, deciding or not). MCP cases go to the
// evaluator the caller gives. Pure: no IO.
import { HubctlError } from '../errors.js';
import type { Outcome, TestCase } from './case-file.js';
import { type CompiledPolicySet, compilePolicies } from './compile.js';
import { applicablePolicies, type PolicyDoc } from './document.js';
import { assertDecidable, decide, evaluatorOf, mixedResult } from './engine.js';
import type { MatchedRule } from './types.js';

export interface CaseResult {
  case: TestCase;
  got: Outcome;
  pass: boolean;
  /** The deciding rules (none for a default deny). */
  rules: { policy: string; rule: string }[];
  reason: string;
  /** Why the case could not be decided (got: undecided). */
  error?: string;
}

export interface RuleHits {
  policy: string;
  rule: string;
  hits: number;
}

export interface CaseRun {
  results: CaseResult[];
  /** Every evaluated rule of the policies, with the number of cases that matched it. */
  coverage: RuleHits[];
  passed: number;
  failed: number;
  /** Cases not decided that did not expect `undecided` (exit 2). */
  undecided: number;
}

/** What the MCP (Cedar) evaluator answers for one case; throws when it cannot decide. */
export interface McpAnswer {
  decision: 'allow' | 'deny' | 'approval-required';
  reason: string;
  rules?: { policy: string; rule: string }[];
}
export type McpDecider = (c: TestCase) => McpAnswer;

export interface RunCasesOptions {
  /** `~` of rules (as `policy eval`). */
  home?: string;
  /**
   * The teams of a case without `team`: null evaluates every policy given (as `policy eval -f`);
   * a list evaluates the organization-wide policies plus those scoped to these teams.
   */
  baseTeams: readonly string[] | null;
  mcp: McpDecider;
}

const key = (policy: string, rule: string) => `${policy}\u0000${rule}`;

export function runCases(
  policies: readonly PolicyDoc[],
  cases: readonly TestCase[],
  opts: RunCasesOptions,
): CaseRun {
  const allowlists = policies.filter((p) => p.type !== 'cedar_v1');
  const hits = new Map<string, RuleHits>();
  for (const p of allowlists) {
    if (p.notEvaluated) continue;
    for (const r of p.rules) {
      if (r.notEvaluated) continue;
      const k = key(p.name, r.name);
      if (!hits.has(k)) hits.set(k, { policy: p.name, rule: r.name, hits: 0 });
    }
  }
  const sets = new Map<string, CompiledPolicySet>();
  const setFor = (team: string | undefined): CompiledPolicySet => {
    const k = team ?? '';
    let set = sets.get(k);
    if (set === undefined) {
      const chosen =
        team !== undefined
          ? applicablePolicies(allowlists, [team])
          : opts.baseTeams === null
            ? allowlists
            : applicablePolicies(allowlists, opts.baseTeams);
      set = compilePolicies(chosen, { home: opts.home });
      sets.set(k, set);
    }
    return set;
  };
  const results: CaseResult[] = [];
  let passed = 0;
  let failed = 0;
  let undecided = 0;
  const seen = new Set<string>();
  for (const c of cases) {
    let r: CaseResult;
    try {
      if (c.mcp) {
        const a = opts.mcp(c);
        r = {
          case: c,
          got: a.decision,
          pass: a.decision === c.expect,
          rules: a.rules ?? [],
          reason: a.reason,
        };
      } else {
        const set = setFor(c.team);
        if (set.notEvaluated.length > 0) assertDecidable(set);
        const ev = evaluatorOf(set);
        const code = decide(ev, c.action, c.destination);
        seen.clear();
        const h = ev.hits;
        for (let i = 0; i < h.n; i++) {
          const out = set.entries[h.ids[i]!]!.out;
          const k = key(out.policy, out.rule);
          if (seen.has(k)) continue;
          seen.add(k);
          const entry = hits.get(k);
          if (entry) entry.hits++;
        }
        const result = code >= 0 ? set.results[code]! : mixedResult(ev);
        r = {
          case: c,
          got: result.decision,
          pass: result.decision === c.expect,
          rules: result.matched.map((m: MatchedRule) => ({ policy: m.policy, rule: m.rule })),
          reason: result.reason,
        };
      }
    } catch (err) {
      if (!(err instanceof HubctlError)) throw err;
      r = {
        case: c,
        got: 'undecided',
        pass: c.expect === 'undecided',
        rules: [],
        reason: err.message,
        error: err.message,
      };
      if (!r.pass) undecided++;
    }
    if (r.pass) passed++;
    else failed++;
    results.push(r);
  }
  return { results, coverage: [...hits.values()], passed, failed, undecided };
}

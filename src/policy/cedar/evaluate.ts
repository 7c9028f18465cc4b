// Deciding an MCP request against compiled Cedar policies, as the service documents it: default
// deny; a matching forbid beats everything; a matching `@requireApproval("reason")` permit makes the
// answer approval-required, which beats a plain permit (and is a denial where no one can be asked:
// a registration). A policy whose evaluation errors is skipped by Cedar; it is never skipped in
// silence here: every one is in `errors`, and the reason names an erroring forbid.
// An evaluator owns its cache and its clock reading; the compiled set is shared and never changed.
import { ValidationError } from '../../errors.js';
import { type CedarPolicyInfo, type CedarPolicySet, placeOf } from './policy-set.js';
import { type CedarCall, cedarCall, type McpRequest } from './request.js';
import { type Scope, type ScopeRequest, scopeMayMatch, scopeOf, uidKey } from './scope.js';

export type McpDecisionKind = 'allow' | 'deny' | 'approval-required';

/** A policy named in an answer. */
export interface McpPolicyRef {
  /** The hubctl policy (cedar_v1 text) it belongs to. */
  policy: string;
  source: string;
  /** Its first line: of `source` when `in_file`, else of its Cedar text. */
  line: number;
  in_file: boolean;
  /** `file:line` or `file (policy "x", Cedar line n)`. */
  at: string;
  effect: 'permit' | 'forbid';
  /** Its `@requireApproval` reason, when it has that annotation. */
  approval?: string;
}

export interface McpPolicyError extends McpPolicyRef {
  message: string;
}

export interface McpDecision {
  decision: McpDecisionKind;
  /** The approval's reason (approval-required, or a registration refused for want of someone to ask). */
  reason?: string;
  /** What decided: the matching forbids (deny), the approval permits, or the permits (allow). */
  policies: McpPolicyRef[];
  /** Every policy whose evaluation errored (Cedar skips them). */
  errors: McpPolicyError[];
  /** One sentence for people: why this decision. */
  summary: string;
}

function ref(p: CedarPolicyInfo): McpPolicyRef {
  const out: McpPolicyRef = {
    policy: p.policy,
    source: p.source,
    line: p.line,
    in_file: p.inFile,
    at: placeOf(p),
    effect: p.effect,
  };
  if (p.approval !== undefined) out.approval = p.approval;
  return out;
}

/** A plain sentence for an evaluation error, with what hubctl knows that Cedar does not say. */
function errorMessage(p: CedarPolicyInfo, message: string): string {
  let m = message.replace(/\s+/g, ' ');
  if (m.length > 300) m = `${m.slice(0, 300)}…`;
  if (m.includes('MCP::Principal')) {
    return `${m} (clauses about the principal never match: the policy's scope supplies it)`;
  }
  if (/attribute `args`/.test(m))
    return `${m} (the request has no arguments: guard with \`context has args\`)`;
  if (p.text.includes('context.args') && /does not have the attribute|record does not have/.test(m)) {
    return `${m} (guard each argument with \`context.args has …\`)`;
  }
  if (/does not have the attribute/.test(m) && /MCP::Server::/.test(m)) {
    return `${m} (the request does not set it: --attr, or "attrs" in a batch line)`;
  }
  return m;
}

const DEFAULT_DENY = 'no permit matches (default deny)';

/** Preparsed subsets kept per evaluator; past this, the whole set is used (same answers, slower). */
const MAX_SUBSETS = 2000;

/** At most this many decisions are kept; then the cache starts again. */
const CACHE_MAX = 200_000;

export interface McpEvaluatorOptions {
  /** `context.request_time`, ISO 8601 (one reading for the whole evaluator, so a cache is exact). */
  now: string;
}

/**
 * Decides MCP requests against one compiled set. Decisions are cached by a key the caller gives
 * (a batch line's text): Cedar is deterministic and the time is read once, so a hit is exact.
 */
export class McpEvaluator {
  private readonly cache = new Map<string, McpDecision>();
  private readonly byId = new Map<string, CedarPolicyInfo>();
  private readonly now: string;
  /** The evaluated policies with their scopes. */
  private readonly scoped: { p: CedarPolicyInfo; scope: Scope }[];
  /** Preparsed subsets of the set, by the ids they hold (the policies whose scope may match a request). */
  private readonly subsets = new Map<string, string>();

  constructor(
    readonly set: CedarPolicySet,
    opts: McpEvaluatorOptions,
  ) {
    for (const p of set.policies) this.byId.set(p.id, p);
    this.now = opts.now;
    this.scoped = set.policies.filter((p) => !p.principalScope).map((p) => ({ p, scope: scopeOf(p.json) }));
  }

  /**
   * The engine's id of a set holding only the policies whose scope may match this request (the same
   * answer as the whole set, faster: Cedar evaluates every policy it is given); undefined for none.
   */
  private setFor(call: CedarCall): string | undefined {
    const entity = call.entities[0]!;
    const q: ScopeRequest = {
      action: uidKey(call.action),
      resourceType: call.resource.type,
      resource: uidKey(call.resource),
      ancestors: entity.parents.map(uidKey),
    };
    const ids: string[] = [];
    for (const { p, scope } of this.scoped) if (scopeMayMatch(scope, q)) ids.push(p.id);
    if (ids.length === 0) return undefined;
    if (ids.length === this.scoped.length) return this.set.setId;
    const key = ids.join(' ');
    const known = this.subsets.get(key);
    if (known !== undefined) return known;
    if (this.subsets.size >= MAX_SUBSETS) return this.set.setId;
    const staticPolicies: Record<string, string> = {};
    for (const id of ids) staticPolicies[id] = this.byId.get(id)!.text;
    const setId = `${this.set.setId}-${this.subsets.size + 1}`;
    const r = this.set.cedar!.preparsePolicySet(setId, { staticPolicies });
    if (r.type === 'failure') return this.set.setId;
    this.subsets.set(key, setId);
    return setId;
  }

  /** The decision for `req`; with `key`, a cached one when the same key was decided before. */
  decide(req: McpRequest, key?: string): McpDecision {
    if (key !== undefined) {
      const hit = this.cache.get(key);
      if (hit !== undefined) return hit;
    }
    const d = this.evaluate(cedarCall(req, this.now, this.set.mentions), req);
    if (key !== undefined) {
      if (this.cache.size >= CACHE_MAX) this.cache.clear();
      this.cache.set(key, d);
    }
    return d;
  }

  private evaluate(call: CedarCall, req: McpRequest): McpDecision {
    const { cedar } = this.set;
    const setId = cedar === undefined || this.set.setId === undefined ? undefined : this.setFor(call);
    if (cedar === undefined || setId === undefined) {
      return { decision: 'deny', policies: [], errors: [], summary: DEFAULT_DENY };
    }
    const answer = cedar.statefulIsAuthorized({
      principal: call.principal,
      action: call.action,
      resource: call.resource,
      context: call.context as never,
      entities: call.entities,
      preparsedPolicySetId: setId,
    });
    if (answer.type === 'failure') {
      const e = answer.errors[0];
      throw new ValidationError(`Cedar cannot evaluate this request: ${e?.message ?? 'no reason given'}`);
    }
    const { decision, diagnostics } = answer.response;
    const errors: McpPolicyError[] = [];
    for (const e of diagnostics.errors) {
      const p = this.byId.get(e.policyId);
      if (p) errors.push({ ...ref(p), message: errorMessage(p, e.error.message) });
    }
    const deciding = diagnostics.reason.map((id) => this.byId.get(id)!).filter(Boolean);
    const erroringForbids = errors.filter((e) => e.effect === 'forbid');
    const note =
      erroringForbids.length === 0
        ? ''
        : `; ${erroringForbids.length === 1 ? 'a forbid' : `${erroringForbids.length} forbids`} errored and did not apply: ${erroringForbids.map((e) => e.at).join(', ')}`;
    if (decision === 'deny') {
      if (deciding.length === 0) {
        return { decision: 'deny', policies: [], errors, summary: `${DEFAULT_DENY}${note}` };
      }
      return {
        decision: 'deny',
        policies: deciding.map(ref),
        errors,
        summary: `forbidden by ${deciding.map(placeOf).join(', ')}${note}`,
      };
    }
    const approvals = deciding.filter((p) => p.approval !== undefined);
    if (approvals.length === 0) {
      return {
        decision: 'allow',
        policies: deciding.map(ref),
        errors,
        summary: `permitted by ${deciding.map(placeOf).join(', ')}${note}`,
      };
    }
    const reason = [...new Set(approvals.map((p) => p.approval!))].join('; ');
    if (req.action === 'register') {
      return {
        decision: 'deny',
        reason,
        policies: approvals.map(ref),
        errors,
        summary: `approval required by ${approvals.map(placeOf).join(', ')}, but no one can be asked at a registration: denied${note}`,
      };
    }
    return {
      decision: 'approval-required',
      reason,
      policies: approvals.map(ref),
      errors,
      summary: `approval required by ${approvals.map(placeOf).join(', ')}${note}`,
    };
  }
}

/** The documented JSON of a decision: `{decision, reason?, policies, errors}`. */
export function mcpDecisionJson(d: McpDecision): Record<string, unknown> {
  const out: Record<string, unknown> = { decision: d.decision };
  if (d.reason !== undefined) out.reason = d.reason;
  out.policies = d.policies;
  out.errors = d.errors;
  return out;
}

/** Evaluates one request: the function `policy eval`, `policy test` and `policy replay` share. */
export function evaluateMcp(set: CedarPolicySet, req: McpRequest, now: Date | string): McpDecision {
  const iso = typeof now === 'string' ? now : now.toISOString();
  return new McpEvaluator(set, { now: iso }).decide(req);
}

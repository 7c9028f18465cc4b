// The plan of governance-as-code: what turns the organization's policies into the authored ones,
// as writes in a safe order. At every intermediate state, whatever a member is allowed was allowed
// before or is allowed after (test/policy/plan-property.test.ts checks it with the naive
// evaluator, steps of one phase in any order). Closing writes go first (denies added, allows
// removed); scopes change while the policies involved hold no allow; opening writes follow
// (allows added), then denies are removed; deletes come last. A deny that changes is added anew and
// its old version removed last, as a scope change can open access through its policy's allows:
// they are removed before it and added after it. Pure: no IO.
import { ConflictError, ValidationError } from '../errors.js';
import type { AuthoredPolicy, AuthoredRule, LivePolicy } from './authored.js';
import { type CedarV1, httpResourceText, type Scope } from './model.js';

export const MAX_PLAN_POLICIES = 100;
export const MAX_PLAN_RULES = 250;

/**
 * Phases, in write order; the steps of one phase may run concurrently.
 * 0 create policies (empty) · 1 add denies, turn allows into denies · 2 remove allows ·
 * 3 widen scopes · 4 narrow scopes · 5 Cedar changes, add and change allows, turn denies into
 * allows · 6 remove denies · 7 delete policies.
 */
export type Phase = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** Why a remove or add step is there besides the rule itself being removed or added. */
export type StepReason = 'replaced' | 'duplicate' | 'scope' | 'policy-deleted';

export type Step =
  | { op: 'create-policy'; phase: Phase; policy: string; scope: Scope; cedar_v1?: CedarV1 }
  | {
      op: 'update-policy';
      phase: Phase;
      policy: string;
      policyId: string;
      scope?: { from: Scope; to: Scope };
      cedar_v1?: { from: CedarV1; to: CedarV1 };
    }
  | { op: 'delete-policy'; phase: Phase; policy: string; policyId: string; rules: number }
  | {
      op: 'add-rule';
      phase: Phase;
      policy: string;
      policyId?: string;
      rule: AuthoredRule;
      renamedFrom?: string;
      /** Set when the add is part of a change or a scope change, not a new rule. */
      reason?: StepReason;
    }
  | {
      op: 'change-rule';
      phase: Phase;
      policy: string;
      policyId: string;
      ruleId: string;
      from: AuthoredRule;
      to: AuthoredRule;
      fields: string[];
      /** `replace`: the new version is added (this step) and the old one removed in phase 6. */
      how: 'patch' | 'replace';
    }
  | {
      op: 'remove-rule';
      phase: Phase;
      policy: string;
      policyId: string;
      ruleId: string;
      rule: AuthoredRule;
      renamedTo?: string;
      reason?: StepReason;
    };

export interface Plan {
  /** Steps in write order (by phase, then policy and rule name). */
  steps: Step[];
  /** True when the organization differs from the files. */
  differs: boolean;
  /** Policies of the organization that no file holds, kept (without --prune). */
  unmanaged: string[];
}

export interface PlanOptions {
  /** Delete policies that no file holds. */
  prune?: boolean;
}

const sorted = (xs: readonly string[]) => [...xs].sort();
const sameList = (a: readonly string[], b: readonly string[]) => {
  const x = sorted(a);
  const y = sorted(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/** Resources of a rule as comparable text (HTTP ones as host[:port]path). */
export function ruleResourceTexts(r: AuthoredRule): string[] {
  return r.http_resources ? r.http_resources.map(httpResourceText) : (r.resources ?? []);
}

/** The fields in which two rules of one name differ (lists compare as sets). */
export function ruleDifferences(from: AuthoredRule, to: AuthoredRule): string[] {
  const fields: string[] = [];
  if (!sameList(from.actions, to.actions)) fields.push('actions');
  if (from.decision !== to.decision) fields.push('decision');
  const kind = (r: AuthoredRule) => (r.http_resources ? 'http_resources' : 'resources');
  if (kind(from) !== kind(to)) fields.push('resources', 'http_resources');
  else if (!sameList(ruleResourceTexts(from), ruleResourceTexts(to))) fields.push(kind(to));
  return fields;
}

const sameScope = (a: Scope, b: Scope) => sameList(a.teams ?? [], b.teams ?? []);
const sameCedar = (a: CedarV1, b: CedarV1) => a.text === b.text && a.schema_url === b.schema_url;
const ruleKey = (r: AuthoredRule) =>
  `${sorted(r.actions).join(',')}|${r.decision}|${r.http_resources ? 'h' : 'r'}|${sorted(ruleResourceTexts(r)).join(',')}`;

function domainOf(rules: readonly AuthoredRule[] | undefined): string | undefined {
  for (const r of rules ?? []) {
    for (const a of r.actions) {
      if (a === 'read' || a === 'write') return 'filesystem';
      if (a.startsWith('connect:') || a.startsWith('request:')) return 'network';
    }
  }
  return undefined;
}

/**
 * Checks the authored set alone, before anything is fetched: unique names, and the limits of
 * decisions §3 that the files alone pass (exit 2, invalid input: no server was asked).
 */
export function checkAuthored(authored: readonly AuthoredPolicy[]): void {
  const seen = new Map<string, string>();
  for (const p of authored) {
    const other = seen.get(p.name);
    if (other !== undefined) {
      throw new ValidationError(
        `policy "${p.name}" is written twice (${other} and ${p.source}); each policy is in one place`,
      );
    }
    seen.set(p.name, p.source);
    const n = p.rules?.length ?? 0;
    if (n > MAX_PLAN_RULES) {
      throw new ValidationError(
        `${p.source}: policy "${p.name}" has ${n} rules; a policy holds at most ${MAX_PLAN_RULES}`,
      );
    }
  }
  if (authored.length > MAX_PLAN_POLICIES) {
    throw new ValidationError(
      `the files hold ${authored.length} policies; an organization holds at most ${MAX_PLAN_POLICIES}`,
    );
  }
}

/** Conflicts with what the organization holds: type and domain changes that no write can make. */
function checkAgainstLive(want: AuthoredPolicy, have: LivePolicy): void {
  const wantType = want.cedar_v1 ? 'cedar_v1' : 'allowlist_v0';
  if (have.type !== wantType) {
    throw new ConflictError(
      `${want.source}: policy "${want.name}" is ${wantType} but the organization's (${have.id}) is ${have.type}; a policy keeps its type`,
      { hint: 'Give the policy another name, or delete the old one first (hubctl policy delete).' },
    );
  }
  const wantDomain = domainOf(want.rules);
  const haveDomain = domainOf(have.rules);
  if (wantDomain && haveDomain && wantDomain !== haveDomain) {
    throw new ConflictError(
      `${want.source}: policy "${want.name}" holds ${wantDomain} rules but the organization's (${have.id}) holds ${haveDomain} rules; a policy keeps one domain`,
      { hint: 'Give the policy another name, or delete the old one first (hubctl policy delete).' },
    );
  }
}

const isDeny = (r: AuthoredRule) => r.decision === 'deny';

interface RuleContext {
  want: AuthoredPolicy;
  have: LivePolicy | undefined;
  /** The policy's scope changes: its allows leave before and come back after. */
  scopeMoves: boolean;
  /** Some scope narrows in this plan: an allow that changes is removed and added, not patched. */
  narrows: boolean;
}

function planRules(c: RuleContext, steps: Step[]): void {
  const { want, have } = c;
  const policy = want.name;
  const haveRules = have?.rules ?? [];
  const wantRules = want.rules ?? [];
  const wantByName = new Map(wantRules.map((r) => [r.name, r]));
  // A rule is matched by name. Two live rules of one name (a re-run after a failed replace): the one
  // equal to the file's is kept, the others are removed.
  const matched = new Map<string, number>();
  const extra: number[] = [];
  haveRules.forEach((r, i) => {
    const w = wantByName.get(r.name);
    const prev = matched.get(r.name);
    if (!w) return;
    if (prev === undefined) matched.set(r.name, i);
    else if (ruleDifferences(haveRules[prev]!, w).length > 0 && ruleDifferences(r, w).length === 0) {
      extra.push(prev);
      matched.set(r.name, i);
    } else extra.push(i);
  });
  const remove = (i: number, extraFields: { renamedTo?: string; reason?: StepReason }) => {
    const r = haveRules[i]!;
    steps.push({
      op: 'remove-rule',
      phase: isDeny(r) ? 6 : 2,
      policy,
      policyId: have!.id,
      ruleId: have!.ruleIds[i]!,
      rule: r,
      ...extraFields,
    });
  };
  const add = (r: AuthoredRule, extraFields: { renamedFrom?: string; reason?: StepReason }) => {
    steps.push({
      op: 'add-rule',
      phase: isDeny(r) ? 1 : 5,
      policy,
      ...(have ? { policyId: have.id } : {}),
      rule: r,
      ...extraFields,
    });
  };
  const removed = haveRules.map((r, i) => ({ r, i })).filter((x) => !wantByName.has(x.r.name));
  const added = wantRules.filter((r) => !matched.has(r.name));
  // A rename is a remove plus an add; the plan says so when the content is the same.
  const addedByKey = new Map<string, string>();
  for (const r of added) if (!addedByKey.has(ruleKey(r))) addedByKey.set(ruleKey(r), r.name);
  const renames = new Map<string, string>();
  for (const { r } of removed) {
    const to = addedByKey.get(ruleKey(r));
    if (to !== undefined) {
      renames.set(r.name, to);
      addedByKey.delete(ruleKey(r));
    }
  }
  const renamedFrom = new Map([...renames].map(([from, to]) => [to, from]));
  for (const { r, i } of removed) remove(i, renames.has(r.name) ? { renamedTo: renames.get(r.name) } : {});
  for (const i of extra) remove(i, { reason: 'duplicate' });
  for (const r of added) add(r, renamedFrom.has(r.name) ? { renamedFrom: renamedFrom.get(r.name) } : {});
  for (const [name, i] of matched) {
    const from = haveRules[i]!;
    const to = wantByName.get(name)!;
    const fields = ruleDifferences(from, to);
    const moves = c.scopeMoves && !isDeny(from);
    if (fields.length === 0) {
      // an unchanged allow of a policy whose scope changes leaves and comes back
      if (moves) {
        remove(i, { reason: 'scope' });
        add(to, { reason: 'scope' });
      }
      continue;
    }
    const base = {
      op: 'change-rule' as const,
      policy,
      policyId: have!.id,
      ruleId: have!.ruleIds[i]!,
      from,
      to,
      fields,
    };
    if (!isDeny(from) && isDeny(to)) {
      steps.push({ ...base, phase: 1, how: 'patch' }); // closes: an allow becomes a deny
    } else if (isDeny(from) && !isDeny(to) && !moves) {
      steps.push({ ...base, phase: 5, how: 'patch' }); // every allow of the end state is in place
    } else if (isDeny(from)) {
      // a deny that changes: its new version first, its old one last
      steps.push({ ...base, phase: isDeny(to) ? 1 : 5, how: 'replace' });
      remove(i, { reason: 'replaced' });
    } else if (moves || c.narrows) {
      remove(i, { reason: 'replaced' });
      steps.push({ ...base, phase: 5, how: 'replace' });
    } else {
      steps.push({ ...base, phase: 5, how: 'patch' });
    }
  }
}

/** Scope `a` covers every member `b` covers: org-wide covers all. */
function covers(a: Scope, b: Scope): boolean {
  const at = a.teams ?? [];
  const bt = b.teams ?? [];
  if (at.length === 0) return true;
  if (bt.length === 0) return false;
  return bt.every((t) => at.includes(t));
}

function union(a: Scope, b: Scope): Scope {
  const at = a.teams ?? [];
  const bt = b.teams ?? [];
  if (at.length === 0 || bt.length === 0) return {};
  return { teams: sorted([...new Set([...at, ...bt])]) };
}

/** A scope change as one or two writes: widen (phase 3) to the union, then narrow (phase 4). */
function scopeSteps(want: AuthoredPolicy, have: LivePolicy, steps: Step[]): void {
  const from = have.scope;
  const to = want.scope;
  const base = { op: 'update-policy' as const, policy: want.name, policyId: have.id };
  if (covers(to, from)) {
    steps.push({ ...base, phase: 3, scope: { from, to } });
  } else if (covers(from, to)) {
    steps.push({ ...base, phase: 4, scope: { from, to } });
  } else {
    const wide = union(from, to);
    steps.push({ ...base, phase: 3, scope: { from, to: wide } });
    steps.push({ ...base, phase: 4, scope: { from: wide, to } });
  }
}

/**
 * The plan that makes the organization (`live`) match the authored policies. Throws
 * ValidationError or ConflictError, before any write, for what cannot be applied.
 */
export function planChanges(
  authored: readonly AuthoredPolicy[],
  live: readonly LivePolicy[],
  opts: PlanOptions = {},
): Plan {
  checkAuthored(authored);
  const liveByName = new Map(live.map((p) => [p.name, p]));
  const wanted = new Set(authored.map((p) => p.name));
  const steps: Step[] = [];
  const scopeChanges = authored.filter((w) => {
    const h = liveByName.get(w.name);
    return h !== undefined && !sameScope(h.scope, w.scope);
  });
  const narrows = scopeChanges.some((w) => !covers(w.scope, liveByName.get(w.name)!.scope));
  for (const want of authored) {
    const have = liveByName.get(want.name);
    if (have) checkAgainstLive(want, have);
    if (!have) {
      steps.push({
        op: 'create-policy',
        phase: 0,
        policy: want.name,
        scope: want.scope,
        ...(want.cedar_v1 ? { cedar_v1: want.cedar_v1 } : {}),
      });
    } else {
      const scopeMoves = !sameScope(have.scope, want.scope);
      if (scopeMoves) scopeSteps(want, have, steps);
      if (want.cedar_v1 && have.cedar_v1 && !sameCedar(have.cedar_v1, want.cedar_v1)) {
        steps.push({
          op: 'update-policy',
          phase: 5,
          policy: want.name,
          policyId: have.id,
          cedar_v1: { from: have.cedar_v1, to: want.cedar_v1 },
        });
      }
    }
    if (!want.cedar_v1) {
      const scopeMoves = have !== undefined && !sameScope(have.scope, want.scope);
      planRules({ want, have, scopeMoves, narrows }, steps);
    }
  }
  const doomed = opts.prune ? live.filter((p) => !wanted.has(p.name)) : [];
  for (const p of doomed) {
    // Its allows go with the other removed allows; the policy, with its denies, goes last.
    (p.rules ?? []).forEach((r, i) => {
      if (isDeny(r)) return;
      steps.push({
        op: 'remove-rule',
        phase: 2,
        policy: p.name,
        policyId: p.id,
        ruleId: p.ruleIds[i]!,
        rule: r,
        reason: 'policy-deleted',
      });
    });
    steps.push({
      op: 'delete-policy',
      phase: 7,
      policy: p.name,
      policyId: p.id,
      rules: p.rules?.length ?? 0,
    });
  }
  const total = live.length - doomed.length + steps.filter((s) => s.op === 'create-policy').length;
  if (total > MAX_PLAN_POLICIES) {
    throw new ConflictError(
      `the organization would hold ${total} policies; it holds at most ${MAX_PLAN_POLICIES}`,
      { hint: opts.prune ? undefined : 'Policies that no file holds stay unless --prune is given.' },
    );
  }
  steps.sort((a, b) => a.phase - b.phase);
  const unmanaged = opts.prune ? [] : live.filter((p) => !wanted.has(p.name)).map((p) => p.name);
  return { steps, differs: steps.length > 0, unmanaged };
}

/** The steps of each phase, in order, skipping empty phases. */
export function phasesOf(plan: Plan): Step[][] {
  const out: Step[][] = [];
  for (const s of plan.steps) {
    const last = out[out.length - 1];
    if (last && last[0]!.phase === s.phase) last.push(s);
    else out.push([s]);
  }
  return out;
}

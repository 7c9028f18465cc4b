// The plan of governance-as-code: what turns the organization's policies into the authored ones,
// as writes in a safe order. At every intermediate state, whatever a member is allowed was allowed
// before or is allowed after (test/policy/plan-property.test.ts checks it with the naive
// evaluator, steps of one phase in any order). Closing writes go first (denies added or grown,
// allows removed or shrunk); scopes change; opening writes follow (allows added and changed), then
// denies are removed, shrunk or turned into allows; deletes come last. Each step is one write, and
// a rule keeps its id wherever a PATCH can make its change safely: a rename, a scope change (the
// policy's allows stay in it, unless another policy's denies reach the same new members in the
// same phase), a deny that only grows or only shrinks, an allow whose old version would reach no
// one new. Otherwise the new version is added as a new rule and the old one removed. Pure: no IO.
import { ConflictError, ValidationError } from '../errors.js';
import type { AuthoredPolicy, AuthoredRule, LivePolicy } from './authored.js';
import { type CedarV1, httpResourceText, type Scope } from './model.js';

export const MAX_PLAN_POLICIES = 100;
export const MAX_PLAN_RULES = 250;

/**
 * Phases, in write order; the steps of one phase may run concurrently.
 * 0 create policies (empty) · 1 add and grow denies, turn allows into denies, rename rules ·
 * 2 remove and shrink allows, change allows whose members all keep them · 3 widen scopes ·
 * 4 narrow scopes · 5 Cedar changes, add and change allows · 6 remove and shrink denies, turn
 * denies into allows · 7 delete policies.
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
      /** Set when the add is part of a scope change, not a new rule. */
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
      /** The fields that change (`name` first for a renamed rule); a `patch` sends these. */
      fields: string[];
      /** `replace`: the new version is added (this step) and the old one removed by its own step. */
      how: 'patch' | 'replace';
    }
  | {
      op: 'remove-rule';
      phase: Phase;
      policy: string;
      policyId: string;
      ruleId: string;
      rule: AuthoredRule;
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

/** What a plan's scope changes mean for the rules of one policy. */
interface RuleContext {
  want: AuthoredPolicy;
  have: LivePolicy | undefined;
  /** The policy gains members (its scope widens, or moves to other teams). */
  gains: boolean;
  /** The policy loses members (its scope narrows, or moves to other teams). */
  loses: boolean;
  /** Another policy holding a deny gains members: its denies reach them only in phase 3. */
  otherDenyGains: boolean;
  /** Some policy holding a deny loses members in phase 4: what it blocked for them opens. */
  denyLoses: boolean;
}

/** Every list of `b` is within the same list of `a` (compared as sets of text). */
function within(a: AuthoredRule, b: AuthoredRule): boolean {
  const kindA = a.http_resources ? 'h' : 'r';
  const kindB = b.http_resources ? 'h' : 'r';
  if (kindA !== kindB) return false;
  const res = new Set(ruleResourceTexts(a));
  const acts = new Set(a.actions);
  return b.actions.every((x) => acts.has(x)) && ruleResourceTexts(b).every((x) => res.has(x));
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
  const remove = (i: number, reason?: StepReason) => {
    const r = haveRules[i]!;
    steps.push({
      op: 'remove-rule',
      phase: isDeny(r) ? 6 : 2,
      policy,
      policyId: have!.id,
      ruleId: have!.ruleIds[i]!,
      rule: r,
      ...(reason ? { reason } : {}),
    });
  };
  const add = (r: AuthoredRule, reason?: StepReason) => {
    steps.push({
      op: 'add-rule',
      phase: isDeny(r) ? 1 : 5,
      policy,
      ...(have ? { policyId: have.id } : {}),
      rule: r,
      ...(reason ? { reason } : {}),
    });
  };
  // A renamed rule of the same content keeps its id: a PATCH of its name.
  const pairs: [number, AuthoredRule][] = [...matched].map(([name, i]) => [i, wantByName.get(name)!]);
  const unmatched = haveRules.map((r, i) => ({ r, i })).filter((x) => !wantByName.has(x.r.name));
  const fresh = wantRules.filter((r) => !matched.has(r.name));
  const freshByKey = new Map<string, AuthoredRule[]>();
  for (const r of fresh) freshByKey.set(ruleKey(r), [...(freshByKey.get(ruleKey(r)) ?? []), r]);
  const renamed = new Set<AuthoredRule>();
  for (const { r, i } of unmatched) {
    const to = freshByKey.get(ruleKey(r))?.shift();
    if (to === undefined) remove(i);
    else {
      renamed.add(to);
      pairs.push([i, to]);
    }
  }
  for (const i of extra) remove(i, 'duplicate');
  for (const r of fresh) if (!renamed.has(r)) add(r);
  // While the policy widens in phase 3, its allows reach new members; if another policy's denies
  // reach them in that same phase, in some order they would arrive first: the allows step out.
  const allowsStepOut = c.gains && c.otherDenyGains;
  for (const [i, to] of pairs) {
    const from = haveRules[i]!;
    const fields = ruleDifferences(from, to);
    if (from.name !== to.name) fields.unshift('name');
    const base = {
      op: 'change-rule' as const,
      policy,
      policyId: have!.id,
      ruleId: have!.ruleIds[i]!,
      from,
      to,
      fields,
    };
    const content = fields.filter((f) => f !== 'name');
    if (!isDeny(from) && !isDeny(to) && allowsStepOut) {
      if (fields.length === 0) {
        remove(i, 'scope');
        add(to, 'scope');
      } else {
        remove(i, 'replaced');
        steps.push({ ...base, phase: 5, how: 'replace' });
      }
      continue;
    }
    if (fields.length === 0) continue;
    let phase: Phase | undefined;
    if (content.length === 0)
      phase = 1; // a name alone decides nothing
    else if (!isDeny(from) && isDeny(to))
      phase = 1; // closes: an allow becomes a deny
    else if (isDeny(from) && !isDeny(to))
      phase = 6; // opens: once every allow and scope is final
    else if (isDeny(from)) {
      // a deny that only grows closes (early); one that only shrinks opens (late)
      if (within(to, from)) phase = 1;
      else if (within(from, to)) phase = 6;
    } else if (within(from, to)) {
      phase = 2; // an allow that only shrinks closes
    } else if (!c.gains && !c.denyLoses) {
      phase = 5; // its old version reaches no one new, and no deny leaves anyone before it goes
    } else if (!c.loses && !c.otherDenyGains) {
      phase = 2; // every member it reaches now keeps it, and every deny of theirs is in place
    }
    if (phase !== undefined) {
      steps.push({ ...base, phase, how: 'patch' });
    } else if (isDeny(from)) {
      // a deny that changes both ways: its new version first, its old one last
      steps.push({ ...base, phase: 1, how: 'replace' });
      remove(i, 'replaced');
    } else {
      remove(i, 'replaced');
      steps.push({ ...base, phase: 5, how: 'replace' });
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
  const holdsDeny = (name: string) =>
    [liveByName.get(name)?.rules, authored.find((a) => a.name === name)?.rules].some((rs) =>
      (rs ?? []).some(isDeny),
    );
  const moves = new Map<string, { gains: boolean; loses: boolean }>();
  for (const w of authored) {
    const h = liveByName.get(w.name);
    if (h === undefined || sameScope(h.scope, w.scope)) continue;
    moves.set(w.name, { gains: !covers(h.scope, w.scope), loses: !covers(w.scope, h.scope) });
  }
  const denyGainers = [...moves].filter(([name, m]) => m.gains && holdsDeny(name)).map(([name]) => name);
  const denyLoses = [...moves].some(([name, m]) => m.loses && holdsDeny(name));
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
      if (moves.has(want.name)) scopeSteps(want, have, steps);
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
      const m = moves.get(want.name);
      planRules(
        {
          want,
          have,
          gains: m?.gains ?? false,
          loses: m?.loses ?? false,
          otherDenyGains: denyGainers.some((n) => n !== want.name),
          denyLoses,
        },
        steps,
      );
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

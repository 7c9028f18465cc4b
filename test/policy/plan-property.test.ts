// The write order of `policy apply`, proven on generated before/after pairs: at every intermediate
// state (steps of a phase in any order, as concurrency may run them), everything the naive evaluator
// allows was allowed before or is allowed after, for every member. The end state is the authored
// one, and planning again finds nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthoredPolicy, AuthoredRule, LivePolicy } from '../../src/policy/authored.js';
import { applicablePolicies, type PolicyDoc } from '../../src/policy/document.js';
import { phasesOf, planChanges, type Step } from '../../src/policy/plan.js';
import { naiveEvaluate } from '../support/naive-evaluator.js';

const TEAMS = ['t1', 't2'];
const MEMBERS = [[], ['t1'], ['t2'], ['t1', 't2']];
const HOSTS = ['a.test', 'b.test', 'c.test', 'x.a.test'];
const RESOURCES = ['a.test', 'b.test', 'c.test', '*.a.test', '**'];
const POLICY_NAMES = ['p0', 'p1', 'p2', 'p3'];
const RULE_NAMES = ['r0', 'r1', 'r2', 'r3', 'r4'];

const rule = (name: string) =>
  fc.record({
    name: fc.constant(name),
    actions: fc.constant(['connect:tcp']),
    decision: fc.constantFrom('allow', 'deny'),
    resources: fc.subarray(RESOURCES, { minLength: 1, maxLength: 2 }),
  });
const rules = fc
  .subarray(RULE_NAMES, { maxLength: 4 })
  .chain((names) => fc.tuple(...names.map(rule)))
  .map((rs) => rs.map((r) => ({ ...r, actions: [...r.actions] })) as AuthoredRule[]);
const policy = (name: string) =>
  fc.record({
    name: fc.constant(name),
    scope: fc.subarray(TEAMS).map((teams) => (teams.length ? { teams } : {})),
    rules,
    source: fc.constant('gen'),
  });
const policySet = fc
  .subarray(POLICY_NAMES, { maxLength: 4 })
  .chain((names) => fc.tuple(...names.map(policy)))
  .map((ps) => ps as AuthoredPolicy[]);

let ids = 0;
function toLive(ps: AuthoredPolicy[]): LivePolicy[] {
  return ps.map((p) => ({
    ...structuredClone(p),
    id: `pol_${++ids}`,
    type: 'allowlist_v0',
    ruleIds: (p.rules ?? []).map(() => `rule_${++ids}`),
  }));
}

/** Applies one step to the emulated organization (what the API calls would do). */
function applyStep(state: LivePolicy[], s: Step): void {
  const find = (name: string) => state.find((p) => p.name === name)!;
  switch (s.op) {
    case 'create-policy':
      state.push({
        name: s.policy,
        scope: s.scope,
        rules: [],
        source: 'x',
        id: `pol_${++ids}`,
        type: 'allowlist_v0',
        ruleIds: [],
      });
      return;
    case 'update-policy':
      if (s.scope) find(s.policy).scope = s.scope.to;
      return;
    case 'delete-policy':
      state.splice(state.indexOf(find(s.policy)), 1);
      return;
    case 'add-rule': {
      const p = find(s.policy);
      p.rules!.push(s.rule);
      p.ruleIds.push(`rule_${++ids}`);
      return;
    }
    case 'change-rule': {
      const p = find(s.policy);
      if (s.how === 'patch') p.rules![p.ruleIds.indexOf(s.ruleId)] = s.to;
      else {
        p.rules!.push(s.to);
        p.ruleIds.push(`rule_${++ids}`);
      }
      return;
    }
    case 'remove-rule': {
      const p = find(s.policy);
      const i = p.ruleIds.indexOf(s.ruleId);
      p.rules!.splice(i, 1);
      p.ruleIds.splice(i, 1);
    }
  }
}

const docs = (ps: readonly AuthoredPolicy[]): PolicyDoc[] =>
  ps.map((p) => ({
    name: p.name,
    source: 'gen',
    type: 'allowlist_v0',
    scope: p.scope,
    rules: (p.rules ?? []).map((r) => ({ ...r, resources: r.resources ?? [], domain: 'network' as const })),
  }));

function allowedSet(ps: readonly AuthoredPolicy[]): Set<string> {
  const all = docs(ps);
  const out = new Set<string>();
  for (const m of MEMBERS) {
    const applicable = applicablePolicies(all, m);
    for (const host of HOSTS) {
      if (naiveEvaluate(applicable, 'connect:tcp', host).decision === 'allow')
        out.add(`${m.join('+')} ${host}`);
    }
  }
  return out;
}

/**
 * Plans `after` over `before`, applies it a phase at a time (the steps of a phase in the order
 * `order` picks) and checks every intermediate state; returns the plan.
 */
function checkPlan(
  before: AuthoredPolicy[],
  after: AuthoredPolicy[],
  prune: boolean,
  order: (phase: Step[]) => Step[],
): ReturnType<typeof planChanges> {
  const live = toLive(before);
  const plan = planChanges(after, live, { prune });
  const allowedBefore = allowedSet(live);
  // without --prune, the end state keeps the policies no file holds
  const end = prune ? after : [...after, ...live.filter((p) => !after.some((a) => a.name === p.name))];
  const allowedAfter = allowedSet(end);
  const state = structuredClone(live);
  for (const phase of phasesOf(plan)) {
    for (const step of order(phase)) {
      applyStep(state, step);
      for (const key of allowedSet(state)) {
        if (!allowedBefore.has(key) && !allowedAfter.has(key)) {
          throw new Error(
            `after ${step.op} of ${step.policy}, "${key}" is allowed, neither before nor after`,
          );
        }
      }
    }
  }
  expect(allowedSet(state)).toEqual(allowedAfter);
  expect(planChanges(after, state, { prune }).steps).toEqual([]);
  return plan;
}

const allow = (name: string, ...resources: string[]): AuthoredRule => ({
  name,
  actions: ['connect:tcp'],
  decision: 'allow',
  resources,
});
const deny = (name: string, ...resources: string[]): AuthoredRule => ({
  ...allow(name, ...resources),
  decision: 'deny',
});
const pol = (name: string, teams: string[], rules: AuthoredRule[]): AuthoredPolicy => ({
  name,
  scope: teams.length ? { teams } : {},
  rules,
  source: 'fixed',
});
const bothOrders = [(p: Step[]) => [...p], (p: Step[]) => [...p].reverse()];

describe('policy apply write order', () => {
  it('never opens the organization beyond before ∪ after, at any intermediate state', () => {
    fc.assert(
      fc.property(
        policySet,
        policySet,
        fc.boolean(),
        fc.infiniteStream(fc.nat()),
        (before, after, prune, rnd) => {
          const random = rnd[Symbol.iterator]();
          // concurrency may run the steps of a phase in any order
          checkPlan(before, after, prune, (phase) => [...phase].sort(() => (random.next().value % 3) - 1));
        },
      ),
      { numRuns: Number(process.env.PLAN_RUNS ?? 300) },
    );
  });

  it('widens a scope with one PATCH: the rules stay, with their ids', () => {
    for (const order of bothOrders) {
      const plan = checkPlan(
        [pol('p', ['t1'], [allow('a', 'a.test'), deny('d', 'b.test')])],
        [pol('p', [], [allow('a', 'a.test'), deny('d', 'b.test')])],
        false,
        order,
      );
      expect(plan.steps.map((s) => s.op)).toEqual(['update-policy']);
    }
  });

  it("takes a widening policy's allows out while another policy's denies reach the same members", () => {
    for (const order of bothOrders) {
      const plan = checkPlan(
        [pol('p', ['t1'], [allow('a', 'a.test')]), pol('q', ['t1'], [deny('d', 'a.test')])],
        [pol('p', [], [allow('a', 'a.test')]), pol('q', [], [deny('d', 'a.test')])],
        false,
        order,
      );
      expect(plan.steps.map((s) => `${s.op} ${s.policy}`).sort()).toEqual(
        ['add-rule p', 'remove-rule p', 'update-policy p', 'update-policy q'].sort(),
      );
    }
  });

  it('turns a deny into an allow only once the allows it held back are final', () => {
    // before: d blocks a.test that x allows; after: neither allows a.test
    for (const order of bothOrders) {
      checkPlan(
        [pol('p', [], [deny('d', 'a.test')]), pol('q', [], [allow('x', 'a.test')])],
        [pol('p', [], [allow('d', 'b.test')]), pol('q', [], [allow('x', 'c.test')])],
        false,
        order,
      );
    }
  });

  it('patches a deny that only grows early and one that only shrinks late; changes both ways by replacing', () => {
    const grows = checkPlan(
      [pol('p', [], [deny('d', 'a.test')])],
      [pol('p', [], [deny('d', 'a.test', 'b.test')])],
      false,
      (p) => p,
    );
    expect(grows.steps).toMatchObject([{ op: 'change-rule', how: 'patch', phase: 1 }]);
    const shrinks = checkPlan(
      [pol('p', [], [deny('d', 'a.test', 'b.test')])],
      [pol('p', [], [deny('d', 'a.test')])],
      false,
      (p) => p,
    );
    expect(shrinks.steps).toMatchObject([{ op: 'change-rule', how: 'patch', phase: 6 }]);
    const moves = checkPlan(
      [pol('p', [], [deny('d', 'a.test')])],
      [pol('p', [], [deny('d', 'b.test')])],
      false,
      (p) => p,
    );
    expect(moves.steps).toMatchObject([
      { op: 'change-rule', how: 'replace', phase: 1 },
      { op: 'remove-rule', reason: 'replaced', phase: 6 },
    ]);
  });
});

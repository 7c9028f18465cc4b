// The evaluator hands Cedar only the policies whose scope may match a request, and leaves out the
// context fields and attributes no policy names: both must change nothing. Property: for random
// policy sets and requests, its answer is the one Cedar gives for the whole set and the whole
// request (the decision, the deciding policies, the erroring ones), with the documented reading of
// @requireApproval on top.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cedarCall } from '../../../src/policy/cedar/request.js';
import {
  compileCedar,
  loadCedar,
  MCP_SCHEMA_URL,
  McpEvaluator,
  type McpRequest,
} from '../../../src/policy/index.js';

const NOW = '2026-11-26T12:00:00.000Z';
const ACTIONS = ['register', 'invokeTool', 'invokePrimordial', 'readResource', 'getPrompt'] as const;

const effect = fc.constantFrom('permit', 'forbid');
const annotation = fc.constantFrom('', '@requireApproval("r") ', '@requireConsent("c") ');
const principal = fc.constantFrom('principal', 'principal', 'principal in MCP::Team::"t"');
const action = fc.constantFrom(
  'action',
  ...ACTIONS.map((a) => `action == MCP::Action::"${a}"`),
  'action in [MCP::Action::"invokeTool", MCP::Action::"register"]',
);
const resource = fc.constantFrom(
  'resource',
  'resource in MCP::Server::"s1"',
  'resource == MCP::Tool::"t1"',
  'resource == MCP::Server::"s2"',
  'resource is MCP::Tool',
  'resource is MCP::Tool in MCP::Server::"s2"',
  'resource in MCP::Primordial::"code-mode"',
);
const condition = fc.constantFrom(
  '',
  'when { resource.readOnly }',
  'when { resource.name == "t1" }',
  'when { context.args.amount > 5 }',
  'when { context has args && context.args has amount && context.args.amount > 5 }',
  'when { context.request_time > datetime("2000-01-01") }',
  'when { resource.uri like "file://*" }',
  'unless { resource.destructive }',
  'when { resource.type == "local-stdio" }',
  'when { principal.role == "admin" }',
);
const policy = fc
  .tuple(annotation, effect, principal, action, resource, condition)
  .map(([a, e, p, ac, r, c]) => `${a}${e} (${p}, ${ac}, ${r}) ${c};`);

const request: fc.Arbitrary<McpRequest> = fc
  .tuple(
    fc.constantFrom(...ACTIONS),
    fc.constantFrom('s1', 's2'),
    fc.constantFrom('t1', 't2'),
    fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
    fc.boolean(),
    fc.constantFrom('local-stdio', 'remote-dcr'),
  )
  .map(([a, server, tool, amount, readOnly, type]): McpRequest => {
    switch (a) {
      case 'register':
        return { action: a, destination: server, attrs: { type } };
      case 'invokeTool':
        return {
          action: a,
          destination: `${server}/${tool}`,
          attrs: { readOnly },
          ...(amount === undefined ? {} : { args: { amount } }),
        };
      case 'invokePrimordial':
        return { action: a, destination: tool === 't1' ? 'code-mode' : 'mcp-exec' };
      case 'readResource':
        return { action: a, destination: `file:///${tool}`, server };
      default:
        return { action: 'getPrompt', destination: tool, server };
    }
  });

describe('the evaluator gives Cedar’s own answer', () => {
  it('for random policy sets and requests', async () => {
    const cedar = await loadCedar();
    await fc.assert(
      fc.asyncProperty(
        fc.array(policy, { minLength: 1, maxLength: 8 }),
        fc.array(request, { minLength: 1, maxLength: 6 }),
        async (texts, reqs) => {
          const text = texts.join('\n');
          const set = await compileCedar([
            { name: 'p', source: 'p.cedar', text, schemaUrl: MCP_SCHEMA_URL, firstLine: 1 },
          ]);
          const evaluator = new McpEvaluator(set, { now: NOW });
          const lineOf = new Map(set.policies.map((p) => [p.id, p.line]));
          const approval = new Set(set.policies.filter((p) => p.approval !== undefined).map((p) => p.line));
          const staticPolicies = Object.fromEntries(set.policies.map((p) => [p.id, p.text]));
          for (const req of reqs) {
            const call = cedarCall(req, NOW);
            const ref = cedar.isAuthorized({
              ...call,
              context: call.context as never,
              policies: { staticPolicies },
            });
            if (ref.type !== 'success') throw new Error(JSON.stringify(ref.errors));
            const { decision, diagnostics } = ref.response;
            const reasons = diagnostics.reason.map((id) => lineOf.get(id)!).sort();
            const errors = diagnostics.errors.map((e) => lineOf.get(e.policyId)!).sort();
            const ours = evaluator.decide(req);
            expect(ours.errors.map((e) => e.line).sort()).toEqual(errors);
            const approvals = reasons.filter((l) => approval.has(l));
            if (decision === 'deny') {
              expect(ours.decision).toBe('deny');
              expect(ours.policies.map((p) => p.line).sort()).toEqual(reasons);
            } else if (approvals.length === 0) {
              expect(ours.decision).toBe('allow');
              expect(ours.policies.map((p) => p.line).sort()).toEqual(reasons);
            } else {
              expect(ours.decision).toBe(req.action === 'register' ? 'deny' : 'approval-required');
              expect(ours.policies.map((p) => p.line).sort()).toEqual(approvals);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);
});

// The decider `policy test` and `policy replay` plug in: the documented decisions, from policy documents.
import { describe, expect, it } from 'vitest';
import { cedarDecider } from '../../../src/commands/policy/mcp-decider.js';
import { MCP_SCHEMA_URL, type PolicyDoc } from '../../../src/policy/index.js';

const doc: PolicyDoc = {
  name: 'mcp',
  source: 'mcp.yaml',
  type: 'cedar_v1',
  scope: {},
  rules: [],
  cedar_v1: {
    schema_url: MCP_SCHEMA_URL,
    text: [
      'permit (principal, action, resource);',
      '@requireApproval("payments move money")',
      'permit (principal, action == MCP::Action::"invokeTool", resource in MCP::Server::"stripe");',
      'forbid (principal, action, resource) when { context has args && context.args has amount && context.args.amount > 100 };',
    ].join('\n'),
  },
};

describe('cedarDecider', () => {
  it('answers allow, approval-required (with the reason) and deny, naming the policies', async () => {
    const decide = await cedarDecider([doc], new Date('2026-11-26T12:00:00Z'));
    expect(decide({ action: 'mcp:invokeTool', destination: 'notion/search' })).toEqual({
      decision: 'allow',
      reason: 'permitted by mcp.yaml (policy "mcp", Cedar line 1)',
      rules: [{ policy: 'mcp', rule: 'mcp.yaml (policy "mcp", Cedar line 1)' }],
    });
    expect(decide({ action: 'mcp:invokeTool', destination: 'stripe/refund' })).toMatchObject({
      decision: 'approval-required',
      reason: 'payments move money',
    });
    expect(
      decide({ action: 'mcp:invokeTool', destination: 'stripe/refund', mcp: { args: { amount: 500 } } })
        .decision,
    ).toBe('deny');
    expect(() =>
      decide({ action: 'mcp:invokeTool', destination: 'x', mcp: { attrs: { readonly: true } } }),
    ).toThrow(/not an attribute/);
  });

  it('denies by default without any cedar_v1 policy', async () => {
    const decide = await cedarDecider([], new Date());
    expect(decide({ action: 'mcp:register', destination: 'notion' }).decision).toBe('deny');
  });
});

// Every documented rule of MCP policies (shared/spec/audit-and-mcp.md §3) as a test. Each expected
// decision is worked out from the documentation's words, quoted beside it, not from the engine.
import { describe, expect, it } from 'vitest';
import {
  compileCedar,
  evaluateMcp,
  MCP_SCHEMA_URL,
  type McpDecision,
  mcpRequest,
} from '../../../src/policy/index.js';

const NOW = '2026-11-26T12:00:00.000Z';

async function decide(
  text: string,
  action: string,
  destination: string,
  opts: { attrs?: string[]; args?: string; server?: string } = {},
): Promise<McpDecision> {
  const set = await compileCedar([
    { name: 'p', source: 'p.cedar', text, schemaUrl: MCP_SCHEMA_URL, firstLine: 1 },
  ]);
  return evaluateMcp(set, mcpRequest(action, destination, opts), NOW);
}

const PERMIT_ALL = 'permit (principal, action, resource);';

describe('MCP policies, as documented', () => {
  it('default deny: "a request is blocked unless a permit matches"', async () => {
    expect((await decide('', 'mcp:invokeTool', 'notion/search')).decision).toBe('deny');
    const d = await decide(
      'permit (principal, action == MCP::Action::"invokeTool", resource) when { resource.name == "fetch" };',
      'mcp:invokeTool',
      'notion/search',
    );
    expect(d).toMatchObject({ decision: 'deny', policies: [], errors: [] });
  });

  it('"permit (principal, action, resource); matches every gated action"', async () => {
    expect((await decide(PERMIT_ALL, 'mcp:register', 'notion')).decision).toBe('allow');
    expect((await decide(PERMIT_ALL, 'mcp:invokeTool', 'notion/search')).decision).toBe('allow');
    expect((await decide(PERMIT_ALL, 'mcp:invokePrimordial', 'code-mode')).decision).toBe('allow');
    expect((await decide(PERMIT_ALL, 'mcp:readResource', 'file:///a', { server: 'fs' })).decision).toBe(
      'allow',
    );
    expect((await decide(PERMIT_ALL, 'mcp:getPrompt', 'summarize', { server: 'notion' })).decision).toBe(
      'allow',
    );
  });

  it('"a matching forbid beats every permit", and names it', async () => {
    const text = `${PERMIT_ALL}\nforbid (principal, action, resource) when { resource.name == "delete_page" };`;
    const d = await decide(text, 'mcp:invokeTool', 'notion/delete_page');
    expect(d.decision).toBe('deny');
    expect(d.policies).toEqual([
      { policy: 'p', source: 'p.cedar', line: 2, in_file: true, at: 'p.cedar:2', effect: 'forbid' },
    ]);
    expect((await decide(text, 'mcp:invokeTool', 'notion/search')).decision).toBe('allow');
  });

  it('approval-required "beats a plain permit and loses to a forbid"; the reason is shown', async () => {
    const approval =
      '@requireApproval("payments move money")\npermit (principal, action == MCP::Action::"invokeTool", resource in MCP::Server::"stripe");';
    const both = `${PERMIT_ALL}\n${approval}`;
    const d = await decide(both, 'mcp:invokeTool', 'stripe/refund');
    expect(d).toMatchObject({ decision: 'approval-required', reason: 'payments move money' });
    expect(d.policies.map((p) => p.line)).toEqual([2]);
    expect((await decide(both, 'mcp:invokeTool', 'notion/search')).decision).toBe('allow');
    const forbidden = `${both}\nforbid (principal, action, resource in MCP::Server::"stripe");`;
    expect((await decide(forbidden, 'mcp:invokeTool', 'stripe/refund')).decision).toBe('deny');
  });

  it('"where no one can be asked (a registration), it is a denial"', async () => {
    const d = await decide(
      '@requireApproval("new servers need review")\npermit (principal, action, resource);',
      'mcp:register',
      'notion',
    );
    expect(d).toMatchObject({ decision: 'deny', reason: 'new servers need review' });
  });

  it('"only that exact annotation name counts (@requireConsent does nothing)"', async () => {
    const d = await decide(
      '@requireConsent("ask first")\npermit (principal, action, resource);',
      'mcp:invokeTool',
      'a/b',
    );
    expect(d.decision).toBe('allow');
    expect(d.reason).toBeUndefined();
  });

  it('"a name rule matches that tool on every server"', async () => {
    const text =
      'permit (principal, action == MCP::Action::"invokeTool", resource) when { resource.name == "search" };';
    expect((await decide(text, 'mcp:invokeTool', 'notion/search')).decision).toBe('allow');
    expect((await decide(text, 'mcp:invokeTool', 'github/search')).decision).toBe('allow');
    expect((await decide(text, 'mcp:invokeTool', 'github/search_code')).decision).toBe('deny');
  });

  it('a tool belongs to its server: `resource in MCP::Server::"notion"`', async () => {
    const text =
      'permit (principal, action == MCP::Action::"invokeTool", resource in MCP::Server::"notion");';
    expect((await decide(text, 'mcp:invokeTool', 'notion/search')).decision).toBe('allow');
    expect((await decide(text, 'mcp:invokeTool', 'github/search')).decision).toBe('deny');
  });

  it('a primordial is "matched by entity reference: resource in MCP::Primordial::"code-mode""', async () => {
    const text =
      'permit (principal, action == MCP::Action::"invokePrimordial", resource in MCP::Primordial::"code-mode");';
    expect((await decide(text, 'mcp:invokePrimordial', 'code-mode')).decision).toBe('allow');
    expect((await decide(text, 'mcp:invokePrimordial', 'mcp-exec')).decision).toBe('deny');
  });

  it('"like takes * as its wildcard over the whole string (? is literal, \\* a literal star)"', async () => {
    const text =
      'permit (principal, action == MCP::Action::"readResource", resource) when { resource.uri like "file:///docs/*" };';
    const fs = { server: 'fs' };
    expect((await decide(text, 'mcp:readResource', 'file:///docs/a/b/c.md', fs)).decision).toBe('allow');
    expect((await decide(text, 'mcp:readResource', 'file:///etc/passwd', fs)).decision).toBe('deny');
    const q = 'permit (principal, action, resource) when { resource.uri like "https://x.example/?" };';
    expect((await decide(q, 'mcp:readResource', 'https://x.example/a', fs)).decision).toBe('deny');
    expect((await decide(q, 'mcp:readResource', 'https://x.example/?', fs)).decision).toBe('allow');
    const star = 'permit (principal, action, resource) when { resource.uri like "s3://b/\\*" };';
    expect((await decide(star, 'mcp:readResource', 's3://b/*', fs)).decision).toBe('allow');
    expect((await decide(star, 'mcp:readResource', 's3://b/key', fs)).decision).toBe('deny');
  });

  const GUARDED = `${PERMIT_ALL}
forbid (principal, action == MCP::Action::"invokeTool", resource)
  when { context has args && context.args has amount && context.args.amount > 100 };`;

  it('guarded context.args: a forbid blocks the calls it names, and nothing errors without args', async () => {
    expect(
      (await decide(GUARDED, 'mcp:invokeTool', 'stripe/refund', { args: '{"amount": 500}' })).decision,
    ).toBe('deny');
    expect(
      (await decide(GUARDED, 'mcp:invokeTool', 'stripe/refund', { args: '{"amount": 5}' })).decision,
    ).toBe('allow');
    const none = await decide(GUARDED, 'mcp:invokeTool', 'stripe/refund');
    expect(none).toMatchObject({ decision: 'allow', errors: [] });
  });

  it('"a forbid gated on missing arguments does not block" — and the answer names it', async () => {
    const text = `${PERMIT_ALL}\nforbid (principal, action, resource) when { context.args.amount > 100 };`;
    const d = await decide(text, 'mcp:invokeTool', 'stripe/refund');
    expect(d.decision).toBe('allow');
    expect(d.errors).toEqual([expect.objectContaining({ effect: 'forbid', line: 2, at: 'p.cedar:2' })]);
    expect(d.errors[0]!.message).toMatch(/args/);
    expect(d.summary).toContain('a forbid errored and did not apply: p.cedar:2');
  });

  it('"a permit gated on missing arguments does not match (default deny)"', async () => {
    const text = 'permit (principal, action, resource) when { context.args.dry_run == true };';
    const d = await decide(text, 'mcp:invokeTool', 'deploy/run');
    expect(d.decision).toBe('deny');
    expect(d.errors).toHaveLength(1);
    expect((await decide(text, 'mcp:invokeTool', 'deploy/run', { args: '{"dry_run": true}' })).decision).toBe(
      'allow',
    );
  });

  it('"clauses about the principal never match"', async () => {
    expect(
      (await decide('permit (principal in MCP::Team::"eng", action, resource);', 'mcp:register', 'n'))
        .decision,
    ).toBe('deny');
    expect(
      (await decide('permit (principal == MCP::User::"alice", action, resource);', 'mcp:register', 'n'))
        .decision,
    ).toBe('deny');
    expect(
      (
        await decide(
          'permit (principal, action, resource) when { principal.role == "admin" };',
          'mcp:register',
          'n',
        )
      ).decision,
    ).toBe('deny');
    // …so a forbid about the principal never blocks
    const forbid = `${PERMIT_ALL}\nforbid (principal in MCP::Team::"contractors", action, resource);`;
    expect((await decide(forbid, 'mcp:register', 'n')).decision).toBe('allow');
  });

  it('tool attributes take their documented defaults: readOnly false, destructive true, idempotent false, openWorld true', async () => {
    const by = (cond: string) =>
      `permit (principal, action == MCP::Action::"invokeTool", resource) when { ${cond} };`;
    expect((await decide(by('resource.readOnly'), 'mcp:invokeTool', 'a/b')).decision).toBe('deny');
    expect((await decide(by('resource.destructive'), 'mcp:invokeTool', 'a/b')).decision).toBe('allow');
    expect((await decide(by('resource.idempotent'), 'mcp:invokeTool', 'a/b')).decision).toBe('deny');
    expect((await decide(by('resource.openWorld'), 'mcp:invokeTool', 'a/b')).decision).toBe('allow');
    expect(
      (await decide(by('resource.readOnly'), 'mcp:invokeTool', 'a/b', { attrs: ['readOnly=true'] })).decision,
    ).toBe('allow');
    expect(
      (await decide(by('resource.destructive'), 'mcp:invokeTool', 'a/b', { attrs: ['destructive=false'] }))
        .decision,
    ).toBe('deny');
  });

  it('"context.request_time" is there on tool calls, not on register: a register permit on it never matches', async () => {
    const text =
      'permit (principal, action in [MCP::Action::"register", MCP::Action::"invokeTool"], resource) when { context.request_time > datetime("2000-01-01") };';
    expect((await decide(text, 'mcp:invokeTool', 'a/b')).decision).toBe('allow');
    expect((await decide(text, 'mcp:register', 'a')).decision).toBe('deny');
  });

  it('".contains() is for sets only": on a server\'s args it works, on a string it errors', async () => {
    const set =
      'permit (principal, action == MCP::Action::"register", resource) when { resource.args.contains("--read-only") };';
    expect((await decide(set, 'mcp:register', 'fs', { attrs: ['args=["--read-only"]'] })).decision).toBe(
      'allow',
    );
    const str = 'permit (principal, action, resource) when { resource.name.contains("search") };';
    const d = await decide(str, 'mcp:invokeTool', 'notion/search');
    expect(d.decision).toBe('deny');
    expect(d.errors).toHaveLength(1);
  });

  it('server attributes are what the request says; `type` is one of the documented four', async () => {
    const text =
      'permit (principal, action == MCP::Action::"register", resource) when { resource.type == "remote-dcr" && resource.requiresOAuth };';
    expect(
      (await decide(text, 'mcp:register', 'notion', { attrs: ['type=remote-dcr', 'requiresOAuth=true'] }))
        .decision,
    ).toBe('allow');
    expect(
      (await decide(text, 'mcp:register', 'notion', { attrs: ['type=local-stdio', 'requiresOAuth=true'] }))
        .decision,
    ).toBe('deny');
    expect(() => mcpRequest('mcp:register', 'x', { attrs: ['type=stdio'] })).toThrow(
      'attribute type is one of local-stdio',
    );
  });
});

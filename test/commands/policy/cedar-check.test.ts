// Cedar texts checked before they are sent (`policy create --cedar`, `update --cedar`, `apply`):
// refused with exit 2 and nothing sent (the emulator's request log stays empty); `policy lint` on
// Cedar; `policy schema mcp`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MCP_SCHEMA_TEXT, MCP_SCHEMA_URL } from '../../../src/policy/index.js';
import { runCli } from '../../support/run-cli.js';
import { type GovHarness, startGovHarness } from '../rule/gov-harness.js';

function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'hubctl-cedar-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const GOOD = `permit (principal, action == MCP::Action::"invokeTool", resource in MCP::Server::"notion");\n`;

let h: GovHarness;
beforeEach(async () => {
  h = await startGovHarness();
});
afterEach(() => h.close());

describe('Cedar checked before it is sent', () => {
  it('policy create --cedar sends a checked text with the MCP schema URL', async () => {
    const file = tempFile('ok.cedar', GOOD);
    const r = await h.run(['policy', 'create', 'mcp', '--cedar', file, '--json']);
    expect(r.code).toBe(0);
    expect(h.gov().map((q) => [q.method, q.json])).toEqual([
      ['POST', { name: 'mcp', cedar_v1: { text: GOOD, schema_url: MCP_SCHEMA_URL } }],
    ]);
    expect(h.hub.state.policies[0]!.type).toBe('cedar_v1');
  });

  it.each([
    [
      'a text that does not parse (line and column)',
      'permit (principal, action, resource)\n  when { 1 + };\n',
      ':2:14: the Cedar text of policy "mcp" does not parse: unexpected token `}`; nothing was sent',
    ],
    [
      'an @id annotation',
      `@id("notion")\n${GOOD}`,
      ':1: policy "mcp" carries an @id annotation, which the service refuses; nothing was sent',
    ],
    [
      'a misspelt attribute, against the MCP schema',
      'permit (principal, action == MCP::Action::"invokeTool", resource)\n  when { resource.readonly };\n',
      ':2: does not validate against the MCP schema: attribute `readonly` on entity type `MCP::Tool` not found; nothing was sent',
    ],
    [
      'an unknown action',
      'permit (principal, action == MCP::Action::"callTool", resource);\n',
      ':1: does not validate against the MCP schema: unrecognized action `MCP::Action::"callTool"`; nothing was sent',
    ],
  ])('policy create refuses %s: exit 2, nothing sent', async (_what, text, tail) => {
    const file = tempFile('p.cedar', text);
    const r = await h.run(['policy', 'create', 'mcp', '--cedar', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(/^hubctl: /);
    expect(r.stderr).toContain(`${file}${tail}`);
    expect(h.hub.requests).toEqual([]);
  });

  it('validates against the MCP schema only for the MCP schema URL', async () => {
    const file = tempFile('p.cedar', 'permit (principal, action, resource) when { resource.readonly };\n');
    const r = await h.run([
      'policy',
      'create',
      'other',
      '--cedar',
      file,
      '--schema-url',
      'https://example.com/s',
    ]);
    expect(r.code).toBe(0);
  });

  it('policy update --cedar refuses before resolving the policy (nothing sent), and sends a good text', async () => {
    const seeded = h.seed({
      name: 'mcp',
      type: 'cedar_v1',
      ruleSet: { text: GOOD, schema_url: MCP_SCHEMA_URL },
    });
    const bad = tempFile('bad.cedar', '@id("x")\npermit (principal, action, resource);\n');
    const r = await h.run(['policy', 'update', 'mcp', '--cedar', bad]);
    expect(r.code).toBe(2);
    expect(h.hub.requests).toEqual([]);
    const next = 'permit (principal, action, resource);\n';
    const ok = await h.run(['policy', 'update', 'mcp', '--cedar', tempFile('ok.cedar', next)]);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain(`Updated policy "mcp" (${seeded.id}): Cedar text replaced.`);
    expect(h.gov().at(-1)!.json).toEqual({ cedar_v1: { text: next, schema_url: MCP_SCHEMA_URL } });
  });

  it('policy apply refuses a file whose Cedar fails the MCP schema, naming the line of the YAML file', async () => {
    const file = tempFile(
      'mcp.yaml',
      `name: mcp\ncedar_v1:\n  schema_url: ${MCP_SCHEMA_URL}\n  text: |\n    permit (principal, action, resource)\n      when { resource.nmae == "search" };\n`,
    );
    const r = await h.run(['policy', 'apply', '-f', file, '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:6: does not validate against the MCP schema: attribute \`nmae\``);
    expect(h.hub.requests).toEqual([]);
  });

  it('policy apply sends a good Cedar policy', async () => {
    const file = tempFile(
      'mcp.yaml',
      `name: mcp\ncedar_v1:\n  schema_url: ${MCP_SCHEMA_URL}\n  text: |\n    ${GOOD}`,
    );
    const r = await h.run(['policy', 'apply', '-f', file, '--yes']);
    expect(r.code).toBe(0);
    expect(h.hub.state.policies.map((p) => [p.name, p.type])).toEqual([['mcp', 'cedar_v1']]);
  });

  it('refuses --schema-url without --cedar', async () => {
    const r = await h.run(['policy', 'create', 'x', '--schema-url', 'https://x']);
    expect(r).toMatchObject({ code: 2, stderr: 'hubctl: --schema-url goes with --cedar\n' });
  });
});

describe('policy lint on Cedar', () => {
  const text = [
    /* 1 */ 'permit (principal, action == MCP::Action::"invokeTool", resource)',
    /* 2 */ '  when { resource.readonly };',
    /* 3 */ 'permit (principal in MCP::Team::"eng", action, resource);',
    /* 4 */ 'permit (principal, action == MCP::Action::"register", resource)',
    /* 5 */ '  when { context.request_time < datetime("2030-01-01") };',
    /* 6 */ 'forbid (principal, action == MCP::Action::"invokeTool", resource)',
    /* 7 */ '  when { context.args.amount > 100 };',
    /* 8 */ 'permit (principal, action, resource) when { resource is MCP::Tool && resource.name.contains("search") };',
    /* 9 */ 'permit (principal, action == MCP::Action::"register", resource) when { resource.args like "*--x*" };',
    /* 10 */ '@requireConsent("ask first")',
    /* 11 */ 'permit (principal, action == MCP::Action::"invokeTool", resource in MCP::Server::"stripe");',
    /* 12 */ 'forbid (principal, action, resource in MCP::Server::"stripe");',
    /* 13 */ 'permit (principal, action == MCP::Action::"invokeTool", resource)',
    /* 14 */ '  when { context has args && context.args has amount && context.args.amount < 10 };',
    '',
  ].join('\n');

  it('reports each trap at its line (exit 1), and nothing for a guarded args access', async () => {
    const file = tempFile('mcp.cedar', text);
    const r = await runCli(['policy', 'lint', '-f', file, '--json']);
    expect(r.code).toBe(1);
    const found = (JSON.parse(r.stdout).warnings as { code: string; line: number }[]).map((w) => [
      w.line,
      w.code,
    ]);
    expect(found).toEqual([
      [2, 'CEDAR_SCHEMA'],
      [3, 'PRINCIPAL_CLAUSE'],
      [5, 'REQUEST_TIME_ON_REGISTER'],
      [7, 'UNGUARDED_ARGS'],
      [8, 'CONTAINS_ON_STRING'],
      [9, 'LIKE_ON_SET'],
      [10, 'APPROVAL_ANNOTATION'],
      [10, 'SHADOWED_PERMIT'],
    ]);
  });

  it('is clean (exit 0) on a policy without traps', async () => {
    const file = tempFile('ok.cedar', GOOD);
    const r = await runCli(['policy', 'lint', '-f', file]);
    expect(r).toEqual({ code: 0, stdout: '', stderr: 'no problems found (1 policy, 0 rules)\n' });
  });

  it('exits 2 on a text that does not parse', async () => {
    const file = tempFile('bad.cedar', 'permit (principal, action, resource) when { 1 + };');
    const r = await runCli(['policy', 'lint', '-f', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:1:`);
  });
});

describe('policy schema mcp', () => {
  it('prints the Cedar schema; --json its JSON form; no argument still the authoring JSON Schema', async () => {
    const text = await runCli(['policy', 'schema', 'mcp']);
    expect(text).toEqual({ code: 0, stdout: MCP_SCHEMA_TEXT, stderr: '' });
    expect(text.stdout).toContain('namespace MCP {');
    const json = JSON.parse((await runCli(['policy', 'schema', 'mcp', '--json'])).stdout);
    expect(Object.keys(json.MCP.entityTypes).sort()).toEqual([
      'Primordial',
      'Principal',
      'Prompt',
      'Resource',
      'Server',
      'Tool',
    ]);
    expect(Object.keys(json.MCP.actions).sort()).toEqual([
      'getPrompt',
      'invokePrimordial',
      'invokeTool',
      'listResources',
      'listTools',
      'readResource',
      'register',
      'subscribeResource',
    ]);
    const authoring = JSON.parse((await runCli(['policy', 'schema'])).stdout);
    expect(authoring.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect((await runCli(['policy', 'schema', 'nope'])).code).toBe(2);
  });
});

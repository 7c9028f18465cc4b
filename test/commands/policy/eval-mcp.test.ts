// `policy eval mcp:…`: MCP requests decided by cedar_v1 policies, from files (the authoring form
// and raw .cedar) and live from the organization, one at a time and in a batch mixed with network
// requests. Expected decisions come from the documentation (shared/spec/audit-and-mcp.md §3).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MCP_SCHEMA_URL } from '../../../src/policy/index.js';
import { runCli } from '../../support/run-cli.js';
import { type GovHarness, startGovHarness } from '../rule/gov-harness.js';

function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'hubctl-mcp-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const CEDAR = `// tools for everyone, payments with a person's yes, no big refunds
permit (principal, action, resource);

@requireApproval("payments move money")
permit (principal, action == MCP::Action::"invokeTool", resource in MCP::Server::"stripe");

forbid (principal, action == MCP::Action::"invokeTool", resource in MCP::Server::"stripe")
  when { context has args && context.args has amount && context.args.amount > 100 };
`;

const YAML = `name: mcp
cedar_v1:
  schema_url: ${MCP_SCHEMA_URL}
  text: |
${CEDAR.split('\n')
  .map((l) => (l === '' ? '' : `    ${l}`))
  .join('\n')}`;

describe('policy eval mcp:… with files', () => {
  const cedarFile = tempFile('mcp.cedar', CEDAR);
  const yamlFile = tempFile('mcp.yaml', YAML);

  it('allows what a permit matches (exit 0), naming it by file and line', async () => {
    expect(await runCli(['policy', 'eval', 'mcp:invokeTool', 'notion/search', '-f', cedarFile])).toEqual({
      code: 0,
      stdout: `allow\npermitted by ${cedarFile}:2\n`,
      stderr: '',
    });
  });

  it('approval-required beats a plain permit: exit 3, with the reason on stdout', async () => {
    const r = await runCli([
      'policy',
      'eval',
      'mcp:invokeTool',
      'stripe/refund',
      '-f',
      cedarFile,
      '--explain',
    ]);
    expect(r).toEqual({
      code: 3,
      stdout: [
        'approval-required',
        'reason: payments move money',
        `approval required by ${cedarFile}:4`,
        `  permit  ${cedarFile}:4  policy "mcp"  @requireApproval("payments move money")`,
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('the authoring form (YAML) gives lines of the YAML file; --args reaches context.args; a forbid beats the approval', async () => {
    const r = await runCli([
      'policy',
      'eval',
      'mcp:invokeTool',
      'stripe/refund',
      '--args',
      '{"amount": 500}',
      '-f',
      yamlFile,
      '--json',
    ]);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual({
      decision: 'deny',
      policies: [
        { policy: 'mcp', source: yamlFile, line: 11, in_file: true, at: `${yamlFile}:11`, effect: 'forbid' },
      ],
      errors: [],
    });
    const small = await runCli([
      'policy',
      'eval',
      'mcp:invokeTool',
      'stripe/refund',
      '--args',
      '{"amount": 5}',
      '-f',
      yamlFile,
      '--json',
    ]);
    expect(JSON.parse(small.stdout)).toMatchObject({
      decision: 'approval-required',
      reason: 'payments move money',
    });
  });

  it('names an erroring forbid: it does not block, and the answer says so', async () => {
    const file = tempFile(
      'unguarded.cedar',
      'permit (principal, action, resource);\nforbid (principal, action, resource) when { context.args.amount > 100 };\n',
    );
    const r = await runCli(['policy', 'eval', 'mcp:invokeTool', 'stripe/refund', '-f', file, '--explain']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'allow',
        `permitted by ${file}:1; a forbid errored and did not apply: ${file}:2`,
        `  permit  ${file}:1  policy "unguarded"`,
        `  error   forbid at ${file}:2 (policy "unguarded") did not apply: record does not have the attribute \`args\` (the request has no arguments: guard with \`context has args\`)`,
        '',
      ].join('\n'),
    );
    const json = JSON.parse(
      (await runCli(['policy', 'eval', 'mcp:invokeTool', 'a/b', '-f', file, '--json'])).stdout,
    );
    expect(json.errors).toEqual([expect.objectContaining({ effect: 'forbid', line: 2 })]);
  });

  it('default deny with no permit; a register with an approval is a denial (no one to ask)', async () => {
    const file = tempFile(
      'reg.cedar',
      '@requireApproval("review new servers")\npermit (principal, action == MCP::Action::"register", resource);\n',
    );
    const r = await runCli(['policy', 'eval', 'mcp:register', 'notion', '-f', file, '--json']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'deny', reason: 'review new servers' });
    const none = await runCli(['policy', 'eval', 'mcp:invokePrimordial', 'code-mode', '-f', file]);
    expect(none).toEqual({ code: 3, stdout: 'deny\nno permit matches (default deny)\n', stderr: '' });
  });

  it('--attr sets typed resource attributes; unset tool attributes take their defaults', async () => {
    const file = tempFile(
      'ro.cedar',
      'permit (principal, action == MCP::Action::"invokeTool", resource) when { resource.readOnly && !resource.destructive };\n',
    );
    const base = ['policy', 'eval', 'mcp:invokeTool', 'fs/read_file', '-f', file];
    expect((await runCli(base)).code).toBe(3);
    expect((await runCli([...base, '--attr', 'readOnly=true'])).code).toBe(3);
    expect((await runCli([...base, '--attr', 'readOnly=true', '--attr', 'destructive=false'])).code).toBe(0);
  });

  it.each([
    [
      ['mcp:invokeTool', 'notion/search', '--attr', 'readonly=true'],
      '"readonly" is not an attribute of the resource of mcp:invokeTool; it has readOnly, destructive, idempotent, openWorld',
    ],
    [
      ['mcp:invokeTool', 'notion/search', '--attr', 'readOnly=yes'],
      '--attr readOnly takes true or false, not "yes"',
    ],
    [['mcp:invokeTool', 'search'], 'a tool is named SERVER/TOOL (like notion/search), not "search"'],
    [
      ['mcp:invokeTool', 'a/b', '--server', 'a'],
      'mcp:invokeTool names its server in the destination (SERVER/TOOL), not with --server',
    ],
    [['mcp:readResource', 'file:///a'], 'mcp:readResource needs the server of the resource: --server NAME'],
    [['mcp:register', 'x', '--args', '{}'], 'arguments (--args) belong to mcp:invokeTool only'],
    [['mcp:invokeTool', 'a/b', '--args', '[1]'], 'the arguments are a JSON object'],
    [['mcp:invokeTool', 'a/b', '--args', '{"x": 1.5}'], 'argument x is 1.5: Cedar holds integers only'],
    [
      ['mcp:listTools', 'notion'],
      'unknown MCP action "mcp:listTools"; the gated actions are mcp:register, mcp:invokeTool',
    ],
    [['connect:tcp', 'github.com', '--attr', 'a=b'], '--attr, --args and --server apply to MCP requests'],
  ])('refuses %j (exit 2, nothing evaluated)', async (args, message) => {
    const r = await runCli(['policy', 'eval', ...args, '-f', cedarFile]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr.split('\n').length).toBeLessThanOrEqual(3);
  });

  it('a Cedar text that does not parse: one sentence with the line and column of the file', async () => {
    const file = tempFile(
      'bad.yaml',
      'name: bad\ncedar_v1:\n  text: |\n    permit (principal, action, resource)\n    when { 1 + };\n',
    );
    const r = await runCli(['policy', 'eval', 'mcp:register', 'x', '-f', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^hubctl: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:5:\\d+: the Cedar text of policy "bad" does not parse: unexpected token \`}\`\\n$`,
      ),
    );
  });

  it('a network request is decided by the allowlist policies of a mixed set, the cedar ones left out', async () => {
    const r = await runCli([
      'policy',
      'eval',
      'connect:tcp',
      'api.github.com:443',
      '-f',
      'examples/network.yaml',
      '-f',
      cedarFile,
    ]);
    expect(r.code).toBe(0);
  });

  it('--batch mixes MCP and network requests, one answer a line in order', async () => {
    const lines = [
      '{"action":"connect:tcp","destination":"api.github.com:443"}',
      '{"action":"mcp:invokeTool","destination":"stripe/refund","args":{"amount":500}}',
      'mcp:invokeTool notion/search',
      '{"action":"mcp:getPrompt","destination":"summarize","server":"notion"}',
      '{"action":"mcp:register","destination":"x","attrs":{"type":"remote-dcr","requiresOAuth":true}}',
      '{"action":"mcp:invokeTool","destination":"stripe/charge"}',
      '{"action":"mcp:readResource","destination":"file:///a"}',
      'read /etc/passwd',
    ];
    const r = await runCli(['policy', 'eval', '--batch', '-f', 'examples/network.yaml', '-f', cedarFile], {
      stdin: `${lines.join('\n')}\n`,
    });
    const out = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out.map((o) => o.decision ?? o.error.code)).toEqual([
      'allow',
      'deny',
      'allow',
      'allow',
      'allow',
      'approval-required',
      'INVALID_INPUT',
      'deny',
    ]);
    expect(out[1]).toEqual({
      action: 'mcp:invokeTool',
      destination: 'stripe/refund',
      decision: 'deny',
      policies: [
        { policy: 'mcp', source: cedarFile, line: 7, in_file: true, at: `${cedarFile}:7`, effect: 'forbid' },
      ],
      errors: [],
    });
    expect(out[3]).toMatchObject({ server: 'notion' });
    expect(out[5]).toMatchObject({ reason: 'payments move money' });
    expect(out[6]).toMatchObject({
      line: 7,
      error: { message: expect.stringContaining('needs the server of the resource') },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('8 requests: 4 allowed, 3 denied, 1 malformed\n');
  });

  it('--batch without any cedar policy denies MCP requests by default', async () => {
    const r = await runCli(['policy', 'eval', '--batch', '-f', 'examples/network.yaml'], {
      stdin: 'mcp:invokeTool a/b\n',
    });
    expect(JSON.parse(r.stdout)).toEqual({
      action: 'mcp:invokeTool',
      destination: 'a/b',
      decision: 'deny',
      policies: [],
      errors: [],
    });
    expect(r.code).toBe(0);
  });
});

describe('policy eval mcp:… live', () => {
  let h: GovHarness;
  beforeEach(async () => {
    h = await startGovHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it("evaluates the emulator's cedar_v1 policy named with --policy", async () => {
    h.seed({ name: 'mcp', type: 'cedar_v1', ruleSet: { text: CEDAR, schema_url: MCP_SCHEMA_URL } });
    const allow = await h.run(['policy', 'eval', 'mcp:invokeTool', 'notion/search', '--policy', 'mcp']);
    expect(allow).toMatchObject({
      code: 0,
      stdout: 'allow\npermitted by policy pol_0001 (policy "mcp", Cedar line 2)\n',
    });
    const approval = await h.run([
      'policy',
      'eval',
      'mcp:invokeTool',
      'stripe/refund',
      '--policy',
      'mcp',
      '--json',
    ]);
    expect(approval.code).toBe(3);
    expect(JSON.parse(approval.stdout)).toMatchObject({
      decision: 'approval-required',
      reason: 'payments move money',
    });
    expect(h.calls()).toEqual(['GET /p', 'GET /p/pol_0001', 'GET /p', 'GET /p/pol_0001']);
  });

  it('evaluates the cedar_v1 policies that apply to --team (org-wide ones too)', async () => {
    h.seed({
      name: 'net',
      rules: [{ name: 'gh', actions: ['connect:tcp'], decision: 'allow', resources: ['github.com'] }],
    });
    h.seed({ name: 'org', type: 'cedar_v1', ruleSet: { text: 'permit (principal, action, resource);' } });
    const team = '6f1c2a3e-8d4b-4e5f-9a0b-1c2d3e4f5a6b';
    const r = await h.run(['policy', 'eval', 'mcp:register', 'notion', '--team', team]);
    expect(r).toMatchObject({
      code: 0,
      stdout: 'allow\npermitted by policy pol_0002 (policy "org", Cedar line 1)\n',
    });
  });
});

describe('examples/mcp.cedar, as the README shows it', () => {
  const EX = 'examples/mcp.cedar';
  it('lints clean', async () => {
    expect((await runCli(['policy', 'lint', '-f', EX])).code).toBe(0);
  });
  it.each([
    [['mcp:invokeTool', 'notion/search'], 0, 'allow\npermitted by examples/mcp.cedar:9\n'],
    [['mcp:invokeTool', 'github/delete_repo'], 3, 'deny\nno permit matches (default deny)\n'],
    [
      ['mcp:invokeTool', 'github/search_code', '--attr', 'readOnly=true'],
      0,
      'allow\npermitted by examples/mcp.cedar:10\n',
    ],
    [
      ['mcp:invokeTool', 'stripe/refund'],
      3,
      'approval-required\nreason: payments move money\napproval required by examples/mcp.cedar:13\n',
    ],
    [
      ['mcp:invokeTool', 'stripe/refund', '--args', '{"amount": 500}', '--explain'],
      3,
      'deny\nforbidden by examples/mcp.cedar:15\n  forbid  examples/mcp.cedar:15  policy "mcp"\n',
    ],
    [
      ['mcp:register', 'linear', '--attr', 'type=remote-dcr', '--attr', 'requiresOAuth=true'],
      0,
      'allow\npermitted by examples/mcp.cedar:5\n',
    ],
    [['mcp:register', 'fs', '--attr', 'type=local-stdio'], 3, 'deny\nno permit matches (default deny)\n'],
    [
      ['mcp:readResource', 'file:///docs/guide/setup.md', '--server', 'fs'],
      0,
      'allow\npermitted by examples/mcp.cedar:20\n',
    ],
    [
      ['mcp:readResource', 'file:///etc/passwd', '--server', 'fs'],
      3,
      'deny\nno permit matches (default deny)\n',
    ],
    [['mcp:invokePrimordial', 'code-mode'], 0, 'allow\npermitted by examples/mcp.cedar:19\n'],
    [['mcp:invokePrimordial', 'mcp-exec'], 3, 'deny\nno permit matches (default deny)\n'],
  ])('%j', async (args, code, stdout) => {
    expect(await runCli(['policy', 'eval', ...args, '-f', EX])).toEqual({ code, stdout, stderr: '' });
  });
});

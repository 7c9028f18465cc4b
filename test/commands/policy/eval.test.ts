import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EvalOptions, register as registerEval } from '../../../src/commands/policy/eval.js';
import { ACME_TEAMS } from '../../support/hub-emulator.js';
import { runCli } from '../../support/run-cli.js';
import { type GovHarness, parseWith, startGovHarness } from '../rule/gov-harness.js';

// run() returns an exit code; the spy of parseWith returns nothing
const register = registerEval as unknown as Parameters<typeof parseWith<[EvalOptions]>>[0];

const NET = 'examples/network.yaml';
const FS = 'examples/filesystem.yaml';

function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'hubctl-eval-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('policy eval: parsing', () => {
  it('collects repeated files, policies and teams', async () => {
    expect(
      await parseWith(register, ['eval', 'read', '/x', '-f', 'a.yaml', '--file', 'b.json', '--explain']),
    ).toEqual([
      [
        {
          action: 'read',
          destination: '/x',
          files: ['a.yaml', 'b.json'],
          policies: [],
          teams: [],
          live: false,
          explain: true,
          batch: false,
          failOnDeny: false,
        },
      ],
    ]);
    const [live] = (await parseWith(register, ['eval', 'read', '/x', '--team', 't1', '--team', 't2']))[0]!;
    expect(live).toMatchObject({ live: true, teams: ['t1', 't2'] });
    const [batch] = (await parseWith(register, ['eval', '--batch', '--fail-on-deny', '-f', 'a']))[0]!;
    expect(batch).toMatchObject({ batch: true, failOnDeny: true, action: undefined });
  });
  it.each([
    [['eval', 'read'], 'give an action and a destination'],
    [['eval'], 'give an action and a destination'],
    [['eval', '--batch', 'read', '/x', '-f', 'a'], '--batch reads requests from stdin'],
    [['eval', 'read', '/x', '-f', 'a', '--fail-on-deny'], '--fail-on-deny applies to --batch'],
  ])('refuses %j', async (argv, message) => {
    await expect(parseWith(register, argv)).rejects.toThrow(message);
  });
});

describe('policy eval with files', () => {
  it('allows, naming the deciding rule (exit 0)', async () => {
    expect(await runCli(['policy', 'eval', 'connect:tcp', 'api.github.com:443', '-f', NET])).toEqual({
      code: 0,
      stdout: [
        'allow',
        'reason: allowed by rule "github" of policy "developer-network"',
        '  allow  rule "github" of policy "developer-network": *.github.com',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('denies with exit 3, and by default when nothing matches', async () => {
    const r = await runCli(['policy', 'eval', 'connect:tcp', '169.254.169.254:80', '-f', NET]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(
      'deny\nreason: denied by rule "no-cloud-metadata" of policy "developer-network"\n' +
        '  deny   rule "no-cloud-metadata" of policy "developer-network": 169.254.169.254/32\n',
    );
    const none = await runCli(['policy', 'eval', 'connect:tcp', 'example.org', '-f', NET]);
    expect(none).toEqual({
      code: 3,
      stdout: 'deny\nreason: no rule matched: denied by default\n',
      stderr: '',
    });
  });

  it('explains every matching rule and why', async () => {
    // HOME outside /tmp, so the example's /tmp/** rule does not match the home spelling too.
    const r = await runCli(['policy', 'eval', 'read', '~/src/app/main.go', '-f', FS, '--explain'], {
      env: { HOME: '/home/dev' },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'allow',
        'reason: allowed by rule "source-trees" of policy "developer-filesystem"',
        '  allow  rule "source-trees" of policy "developer-filesystem": ~/src/**',
        '         pattern ~/src/** matches ~/src/app/main.go: "**" took "app/main.go"',
        '',
      ].join('\n'),
    );
    const w = await runCli([
      'policy',
      'eval',
      'write',
      '~/src/app/../../.ssh/id_ed25519',
      '-f',
      FS,
      '--explain',
    ]);
    expect(w.code).toBe(3);
    expect(w.stdout).toContain('pattern ~/.ssh/** matches ~/.ssh/id_ed25519');
  });

  it('prints {decision, reason, matched} with --json', async () => {
    const r = await runCli(['policy', 'eval', 'connect:tcp', 'github.com:22', '-f', NET, '--json']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual({
      decision: 'deny',
      reason: 'denied by rule "no-ssh-out" of policy "developer-network"',
      matched: [{ policy: 'developer-network', rule: 'no-ssh-out', resource: '**:22', decision: 'deny' }],
    });
    expect(r.stderr).toBe('');
  });

  it('evaluates several files together: deny in one beats allow in another', async () => {
    const extra = tempFile(
      'extra.json',
      JSON.stringify({
        name: 'block-gh',
        rules: [{ name: 'no-gh', actions: ['connect:tcp'], decision: 'deny', resources: ['**.github.com'] }],
      }),
    );
    const r = await runCli(['policy', 'eval', 'connect:tcp', 'api.github.com', '-f', NET, '-f', extra]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('denied by rule "no-gh" of policy "block-gh"');
  });

  it('refuses to decide (exit 2, naming the rule) while a rule it cannot evaluate is there', async () => {
    // the deny that hubctl cannot read must never be dropped: the request it should deny would pass
    const f = tempFile(
      'unknown.yaml',
      'name: egress\nrules:\n  - {name: all, actions: [connect:tcp], decision: allow, resources: ["**"]}\n  - {name: block, actions: [connect:tcp, connect:icmp], decision: deny, resources: [evil.test]}\n',
    );
    const message =
      'cannot decide: rule "block" of policy "egress" cannot be evaluated: its action connect:icmp is not known to hubctl; fix or remove it, or evaluate without it';
    const r = await runCli(['policy', 'eval', 'connect:tcp', 'evil.test', '-f', f]);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `hubctl: ${message}\n` });
    const j = await runCli(['policy', 'eval', 'connect:tcp', 'evil.test', '-f', f, '--json']);
    expect(j.code).toBe(2);
    expect(JSON.parse(j.stderr).error.message).toBe(message);
    const batch = await runCli(['policy', 'eval', '--batch', '-f', f], { stdin: 'connect:tcp evil.test\n' });
    expect(batch.code).toBe(2);
    expect(batch.stdout).toBe('');
  });

  it('decides an HTTP request by its network and HTTP rules, naming the layer with --explain', async () => {
    const f = tempFile(
      'http.yaml',
      'name: api\nrules:\n  - {name: gh, actions: [connect:tcp], decision: allow, resources: [api.github.com]}\n  - {name: no-delete, actions: [request:delete], decision: deny, http_resources: [{host: api.github.com, path: "/repos/**"}]}\n',
    );
    const get = await runCli(['policy', 'eval', 'request:get', 'https://api.github.com/repos/x', '-f', f]);
    expect(get.code).toBe(0);
    const del = await runCli([
      'policy',
      'eval',
      'request:delete',
      'https://api.github.com/repos/x',
      '-f',
      f,
      '--explain',
    ]);
    expect(del.code).toBe(3);
    expect(del.stdout).toContain('reason: denied by rule "no-delete" of policy "api"');
    expect(del.stdout).toContain('HTTP layer: host api.github.com is exactly api.github.com');
    expect(del.stdout).toContain('network layer (the connection, every method)');
    const bad = await runCli(['policy', 'eval', 'request:get', 'https://api.github.com/a/../b', '-f', f]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('a path has no ".." segment');
  });

  it.each([
    [['connect:tcp', 'https://'], 'invalid network destination "https://": the URL has no host'],
    [['connect:tcp', 'x.com:99999'], 'port 99999 is outside 1–65535'],
    [['connect:tcp', 'https://corp.example.com\\@evil.com/'], 'a backslash in a URL is read as "/" by some'],
    [
      ['connect:tcp', 'foo.0x1'],
      '"foo.0x1" is not a valid IPv4 address (it ends in a number, so URL parsers read it as one)',
    ],
    [['request:fetch', 'x.com'], 'unknown action "request:fetch"'],
    [['read', 'relative/path'], 'invalid filesystem path "relative/path"'],
  ])('exits 2 on bad input %j', async (args, message) => {
    const r = await runCli(['policy', 'eval', ...args, '-f', NET]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
  });

  it('exits 2 on a missing or invalid policy file, naming the file and field', async () => {
    const missing = await runCli(['policy', 'eval', 'read', '/x', '-f', '/nonexistent/p.yaml']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read policy file /nonexistent/p.yaml: no such file');
    const bad = tempFile(
      'bad.yaml',
      'name: x\nrules:\n  - name: r\n    actions: [read]\n    decision: allow\n    resources: ["/ok", "data/**"]\n',
    );
    const r = await runCli(['policy', 'eval', 'read', '/x', '-f', bad, '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error.message).toContain(
      `${bad}:6:5: rules[0].resources[1]: invalid filesystem resource "data/**"`,
    );
  });
});

describe('policy eval --batch', () => {
  const input = [
    '{"action":"connect:tcp","destination":"registry.npmjs.org"}',
    'connect:tcp 169.254.169.254:80',
    '',
    'connect:tcp',
    '{"action":"read","destination":"/etc/passwd"}',
    'connect:udp 8.8.8.8:53',
  ].join('\n');

  it('writes one JSON line per request, in order, an error record for a malformed line, exit 2', async () => {
    const r = await runCli(['policy', 'eval', '--batch', '-f', NET], { stdin: input });
    expect(r.code).toBe(2);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      {
        action: 'connect:tcp',
        destination: 'registry.npmjs.org',
        decision: 'allow',
        reason: 'allowed by rule "package-registries" of policy "developer-network"',
        matched: [
          {
            policy: 'developer-network',
            rule: 'package-registries',
            resource: 'registry.npmjs.org:443',
            decision: 'allow',
          },
        ],
      },
      expect.objectContaining({ destination: '169.254.169.254:80', decision: 'deny' }),
      {
        line: 4,
        input: 'connect:tcp',
        error: { code: 'INVALID_INPUT', message: expect.stringContaining('action destination') },
      },
      expect.objectContaining({
        action: 'read',
        decision: 'deny',
        reason: 'no rule matched: denied by default',
      }),
      expect.objectContaining({ action: 'connect:udp', decision: 'allow' }),
    ]);
    expect(r.stderr).toBe('5 requests: 2 allowed, 2 denied, 1 malformed\n');
  });

  it('exits 3 with --fail-on-deny when any request was denied, and 2 when any line was not decided', async () => {
    const denied = await runCli(['policy', 'eval', '--batch', '--fail-on-deny', '-f', NET], {
      stdin: 'connect:tcp github.com\nconnect:tcp 169.254.169.254:80\n',
    });
    expect(denied.code).toBe(3);
    // a line not decided may have been a denial: it outranks the denials
    const r = await runCli(['policy', 'eval', '--batch', '--fail-on-deny', '-f', NET], {
      stdin: input,
    });
    expect(r.code).toBe(2);
    // no line decided at all
    for (const stdin of ['nonsense\n', '{"action":"connect:tcp","destination":"a\\\\@b"}\n', 'x y\n']) {
      const none = await runCli(['policy', 'eval', '--batch', '--fail-on-deny', '-f', NET], { stdin });
      expect(none.code).toBe(2);
      expect(none.stderr).toBe('1 request: 0 allowed, 0 denied, 1 malformed\n');
    }
    const ok = await runCli(['policy', 'eval', '--batch', '--fail-on-deny', '-f', NET], {
      stdin: 'connect:tcp github.com\r\nconnect:tcp api.github.com:443',
    });
    expect(ok.code).toBe(0);
    expect(ok.stdout.trimEnd().split('\n')).toHaveLength(2);
  });

  it('adds why to each match with --explain', async () => {
    const r = await runCli(['policy', 'eval', '--batch', '--explain', '-f', FS], {
      stdin: 'read ~/src/x\n',
    });
    expect(JSON.parse(r.stdout).matched[0].why).toBe('pattern ~/src/** matches ~/src/x: "**" took "x"');
  });
});

describe('policy eval, live', () => {
  let h: GovHarness;
  beforeEach(async () => {
    h = await startGovHarness();
  });
  afterEach(() => h.close());

  const rule = { name: 'gh', actions: ['connect:tcp'], decision: 'allow', resources: ['github.com'] };

  it('fetches a policy by name with --policy', async () => {
    h.seed({ name: 'egress', rules: [rule] });
    const r = await runCli(['policy', 'eval', 'connect:tcp', 'github.com', '--policy', 'egress'], {
      env: h.env,
    });
    expect(r).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('allowed by rule "gh" of policy "egress"'),
    });
    expect(h.calls()).toEqual(['GET /p', 'GET /p/pol_0001']);
  });

  it('refuses to decide a network request by a cedar (MCP) policy alone, named with --policy', async () => {
    h.seed({ name: 'cedar', type: 'cedar_v1', ruleSet: { text: 'permit(principal, action, resource);' } });
    const r = await runCli(['policy', 'eval', 'connect:tcp', 'github.com', '--policy', 'cedar'], {
      env: h.env,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'hubctl: the policies given are cedar_v1 (MCP) policies: they decide mcp:* requests, not connect:tcp\n',
    );
  });

  it('evaluates org-wide policies plus those of --team; a cedar one decides MCP requests only', async () => {
    h.seed({ name: 'org-wide', rules: [rule] });
    h.seed({
      name: 'team-a',
      teams: [ACME_TEAMS[0]!],
      rules: [{ ...rule, name: 'block', decision: 'deny' }],
    });
    h.seed({ name: 'cedar', type: 'cedar_v1', teams: [ACME_TEAMS[1]!], ruleSet: { text: 'x' } });
    const org = await runCli(['policy', 'eval', 'connect:tcp', 'github.com'], { env: h.env });
    expect(org.code).toBe(0);
    expect(org.stderr).toBe('');
    const team = await runCli(['policy', 'eval', 'connect:tcp', 'github.com', '--team', ACME_TEAMS[0]!], {
      env: h.env,
    });
    expect(team.code).toBe(3);
    expect(team.stdout).toContain('denied by rule "block" of policy "team-a"');
    const cedar = await runCli(['policy', 'eval', 'connect:tcp', 'github.com', '--team', ACME_TEAMS[1]!], {
      env: h.env,
    });
    expect(cedar).toMatchObject({ code: 0, stderr: '' });
    // …and an MCP request is decided by it, which here does not parse
    const mcp = await runCli(['policy', 'eval', 'mcp:register', 'notion', '--team', ACME_TEAMS[1]!], {
      env: h.env,
    });
    expect(mcp.code).toBe(2);
    expect(mcp.stderr).toBe(
      `hubctl: policy ${'pol_0003'} (policy "cedar", Cedar line 1, column 2): the Cedar text of policy "cedar" does not parse: unexpected end of input\n`,
    );
  });

  it('reads no credentials and sends nothing when only files are given', async () => {
    const r = await runCli(['policy', 'eval', 'connect:tcp', 'github.com', '-f', NET], {
      env: { ...h.env, HUBCTL_TOKEN: undefined, HUBCTL_USERNAME: undefined, HUBCTL_ORG: undefined },
    });
    expect(r.code).toBe(0);
    expect(h.hub.requests).toEqual([]);
  });
});

// `policy test`: outcomes, reports (terminal, JSON, JUnit read by xmllint, TAP read line by line),
// coverage, exit codes, live policies from the hub emulator, and agreement with `policy eval`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACME_TEAM_NAMES, ACME_TEAMS } from '../../support/hub-emulator.js';
import { runCli } from '../../support/run-cli.js';
import { describeWithTools, toolPath } from '../../support/tools.js';
import { type GovHarness, startGovHarness } from '../rule/gov-harness.js';

const NET = 'examples/network.yaml';

function temp(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'hubctl-test-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const POLICY = `name: egress
rules:
  - {name: github, actions: [connect:tcp], decision: allow, resources: ["*.github.com", github.com]}
  - {name: metadata, actions: [connect:tcp], decision: deny, resources: [169.254.169.254/32]}
  - {name: unused, actions: [connect:udp], decision: allow, resources: [dns.example.com]}
`;

const CASES = `cases:
  - name: github api
    request: connect:tcp api.github.com:443
    expect: allow
  - request: connect:tcp 169.254.169.254:80
    expect: deny
  - name: "wrong <&> #1"
    request:
      action: connect:tcp
      destination: example.org
    expect: allow
`;

describe('policy test with files', () => {
  it('prints one line per case, the failure with what it got and expected, then the summary (exit 1)', async () => {
    const p = temp('p.yaml', POLICY);
    const c = temp('c.yaml', CASES);
    const r = await runCli(['policy', 'test', c, '-f', p]);
    expect(r).toEqual({
      code: 1,
      stdout: [
        '✓ github api',
        '✓ connect:tcp 169.254.169.254:80',
        `✗ wrong <&> #1 (${c}:7): expected allow, got deny (no rule matched: denied by default)`,
        '2 passed, 1 failed',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('exits 0 when every expectation is met, and names the deciding rule of a failure', async () => {
    const p = temp('p.yaml', POLICY);
    const ok = temp('c.yaml', 'cases:\n  - {request: "connect:tcp github.com", expect: allow}\n');
    expect((await runCli(['policy', 'test', ok, '-f', p])).code).toBe(0);
    // a directory of policy files, as apply takes it
    expect((await runCli(['policy', 'test', ok, '-f', join(p, '..')])).code).toBe(0);
    const bad = temp('c.yaml', 'cases:\n  - {request: "connect:tcp 169.254.169.254", expect: allow}\n');
    const r = await runCli(['policy', 'test', bad, '-f', p]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('expected allow, got deny by rule "metadata" of policy "egress"');
  });

  it('prints {name, request, expect, got, pass, rule} with --json', async () => {
    const r = await runCli(['policy', 'test', temp('c.yaml', CASES), '-f', temp('p.yaml', POLICY), '--json']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toHaveLength(3);
    expect(out[0]).toMatchObject({
      name: 'github api',
      request: 'connect:tcp api.github.com:443',
      expect: 'allow',
      got: 'allow',
      pass: true,
      rule: { policy: 'egress', rule: 'github' },
    });
    expect(out[2]).toMatchObject({ got: 'deny', pass: false, rule: null, line: 7 });
  });

  it("reports coverage: each rule's hits, the rules no case matched; --fail-under fails under it", async () => {
    const p = temp('p.yaml', POLICY);
    const c = temp(
      'c.yaml',
      'cases:\n  - {request: "connect:tcp github.com", expect: allow}\n  - {request: "connect:tcp api.github.com", expect: allow}\n  - {request: "connect:tcp 169.254.169.254", expect: deny}\n',
    );
    const r = await runCli(['policy', 'test', c, '-f', p, '--coverage']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      [
        '3 passed, 0 failed',
        'coverage: 2 of 3 rules matched (66.66%)',
        '  2  rule "github" of policy "egress"',
        '  1  rule "metadata" of policy "egress"',
        '  0  rule "unused" of policy "egress"  (no case matched it)',
      ].join('\n'),
    );
    const under = await runCli(['policy', 'test', c, '-f', p, '--fail-under', '70']);
    expect(under.code).toBe(1);
    expect(under.stderr).toBe('coverage 66.66% is under --fail-under 70%\n');
    expect((await runCli(['policy', 'test', c, '-f', p, '--fail-under', '66'])).code).toBe(0);
    const j = JSON.parse((await runCli(['policy', 'test', c, '-f', p, '--coverage', '--json'])).stdout);
    expect(j.coverage).toMatchObject({
      percent: 66.66,
      matched: 2,
      total: 3,
      unmatched: [{ policy: 'egress', rule: 'unused' }],
    });
    expect(j.cases).toHaveLength(3);
    // a rule that matched without deciding counts: the allow under a deny
    const both = temp(
      'b.yaml',
      `${POLICY}  - {name: all, actions: [connect:tcp], decision: allow, resources: ["**"]}\n`,
    );
    const cov = JSON.parse(
      (
        await runCli([
          'policy',
          'test',
          temp('c.yaml', 'cases:\n  - {request: "connect:tcp 169.254.169.254", expect: deny}\n'),
          '-f',
          both,
          '--coverage',
          '--json',
        ])
      ).stdout,
    );
    expect(
      cov.coverage.rules.filter((x: { hits: number }) => x.hits > 0).map((x: { rule: string }) => x.rule),
    ).toEqual(['metadata', 'all']);
  });

  it('exits 2 for a case it cannot decide unless it expects undecided, and names file and case', async () => {
    const p = temp('p.yaml', POLICY);
    const c = temp(
      'c.yaml',
      'cases:\n  - {name: bad port, request: "connect:tcp x.com:99999", expect: deny}\n',
    );
    const r = await runCli(['policy', 'test', c, '-f', p]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe(
      `✗ bad port (${c}:2): expected deny, could not be decided: invalid network destination "x.com:99999": port 99999 is outside 1–65535; a destination is host, host:port, [IPv6]:port or a URL (https://host/path)\n0 passed, 1 failed (1 could not be decided)\n`,
    );
    const u = temp('u.yaml', 'cases:\n  - {request: "connect:tcp x.com:99999", expect: undecided}\n');
    expect((await runCli(['policy', 'test', u, '-f', p])).code).toBe(0);
    const missing = await runCli(['policy', 'test', '/nonexistent/c.yaml', '-f', p]);
    expect(missing).toMatchObject({
      code: 2,
      stderr: 'hubctl: cannot read case file /nonexistent/c.yaml: no such file\n',
    });
    const bad = temp('bad.yaml', 'cases:\n  - request: connect:tcp x.com\n    expect: alow\n');
    expect(await runCli(['policy', 'test', bad, '-f', p])).toEqual({
      code: 2,
      stdout: '',
      stderr: `hubctl: ${bad}:3: case 1: expect "alow" is not one of allow, deny, undecided, approval-required; did you mean "allow"?\n`,
    });
  });

  it('routes MCP cases to the Cedar engine, which this build does not have (exit 2, said plainly)', async () => {
    const c = temp(
      'm.yaml',
      'cases:\n  - {request: "mcp:invokeTool notion/search", expect: allow, attrs: {readOnly: true}}\n  - {request: "connect:tcp github.com", expect: allow}\n',
    );
    const r = await runCli(['policy', 'test', c, '-f', temp('p.yaml', POLICY)]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('could not be decided: MCP cases need the Cedar engine');
    expect(r.stdout).toContain('✓ connect:tcp github.com');
  });

  it('refuses a bad --format and --fail-under', async () => {
    expect((await runCli(['policy', 'test', 'c.yaml', '--format', 'xml', '-f', NET])).stderr).toContain(
      '--format must be one of text, json, junit, tap',
    );
    expect((await runCli(['policy', 'test', 'c.yaml', '--fail-under', '120', '-f', NET])).code).toBe(2);
  });

  it('writes TAP 13, read line by line', async () => {
    const c = temp('c.yaml', CASES);
    const r = await runCli([
      'policy',
      'test',
      c,
      '-f',
      temp('p.yaml', POLICY),
      '--format',
      'tap',
      '--coverage',
    ]);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('TAP version 13');
    expect(lines[1]).toBe('1..3');
    const results = lines.filter((l) => /^(not )?ok \d+/.test(l));
    expect(results).toEqual([
      'ok 1 - github api',
      'ok 2 - connect:tcp 169.254.169.254:80',
      'not ok 3 - wrong <&> \\#1',
    ]);
    const block = lines.slice(lines.indexOf('not ok 3 - wrong <&> \\#1') + 1);
    expect(block[0]).toBe('  ---');
    expect(block).toContain('  message: "expected allow, got deny (no rule matched: denied by default)"');
    expect(block).toContain('  line: 7');
    expect(block).toContain('  ...');
    expect(lines).toContain('# coverage: 2 of 3 rules matched (66.66%)');
  });
});

describeWithTools(['xmllint'], 'policy test --format junit', () => {
  const xpath = (file: string, expr: string) =>
    execFileSync(toolPath('xmllint')!, ['--xpath', expr, file], { encoding: 'utf8' }).trim();
  it('writes JUnit XML that a real parser reads: one testsuite, one testcase per case, <failure> on failures', async () => {
    const r = await runCli([
      'policy',
      'test',
      temp(
        'c.yaml',
        `${CASES}  - {name: "ctl \\u0001 char", request: "connect:tcp x.com:0", expect: deny}\n`,
      ),
      '-f',
      temp('p.yaml', POLICY),
      '--format',
      'junit',
    ]);
    expect(r.code).toBe(2);
    const xml = temp('junit.xml', r.stdout);
    // well-formed, or xmllint exits non-zero
    execFileSync(toolPath('xmllint')!, ['--noout', xml]);
    expect(xpath(xml, 'count(//testsuite)')).toBe('1');
    expect(xpath(xml, 'count(//testsuite/testcase)')).toBe('4');
    expect(xpath(xml, 'string(//testsuite/@tests)')).toBe('4');
    expect(xpath(xml, 'string(//testsuite/@failures)')).toBe('1');
    expect(xpath(xml, 'string(//testsuite/@errors)')).toBe('1');
    expect(xpath(xml, 'count(//testcase/failure)')).toBe('1');
    expect(xpath(xml, 'string(//testcase[failure]/@name)')).toBe('wrong <&> #1');
    expect(xpath(xml, 'string(//testcase/failure/@message)')).toBe(
      'expected allow, got deny (no rule matched: denied by default)',
    );
    expect(xpath(xml, 'string(//testcase[error]/@name)')).toBe('ctl \\u0001 char');
  });
});

describe('policy test agrees with policy eval', () => {
  const hosts = [
    'github.com',
    'api.github.com',
    'a.b.github.com',
    'registry.npmjs.org',
    '169.254.169.254',
    '10.1.2.3',
    'example.org',
    '1.1.1.1',
  ];
  const ports = ['', ':22', ':53', ':443', ':80'];
  const request = fc.oneof(
    fc
      .tuple(
        fc.constantFrom('connect:tcp', 'connect:udp'),
        fc.constantFrom(...hosts),
        fc.constantFrom(...ports),
      )
      .map(([a, h, p]) => `${a} ${h}${p}`),
    fc
      .tuple(
        fc.constantFrom('read', 'write'),
        fc.constantFrom('/tmp/x', '~/src/a/b.go', '/etc/passwd', '~/.ssh/id_rsa', '/data/../etc'),
      )
      .map(([a, p]) => `${a} ${p}`),
    fc
      .tuple(
        fc.constantFrom('request:get', 'request:delete'),
        fc.constantFrom(...hosts),
        fc.constantFrom('/', '/repos/x'),
      )
      .map(([a, h, p]) => `${a} https://${h}${p}`),
  );
  it('decides every generated case as --batch decides its request', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(request, { minLength: 1, maxLength: 40 }),
        fc.constantFrom('allow', 'deny'),
        async (reqs, exp) => {
          const c = temp('c.json', JSON.stringify({ cases: reqs.map((r) => ({ request: r, expect: exp })) }));
          const t = await runCli(
            ['policy', 'test', c, '-f', NET, '-f', 'examples/filesystem.yaml', '--json'],
            { env: { HOME: '/home/dev' } },
          );
          const b = await runCli(['policy', 'eval', '--batch', '-f', NET, '-f', 'examples/filesystem.yaml'], {
            stdin: `${reqs.join('\n')}\n`,
            env: { HOME: '/home/dev' },
          });
          const got = JSON.parse(t.stdout).map((x: { got: string }) => x.got);
          const want = b.stdout
            .trimEnd()
            .split('\n')
            .map((l) => {
              const o = JSON.parse(l);
              return o.error ? 'undecided' : o.decision;
            });
          expect(got).toEqual(want);
          expect(t.code).toBe(want.includes('undecided') ? 2 : want.every((w: string) => w === exp) ? 0 : 1);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('runs 10,000 cases in under a second', async () => {
    const cases = Array.from({ length: 10_000 }, (_, i) => ({
      name: `case ${i}`,
      request: `connect:tcp h${i}.github.com:443`,
      expect: 'allow',
    }));
    const c = temp('big.json', JSON.stringify({ cases }, null, 2));
    const y = temp(
      'big.yaml',
      `cases:\n${cases.map((x) => `  - name: ${x.name}\n    request: ${x.request}\n    expect: allow\n`).join('')}`,
    );
    for (const f of [c, y]) {
      // CPU time, not wall time: the machine running the tests may be shared
      const started = process.cpuUsage();
      const r = await runCli(['policy', 'test', f, '-f', NET]);
      const used = process.cpuUsage(started);
      const ms = (used.user + used.system) / 1000;
      expect(r.code).toBe(0);
      expect(r.stdout.endsWith('10000 passed, 0 failed\n')).toBe(true);
      expect(ms).toBeLessThan(1000);
    }
  });
});

describe('policy test, live', () => {
  let h: GovHarness;
  beforeEach(async () => {
    h = await startGovHarness();
  });
  afterEach(() => h.close());
  const rule = { name: 'gh', actions: ['connect:tcp'], decision: 'allow', resources: ['github.com'] };

  it("tests the policies of --org: org-wide, plus a case's team, plus --policy by name", async () => {
    h.seed({ name: 'org-wide', rules: [rule] });
    h.seed({
      name: 'team-a',
      teams: [ACME_TEAMS[0]!],
      rules: [{ ...rule, name: 'block', decision: 'deny' }],
    });
    const c = temp(
      'c.yaml',
      `cases:\n  - {name: org, request: "connect:tcp github.com", expect: allow}\n  - {name: team, request: "connect:tcp github.com", expect: deny, team: ${ACME_TEAMS[0]}}\n  - {name: by name, request: "connect:tcp github.com", expect: deny, team: ${ACME_TEAM_NAMES[0]}}\n`,
    );
    const r = await h.run(['policy', 'test', c]);
    expect(r).toMatchObject({ code: 0, stdout: '✓ org\n✓ team\n✓ by name\n3 passed, 0 failed\n' });
    const team = await h.run(['policy', 'test', c, '--team', ACME_TEAM_NAMES[0]!, '--json']);
    // with --team, the case without a team gets that team's policies too
    expect(JSON.parse(team.stdout).map((x: { got: string }) => x.got)).toEqual(['deny', 'deny', 'deny']);
    const unknown = await h.run(['policy', 'test', c, '--team', 'nobody']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--team: no team named "nobody" in org acme');
    expect(team.code).toBe(1);
    // a file's scope naming a team by name applies to a case of that team's UUID
    const scopedFile = temp(
      's.yaml',
      `name: dev-block\nscope: {teams: [${ACME_TEAM_NAMES[0]}]}\nrules:\n  - {name: b, actions: [connect:tcp], decision: deny, resources: [github.com]}\n`,
    );
    const fromFile = await h.run([
      'policy',
      'test',
      temp(
        'f.yaml',
        `cases:\n  - {request: "connect:tcp github.com", expect: deny, team: ${ACME_TEAMS[0]}}\n`,
      ),
      '-f',
      scopedFile,
    ]);
    expect(fromFile.code).toBe(0);
    const named = await h.run([
      'policy',
      'test',
      temp('n.yaml', 'cases:\n  - {request: "connect:tcp github.com", expect: allow}\n'),
      '--policy',
      'org-wide',
    ]);
    expect(named.code).toBe(0);
  });
});

// The governance loop with the built bin/hubctl.js against the hub emulator: suggest from denials,
// lint, test (JUnit read by xmllint, TAP line by line), replay against the live policies of --org
// (both event shapes), apply, replay again (no change).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { ensureBuilt, runBin } from '../support/run-bin.js';
import { describeWithTools, toolPath } from '../support/tools.js';

let hub: HubEmulator;
let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  ensureBuilt();
  hub = await startHubEmulator();
  dir = mkdtempSync(join(tmpdir(), 'hubctl-loop-'));
  env = {
    HOME: dir,
    HUBCTL_CONFIG_DIR: dir,
    HUBCTL_BASE_URL: hub.url,
    HUBCTL_USERNAME: 'alice',
    HUBCTL_TOKEN: 'alice-password',
    HUBCTL_ORG: 'acme',
  };
  hub.seedPolicy('acme', {
    name: 'egress',
    rules: [{ name: 'github', actions: ['connect:tcp'], decision: 'allow', resources: ['**.github.com'] }],
  });
});
afterAll(() => hub?.close());

const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

const EVENTS = [
  {
    audit_event_id: '0b9f3f0e-0000-4000-8000-000000000001',
    org_id: '0b9f3f0e-0000-4000-8000-0000000000aa',
    event_type: 'network_egress',
    category: 'AUDIT_CATEGORY_EVALUATION',
    action_type: 'network_egress',
    decision: 'AUDIT_DECISION_DENY',
    username: 'ann',
    created_at: '2026-11-20T10:00:00Z',
    payload: { resource_id: 'registry.npmjs.org:443', agent: 'claude', network_egress: { protocol: 'tcp' } },
  },
  {
    timestamp: '2026-11-21T10:00:00Z',
    schema_version: '1',
    user_email: 'bob@example.com',
    action_type: 'network_egress',
    decision: 'AUDIT_DECISION_DENY',
    resource_id: 'registry.npmjs.org:443',
    agent: 'codex',
    network_egress: { protocol: 'tcp' },
  },
  {
    timestamp: '2026-11-21T10:05:00Z',
    user_email: 'bob@example.com',
    action_type: 'http_request',
    decision: 'AUDIT_DECISION_ALLOW',
    http_request: { method: 'HTTP_METHOD_GET', host: 'api.github.com', port: '443', path: '/repos/x' },
  },
  {
    timestamp: '2026-11-21T10:06:00Z',
    user_email: 'bob@example.com',
    action_type: 'network_egress',
    decision: 'AUDIT_DECISION_DENY',
    resource_id: '169.254.169.254:80',
    network_egress: { protocol: 'tcp' },
  },
];

describeWithTools(['xmllint'], 'the governance loop, with the real binary', () => {
  it('suggest → lint → test → replay (--org) → apply → replay', async () => {
    const events = file('events.ndjson', `${EVENTS.map((e) => JSON.stringify(e)).join('\n')}\n`);
    const suggested = await runBin(['policy', 'suggest', events, '--name', 'npm'], { env });
    expect(suggested.code).toBe(0);
    expect(suggested.stdout).toContain('resources: ["registry.npmjs.org:443"]');
    expect(suggested.stdout).not.toContain('169.254.169.254');
    const candidate = file('npm.yaml', suggested.stdout);
    expect((await runBin(['policy', 'lint', '-f', candidate], { env })).code).toBe(0);

    // the live policy plus the suggestion, tested with cases
    const live = await runBin(['policy', 'export', 'egress', '-o', join(dir, 'live')], { env });
    expect(live.code).toBe(0);
    const egress = join(dir, 'live', 'egress.yaml');
    const cases = file(
      'cases.yaml',
      'cases:\n  - {name: npm, request: "connect:tcp registry.npmjs.org:443", expect: allow}\n  - {name: metadata, request: "connect:tcp 169.254.169.254:80", expect: deny}\n  - {name: gh delete, request: "request:delete https://api.github.com/repos/x", expect: deny}\n',
    );
    const junit = await runBin(
      ['policy', 'test', cases, '-f', egress, '-f', candidate, '--format', 'junit'],
      { env },
    );
    expect(junit.stderr).toBe('');
    expect(junit.code).toBe(1);
    const xml = file('junit.xml', junit.stdout);
    execFileSync(toolPath('xmllint')!, ['--noout', xml]);
    const xpath = (e: string) =>
      execFileSync(toolPath('xmllint')!, ['--xpath', e, xml], { encoding: 'utf8' }).trim();
    expect(xpath('count(//testsuite/testcase)')).toBe('3');
    expect(xpath('string(//testcase[failure]/@name)')).toBe('gh delete');
    const tap = await runBin(['policy', 'test', cases, '-f', egress, '-f', candidate, '--format', 'tap'], {
      env,
    });
    const lines = tap.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual(['TAP version 13', '1..3']);
    expect(lines.filter((l) => /^(not )?ok /.test(l))).toEqual([
      'ok 1 - npm',
      'ok 2 - metadata',
      'not ok 3 - gh delete',
    ]);

    // replay: the live policies of --org against them plus the suggestion
    const replay = await runBin(['policy', 'replay', events, '-f', egress, '-f', candidate, '--json'], {
      env,
    });
    expect(replay.code).toBe(10);
    const report = JSON.parse(replay.stdout);
    expect(report.replayed).toBe(4);
    expect(report.changes).toEqual([
      expect.objectContaining({
        resource: 'registry.npmjs.org:443',
        before: 'deny',
        after: 'allow',
        count: 2,
        users: ['ann', 'bob@example.com'],
        agents: ['claude', 'codex'],
        first: '2026-11-20T10:00:00Z',
        last: '2026-11-21T10:00:00Z',
      }),
    ]);
    expect(report.drift.count).toBe(0);

    expect((await runBin(['policy', 'apply', '-f', egress, '-f', candidate, '--yes'], { env })).code).toBe(0);
    const after = await runBin(['policy', 'replay', events, '-f', egress, '-f', candidate], { env });
    expect(after.code).toBe(0);
    expect(after.stdout).toContain('no decision changes');
    // the recorded denials of npm now differ from the live baseline: drift
    expect(after.stdout).toContain('drift: 2 events recorded with another decision than the baseline gives');
  });

  it('replays 100,000 events within 200 MB', async () => {
    const line = (i: number) =>
      JSON.stringify({
        action_type: 'network_egress',
        decision: 'AUDIT_DECISION_DENY',
        username: `user${i % 50}`,
        created_at: '2026-11-20T10:00:00Z',
        payload: {
          resource_id: `h${i % 500}.example.com:443`,
          agent: 'claude',
          network_egress: { protocol: 'tcp' },
        },
      });
    const big = file('big.ndjson', `${Array.from({ length: 100_000 }, (_, i) => line(i)).join('\n')}\n`);
    const cand = file(
      'all.yaml',
      'name: all\nrules:\n  - {name: ex, actions: [connect:tcp], decision: allow, resources: ["**.example.com"]}\n',
    );
    const r = await runBin(
      [
        'policy',
        'replay',
        big,
        '-f',
        cand,
        '--baseline-file',
        file('none.yaml', 'name: none\nrules: []\n'),
        '--json',
      ],
      { env },
    );
    expect(r.code).toBe(10);
    expect(JSON.parse(r.stdout).changes).toHaveLength(500);
    expect(r.peakRssKiB).toBeLessThan(200 * 1024);
  });
});

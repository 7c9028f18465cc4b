// `policy suggest` end to end: the proposal passes `policy lint`, `policy eval -f` decides with it,
// and `policy apply -f` applies it to the hub emulator.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../support/run-cli.js';
import { type GovHarness, startGovHarness } from '../rule/gov-harness.js';

function temp(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'hubctl-suggest-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const denial = (resource: string, user: string, shape: 'api' | 'local' = 'api') =>
  shape === 'api'
    ? {
        action_type: 'network_egress',
        decision: 'AUDIT_DECISION_DENY',
        username: user,
        created_at: '2026-11-20T10:00:00Z',
        payload: { resource_id: resource, network_egress: { protocol: 'tcp' } },
      }
    : {
        action_type: 'network_egress',
        decision: 'AUDIT_DECISION_DENY',
        user_email: user,
        timestamp: '2026-11-21T10:00:00Z',
        resource_id: resource,
        network_egress: { protocol: 'tcp' },
      };

const EVENTS = [
  denial('a.cdn.example.com:443', 'ann'),
  denial('b.cdn.example.com:443', 'bob', 'local'),
  denial('b.cdn.example.com:443', 'bob', 'local'),
  denial('pypi.org:443', 'cy'),
  denial('169.254.169.254:80', 'cy'),
  denial('10.0.0.5:5432', 'cy'),
];
const ndjson = (list: unknown[]) => `${list.map((e) => JSON.stringify(e)).join('\n')}\n`;

describe('policy suggest', () => {
  it('writes a policy file with comments; it passes lint and policy eval -f reads it', async () => {
    const ev = temp('e.ndjson', ndjson(EVENTS));
    const r = await runCli(['policy', 'suggest', ev, '--name', 'dev-allows']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        '# Allow rules suggested by `hubctl policy suggest` from 6 denied network events (2026-11-20T10:00:00Z … 2026-11-21T10:00:00Z).',
        '# Review every rule before applying it: each one allows what was denied.',
        '# Not proposed: 1 event: cloud metadata address or name; 1 event: private address.',
        'name: "dev-allows"',
        'rules:',
        '  # 3 events, 2 users: ann, bob',
        '  # wildcard over 2 destinations seen: a.cdn.example.com:443, b.cdn.example.com:443',
        '  - name: "allow-any-cdn-example-com-443"',
        '    actions: [connect:tcp]',
        '    decision: allow',
        '    resources: ["*.cdn.example.com:443", "cdn.example.com:443"]',
        '  # 1 event, 1 user: cy',
        '  - name: "allow-pypi-org-443"',
        '    actions: [connect:tcp]',
        '    decision: allow',
        '    resources: ["pypi.org:443"]',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe('2 rules proposed, covering 4 of 6 denied network events\n');
    const file = temp('suggested.yaml', r.stdout);
    expect((await runCli(['policy', 'lint', '-f', file])).code).toBe(0);
    const e = await runCli(['policy', 'eval', 'connect:tcp', 'c.cdn.example.com:443', '-f', file]);
    expect(e.code).toBe(0);
    expect(e.stdout).toContain('allowed by rule "allow-any-cdn-example-com-443" of policy "dev-allows"');
    expect((await runCli(['policy', 'eval', 'connect:tcp', '169.254.169.254:80', '-f', file])).code).toBe(3);
    expect((await runCli(['policy', 'eval', 'connect:tcp', 'cdn.example.com:80', '-f', file])).code).toBe(3);
  });

  it("prints the policy, each rule's events and users, and what it left out with --json; --min-count", async () => {
    const ev = temp('e.ndjson', ndjson(EVENTS));
    const r = await runCli(['policy', 'suggest', ev, '--json', '--min-count', '2']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      policy: {
        name: 'suggested-allows',
        rules: [
          {
            name: 'allow-any-cdn-example-com-443',
            actions: ['connect:tcp'],
            decision: 'allow',
            resources: ['*.cdn.example.com:443', 'cdn.example.com:443'],
          },
        ],
      },
      rules: [
        {
          name: 'allow-any-cdn-example-com-443',
          events: 3,
          users: ['ann', 'bob'],
          destinations: ['a.cdn.example.com:443', 'b.cdn.example.com:443'],
        },
      ],
      denials: 6,
      not_proposed: { 'cloud metadata address or name': 1, 'private address': 1, 'below --min-count': 1 },
      skipped: {},
    });
  });

  it('reads stdin, counts lines that are not JSON, and refuses bad options', async () => {
    const r = await runCli(['policy', 'suggest', '-', '--json'], {
      stdin: `nope\n${ndjson(EVENTS.slice(3, 4))}`,
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ denials: 1, skipped: { 'not JSON': 1 } });
    expect((await runCli(['policy', 'suggest', 'e.ndjson', '--min-count', '0'])).code).toBe(2);
    expect((await runCli(['policy', 'suggest', 'e.ndjson', '--name', ''])).code).toBe(2);
    expect(await runCli(['policy', 'suggest', '/nonexistent/e.ndjson'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'hubctl: cannot read events file /nonexistent/e.ndjson: no such file\n',
    });
  });

  it('writes a valid empty policy when nothing was denied', async () => {
    const r = await runCli(['policy', 'suggest', '-'], { stdin: '' });
    expect(r.code).toBe(0);
    const file = temp('s.yaml', r.stdout);
    expect((await runCli(['policy', 'lint', '-f', file])).code).toBe(0);
  });
});

describe('policy suggest → apply', () => {
  let h: GovHarness;
  beforeEach(async () => {
    h = await startGovHarness();
  });
  afterEach(() => h.close());

  it('is applied by policy apply -f, and a second apply changes nothing', async () => {
    const r = await runCli(['policy', 'suggest', temp('e.ndjson', ndjson(EVENTS))]);
    const file = temp('suggested.yaml', r.stdout);
    const applied = await h.run(['policy', 'apply', '-f', file, '--yes']);
    expect(applied.code).toBe(0);
    expect((await h.run(['policy', 'diff', '-f', file])).code).toBe(0);
    const live = await h.run([
      'policy',
      'eval',
      'connect:tcp',
      'pypi.org:443',
      '--policy',
      'suggested-allows',
    ]);
    expect(live.code).toBe(0);
  });
});

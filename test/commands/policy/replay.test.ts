// `policy replay` end to end through main(): both event shapes, files and stdin, the report, exit
// codes, bad input, and the live baseline of --org from the hub emulator.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACME_TEAM_NAMES, ACME_TEAMS } from '../../support/hub-emulator.js';
import { runCli } from '../../support/run-cli.js';
import { type GovHarness, startGovHarness } from '../rule/gov-harness.js';

function temp(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'hubctl-replay-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const BASE = `name: egress
rules:
  - {name: gh, actions: [connect:tcp], decision: allow, resources: ["**.github.com"]}
  - {name: npm, actions: [connect:tcp], decision: allow, resources: [registry.npmjs.org]}
`;
const CAND = `name: egress
rules:
  - {name: gh, actions: [connect:tcp], decision: allow, resources: ["**.github.com"]}
  - {name: no-delete, actions: [request:delete], decision: deny, http_resources: [{host: api.github.com, path: "/**"}]}
`;

// The API's shape (audit export) and the daemon's flat local records.
const API_EVENTS = [
  {
    audit_event_id: '0b9f3f0e-0000-4000-8000-000000000001',
    org_id: '0b9f3f0e-0000-4000-8000-0000000000aa',
    event_type: 'network_egress',
    category: 'AUDIT_CATEGORY_EVALUATION',
    decision: 'AUDIT_DECISION_ALLOW',
    action_type: 'network_egress',
    enforcement_mode: 'enforce',
    username: 'ann',
    created_at: '2026-11-20T10:00:00Z',
    payload: { resource_id: 'registry.npmjs.org:443', agent: 'claude', network_egress: { protocol: 'tcp' } },
  },
  {
    audit_event_id: '0b9f3f0e-0000-4000-8000-000000000002',
    org_id: '0b9f3f0e-0000-4000-8000-0000000000aa',
    event_type: 'session',
    category: 'AUDIT_CATEGORY_MANAGEMENT',
    action_type: 'session',
    username: 'ann',
    created_at: '2026-11-20T09:00:00Z',
    payload: {},
  },
];
const LOCAL_EVENTS = [
  {
    timestamp: '2026-11-21T08:00:00Z',
    schema_version: '1',
    user_email: 'bob@example.com',
    decision: 'AUDIT_DECISION_ALLOW',
    action_type: 'http_request',
    resource_id: 'api.github.com:443',
    agent: 'codex',
    http_request: { method: 'HTTP_METHOD_DELETE', host: 'api.github.com', port: '443', path: '/repos/x' },
    org_name: 'acme',
    hostname: 'dev1',
  },
  {
    timestamp: '2026-11-21T08:01:00Z',
    user_email: 'bob@example.com',
    decision: 'AUDIT_DECISION_ALLOW',
    action_type: 'tool_invocation',
    resource_id: 'notion/search',
  },
];
const ndjson = (list: unknown[]) => `${list.map((e) => JSON.stringify(e)).join('\n')}\n`;

describe('policy replay with files', () => {
  it('replays both shapes and reports the changes, newly denied first, with --json (exit 10)', async () => {
    const a = temp('api.ndjson', ndjson(API_EVENTS));
    const l = temp('local.jsonl', ndjson(LOCAL_EVENTS));
    const r = await runCli([
      'policy',
      'replay',
      a,
      l,
      '-f',
      temp('c.yaml', CAND),
      '--baseline-file',
      temp('b.yaml', BASE),
      '--json',
    ]);
    expect(r.code).toBe(10);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      read: 4,
      replayed: 2,
      skipped: { 'management record': 1, 'MCP event (payload fields not documented)': 1 },
      drift: { count: 0, groups: [] },
    });
    // both newly denied, one event each: by resource
    expect(out.changes).toEqual([
      expect.objectContaining({
        resource: 'https://api.github.com:443/repos/x',
        action: 'request:delete',
        before: 'allow',
        after: 'deny',
        users: ['bob@example.com'],
        agents: ['codex'],
      }),
      {
        resource: 'registry.npmjs.org:443',
        action: 'connect:tcp',
        before: 'allow',
        after: 'deny',
        count: 1,
        users: ['ann'],
        agents: ['claude'],
        first: '2026-11-20T10:00:00Z',
        last: '2026-11-20T10:00:00Z',
        rules: { before: [{ policy: 'egress', rule: 'npm' }], after: [] },
        reasons: {
          before: 'allowed by rule "npm" of policy "egress"',
          after: 'no rule matched: denied by default',
        },
      },
    ]);
  });

  it('reads stdin as -, prints the changes and what it skipped on a terminal run', async () => {
    const r = await runCli(
      ['policy', 'replay', '-', '-f', temp('c.yaml', CAND), '--baseline-file', temp('b.yaml', BASE)],
      {
        stdin: ndjson([...API_EVENTS, ...LOCAL_EVENTS]),
      },
    );
    expect(r.code).toBe(10);
    expect(r.stdout).toBe(
      [
        'newly denied: 2 requests, 2 events',
        '  request:delete https://api.github.com:443/repos/x  1 event, 1 user, 1 agent, 2026-11-21T08:00:00Z',
        '    before: allow (rule "gh" of policy "egress")',
        '    after:  deny (rule "no-delete" of policy "egress")',
        '    users:  bob@example.com',
        '  connect:tcp registry.npmjs.org:443  1 event, 1 user, 1 agent, 2026-11-20T10:00:00Z',
        '    before: allow (rule "npm" of policy "egress")',
        '    after:  deny (no rule matched: denied by default)',
        '    users:  ann',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe(
      '4 events read: 2 replayed, 2 not replayed\n  1  management record\n  1  MCP event (payload fields not documented)\n',
    );
  });

  it('exits 0 when nothing changes, and reports drift from the recorded decisions', async () => {
    const b = temp('b.yaml', BASE);
    const drifted = {
      ...LOCAL_EVENTS[0],
      action_type: 'network_egress',
      network_egress: { protocol: 'tcp' },
      resource_id: 'evil.example:443',
    };
    const r = await runCli([
      'policy',
      'replay',
      temp('e.ndjson', ndjson([...API_EVENTS, drifted])),
      '-f',
      b,
      '--baseline-file',
      b,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'no decision changes\ndrift: 1 event recorded with another decision than the baseline gives (1 request)\n  connect:tcp evil.example:443  recorded allow, baseline deny, 1 event, 2026-11-21T08:00:00Z\n',
    );
  });

  it('skips and counts a line that is not JSON and a line over 1 MiB, naming the first bad line', async () => {
    const text = `${JSON.stringify(API_EVENTS[0])}\n{"truncated": \n${'x'.repeat(3 * 1024 * 1024)}\n${JSON.stringify(API_EVENTS[0])}`;
    const b = temp('b.yaml', BASE);
    const r = await runCli([
      'policy',
      'replay',
      temp('e.ndjson', text),
      '-f',
      b,
      '--baseline-file',
      b,
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      read: 4,
      replayed: 2,
      skipped: { 'not JSON': 1, 'line over the length cap': 1 },
    });
    const t = await runCli(['policy', 'replay', '-', '-f', b, '--baseline-file', b], { stdin: text });
    expect(t.stderr).toContain('(the first line that is not JSON: -:2)');
  });

  it('exits 2 on bad input before any request: a missing events file, no candidate, a bad policy', async () => {
    const b = temp('b.yaml', BASE);
    const env = { HUBCTL_BASE_URL: 'http://127.0.0.1:9', HUBCTL_ORG: 'acme' };
    expect(await runCli(['policy', 'replay', '/nonexistent/e.ndjson', '-f', b], { env })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'hubctl: cannot read events file /nonexistent/e.ndjson: no such file\n',
    });
    expect((await runCli(['policy', 'replay', 'e.ndjson'], { env })).stderr).toBe(
      'hubctl: name the candidate policies with -f FILE\n',
    );
    const bad = temp(
      'bad.yaml',
      'name: x\nrules:\n  - {name: r, actions: [connect:tcp], decision: allow, resources: ["http://x"]}\n',
    );
    const r = await runCli([
      'policy',
      'replay',
      temp('e.ndjson', ndjson(API_EVENTS)),
      '-f',
      bad,
      '--baseline-file',
      b,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: rules\\[0\\]\\.resources\\[0\\]: invalid network resource`,
      ),
    );
    expect((await runCli(['policy', 'replay', '-', '-', '-f', b])).code).toBe(2);
  });
});

describe('policy replay, live baseline', () => {
  let h: GovHarness;
  beforeEach(async () => {
    h = await startGovHarness();
  });
  afterEach(() => h.close());

  it('takes the effective policies of --org as the baseline, scoped as --team says', async () => {
    h.seed({
      name: 'egress',
      rules: [
        { name: 'npm', actions: ['connect:tcp'], decision: 'allow', resources: ['registry.npmjs.org'] },
      ],
    });
    h.seed({
      name: 'team-block',
      teams: [ACME_TEAMS[0]!],
      rules: [
        { name: 'block', actions: ['connect:tcp'], decision: 'deny', resources: ['registry.npmjs.org'] },
      ],
    });
    const events = temp('e.ndjson', ndjson(API_EVENTS));
    const cand = temp(
      'c.yaml',
      'name: egress\nrules:\n  - {name: npm, actions: [connect:tcp], decision: allow, resources: [registry.npmjs.org]}\n',
    );
    const org = await h.run(['policy', 'replay', events, '-f', cand, '--json']);
    expect(org.code).toBe(0);
    expect(JSON.parse(org.stdout)).toMatchObject({ replayed: 1, changes: [] });
    const team = await h.run([
      'policy',
      'replay',
      events,
      '-f',
      cand,
      '--team',
      ACME_TEAM_NAMES[0]!,
      '--json',
    ]);
    expect(team.code).toBe(10);
    expect(JSON.parse(team.stdout).changes).toEqual([
      expect.objectContaining({
        resource: 'registry.npmjs.org:443',
        before: 'deny',
        after: 'allow',
        rules: {
          before: [{ policy: 'team-block', rule: 'block' }],
          after: [{ policy: 'egress', rule: 'npm' }],
        },
      }),
    ]);
    expect(h.calls()[0]).toBe('GET /p');
  });
});

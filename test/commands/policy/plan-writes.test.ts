// `policy apply` does exactly what `policy diff` shows (issue 20, item 5): every write of the plan
// is a line of `diff` and a step of `apply --dry-run --json`, the requests the hub emulator records
// are those writes, one for one and in order, and rules keep their ids wherever a PATCH can do the
// change. Before, a scope widened to org-wide was shown as one change but sent as DELETE rule,
// PATCH, POST rule: the allow was gone between the writes and came back with a new id.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACME_TEAMS } from '../../support/hub-emulator.js';
import { type GovHarness, NET_RULE, startGovHarness } from '../rule/gov-harness.js';

let h: GovHarness;
let dir: string;
beforeEach(async () => {
  h = await startGovHarness();
  dir = mkdtempSync(join(tmpdir(), 'hubctl-plan-writes-'));
});
afterEach(() => h.close());

const T1 = ACME_TEAMS[0]!;
const writes = () =>
  h
    .gov()
    .filter((r) => r.method !== 'GET')
    .map((r) => ({ method: r.method, path: r.path.replace(/.*\/policies/, ''), json: r.json }));
const ruleIds = (policy: string) =>
  Object.fromEntries(h.hub.state.policies.find((p) => p.name === policy)!.rules.map((r) => [r.name, r.id]));

interface PlanStep {
  op: string;
  method: string;
  policyId?: string;
  ruleId?: string;
  how?: string;
}

/** The request each step of the JSON plan stands for: method and path (new policies' ids are not known yet). */
function expected(s: PlanStep): { method: string; path: string | RegExp } {
  const pol = s.policyId === undefined ? /^\/pol_\d+/ : `/${s.policyId}`;
  const under = (tail: string) =>
    typeof pol === 'string' ? `${pol}${tail}` : new RegExp(`${pol.source}${tail}$`);
  switch (s.op) {
    case 'create-policy':
      return { method: 'POST', path: '' };
    case 'update-policy':
    case 'delete-policy':
      return { method: s.method, path: pol };
    case 'add-rule':
      return { method: 'POST', path: under('/rules') };
    case 'change-rule':
      return s.how === 'patch'
        ? { method: 'PATCH', path: `${pol}/rules/${s.ruleId}` }
        : { method: 'POST', path: under('/rules') };
    default:
      return { method: 'DELETE', path: `${pol}/rules/${s.ruleId}` };
  }
}

describe('plan = writes', () => {
  it('widening a scope from a team to org-wide is one PATCH; the rules keep their ids', async () => {
    h.seed({
      name: 'egress',
      teams: [T1],
      rules: [
        NET_RULE,
        { name: 'no-meta', actions: ['connect:tcp'], decision: 'deny', resources: ['169.254.169.254'] },
      ],
    });
    const before = ruleIds('egress');
    writeFileSync(
      join(dir, 'egress.yaml'),
      'name: egress\nrules:\n  - {name: github, actions: [connect:tcp], decision: allow, resources: [github.com:443, "**.github.com"]}\n' +
        '  - {name: no-meta, actions: [connect:tcp], decision: deny, resources: [169.254.169.254]}\n',
    );
    const d = await h.run(['policy', 'diff', '-f', dir]);
    // the team T1 is "developers" in the emulator: the plan names it
    expect([d.code, d.stdout]).toEqual([
      10,
      `~ policy "egress": scope teams "developers" → org-wide [PATCH]\n`,
    ]);
    expect(d.stderr).toBe('Plan: 0 to add, 1 to change, 0 to remove; 1 write, each line one.\n');
    h.hub.clearRequests();
    const r = await h.run(['policy', 'apply', '-f', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(writes()).toEqual([
      { method: 'PATCH', path: `/${h.hub.state.policies[0]!.id}`, json: { scope: { teams: [] } } },
    ]);
    expect(ruleIds('egress')).toEqual(before);
  });

  it('sends exactly the writes of the plan, in its order, with the fields it names', async () => {
    h.seed({
      name: 'egress',
      teams: [T1],
      rules: [
        NET_RULE,
        { name: 'old-name', actions: ['connect:tcp'], decision: 'allow', resources: ['pypi.org:443'] },
        { name: 'api', actions: ['connect:tcp'], decision: 'allow', resources: ['api.github.com:443'] },
        { name: 'no-meta', actions: ['connect:tcp'], decision: 'deny', resources: ['169.254.169.254'] },
        {
          name: 'no-lan',
          actions: ['connect:tcp'],
          decision: 'deny',
          resources: ['10.0.0.0/8', '192.168.0.0/16'],
        },
        { name: 'gone', actions: ['connect:tcp'], decision: 'allow', resources: ['gone.test'] },
      ],
    });
    h.seed({
      name: 'workspace',
      rules: [
        { name: 'data', actions: ['read', 'write'], decision: 'allow', resources: ['/data/**', '/tmp/**'] },
      ],
    });
    const before = ruleIds('egress');
    writeFileSync(
      join(dir, 'egress.yaml'),
      [
        'name: egress', // widened to org-wide
        'rules:',
        '  - {name: github, actions: [connect:tcp], decision: allow, resources: [github.com:443, "**.github.com"]}',
        '  - {name: pypi, actions: [connect:tcp], decision: allow, resources: [pypi.org:443]}', // renamed
        '  - name: api', // turned into an HTTP rule
        '    actions: [request:get]',
        '    decision: allow',
        '    http_resources: [{host: api.github.com, path: /repos/**}]',
        '  - {name: no-meta, actions: [connect:tcp, connect:udp], decision: deny, resources: [169.254.169.254]}', // grows
        '  - {name: no-lan, actions: [connect:tcp], decision: allow, resources: [10.0.0.0/8]}', // deny to allow
        '  - {name: new, actions: [connect:tcp], decision: allow, resources: [new.test]}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'workspace.yaml'),
      'name: workspace\nrules:\n  - {name: data, actions: [read], decision: allow, resources: [/data/**]}\n',
    );
    const d = await h.run(['policy', 'diff', '-f', dir]);
    expect(d.code, d.stderr).toBe(10);
    const plan = JSON.parse((await h.run(['policy', 'diff', '-f', dir, '--json'])).stdout) as {
      steps: PlanStep[];
    };
    const dry = await h.run(['policy', 'apply', '-f', dir, '--dry-run', '--json']);
    expect(JSON.parse(dry.stdout)).toEqual(plan);
    // the text plan has one line per write, each with its method
    const lines = d.stdout.trimEnd().split('\n');
    expect(lines.map((l) => l.match(/\[(POST|PATCH|DELETE)\]$/)?.[1])).toEqual(
      plan.steps.map((s) => s.method),
    );
    // every rule change here can be a PATCH: nothing is removed and added back
    expect(plan.steps.map((s) => `${s.op} ${s.method}`).sort()).toEqual(
      [
        'update-policy PATCH', // scope
        'change-rule PATCH', // rename
        'change-rule PATCH', // api → HTTP
        'change-rule PATCH', // no-meta grows
        'change-rule PATCH', // no-lan deny → allow
        'change-rule PATCH', // data shrinks
        'add-rule POST', // new
        'remove-rule DELETE', // gone
      ].sort(),
    );

    h.hub.clearRequests();
    const r = await h.run(['policy', 'apply', '-f', dir, '--yes', '--concurrency', '1']);
    expect(r.code, r.stderr).toBe(0);
    const sent = writes();
    expect(sent).toHaveLength(plan.steps.length);
    sent.forEach((w, i) => {
      const want = expected(plan.steps[i]!);
      expect({ method: w.method, path: w.path }).toEqual({
        method: want.method,
        path: typeof want.path === 'string' ? want.path : expect.stringMatching(want.path),
      });
    });
    // the HTTP switch sends the one field the new form needs
    expect(sent.find((w) => w.path.endsWith(`/${before.api}`))!.json).toEqual({
      actions: ['request:get'],
      http_resources: [{ host: 'api.github.com', path: '/repos/**' }],
    });
    const after = ruleIds('egress');
    for (const name of ['github', 'api', 'no-meta', 'no-lan']) expect(after[name], name).toBe(before[name]);
    expect(after.pypi).toBe(before['old-name']);
    const again = await h.run(['policy', 'diff', '-f', dir]);
    expect([again.code, again.stdout]).toEqual([0, '']);
  });
});

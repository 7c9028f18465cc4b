// policy export / diff / apply / schema in process against the hub emulator: the plan, the write
// order, the questions, the failure report, and "a second apply sends no write".
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACME_TEAMS } from '../../support/hub-emulator.js';
import { scriptedPrompter } from '../../support/run-cli.js';
import { FS_RULE, type GovHarness, NET_RULE, startGovHarness } from '../rule/gov-harness.js';

let h: GovHarness;
let dir: string;
beforeEach(async () => {
  h = await startGovHarness();
  dir = mkdtempSync(join(tmpdir(), 'hubctl-as-code-'));
});
afterEach(() => h.close());

const HTTP_RULE = {
  name: 'gh-api',
  actions: ['request:get'],
  decision: 'allow',
  http_resources: [{ host: 'api.github.com', path: '/repos/**' }],
};
const CEDAR = { text: 'permit(principal, action, resource);\n', schema_url: 'https://x.test/schema.json' };
const writes = () => h.gov().filter((r) => r.method !== 'GET');

function seedOrg() {
  h.seed({ name: 'egress', rules: [NET_RULE, HTTP_RULE] });
  h.seed({ name: 'workspace', teams: [ACME_TEAMS[0]], rules: [FS_RULE] });
  h.seed({ name: 'cedar', type: 'cedar_v1', ruleSet: CEDAR });
}

describe('policy export, diff and apply', () => {
  it('round-trips: export, apply with no change and no write, edit, diff, apply, diff shows nothing', async () => {
    seedOrg();
    let r = await h.run(['policy', 'export', '--all', '-o', dir]);
    expect(r.stderr).toContain('Wrote 3 policies');
    expect(readdirSync(dir).sort()).toEqual(['cedar.yaml', 'egress.yaml', 'workspace.yaml']);
    const egress = readFileSync(join(dir, 'egress.yaml'), 'utf8');
    expect(egress).toMatch(/^# Policy "egress" of org acme/);
    expect(egress).not.toContain('rule_');
    h.hub.clearRequests();
    r = await h.run(['policy', 'apply', '-f', dir]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('No changes');
    expect(writes()).toEqual([]);
    r = await h.run(['policy', 'diff', '-f', dir]);
    expect(r.code).toBe(0);

    writeFileSync(
      join(dir, 'egress.yaml'),
      egress.replace('github.com:443', 'github.com:22').replace('/repos/**', '/orgs/*'),
    );
    writeFileSync(
      join(dir, 'new.yaml'),
      'name: blocklist\nrules:\n  - {name: meta, actions: [connect:tcp], decision: deny, resources: [169.254.169.254]}\n',
    );
    r = await h.run(['policy', 'diff', '-f', dir]);
    expect(r.code).toBe(10);
    expect(r.stdout).toContain('+ policy "blocklist" (org-wide)');
    expect(r.stdout).toContain('+   rule "meta" of policy "blocklist": deny connect:tcp "169.254.169.254"');
    expect(r.stdout).toContain('~   rule "github" of policy "egress": resources:');
    expect(r.stdout).toContain('~   rule "gh-api" of policy "egress": http_resources:');
    const j = await h.run(['policy', 'diff', '-f', dir, '--json']);
    expect(j.code).toBe(10);
    expect(JSON.parse(j.stdout).steps.map((s: { op: string }) => s.op)).toEqual([
      'create-policy',
      'add-rule',
      'change-rule',
      'change-rule',
    ]);
    h.hub.clearRequests();
    r = await h.run(['policy', 'apply', '-f', dir]);
    expect(r.code).toBe(0);
    expect(r.stderr.match(/five minutes/g)).toHaveLength(1);
    expect(writes().map((w) => w.method)).toEqual(['POST', 'POST', 'PATCH', 'PATCH']);
    r = await h.run(['policy', 'diff', '-f', dir]);
    expect([r.code, r.stdout]).toEqual([0, '']);
    h.hub.clearRequests();
    r = await h.run(['policy', 'apply', '-f', dir]);
    expect(writes()).toEqual([]);
  });

  it('asks before deleting, refuses off a terminal without --yes, deletes last with --prune --yes', async () => {
    seedOrg();
    writeFileSync(join(dir, 'only.yaml'), 'name: egress\nrules: []\n');
    const kept = await h.run(['policy', 'diff', '-f', dir]);
    expect(kept.stderr).toContain(
      '2 policies of the organization in no file, kept (--prune deletes them): "cedar", "workspace"',
    );
    let r = await h.run(['policy', 'apply', '-f', dir, '--prune']);
    expect(r.code).toBe(2);
    expect(writes()).toEqual([]);
    r = await h.run(['policy', 'apply', '-f', dir, '--prune', '--yes', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.not_applied).toEqual([]);
    const ops = writes().map((w) => `${w.method} ${w.path.replace(/.*policies/, '')}`);
    // the allows go first, the policies last
    expect(ops.at(-1)).toMatch(/^DELETE \/pol_\d+$/);
    expect(ops.at(-2)).toMatch(/^DELETE \/pol_\d+$/);
    expect(h.hub.state.policies.map((p) => p.name)).toEqual(['egress']);
    expect(h.hub.state.policies[0]!.rules).toEqual([]);
  });

  it('asks on a terminal before deleting: no writes nothing; a rename is a PATCH that keeps the id', async () => {
    h.seed({
      name: 'egress',
      rules: [
        NET_RULE,
        { name: 'old', actions: ['connect:tcp'], decision: 'allow', resources: ['old.test'] },
      ],
    });
    const ids = h.hub.state.policies[0]!.rules.map((x) => x.id);
    const renamed =
      'name: egress\nrules:\n  - {name: gh, actions: [connect:tcp], decision: allow, resources: [github.com:443, "**.github.com"]}\n';
    writeFileSync(join(dir, 'egress.yaml'), renamed);
    const d = await h.run(['policy', 'diff', '-f', dir]);
    expect(d.stdout).toBe(
      '~   rule "gh" of policy "egress": name "github" → "gh" [PATCH]\n' +
        '-   rule "old" of policy "egress": allow connect:tcp "old.test" [DELETE]\n',
    );
    const questions: string[] = [];
    const no = { ...scriptedPrompter({ confirm: [false] }) };
    const confirm = no.confirm;
    no.confirm = (q: string) => {
      questions.push(q);
      return confirm(q);
    };
    let r = await h.run(['policy', 'apply', '-f', dir], { tty: true, prompter: no });
    expect(r.code).toBe(1);
    expect(questions[0]).toContain('1 deletion (remove rule "old" from policy "egress")');
    expect(writes()).toEqual([]);
    r = await h.run(['policy', 'apply', '-f', dir], {
      tty: true,
      prompter: scriptedPrompter({ confirm: [true] }),
    });
    expect(r.code).toBe(0);
    expect(h.hub.state.policies[0]!.rules.map((x) => [x.id, x.name])).toEqual([[ids[0], 'gh']]);
    expect(writes().map((w) => [w.method, w.json])).toEqual([
      ['PATCH', { name: 'gh' }],
      ['DELETE', undefined],
    ]);
  });

  it('validates the whole plan before the first write', async () => {
    seedOrg();
    const cases: [string, string, number][] = [
      [
        'name: egress\nrules:\n  - {name: x, actions: [read], decision: allow, resources: [/a]}\n',
        'a policy keeps one domain',
        6,
      ],
      ['name: cedar\nrules: []\n', 'a policy keeps its type', 6],
      [
        'name: p\nrules:\n  - {name: x, actions: [read], decision: allow, resources: [/a]}\n  - {name: x, actions: [read], decision: allow, resources: [/b]}\n',
        'two rules named "x"',
        2,
      ],
      [
        'name: p\nrules:\n  - {name: x, actions: [request:get], decision: allow, http_resources: [{host: a.test, path: "/a?b"}]}\n',
        'no query',
        2,
      ],
    ];
    for (const [text, message, code] of cases) {
      const f = join(dir, 'p.yaml');
      writeFileSync(f, text);
      const r = await h.run(['policy', 'apply', '-f', f, '--yes']);
      expect([r.code, r.stderr]).toEqual([code, expect.stringContaining(message)]);
    }
    const big = join(dir, 'big.yaml');
    writeFileSync(big, `name: big\n# ${'x'.repeat(410 * 1024)}\nrules: []\n`);
    const r = await h.run(['policy', 'diff', '-f', big]);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('over 400 KB')]);
    expect(writes()).toEqual([]);
  });

  it('stops at the first failure and says what was and was not applied', async () => {
    writeFileSync(
      join(dir, 'p.yaml'),
      'name: p\nrules:\n' +
        ['a', 'b', 'c']
          .map((n) => `  - {name: ${n}, actions: [connect:tcp], decision: allow, resources: [${n}.test]}\n`)
          .join(''),
    );
    // the first rule goes through, the second meets a server error
    h.hub.inject({ method: 'POST', path: /\/rules$/ }, [
      { delayMs: 0 },
      { status: 500, body: { error: { code: 'internal', message: 'boom' } } },
    ]);
    const r = await h.run(['policy', 'apply', '-f', dir, '--concurrency', '1', '--json']);
    expect(r.code).toBe(7);
    const report = JSON.parse(r.stdout);
    expect(report.applied).toEqual(['create policy "p"', 'add rule "a" to policy "p"']);
    expect(report.failed.step).toBe('add rule "b" to policy "p"');
    expect(report.not_applied).toEqual(['add rule "c" to policy "p"']);
  });

  it('prints the JSON Schema of the authoring form', async () => {
    const r = await h.run(['policy', 'schema']);
    const schema = JSON.parse(r.stdout);
    expect(schema.$schema).toContain('json-schema.org');
    expect(JSON.stringify(schema)).toContain('request:trace');
  });
});

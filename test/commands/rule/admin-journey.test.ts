// Issue 3 "done when": an admin builds, inspects, changes and removes a network policy and a
// filesystem policy entirely from hubctl, by names; a pipeline does the same with --json and exit codes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACME_TEAMS } from '../../support/hub-emulator.js';
import { type GovHarness, startGovHarness } from './gov-harness.js';

let h: GovHarness;
beforeEach(async () => {
  h = await startGovHarness();
});
afterEach(() => h.close());

async function ok(argv: string[]) {
  const r = await h.run(argv);
  expect(r.code, `${argv.join(' ')}\n${r.stderr}`).toBe(0);
  return r;
}

describe('admin journey', () => {
  it('a network policy and a filesystem policy, by names, from creation to removal', async () => {
    // Build.
    await ok(['policy', 'create', 'egress', '--team', ACME_TEAMS[0]]);
    await ok([
      'rule',
      'add',
      'egress',
      '--name',
      'github',
      '--action',
      'connect:tcp',
      '--resource',
      'github.com:443,**.github.com',
      '--decision',
      'allow',
    ]);
    await ok([
      'rule',
      'add',
      'egress',
      '--name',
      'metadata',
      '--action',
      'connect:tcp',
      '--action',
      'connect:udp',
      '--resource',
      '169.254.169.254/32',
      '--decision',
      'deny',
    ]);
    await ok(['policy', 'create', 'workspace']);
    await ok([
      'rule',
      'add',
      'workspace',
      '--name',
      'data',
      '--action',
      'read,write',
      '--resource',
      '/data/**',
      '--decision',
      'allow',
    ]);
    await ok([
      'rule',
      'add',
      'workspace',
      '--name',
      'ssh-keys',
      '--action',
      'read',
      '--resource',
      '~/.ssh/**',
      '--decision',
      'deny',
    ]);

    // A network rule never lands in the filesystem policy, and nothing is written trying.
    const before = h.gov().length;
    const wrong = await h.run([
      'rule',
      'add',
      'workspace',
      '--name',
      'gh',
      '--action',
      'connect:tcp',
      '--resource',
      'github.com',
      '--decision',
      'allow',
    ]);
    expect(wrong.code).toBe(2);
    expect(
      h
        .gov()
        .slice(before)
        .map((r) => r.method),
    ).toEqual(['GET', 'GET']);

    // Inspect.
    const list = await ok(['policy', 'list']);
    expect(list.stdout).toMatch(
      /^pol_0001\tegress\tteams developers\tallowlist_v0\t.*\npol_0002\tworkspace\torg-wide\tallowlist_v0\t.*\n$/,
    );
    const egress = await ok(['policy', 'get', 'egress']);
    expect(egress.stdout).toContain('Domain\tnetwork\nRules\t2\n');
    expect(egress.stdout).toContain(
      '\nrule_0001\tgithub\tallow\tconnect:tcp\tgithub.com:443,**.github.com\n',
    );
    expect(egress.stdout).toContain(
      'rule_0002\tmetadata\tdeny\tconnect:tcp,connect:udp\t169.254.169.254/32\n',
    );
    const workspace = await ok(['rule', 'list', 'workspace']);
    expect(workspace.stdout).toBe(
      'rule_0003\tdata\tallow\tread,write\t/data/**\nrule_0004\tssh-keys\tdeny\tread\t~/.ssh/**\n',
    );

    // Change.
    await ok(['rule', 'update', 'egress', 'github', '--resource', 'github.com:443,api.github.com:443']);
    await ok(['rule', 'update', 'workspace', 'data', '--action', 'read', '--name', 'data-read-only']);
    await ok(['policy', 'update', 'egress', '--name', 'egress-prod', '--org-wide']);
    await ok(['policy', 'update', 'workspace', '--team', ACME_TEAMS[1]]);
    const changed = await ok(['policy', 'list']);
    expect(changed.stdout).toMatch(/^pol_0001\tegress-prod\torg-wide\t.*\npol_0002\tworkspace\tteams ops\t/);
    const rules = JSON.parse((await ok(['rule', 'list', 'egress-prod', '--json'])).stdout);
    expect(rules[0]).toEqual({
      id: 'rule_0001',
      name: 'github',
      actions: ['connect:tcp'],
      decision: 'allow',
      resources: ['github.com:443', 'api.github.com:443'],
    });
    expect(h.hub.state.policies[1]!.rules[0]).toMatchObject({ name: 'data-read-only', actions: ['read'] });

    // Remove: a rule, then both policies. Every write said it takes time to reach machines.
    const gone = await ok(['rule', 'delete', 'egress-prod', 'metadata', '--yes']);
    expect(gone.stderr).toContain('five minutes');
    await ok(['policy', 'delete', 'egress-prod', '--yes']);
    await ok(['policy', 'delete', 'workspace', '--yes']);
    expect((await ok(['policy', 'list', '--json'])).stdout).toBe('[]\n');
    expect(h.hub.state.policies).toEqual([]);
    expect((await h.run(['policy', 'get', 'workspace'])).code).toBe(5);
  });

  it('a pipeline does the same with --json and exit codes', async () => {
    const created = JSON.parse((await ok(['policy', 'create', 'ci-egress', '--json'])).stdout);
    expect(created.id).toMatch(/^pol_/);
    expect((await h.run(['policy', 'create', 'ci-egress', '--json'])).code).toBe(6);

    const rule = JSON.parse(
      (
        await ok([
          'rule',
          'add',
          created.id,
          '--name',
          'registry',
          '--action',
          'connect:tcp',
          '--resource',
          'registry.example.com:443',
          '--decision',
          'allow',
          '--json',
        ])
      ).stdout,
    );
    expect(rule).toEqual({
      id: expect.stringMatching(/^rule_/),
      name: 'registry',
      actions: ['connect:tcp'],
      decision: 'allow',
      resources: ['registry.example.com:443'],
    });

    const bad = await h.run([
      'rule',
      'add',
      created.id,
      '--name',
      'x',
      '--action',
      'connect:tcp',
      '--resource',
      'https://registry.example.com',
      '--decision',
      'allow',
      '--json',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(JSON.parse(bad.stderr).error.message).toMatch(/"https:\/\/registry.example.com"/);

    const updated = JSON.parse(
      (await ok(['rule', 'update', created.id, rule.id, '--decision', 'deny', '--json'])).stdout,
    );
    expect(updated.new.decision).toBe('deny');
    expect(updated.old.decision).toBe('allow');

    const policy = JSON.parse((await ok(['policy', 'get', created.id, '--json'])).stdout);
    expect(policy.allowlist_v0.rules).toEqual([updated.new]);

    const renamed = JSON.parse((await ok(['policy', 'update', created.id, '--name', 'ci', '--json'])).stdout);
    expect(renamed.new.name).toBe('ci');

    expect(JSON.parse((await ok(['rule', 'delete', created.id, rule.id, '--yes', '--json'])).stdout)).toEqual(
      { deleted: updated.new },
    );
    expect(JSON.parse((await ok(['policy', 'delete', 'ci', '--yes', '--json'])).stdout).deleted.id).toBe(
      created.id,
    );
    const missing = await h.run(['policy', 'get', created.id, '--json']);
    expect(missing.code).toBe(5);
    expect(missing.stdout).toBe('');
  });
});

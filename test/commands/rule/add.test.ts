import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/rule/add.js';
import { FS_RULE, type GovHarness, NET_RULE, parseWith, startGovHarness } from './gov-harness.js';

let h: GovHarness;
beforeEach(async () => {
  h = await startGovHarness();
});
afterEach(() => h.close());

const NOTE = 'The change takes up to five minutes to reach developer machines.\n';
const add = (policy: string, name: string, action: string, resource: string, decision = 'allow') => [
  'rule',
  'add',
  policy,
  '--name',
  name,
  '--action',
  action,
  '--resource',
  resource,
  '--decision',
  decision,
];

describe('rule add: parsing', () => {
  it('collects --action and --resource repeated and comma-separated', async () => {
    const calls = await parseWith(register, [
      'add',
      'egress',
      '--name',
      'gh',
      '--action',
      'connect:tcp,connect:udp',
      '--action',
      'connect:tcp',
      '--resource',
      'github.com:443,**.github.com',
      '--resource',
      '10.0.0.0/8',
      '--decision',
      'deny',
    ]);
    expect(calls).toEqual([
      [
        {
          policy: 'egress',
          name: 'gh',
          actions: ['connect:tcp', 'connect:udp'],
          decision: 'deny',
          resources: ['github.com:443', '**.github.com', '10.0.0.0/8'],
        },
      ],
    ]);
  });

  it('refuses a missing option, an unknown action, mixed domains, a bad resource or decision before run', async () => {
    const base = [
      'add',
      'p',
      '--name',
      'n',
      '--action',
      'read',
      '--resource',
      '/data',
      '--decision',
      'allow',
    ];
    const without = (flag: string) => {
      const i = base.indexOf(flag);
      return [...base.slice(0, i), ...base.slice(i + 2)];
    };
    await expect(parseWith(register, without('--name'))).rejects.toThrow(/rule add needs --name/);
    await expect(parseWith(register, without('--action'))).rejects.toThrow(/rule add needs --action/);
    await expect(parseWith(register, without('--resource'))).rejects.toThrow(/needs --resource/);
    await expect(parseWith(register, without('--decision'))).rejects.toThrow(/needs --decision/);
    const swap = (flag: string, value: string) => base.map((v, i) => (base[i - 1] === flag ? value : v));
    await expect(parseWith(register, swap('--action', 'request:fetch'))).rejects.toThrow(
      /unknown action "request:fetch"; allowed actions are network: connect:tcp, connect:udp, request:get, .*; filesystem: read, write/,
    );
    await expect(parseWith(register, swap('--action', 'read,connect:tcp'))).rejects.toThrow(/mix domains/);
    await expect(parseWith(register, swap('--resource', 'data/x'))).rejects.toThrow(/"data\/x"/);
    await expect(parseWith(register, swap('--decision', 'maybe'))).rejects.toThrow(
      /"maybe" is not allowed.*allow.*deny/,
    );
  });
});

describe('rule add', () => {
  it('adds a network rule to a policy named by name and prints it', async () => {
    h.seed({ name: 'egress' });
    const r = await h.run(add('egress', 'github', 'connect:tcp', 'github.com:443,**.github.com'));
    expect(r.code).toBe(0);
    expect(h.calls()).toEqual(['GET /p', 'GET /p/pol_0001', 'POST /p/pol_0001/rules']);
    expect(h.gov()[2]!.json).toEqual(NET_RULE);
    expect(r.stdout).toBe(
      'ID\trule_0001\nName\tgithub\nDecision\tallow\nActions\tconnect:tcp\nResources\tgithub.com:443,**.github.com\n',
    );
    expect(r.stderr).toBe(`Added rule "github" (rule_0001) to policy "egress" (pol_0001).\n${NOTE}`);
  });

  it('--json prints exactly the created rule', async () => {
    h.seed({ name: 'workspace' });
    const r = await h.run([...add('workspace', 'data', 'read', '/data/**'), '--action', 'write', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ id: 'rule_0001', ...FS_RULE });
    expect(h.hub.state.policies[0]!.rules).toEqual([{ id: 'rule_0001', ...FS_RULE }]);
  });

  it('a rule whose actions mix domains is refused with no request at all', async () => {
    h.seed({ name: 'egress' });
    const r = await h.run(add('egress', 'mixed', 'connect:tcp,read', 'github.com'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/actions "connect:tcp" \(network\) and "read" \(filesystem\) mix domains/);
    expect(h.hub.requests).toEqual([]);
  });

  it('bad resources are refused with no request, naming the value and the allowed forms', async () => {
    h.seed({ name: 'egress' });
    for (const [action, resource, pattern] of [
      ['connect:tcp', 'https://github.com/x', /"https:\/\/github.com\/x"/],
      ['connect:tcp', 'github.com:70000', /"github.com:70000"/],
      ['connect:tcp', 'api.*.example.com', /"api.\*.example.com"/],
      ['connect:udp', '10.0.0.0/33', /"10.0.0.0\/33"/],
      ['read', 'data/**', /"data\/\*\*"/],
    ] as const) {
      const r = await h.run(add('egress', 'bad', action, resource));
      expect(r.code, resource).toBe(2);
      expect(r.stderr).toMatch(pattern);
      expect(h.hub.requests).toEqual([]);
    }
  });

  it("a rule of another domain than the policy's rules is refused after reading the policy, before any write", async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    const r = await h.run(add('egress', 'data', 'read', '/data/**'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/are filesystem actions but the policy's rules are network/);
    expect(h.calls()).toEqual(['GET /p', 'GET /p/pol_0001']);
  });

  it('a policy without rules takes either domain', async () => {
    h.seed({ name: 'a' });
    h.seed({ name: 'b' });
    expect((await h.run(add('a', 'x', 'connect:udp', '10.0.0.0/8'))).code).toBe(0);
    expect((await h.run(add('b', 'y', 'write', '~/cache/*'))).code).toBe(0);
  });

  it('a cedar_v1 policy is refused with a clear message, without a write', async () => {
    h.seed({
      name: 'legacy',
      type: 'cedar_v1',
      ruleSet: { text: 'permit(principal, action, resource);' },
    });
    const r = await h.run(add('legacy', 'x', 'connect:tcp', 'github.com'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /policy "legacy" \(pol_0001\) is a cedar_v1 policy; hubctl manages rules of allowlist_v0 policies only/,
    );
    expect(h.calls()).toEqual(['GET /p', 'GET /p/pol_0001']);
  });

  it('the 250-rule limit is checked on the policy at hand: exit 6 and no write', async () => {
    h.seed({ name: 'full', rules: Array.from({ length: 250 }, (_, i) => ({ ...NET_RULE, name: `r${i}` })) });
    const r = await h.run(add('full', 'one-more', 'connect:tcp', 'example.com'));
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/already has 250 rules, the maximum \(250\)/);
    expect(h.calls()).toEqual(['GET /p', 'GET /p/pol_0001']);
  });

  it("the server's limit_exceeded is exit 6", async () => {
    h.seed({ name: 'egress' });
    h.hub.inject({ method: 'POST', path: '/v2/orgs/acme/governance/policies/pol_0001/rules' }, [
      { status: 403, body: { error: { code: 'limit_exceeded', message: 'too many rules' } } },
    ]);
    const r = await h.run(add('pol_0001', 'x', 'connect:tcp', 'example.com'));
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/maximum number of rules \(250\) \(limit_exceeded: too many rules\)/);
  });

  it('a 500 on POST is exit 7 and is not repeated', async () => {
    h.seed({ name: 'egress' });
    h.hub.inject({ method: 'POST', path: '/v2/orgs/acme/governance/policies/pol_0001/rules', times: 3 }, [
      { status: 500, body: { error: { code: 'internal', message: 'boom' } } },
    ]);
    const r = await h.run(add('pol_0001', 'x', 'connect:tcp', 'example.com'));
    expect(r.code).toBe(7);
    expect(h.calls()).toEqual(['GET /p/pol_0001', 'POST /p/pol_0001/rules']);
    expect(h.hub.state.policies[0]!.rules).toEqual([]);
  });

  it('an unknown policy is exit 5; an ambiguous one exit 2', async () => {
    let r = await h.run(add('pol_0404', 'x', 'connect:tcp', 'example.com'));
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/policy pol_0404 was not found in org acme/);
    r = await h.run(add('ghost', 'x', 'connect:tcp', 'example.com'));
    expect(r.code).toBe(5);
    h.seed({ name: 'dup' });
    h.seed({ name: 'dup' });
    r = await h.run(add('dup', 'x', 'connect:tcp', 'example.com'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/2 policies of org acme match the name "dup"/);
  });

  it('warns when the policy already has a rule of that name', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    const r = await h.run(add('egress', 'github', 'connect:tcp', 'gitlab.com'));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/another rule named "github"/);
  });
});

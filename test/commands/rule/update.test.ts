import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/rule/update.js';
import { FS_RULE, type GovHarness, NET_RULE, parseWith, startGovHarness } from './gov-harness.js';

let h: GovHarness;
beforeEach(async () => {
  h = await startGovHarness();
});
afterEach(() => h.close());

const NOTE = 'The change takes up to five minutes to reach developer machines.\n';

describe('rule update: parsing', () => {
  it('passes only the fields given', async () => {
    expect(await parseWith(register, ['update', 'egress', 'github', '--decision', 'deny'])).toEqual([
      [{ policy: 'egress', rule: 'github', decision: 'deny' }],
    ]);
    expect(
      await parseWith(register, [
        'update',
        'p',
        'r',
        '--action',
        'read',
        '--resource',
        '/a,/b',
        '--resource',
        '~/c',
        '--name',
        'n',
      ]),
    ).toEqual([[{ policy: 'p', rule: 'r', name: 'n', actions: ['read'], resources: ['/a', '/b', '~/c'] }]]);
  });

  it('refuses no field, bad actions, resources bad for the actions given, a bad decision', async () => {
    await expect(parseWith(register, ['update', 'p', 'r'])).rejects.toThrow(/nothing to change/);
    await expect(parseWith(register, ['update', 'p', 'r', '--action', 'read,connect:tcp'])).rejects.toThrow(
      /mix domains/,
    );
    await expect(
      parseWith(register, ['update', 'p', 'r', '--action', 'read', '--resource', 'example.com']),
    ).rejects.toThrow(/"example.com"/);
    await expect(parseWith(register, ['update', 'p', 'r', '--decision', 'permit'])).rejects.toThrow(
      /"permit"/,
    );
    await expect(parseWith(register, ['update', 'p', 'r', '--name', ''])).rejects.toThrow(
      /must not be empty/,
    );
  });
});

describe('rule update', () => {
  it('sends only the fields given, for a rule named by name, and prints the new rule', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    const r = await h.run(['rule', 'update', 'egress', 'github', '--decision', 'deny']);
    expect(r.code).toBe(0);
    expect(h.calls()).toEqual(['GET /p', 'GET /p/pol_0001', 'PATCH /p/pol_0001/rules/rule_0001']);
    expect(h.gov()[2]!.json).toEqual({ decision: 'deny' });
    expect(r.stdout).toBe(
      'ID\trule_0001\nName\tgithub\nDecision\tdeny\nActions\tconnect:tcp\nResources\tgithub.com:443,**.github.com\n',
    );
    expect(r.stderr).toBe(`Updated rule "github" (rule_0001) of policy "egress" (pol_0001).\n${NOTE}`);
  });

  it('--json prints {old,new} exactly as the API returned them', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    const r = await h.run([
      'rule',
      'update',
      'pol_0001',
      'rule_0001',
      '--resource',
      'gitlab.com:443',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      old: { id: 'rule_0001', ...NET_RULE },
      new: { id: 'rule_0001', ...NET_RULE, resources: ['gitlab.com:443'] },
    });
  });

  it("refuses a change of the rule's domain locally (a read, no write)", async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    const r = await h.run(['rule', 'update', 'egress', 'github', '--action', 'read', '--resource', '/data']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is a network rule; its actions cannot change to filesystem actions/);
    expect(h.calls().filter((c) => c.startsWith('PATCH'))).toEqual([]);
  });

  it("checks new resources against the rule's domain once the policy is read", async () => {
    h.seed({ name: 'workspace', rules: [FS_RULE] });
    const r = await h.run(['rule', 'update', 'workspace', 'data', '--resource', 'example.com']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"example.com"/);
    expect(h.calls()).toEqual(['GET /p', 'GET /p/pol_0001']);
  });

  it('a rule name that matches nothing is exit 5; several is exit 2 with the candidates; ids work', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE, { ...NET_RULE, resources: ['gitlab.com'] }] });
    let r = await h.run(['rule', 'update', 'egress', 'nope', '--decision', 'deny']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/no rule named "nope" in policy "egress" \(pol_0001\)/);
    r = await h.run(['rule', 'update', 'egress', 'github', '--decision', 'deny']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '2 rules of policy "egress" match the name "github": rule_0001 (github), rule_0002 (github)',
    );
    r = await h.run(['rule', 'update', 'egress', 'rule_0002', '--decision', 'deny']);
    expect(r.code).toBe(0);
    expect(h.hub.state.policies[0]!.rules.map((x) => x.decision)).toEqual(['allow', 'deny']);
    r = await h.run(['rule', 'update', 'egress', 'rule_0099', '--decision', 'deny']);
    expect(r.code).toBe(5);
    expect(h.calls().filter((c) => c.startsWith('PATCH'))).toEqual(['PATCH /p/pol_0001/rules/rule_0002']);
  });

  it('renames a rule with actions hubctl does not know, but will not check new resources for it', async () => {
    const newer = {
      name: 'get',
      actions: ['request:fetch'],
      decision: 'allow',
      resources: [],
      fetch_resources: ['https://x/*'],
    };
    h.seed({ name: 'newer', domain: 'network', rules: [newer] });
    let r = await h.run(['rule', 'update', 'newer', 'get', '--name', 'get-api']);
    expect(r.code).toBe(0);
    expect(h.hub.state.policies[0]!.rules[0]!.name).toBe('get-api');
    r = await h.run(['rule', 'update', 'newer', 'get-api', '--resource', 'example.com']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/has actions hubctl cannot check/);
  });

  it('refuses a cedar_v1 policy', async () => {
    h.seed({ name: 'legacy', type: 'cedar_v1', ruleSet: { text: 'permit(principal, action, resource);' } });
    expect((await h.run(['rule', 'update', 'legacy', 'x', '--decision', 'deny'])).code).toBe(2);
  });

  it('a 500 on PATCH is exit 7 and is not repeated', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    h.hub.inject({ method: 'PATCH', path: /\/rules\/rule_0001$/, times: 3 }, [
      { status: 500, body: { error: { code: 'internal', message: 'boom' } } },
    ]);
    const r = await h.run(['rule', 'update', 'pol_0001', 'rule_0001', '--decision', 'deny']);
    expect(r.code).toBe(7);
    expect(h.calls().filter((c) => c.startsWith('PATCH'))).toHaveLength(1);
  });
});

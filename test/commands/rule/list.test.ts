import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/rule/list.js';
import { FS_RULE, type GovHarness, NET_RULE, parseWith, startGovHarness } from './gov-harness.js';

let h: GovHarness;
beforeEach(async () => {
  h = await startGovHarness();
});
afterEach(() => h.close());

describe('rule list: parsing', () => {
  it('passes the policy', async () => {
    expect(await parseWith(register, ['list', 'egress'])).toEqual([[{ policy: 'egress' }]]);
    await expect(parseWith(register, ['list'])).rejects.toThrow(/missing required argument 'policy'/);
  });
});

describe('rule list', () => {
  it('prints the rules tab-separated when piped, and as a table on a terminal', async () => {
    h.seed({
      name: 'workspace',
      rules: [FS_RULE, { name: 'no-secrets', actions: ['read'], decision: 'deny', resources: ['~/.ssh/**'] }],
    });
    const piped = await h.run(['rule', 'list', 'workspace']);
    expect(piped).toEqual({
      code: 0,
      stdout: 'rule_0001\tdata\tallow\tread,write\t/data/**\nrule_0002\tno-secrets\tdeny\tread\t~/.ssh/**\n',
      stderr: '',
    });
    const tty = await h.run(['rule', 'list', 'workspace'], { tty: true });
    expect(tty.stdout).toBe(
      [
        ' ID           NAME          DECISION    ACTIONS       RESOURCES ',
        ' rule_0001    data          allow       read,write    /data/**  ',
        ' rule_0002    no-secrets    deny        read          ~/.ssh/** ',
        '',
      ].join('\n'),
    );
  });

  it("--json prints the policy's rules as the API returned them", async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    const r = await h.run(['rule', 'list', 'egress', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 'rule_0001', ...NET_RULE }]);
  });

  it('keeps rules with unknown actions and extra fields', async () => {
    const newer = {
      name: 'get',
      actions: ['stream:open'],
      decision: 'allow',
      resources: [],
      stream_resources: ['https://x.example/*'],
    };
    h.seed({ name: 'newer', domain: 'network', rules: [newer] });
    const r = await h.run(['rule', 'list', 'newer']);
    expect(r.stdout).toBe('rule_0001\tget\tallow\tstream:open\t\tstream_resources=https://x.example/*\n');
    expect(JSON.parse((await h.run(['rule', 'list', 'newer', '--json'])).stdout)).toEqual([
      { id: 'rule_0001', ...newer },
    ]);
  });

  it('a policy without rules prints nothing on stdout ([] with --json)', async () => {
    h.seed({ name: 'empty' });
    const r = await h.run(['rule', 'list', 'empty']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/has no rules yet/);
    expect((await h.run(['rule', 'list', 'empty', '--json'])).stdout).toBe('[]\n');
  });

  it('refuses a cedar_v1 policy', async () => {
    h.seed({
      name: 'legacy',
      type: 'cedar_v1',
      ruleSet: { text: 'permit(principal, action, resource);' },
    });
    const r = await h.run(['rule', 'list', 'legacy']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is a cedar_v1 policy/);
  });

  it('an unknown policy is exit 5', async () => {
    expect((await h.run(['rule', 'list', 'pol_0009'])).code).toBe(5);
    expect((await h.run(['rule', 'list', 'nothing'])).code).toBe(5);
  });
});

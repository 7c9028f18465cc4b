import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/rule/delete.js';
import { scriptedPrompter } from '../../support/run-cli.js';
import { type GovHarness, NET_RULE, parseWith, startGovHarness } from './gov-harness.js';

let h: GovHarness;
beforeEach(async () => {
  h = await startGovHarness();
});
afterEach(() => h.close());

const NOTE = 'The change takes up to five minutes to reach developer machines.\n';

describe('rule delete: parsing', () => {
  it('passes policy, rule and --yes', async () => {
    expect(await parseWith(register, ['delete', 'egress', 'github'])).toEqual([
      [{ policy: 'egress', rule: 'github', yes: false }],
    ]);
    expect(await parseWith(register, ['delete', 'egress', 'github', '--yes'])).toEqual([
      [{ policy: 'egress', rule: 'github', yes: true }],
    ]);
    await expect(parseWith(register, ['delete', 'egress'])).rejects.toThrow(
      /missing required argument 'rule'/,
    );
  });
});

describe('rule delete', () => {
  it('without --yes and without a terminal: exit 2 and no request at all', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    const r = await h.run(['rule', 'delete', 'egress', 'github']);
    expect(r.code).toBe(2);
    expect(h.hub.requests).toEqual([]);
  });

  it('deletes the last rule by names; the policy remains', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    const r = await h.run(['rule', 'delete', 'egress', 'github', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`Deleted rule "github" (rule_0001) of policy "egress" (pol_0001).\n${NOTE}`);
    expect(h.calls()).toEqual(['GET /p', 'GET /p/pol_0001', 'DELETE /p/pol_0001/rules/rule_0001']);
    expect(h.hub.state.policies).toHaveLength(1);
    expect(h.hub.state.policies[0]!.rules).toEqual([]);
  });

  it('--json prints {deleted} exactly as the API returned it', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    const r = await h.run(['rule', 'delete', 'pol_0001', 'rule_0001', '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ deleted: { id: 'rule_0001', ...NET_RULE } });
  });

  it('asks on a terminal, naming the rule and the policy', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    const p = scriptedPrompter({ confirm: [false] });
    const r = await h.run(['rule', 'delete', 'egress', 'github'], { tty: true, prompter: p });
    expect(r.code).toBe(1);
    expect(p.asked).toEqual(['Delete rule "github" (rule_0001) of policy "egress" (pol_0001)?']);
    expect(h.hub.state.policies[0]!.rules).toHaveLength(1);
  });

  it('an unknown rule is exit 5 without a DELETE; a cedar_v1 policy is refused', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    const r = await h.run(['rule', 'delete', 'egress', 'gitlab', '--yes']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/no rule named "gitlab"/);
    h.seed({ name: 'legacy', type: 'cedar_v1', ruleSet: { text: 'permit(principal, action, resource);' } });
    const c = await h.run(['rule', 'delete', 'legacy', 'x', '--yes']);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/cedar_v1/);
    expect(h.calls().filter((x) => x.startsWith('DELETE'))).toEqual([]);
  });

  it('a rule gone at the server meanwhile is exit 5 naming it', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    h.hub.inject({ method: 'DELETE', path: /\/rules\/rule_0001$/ }, [
      { status: 404, body: { error: { code: 'not_found', message: 'rule "rule_0001" not found' } } },
    ]);
    const r = await h.run(['rule', 'delete', 'egress', 'github', '--yes']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/rule rule_0001 was not found in policy pol_0001 of org acme/);
  });
});

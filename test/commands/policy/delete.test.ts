import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/policy/delete.js';
import { scriptedPrompter } from '../../support/run-cli.js';
import { FS_RULE, type GovHarness, parseWith, startGovHarness } from '../rule/gov-harness.js';

let h: GovHarness;
beforeEach(async () => {
  h = await startGovHarness();
});
afterEach(() => h.close());

const NOTE = 'The change takes up to five minutes to reach developer machines.\n';

describe('policy delete: parsing', () => {
  it('passes the policy and --yes', async () => {
    expect(await parseWith(register, ['delete', 'egress'])).toEqual([[{ policy: 'egress', yes: false }]]);
    expect(await parseWith(register, ['delete', 'egress', '--yes'])).toEqual([
      [{ policy: 'egress', yes: true }],
    ]);
    expect(await parseWith(register, ['delete', '-y', 'pol_1'])).toEqual([[{ policy: 'pol_1', yes: true }]]);
  });
});

describe('policy delete', () => {
  it('without --yes and without a terminal: exit 2 and no request at all', async () => {
    h.seed({ name: 'egress' });
    const r = await h.run(['policy', 'delete', 'egress']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/pass --yes/);
    expect(h.hub.requests).toEqual([]);
    expect(h.hub.state.policies).toHaveLength(1);
  });

  it('--yes deletes by name, says what went, and notes the propagation delay', async () => {
    h.seed({ name: 'workspace', rules: [FS_RULE, { ...FS_RULE, name: 'tmp', resources: ['/tmp/*'] }] });
    const r = await h.run(['policy', 'delete', 'workspace', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`Deleted policy "workspace" (pol_0001) of org acme and its 2 rules.\n${NOTE}`);
    expect(h.calls()).toEqual(['GET /p', 'GET /p/pol_0001', 'DELETE /p/pol_0001']);
    expect(h.hub.state.policies).toEqual([]);
  });

  it('the global -y works as well', async () => {
    h.seed({ name: 'egress' });
    const r = await h.run(['-y', 'policy', 'delete', 'pol_0001']);
    expect(r.code).toBe(0);
    expect(h.hub.state.policies).toEqual([]);
  });

  it('--json prints {deleted} exactly as the API returned it', async () => {
    h.seed({ name: 'workspace', rules: [FS_RULE] });
    const before = JSON.parse((await h.run(['policy', 'get', 'pol_0001', '--json'])).stdout);
    const r = await h.run(['policy', 'delete', 'workspace', '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ deleted: before });
  });

  it('asks on a terminal: yes deletes, no keeps it (exit 1, no DELETE)', async () => {
    h.seed({ name: 'egress' });
    const no = scriptedPrompter({ confirm: [false] });
    const kept = await h.run(['policy', 'delete', 'egress'], { tty: true, prompter: no });
    expect(kept.code).toBe(1);
    expect(kept.stderr).toMatch(/nothing was deleted/);
    expect(no.asked).toEqual(['Delete policy "egress" (pol_0001) of org acme?']);
    expect(h.calls().some((c) => c.startsWith('DELETE'))).toBe(false);
    expect(h.hub.state.policies).toHaveLength(1);

    const yes = scriptedPrompter({ confirm: [true] });
    const gone = await h.run(['policy', 'delete', 'egress'], { tty: true, prompter: yes });
    expect(gone.code).toBe(0);
    expect(h.hub.state.policies).toEqual([]);
  });

  it('an unknown policy is exit 5; an ambiguous name is exit 2 and nothing is deleted', async () => {
    let r = await h.run(['policy', 'delete', 'pol_0077', '--yes']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/policy pol_0077 was not found in org acme/);
    h.seed({ name: 'dup' });
    h.seed({ name: 'dup' });
    r = await h.run(['policy', 'delete', 'dup', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pol_0001 (dup), pol_0002 (dup)');
    expect(h.hub.state.policies).toHaveLength(2);
  });

  it('a 500 on DELETE is exit 7 and is not repeated', async () => {
    h.seed({ name: 'egress' });
    h.hub.inject({ method: 'DELETE', path: '/v2/orgs/acme/governance/policies/pol_0001', times: 3 }, [
      { status: 500, body: { error: { code: 'internal', message: 'boom' } } },
    ]);
    const r = await h.run(['policy', 'delete', 'pol_0001', '--yes']);
    expect(r.code).toBe(7);
    expect(h.calls()).toEqual(['GET /p/pol_0001', 'DELETE /p/pol_0001']);
  });

  it('403 permission_denied is exit 4', async () => {
    const r = await h.run(['policy', 'delete', 'pol_0001', '--yes'], { env: { HUBCTL_ORG: 'nogov' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('you lack permission for org nogov or it is not entitled to governance');
  });
});

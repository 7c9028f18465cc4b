import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/policy/update.js';
import { ACME_TEAMS } from '../../support/hub-emulator.js';
import { type GovHarness, NET_RULE, parseWith, startGovHarness } from '../rule/gov-harness.js';

let h: GovHarness;
beforeEach(async () => {
  h = await startGovHarness();
});
afterEach(() => h.close());

const [T1, T2] = ACME_TEAMS;
const NOTE = 'The change takes up to five minutes to reach developer machines.\n';

describe('policy update: parsing', () => {
  it('passes only the fields given', async () => {
    expect(await parseWith(register, ['update', 'egress', '--name', 'egress-prod'])).toEqual([
      [{ policy: 'egress', name: 'egress-prod' }],
    ]);
    expect(await parseWith(register, ['update', 'egress', '--team', T1, '--team', T2])).toEqual([
      [{ policy: 'egress', teams: [T1, T2] }],
    ]);
    expect(await parseWith(register, ['update', 'egress', '--org-wide'])).toEqual([
      [{ policy: 'egress', teams: [] }],
    ]);
  });

  it('refuses no field at all, and --team with --org-wide', async () => {
    await expect(parseWith(register, ['update', 'egress'])).rejects.toThrow(/nothing to change/);
    await expect(parseWith(register, ['update', 'egress', '--team', T1, '--org-wide'])).rejects.toThrow(
      /--team and --org-wide cannot be used together/,
    );
    await expect(parseWith(register, ['update', 'egress', '--team', ''])).rejects.toThrow(
      /needs a team name or UUID/,
    );
  });
});

describe('policy update', () => {
  it('usage errors are exit 2 before any request', async () => {
    h.seed({ name: 'egress' });
    for (const argv of [
      ['policy', 'update', 'egress'],
      ['policy', 'update', 'egress', '--team', T1, '--org-wide'],
    ]) {
      const r = await h.run(argv);
      expect(r.code).toBe(2);
      expect(h.hub.requests).toEqual([]);
    }
  });

  it('renames: sends only the name, leaves scope and rules alone', async () => {
    h.seed({ name: 'egress', teams: [T1], rules: [NET_RULE] });
    const r = await h.run(['policy', 'update', 'egress', '--name', 'egress-prod']);
    expect(r.code).toBe(0);
    expect(h.calls()).toEqual(['GET /p', 'PATCH /p/pol_0001']);
    expect(h.gov()[1]!.json).toEqual({ name: 'egress-prod' });
    const p = h.hub.state.policies[0]!;
    expect(p.name).toBe('egress-prod');
    expect(p.scope.teams).toEqual([T1]);
    expect(p.rules).toHaveLength(1);
    expect(r.stdout).toContain('Name\tegress-prod\n');
    expect(r.stderr).toBe(
      `Updated policy "egress-prod" (pol_0001): renamed "egress" to "egress-prod".\n${NOTE}`,
    );
  });

  it('--team replaces the team list; --org-wide sends an empty list', async () => {
    h.seed({ name: 'egress', teams: [T1] });
    let r = await h.run(['policy', 'update', 'pol_0001', '--team', T2]);
    expect(r.code).toBe(0);
    expect(h.gov()[0]!.json).toEqual({ scope: { teams: [T2] } });
    expect(h.hub.state.policies[0]!.scope.teams).toEqual([T2]);
    expect(r.stderr).toContain('scope teams developers → teams ops.');

    h.hub.clearRequests();
    r = await h.run(['policy', 'update', 'pol_0001', '--org-wide']);
    expect(r.code).toBe(0);
    expect(h.gov()[0]!.json).toEqual({ scope: { teams: [] } });
    expect(h.hub.state.policies[0]!.scope.teams).toEqual([]);
    expect(r.stderr).toContain('scope teams ops → org-wide.');
  });

  it('--json prints {old,new} exactly as the API returned them', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    const before = JSON.parse((await h.run(['policy', 'get', 'pol_0001', '--json'])).stdout);
    const r = await h.run(['policy', 'update', 'egress', '--name', 'e2', '--team', T1, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out).sort()).toEqual(['new', 'old']);
    expect(out.old).toEqual(before);
    const after = JSON.parse((await h.run(['policy', 'get', 'pol_0001', '--json'])).stdout);
    expect(out.new).toEqual(after);
    expect(after).toMatchObject({ name: 'e2', scope: { teams: [T1] }, allowlist_v0: before.allowlist_v0 });
  });

  it('409: renaming to a name in use is exit 6', async () => {
    h.seed({ name: 'egress' });
    h.seed({ name: 'ingress' });
    const r = await h.run(['policy', 'update', 'pol_0002', '--name', 'egress']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/a policy named "egress" already exists in org acme/);
    expect(h.hub.state.policies[1]!.name).toBe('ingress');
  });

  it('an unknown policy is exit 5 (by id from the server, by name from the list)', async () => {
    let r = await h.run(['policy', 'update', 'pol_0042', '--name', 'x']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/policy pol_0042 was not found in org acme/);
    r = await h.run(['policy', 'update', 'ghost', '--name', 'x']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/no policy named "ghost"/);
    expect(h.calls().filter((c) => c.startsWith('PATCH /p/pol_0042') || c === 'GET /p')).toEqual([
      'PATCH /p/pol_0042',
      'GET /p',
    ]);
  });

  it('a 500 on PATCH is exit 7 and is not repeated', async () => {
    h.seed({ name: 'egress' });
    h.hub.inject({ method: 'PATCH', path: '/v2/orgs/acme/governance/policies/pol_0001', times: 3 }, [
      { status: 500, body: { error: { code: 'internal', message: 'boom' } } },
    ]);
    const r = await h.run(['policy', 'update', 'pol_0001', '--name', 'x']);
    expect(r.code).toBe(7);
    expect(h.calls()).toEqual(['PATCH /p/pol_0001']);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/policy/create.js';
import { ACME_TEAMS } from '../../support/hub-emulator.js';
import { type GovHarness, parseWith, startGovHarness } from '../rule/gov-harness.js';

let h: GovHarness;
beforeEach(async () => {
  h = await startGovHarness();
});
afterEach(() => h.close());

const [T1, T2] = ACME_TEAMS;
const NOTE = 'The change takes up to five minutes to reach developer machines.\n';

describe('policy create: parsing', () => {
  it('collects --team repeated and comma-separated, without duplicates', async () => {
    expect(await parseWith(register, ['create', 'egress'])).toEqual([[{ name: 'egress', teams: [] }]]);
    expect(await parseWith(register, ['create', 'egress', '--team', `${T1},${T2}`, '--team', T1])).toEqual([
      [{ name: 'egress', teams: [T1, T2] }],
    ]);
  });

  it('takes a team by name too, refuses a control character in one, and a blank name, before run', async () => {
    expect(await parseWith(register, ['create', 'egress', '--team', 'developers'])).toEqual([
      [{ name: 'egress', teams: ['developers'] }],
    ]);
    await expect(parseWith(register, ['create', 'egress', '--team', 'dev\u001b[2J'])).rejects.toThrow(
      /--team takes a team name or UUID/,
    );
    await expect(parseWith(register, ['create', ' '])).rejects.toThrow(/must not be empty/);
    await expect(parseWith(register, ['create'])).rejects.toThrow(/missing required argument 'name'/);
  });
});

describe('policy create', () => {
  it('creates an org-wide policy: sends only the name, prints the policy and the propagation note', async () => {
    const r = await h.run(['policy', 'create', 'egress']);
    expect(r.code).toBe(0);
    const created = h.hub.state.policies[0]!;
    expect(h.gov().map((q) => [q.method, q.json])).toEqual([['POST', { name: 'egress' }]]);
    expect(r.stdout).toBe(
      [
        'ID\tpol_0001',
        'Name\tegress',
        'Org\tacme',
        'Scope\torg-wide',
        'Type\tallowlist_v0',
        'Domain\tnone (no rules yet)',
        'Rules\t0',
        `Created\t${created.created_at}`,
        `Updated\t${created.updated_at}`,
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe(`Created policy "egress" (pol_0001) in org acme.\n${NOTE}`);
  });

  it('scopes the policy to the teams given', async () => {
    const r = await h.run(['policy', 'create', 'build-cache', '--team', T1, '--team', T2]);
    expect(r.code).toBe(0);
    expect(h.gov()[0]!.json).toEqual({ name: 'build-cache', scope: { teams: [T1, T2] } });
    expect(h.hub.state.policies[0]!.scope.teams).toEqual([T1, T2]);
  });

  it('scopes the policy to teams named: the names resolve to their UUIDs (one read of the teams)', async () => {
    const r = await h.run([
      'policy',
      'create',
      'build-cache',
      '--team',
      'developers',
      '--team',
      'OPS',
      '--team',
      T1,
    ]);
    expect(r.code).toBe(0);
    expect(h.gov()[0]!.json).toEqual({ name: 'build-cache', scope: { teams: [T1, T2] } });
    expect(h.hub.requestsTo('/v2/orgs/acme/groups')).toHaveLength(1);
    expect(r.stdout).toContain('Scope\tteams developers, ops\n');
  });

  it('an unknown team name is exit 2, named, and nothing is written', async () => {
    const r = await h.run(['policy', 'create', 'build-cache', '--team', 'developer']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--team: no team named "developer" in org acme');
    expect(h.gov()).toEqual([]);
    expect(h.hub.state.policies).toEqual([]);
  });

  it('--json prints exactly the created policy and nothing on stderr', async () => {
    const r = await h.run(['policy', 'create', 'egress', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const p = h.hub.state.policies[0]!;
    expect(JSON.parse(r.stdout)).toEqual({
      id: p.id,
      name: 'egress',
      org: 'acme',
      scope: { teams: [] },
      created_at: p.created_at,
      updated_at: p.updated_at,
    });
  });

  it('409: a name in use is exit 6 "a policy named X already exists"', async () => {
    h.seed({ name: 'egress' });
    const r = await h.run(['policy', 'create', 'egress']);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^hubctl: a policy named "egress" already exists in org acme\n/);
    expect(h.hub.state.policies).toHaveLength(1);
  });

  it("the server's limit_exceeded is exit 6", async () => {
    for (let i = 0; i < 100; i++) h.seed({ name: `p${i}` });
    const r = await h.run(['policy', 'create', 'one-more']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/org acme already has the maximum number of policies \(100\)/);
    expect(r.stderr).toMatch(/limit_exceeded/);
    expect(h.calls()).toEqual(['POST /p']);
  });

  it('a 500 on POST is exit 7 and is not repeated', async () => {
    h.hub.inject({ method: 'POST', path: '/v2/orgs/acme/governance/policies', times: 3 }, [
      { status: 500, body: { error: { code: 'internal', message: 'boom' } } },
    ]);
    const r = await h.run(['policy', 'create', 'egress']);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(
      /creating policy "egress" in org acme: the governance service failed \(internal: boom\)/,
    );
    expect(r.stderr).toMatch(/not repeated/);
    expect(h.calls()).toEqual(['POST /p']);
  });

  it("a team the organization doesn't have is the server's invalid_argument, exit 2", async () => {
    const r = await h.run(['policy', 'create', 'egress', '--team', '11111111-2222-4333-8444-555555555555']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid_argument: team "11111111-2222-4333-8444-555555555555" is not a team/);
  });

  it('a malformed --team is refused before any request, even the token exchange', async () => {
    const r = await h.run(['policy', 'create', 'egress', '--team', 'plat\u0007form']);
    expect(r.code).toBe(2);
    expect(h.hub.requests).toEqual([]);
  });

  it('a --team that names no team is refused before any governance request', async () => {
    const r = await h.run(['policy', 'create', 'egress', '--team', 'platform']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no team named "platform" in org acme');
    expect(h.gov()).toEqual([]);
  });

  it('403 permission_denied is exit 4', async () => {
    const r = await h.run(['policy', 'create', 'egress'], { env: { HUBCTL_ORG: 'nogov' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('you lack permission for org nogov or it is not entitled to governance');
  });
});

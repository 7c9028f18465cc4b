import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/policy/list.js';
import { ACME_TEAMS } from '../../support/hub-emulator.js';
import { type GovHarness, LATER_TIME, NET_RULE, parseWith, startGovHarness } from '../rule/gov-harness.js';

let h: GovHarness;
beforeEach(async () => {
  h = await startGovHarness();
});
afterEach(() => h.close());

const internal = { status: 500, body: { error: { code: 'internal', message: 'database on fire' } } };
const LIST = '/v2/orgs/acme/governance/policies';

function seedThree() {
  h.seed({ name: 'egress', rules: [NET_RULE] });
  h.seed({ name: 'build-cache', teams: [...ACME_TEAMS] });
  h.seed({ name: 'legacy', type: 'cedar_v1', ruleSet: { text: 'permit(principal, action, resource);' } });
}

describe('policy list: parsing', () => {
  it('takes no argument and passes nothing to run', async () => {
    expect(await parseWith(register, ['list'])).toEqual([[]]);
    await expect(parseWith(register, ['list', 'extra'])).rejects.toThrow(/too many arguments/);
  });
});

describe('policy list', () => {
  it('prints ID, NAME, SCOPE, TYPE, UPDATED as tab-separated lines when piped', async () => {
    seedThree();
    const r = await h.run(['policy', 'list']);
    expect(r).toEqual({
      code: 0,
      stdout:
        `pol_0001\tegress\torg-wide\tallowlist_v0\t${LATER_TIME}\n` +
        `pol_0002\tbuild-cache\tteams developers, ops\tallowlist_v0\t${LATER_TIME}\n` +
        `pol_0003\tlegacy\torg-wide\tcedar_v1\t${LATER_TIME}\n`,
      stderr: '',
    });
  });

  it('prints a table with headers on a terminal', async () => {
    seedThree();
    h.seed({ name: 'one-team', teams: [ACME_TEAMS[0]] });
    const r = await h.run(['policy', 'list'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        ' ID          NAME           SCOPE                    TYPE            UPDATED              ',
        ' pol_0001    egress         org-wide                 allowlist_v0    2026-11-20 17:45:10Z ',
        ' pol_0002    build-cache    teams developers, ops    allowlist_v0    2026-11-20 17:45:10Z ',
        ' pol_0003    legacy         org-wide                 cedar_v1        2026-11-20 17:45:10Z ',
        ' pol_0004    one-team       teams developers         allowlist_v0    2026-11-20 17:45:10Z ',
        '',
      ].join('\n'),
    );
  });

  it('--json prints the summaries exactly as the API returned them, in one array', async () => {
    seedThree();
    const r = await h.run(['policy', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const base = { org: 'acme', created_at: '2026-11-01T09:30:00.000Z', updated_at: LATER_TIME };
    expect(JSON.parse(r.stdout)).toEqual([
      { id: 'pol_0001', name: 'egress', scope: { teams: [] }, type: 'allowlist_v0', ...base },
      {
        id: 'pol_0002',
        name: 'build-cache',
        scope: { teams: [...ACME_TEAMS] },
        type: 'allowlist_v0',
        ...base,
      },
      { id: 'pol_0003', name: 'legacy', scope: { teams: [] }, type: 'cedar_v1', ...base },
    ]);
  });

  it('follows next_page_token and merges every page', async () => {
    for (let i = 1; i <= 5; i++) h.seed({ name: `p${i}` });
    h.hub.setPolicyPageSize(2);
    const r = await h.run(['policy', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((p: { name: string }) => p.name)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    const gets = h.gov();
    expect(gets).toHaveLength(3);
    expect(gets[0]!.query.get('page_token')).toBeNull();
    expect(gets[1]!.query.get('page_token')).toBeTruthy();
    expect(gets[2]!.query.get('page_token')).toBeTruthy();
    expect(gets[2]!.query.get('page_token')).not.toBe(gets[1]!.query.get('page_token'));
  });

  it('says so on stderr when there are no policies, and prints [] with --json', async () => {
    const r = await h.run(['policy', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/No policies in org acme/);
    expect(await h.run(['policy', 'list', '--json'])).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it('warns when the organization is at the 100-policy limit', async () => {
    for (let i = 0; i < 100; i++) h.seed({ name: `p${i}` });
    const r = await h.run(['policy', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toHaveLength(101);
    expect(r.stderr).toMatch(/100 policies, the maximum/);
  });

  it('retries a 500 on the list and succeeds when the server recovers', async () => {
    h.seed({ name: 'egress' });
    h.hub.inject({ method: 'GET', path: LIST, times: 2 }, [internal]);
    const r = await h.run(['policy', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^pol_0001\tegress/);
    expect(h.gov()).toHaveLength(3);
  });

  it('exits 7 after four attempts when the server keeps failing', async () => {
    h.hub.inject({ method: 'GET', path: LIST, times: 5 }, [internal]);
    const r = await h.run(['policy', 'list']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/listing policies of org acme: the governance service failed after retries/);
    expect(r.stderr).toMatch(/internal: database on fire/);
    expect(h.gov()).toHaveLength(4);
  });

  it('403 permission_denied is exit 4 naming the org (not entitled, or not a member)', async () => {
    for (const [env, org] of [
      [{ HUBCTL_ORG: 'nogov' }, 'nogov'],
      [{ HUBCTL_USERNAME: 'bob', HUBCTL_TOKEN: 'bob-password' }, 'acme'],
    ] as const) {
      const r = await h.run(['policy', 'list'], { env });
      expect(r.code).toBe(4);
      expect(r.stderr).toContain(`you lack permission for org ${org} or it is not entitled to governance`);
    }
  });

  it('a 401 is answered with one new token exchange and one repeat; a second 401 is exit 4', async () => {
    h.seed({ name: 'egress' });
    const unauth = { status: 401, body: { error: { code: 'unauthenticated', message: 'token expired' } } };
    h.hub.inject({ method: 'GET', path: LIST }, [unauth]);
    const ok = await h.run(['policy', 'list']);
    expect(ok.code).toBe(0);
    expect(h.hub.requests.filter((r) => r.path === '/v2/auth/token')).toHaveLength(2);
    expect(h.gov()).toHaveLength(2);

    h.hub.clearRequests();
    h.hub.inject({ method: 'GET', path: LIST, times: 2 }, [unauth]);
    const denied = await h.run(['policy', 'list']);
    expect(denied.code).toBe(4);
    expect(denied.stderr).toMatch(/token expired/);
    expect(h.hub.requests.filter((r) => r.path === '/v2/auth/token')).toHaveLength(2);
    expect(h.gov()).toHaveLength(2);
  });

  it('--json errors are JSON on stderr with nothing on stdout', async () => {
    const r = await h.run(['policy', 'list', '--json'], { env: { HUBCTL_ORG: 'nogov' } });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error.message).toContain('you lack permission for org nogov');
  });
});

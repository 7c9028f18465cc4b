import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGovernanceClient, type GovernanceClient } from '../../src/api/governance.js';
import { createHubSession } from '../../src/auth/hub-session.js';
import type { Clock } from '../../src/clock.js';
import { ApiError, AuthError, ConflictError, NetworkError, NotFoundError } from '../../src/errors.js';
import { createHttpClient } from '../../src/http/client.js';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';

let hub: HubEmulator;
let sleeps: number[];
let client: GovernanceClient;

function makeClient(org = 'acme'): GovernanceClient {
  const clock: Clock = {
    now: () => Date.now(),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  };
  const http = createHttpClient({ userAgent: 'test', clock, retryBaseMs: 1 });
  const session = createHubSession({
    http,
    clock,
    baseUrl: hub.url,
    credential: async () => ({ username: 'alice', secret: 'alice-password', source: 'test' }),
  });
  return createGovernanceClient(session, hub.governanceUrl, org);
}

beforeEach(async () => {
  hub = await startHubEmulator({ sequentialIds: true });
  sleeps = [];
  client = makeClient();
});
afterEach(() => hub.close());

const BASE = '/v2/orgs/acme/governance/policies';
const gov = () =>
  hub.requests.filter((r) => r.path.startsWith('/v2/orgs/')).map((r) => `${r.method} ${r.path}`);
const internal = { status: 500, body: { error: { code: 'internal', message: 'boom' } } };
const rule = { name: 'gh', actions: ['connect:tcp'], decision: 'allow' as const, resources: ['github.com'] };

describe('governance client: the eight operations', () => {
  it('speaks the paths and methods of interface.md and returns the API objects', async () => {
    const p = await client.createPolicy({ name: 'egress' });
    expect(p).toMatchObject({ id: 'pol_0001', name: 'egress', org: 'acme', scope: { teams: [] } });
    const r = await client.createRule(p.id, rule);
    expect(r).toEqual({ id: 'rule_0001', ...rule });
    expect((await client.getPolicy(p.id)).allowlist_v0).toEqual({ domain: 'network', rules: [r] });
    expect(await client.allPolicies()).toEqual([
      expect.objectContaining({ id: 'pol_0001', type: 'allowlist_v0' }),
    ]);
    const ru = await client.updateRule(p.id, r.id, { decision: 'deny' });
    expect(ru).toEqual({ old: r, new: { ...r, decision: 'deny' } });
    const pu = await client.updatePolicy(p.id, { name: 'e2' });
    expect(pu.old.name).toBe('egress');
    expect(pu.new.name).toBe('e2');
    expect(await client.deleteRule(p.id, r.id)).toEqual({ deleted: { ...r, decision: 'deny' } });
    expect((await client.deletePolicy(p.id)).deleted).toMatchObject({ id: p.id, name: 'e2' });
    expect(gov()).toEqual([
      `POST ${BASE}`,
      `POST ${BASE}/pol_0001/rules`,
      `GET ${BASE}/pol_0001`,
      `GET ${BASE}`,
      `PATCH ${BASE}/pol_0001/rules/rule_0001`,
      `PATCH ${BASE}/pol_0001`,
      `DELETE ${BASE}/pol_0001/rules/rule_0001`,
      `DELETE ${BASE}/pol_0001`,
    ]);
  });

  it('follows next_page_token until it is null', async () => {
    for (let i = 0; i < 7; i++) hub.seedPolicy('acme', { name: `p${i}` });
    hub.setPolicyPageSize(3);
    const names: string[] = [];
    for await (const s of client.listPolicies()) names.push(s.name);
    expect(names).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
    const lists = hub.requests.filter((r) => r.path === BASE);
    expect(lists.map((r) => r.query.get('page_token') === null)).toEqual([true, false, false]);
  });
});

describe('governance client: failures', () => {
  it('repeats a GET answered 500, pausing through the clock, and succeeds when the server recovers', async () => {
    hub.seedPolicy('acme', { name: 'egress' });
    hub.inject({ method: 'GET', path: `${BASE}/pol_0001`, times: 2 }, [internal]);
    expect((await client.getPolicy('pol_0001')).name).toBe('egress');
    expect(gov()).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it('gives up after four attempts with a NetworkError (exit 7)', async () => {
    hub.inject({ method: 'GET', path: BASE, times: 4 }, [internal]);
    const err = await client.allPolicies().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).exitCode).toBe(7);
    expect((err as NetworkError).message).toBe(
      'listing policies of org acme: the governance service failed after retries (internal: boom)',
    );
    expect(gov()).toHaveLength(4);
  });

  it('never repeats a POST, PATCH or DELETE answered 500, and says the write may have landed', async () => {
    hub.seedPolicy('acme', { name: 'egress', rules: [rule] });
    hub.inject({ path: new RegExp(`^${BASE}`), times: 4 }, [internal]);
    const calls: [string, () => Promise<unknown>][] = [
      ['POST', () => client.createPolicy({ name: 'x' })],
      ['PATCH', () => client.updatePolicy('pol_0001', { name: 'y' })],
      ['POST', () => client.createRule('pol_0001', rule)],
      ['DELETE', () => client.deletePolicy('pol_0001')],
    ];
    for (const [method, call] of calls) {
      hub.clearRequests();
      const err = await call().catch((e: unknown) => e);
      expect(err, method).toBeInstanceOf(NetworkError);
      expect((err as NetworkError).hint).toMatch(/not repeated/);
      expect(gov()).toEqual([expect.stringMatching(new RegExp(`^${method} `))]);
    }
    expect(sleeps).toEqual([]);
  });

  it('403 permission_denied is an AuthError naming the org', async () => {
    const other = makeClient('nogov');
    const err = await other.allPolicies().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).message).toBe(
      'listing policies of org nogov: you lack permission for org nogov or it is not entitled to governance ' +
        '(permission_denied: organization "nogov" is not entitled to governance)',
    );
  });

  it('403 limit_exceeded is a ConflictError (exit 6) naming the limit', async () => {
    hub.inject({ method: 'POST', path: BASE }, [
      { status: 403, body: { error: { code: 'limit_exceeded', message: 'no more' } } },
    ]);
    const err = await client.createPolicy({ name: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).exitCode).toBe(6);
    expect((err as ConflictError).message).toMatch(
      /maximum number of policies \(100\) \(limit_exceeded: no more\)/,
    );
  });

  it('404 is a NotFoundError naming what; 409 a ConflictError naming the policy', async () => {
    const nf = await client.getPolicy('pol_0404').catch((e: unknown) => e);
    expect(nf).toBeInstanceOf(NotFoundError);
    expect((nf as Error).message).toMatch(
      /^reading policy pol_0404 of org acme: policy pol_0404 was not found in org acme/,
    );
    const p = await client.createPolicy({ name: 'egress' });
    const rnf = await client.deleteRule(p.id, 'rule_0404').catch((e: unknown) => e);
    expect((rnf as Error).message).toMatch(/rule rule_0404 was not found in policy pol_0001 of org acme/);
    const conflict = await client.createPolicy({ name: 'egress' }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect((conflict as Error).message).toBe('a policy named "egress" already exists in org acme');
  });

  it("400 stays the server's invalid_argument (exit 2)", async () => {
    const err = await client.createPolicy({ name: '' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).exitCode).toBe(2);
    expect((err as ApiError).message).toMatch(/^creating policy "" in org acme: invalid_argument: /);
  });
});

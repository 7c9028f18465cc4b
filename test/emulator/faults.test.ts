import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { call, login } from './client.js';

let hub: HubEmulator;
let jwt: string;
const list = () => `${hub.governanceUrl}/orgs/acme/governance/policies`;
const listPath = '/v2/orgs/acme/governance/policies';

beforeAll(async () => {
  hub = await startHubEmulator();
  jwt = await login(hub);
});
afterAll(async () => {
  await hub.close();
});
beforeEach(() => {
  hub.clearFaults();
  hub.clearRequests();
});

describe('recorded requests', () => {
  it('records method, path, query, lower-case headers, body and parsed JSON', async () => {
    await call(`${list()}?x=1&x=2`, { token: jwt, headers: { 'X-Trace': 'abc' } });
    await call(list(), { method: 'POST', token: jwt, body: { name: 'rec' } });
    expect(hub.requests).toHaveLength(2);
    const [get, post] = hub.requests;
    expect(get).toMatchObject({ method: 'GET', path: listPath, body: '' });
    expect(get!.query.getAll('x')).toEqual(['1', '2']);
    expect(get!.headers['x-trace']).toBe('abc');
    expect(get!.headers.authorization).toBe(`Bearer ${jwt}`);
    expect(get!.json).toBeUndefined();
    expect(post).toMatchObject({ method: 'POST', body: '{"name":"rec"}', json: { name: 'rec' } });
    expect(hub.requestsTo(listPath)).toHaveLength(2);
    expect(hub.requestsTo(/governance/, 'post')).toEqual([post]);
    expect(hub.requestsTo('/v2/elsewhere')).toEqual([]);
    hub.clearRequests();
    expect(hub.requests).toHaveLength(0);
  });
});

describe('inject', () => {
  it('plays status steps in order with their headers and bodies, then handles normally', async () => {
    const fault = hub.inject({ path: listPath }, [
      { status: 503, headers: { 'retry-after': '1' } },
      { status: 500, body: { error: { code: 'internal', message: 'boom' } } },
    ]);
    const a = await call(list(), { token: jwt });
    expect(a.status).toBe(503);
    expect(a.headers.get('retry-after')).toBe('1');
    expect(fault.remaining()).toBe(1);
    const b = await call(list(), { token: jwt });
    expect(b.status).toBe(500);
    expect(b.json).toEqual({ error: { code: 'internal', message: 'boom' } });
    const c = await call(list(), { token: jwt });
    expect(c.status).toBe(200);
    expect(hub.requests.map((r) => r.injected ?? false)).toEqual([true, true, false]);
  });

  it('repeats the steps `times` times and matches the method and a RegExp path', async () => {
    hub.inject({ method: 'POST', path: /\/governance\/policies$/, times: 2 }, [{ status: 503 }]);
    expect((await call(list(), { token: jwt })).status).toBe(200); // GET does not match
    expect((await call(list(), { method: 'POST', token: jwt, body: { name: 'x' } })).status).toBe(503);
    expect((await call(list(), { method: 'POST', token: jwt, body: { name: 'x' } })).status).toBe(503);
    expect((await call(list(), { method: 'POST', token: jwt, body: { name: 'x' } })).status).toBe(201);
    expect(hub.state.policies.filter((p) => p.name === 'x')).toHaveLength(1);
  });

  it('delays a request, then handles it normally', async () => {
    hub.inject({ path: listPath }, [{ delayMs: 300 }]);
    const t0 = performance.now();
    const r = await call(list(), { token: jwt });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(280);
    expect(r.status).toBe(200);
  });

  it('drops the connection without an answer', async () => {
    hub.inject({ path: listPath }, [{ drop: true }]);
    await expect(call(list(), { token: jwt })).rejects.toThrow();
    expect((await call(list(), { token: jwt })).status).toBe(200);
    expect(hub.requests).toHaveLength(2);
  });

  it('applies to the token exchange as well, and clearFaults() removes pending steps', async () => {
    hub.inject({ path: '/v2/auth/token' }, [{ status: 502 }, { status: 502 }]);
    const r = await call(`${hub.url}/v2/auth/token`, {
      method: 'POST',
      body: { identifier: 'alice', password: 'alice-password' },
    });
    expect(r.status).toBe(502);
    hub.clearFaults();
    expect((await login(hub)).length).toBeGreaterThan(0);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { call, login } from './client.js';

let hub: HubEmulator;
let jwt: string;
const base = () => `${hub.url}/v2/access-tokens`;

beforeAll(async () => {
  hub = await startHubEmulator();
});
afterAll(async () => {
  await hub.close();
});
beforeEach(async () => {
  hub.state.accessTokens.length = 0;
  jwt = await login(hub);
});

const create = (body: unknown, token = jwt) => call(base(), { method: 'POST', token, body });

describe('POST /v2/access-tokens', () => {
  it('creates a token and returns the full secret once, with every documented field', async () => {
    const r = await create({ token_label: 'ci-deploy', scopes: ['repo:read', 'repo:write'] });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      client_id: expect.any(String),
      token_label: 'ci-deploy',
      scopes: ['repo:read', 'repo:write'],
      token: expect.stringMatching(/^hub_pat_/),
      is_active: true,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      expires_at: null,
      last_used: null,
      generated_by: expect.any(String),
      creator_ip: expect.any(String),
      creator_ua: expect.any(String),
    });
    // the new secret works in the token exchange
    expect((await login(hub, 'alice', r.json.token)).length).toBeGreaterThan(20);
    const got = await call(`${base()}/${r.json.uuid}`, { token: jwt });
    expect(got.json.token).not.toBe(r.json.token);
    expect(got.json.token).not.toContain(r.json.token.slice(8, 20));
  });

  it('keeps an expiry date in the future', async () => {
    const when = new Date(Date.now() + 86_400_000).toISOString();
    const r = await create({ token_label: 'x', scopes: ['repo:read'], expires_at: when });
    expect(r.status).toBe(201);
    expect(Date.parse(r.json.expires_at)).toBe(Date.parse(when));
  });

  it.each([
    ['no body', undefined],
    ['no label', { scopes: ['repo:read'] }],
    ['empty label', { token_label: '', scopes: ['repo:read'] }],
    ['label over 100 characters', { token_label: 'x'.repeat(101), scopes: ['repo:read'] }],
    ['no scopes', { token_label: 'x' }],
    ['empty scopes', { token_label: 'x', scopes: [] }],
    ['unknown scope', { token_label: 'x', scopes: ['repo:everything'] }],
    ['expiry in the past', { token_label: 'x', scopes: ['repo:read'], expires_at: '2001-01-01T00:00:00Z' }],
    ['expiry not a date', { token_label: 'x', scopes: ['repo:read'], expires_at: 'tomorrow' }],
  ])('answers 400 with a hub error body for %s', async (_name, body) => {
    const r = await create(body);
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ message: expect.any(String), errinfo: null });
    expect(hub.state.accessTokens).toHaveLength(0);
  });

  it('refuses a JWT that came from a PAT with 403 and the live message', async () => {
    const patJwt = await login(hub, 'alice', hub.createPat('alice'));
    for (const [method, url] of [
      ['POST', base()],
      ['GET', base()],
      ['GET', `${base()}/${hub.state.accessTokens[0]!.uuid}`],
    ] as const) {
      const r = await call(url, {
        method,
        token: patJwt,
        body: method === 'POST' ? { token_label: 'x', scopes: ['repo:read'] } : undefined,
      });
      expect(r.status).toBe(403);
      expect(r.json).toEqual({
        message: 'token issued from personal access token is not allowed',
        errinfo: null,
      });
    }
    expect(hub.state.accessTokens).toHaveLength(1);
  });

  it('refuses a JWT that came from an organization token with 403', async () => {
    const oatJwt = await login(hub, 'acme', hub.createOat('acme'));
    expect((await call(base(), { token: oatJwt })).status).toBe(403);
  });
});

describe('GET /v2/access-tokens (Django pages)', () => {
  it('pages with absolute next/previous links, null at the ends, masked tokens and counts', async () => {
    const secrets: string[] = [];
    for (let i = 0; i < 25; i++)
      secrets.push(hub.createPat('alice', { label: `t${i}`, active: i % 5 !== 0 }));
    hub.createPat('bob'); // never listed for alice

    const first = await call(base(), { token: jwt });
    expect(first.status).toBe(200);
    expect(first.json.count).toBe(25);
    expect(first.json.active_count).toBe(20);
    expect(first.json.results).toHaveLength(10); // default page_size
    expect(first.json.previous).toBeNull();
    expect(first.json.next).toBe(`${hub.url}/v2/access-tokens?page=2&page_size=10`);

    const labels: string[] = [];
    let url: string | null = `${base()}?page_size=7`;
    let pages = 0;
    while (url) {
      const r = await call(url, { token: jwt });
      expect(r.status).toBe(200);
      pages++;
      if (pages === 1) expect(r.json.previous).toBeNull();
      else
        expect(r.json.previous).toMatch(
          new RegExp(`^${hub.url}/v2/access-tokens\\?page=${pages - 1}&page_size=7$`),
        );
      for (const t of r.json.results) {
        labels.push(t.token_label);
        expect(t.token).toMatch(/^hub_pat_\*+/);
        expect(secrets).not.toContain(t.token);
      }
      url = r.json.next;
    }
    expect(pages).toBe(4);
    expect(labels).toEqual(secrets.map((_, i) => `t${i}`));
  });

  it('answers an empty first page when there are no tokens', async () => {
    const r = await call(base(), { token: jwt });
    expect(r.json).toEqual({ active_count: 0, count: 0, next: null, previous: null, results: [] });
  });

  it.each(['page=0', 'page=abc', 'page_size=0', 'page_size=-1', 'page_size=101', 'page=9'])(
    'answers 400 for %s',
    async (q) => {
      hub.createPat('alice');
      const r = await call(`${base()}?${q}`, { token: jwt });
      expect(r.status).toBe(400);
      expect(r.json.errinfo).toBeNull();
    },
  );
});

describe('GET|PATCH|DELETE /v2/access-tokens/{uuid}', () => {
  it('gets, deactivates, relabels, reactivates and deletes a token', async () => {
    const created = (await create({ token_label: 'one', scopes: ['repo:read'] })).json;
    const url = `${base()}/${created.uuid}`;
    const got = await call(url, { token: jwt });
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ uuid: created.uuid, token_label: 'one', is_active: true });

    const off = await call(url, { method: 'PATCH', token: jwt, body: { is_active: false } });
    expect(off.status).toBe(200);
    expect(off.json.is_active).toBe(false);
    expect(
      (
        await call(`${hub.url}/v2/auth/token`, {
          method: 'POST',
          body: { identifier: 'alice', password: created.token },
        })
      ).status,
    ).toBe(401);

    const relabel = await call(url, {
      method: 'PATCH',
      token: jwt,
      body: { token_label: 'renamed', is_active: true },
    });
    expect(relabel.json).toMatchObject({ token_label: 'renamed', is_active: true });

    const del = await call(url, { method: 'DELETE', token: jwt });
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
    expect((await call(url, { token: jwt })).status).toBe(404);
    expect(hub.state.accessTokens).toHaveLength(0);
  });

  it('answers 400 for a bad PATCH and 404 for an unknown or foreign uuid', async () => {
    const created = (await create({ token_label: 'one', scopes: ['repo:read'] })).json;
    const url = `${base()}/${created.uuid}`;
    for (const body of [{}, { is_active: 'no' }, { token_label: '' }]) {
      const r = await call(url, { method: 'PATCH', token: jwt, body });
      expect(r.status).toBe(400);
      expect(r.json.errinfo).toBeNull();
    }
    const unknown = `${base()}/00000000-0000-0000-0000-000000000000`;
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const r = await call(unknown, {
        method,
        token: jwt,
        body: method === 'PATCH' ? { is_active: false } : undefined,
      });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: expect.any(String), errinfo: null });
    }
    const bobJwt = await login(hub, 'bob', 'bob-password');
    expect((await call(url, { token: bobJwt })).status).toBe(404);
    expect((await call(url, { method: 'DELETE', token: bobJwt })).status).toBe(404);
  });
});

describe('live token prefixes', () => {
  it('issues dckr_pat_/dckr_oat_ secrets that work in the exchange and are masked in lists', async () => {
    const live = await startHubEmulator({ tokenPrefixes: 'live' });
    try {
      const t = await login(live);
      const created = await call(`${live.url}/v2/access-tokens`, {
        method: 'POST',
        token: t,
        body: { token_label: 'x', scopes: ['repo:read'] },
      });
      expect(created.json.token).toMatch(/^dckr_pat_/);
      expect((await login(live, 'alice', created.json.token)).length).toBeGreaterThan(0);
      const listed = await call(`${live.url}/v2/access-tokens`, { token: t });
      expect(listed.json.results[0].token).toMatch(/^dckr_pat_\*+.{4}$/);
      const oat = live.createOat('acme');
      expect(oat).toMatch(/^dckr_oat_/);
      expect((await login(live, 'acme', oat)).length).toBeGreaterThan(0);
    } finally {
      await live.close();
    }
  });
});

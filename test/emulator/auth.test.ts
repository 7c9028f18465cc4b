import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeJwt,
  type HubEmulator,
  startHubEmulator,
  TOKEN_SOURCE_CLAIM,
} from '../support/hub-emulator.js';
import { call, login } from './client.js';

let hub: HubEmulator;
beforeAll(async () => {
  hub = await startHubEmulator();
});
afterAll(async () => {
  await hub.close();
});
afterEach(() => {
  hub.setJwtLifetime(600);
  hub.setTokenField('access_token');
  hub.clearFaults();
});

const exchange = (body: unknown) => call(`${hub.url}/v2/auth/token`, { method: 'POST', body });

describe('POST /v2/auth/token', () => {
  it('exchanges a password for an ES256 JWT with sub, iat and a 600 s exp', async () => {
    const r = await exchange({ identifier: 'alice', password: 'alice-password' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(['access_token']);
    const { header, claims } = decodeJwt(r.json.access_token);
    expect(header.alg).toBe('ES256');
    expect(claims.sub).toBe('alice');
    expect(claims[TOKEN_SOURCE_CLAIM]).toBe('password');
    expect(claims.exp).toBe((claims.iat as number) + 600);
    expect(Math.abs((claims.iat as number) - Date.now() / 1000)).toBeLessThan(5);
  });

  it('accepts the secret in the `secret` field as well as in `password`', async () => {
    expect((await exchange({ identifier: 'alice', secret: 'alice-password' })).status).toBe(200);
    // decisions §2: hubctl sends both; one wrong copy must not spoil the right one
    expect(
      (await exchange({ identifier: 'alice', password: 'alice-password', secret: 'alice-password' })).status,
    ).toBe(200);
  });

  it('exchanges a PAT of the user and marks the JWT as PAT-derived', async () => {
    const pat = hub.createPat('alice');
    expect(pat).toMatch(/^hub_pat_[A-Za-z0-9_-]{20,}$/);
    const r = await exchange({ identifier: 'alice', password: pat });
    expect(r.status).toBe(200);
    const { claims } = decodeJwt(r.json.access_token);
    expect(claims[TOKEN_SOURCE_CLAIM]).toBe('pat');
    const record = hub.state.accessTokens.find((t) => t.token === pat)!;
    expect(record.last_used).not.toBeNull();
  });

  it("refuses another user's PAT, an inactive PAT and an expired PAT", async () => {
    const bobs = hub.createPat('bob');
    expect((await exchange({ identifier: 'alice', password: bobs })).status).toBe(401);
    const inactive = hub.createPat('alice', { active: false });
    expect((await exchange({ identifier: 'alice', password: inactive })).status).toBe(401);
    const expired = hub.createPat('alice', { expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect((await exchange({ identifier: 'alice', password: expired })).status).toBe(401);
  });

  it('exchanges an organization token with the organization as identifier', async () => {
    const oat = hub.createOat('acme');
    expect(oat).toMatch(/^hub_oat_/);
    const r = await exchange({ identifier: 'acme', password: oat });
    expect(r.status).toBe(200);
    expect(decodeJwt(r.json.access_token).claims).toMatchObject({ sub: 'acme', [TOKEN_SOURCE_CLAIM]: 'oat' });
    expect((await exchange({ identifier: 'nogov', password: oat })).status).toBe(401);
  });

  it('answers 401 with a hub error body for a wrong password or an unknown user', async () => {
    for (const body of [
      { identifier: 'alice', password: 'nope' },
      { identifier: 'mallory', password: 'alice-password' },
    ]) {
      const r = await exchange(body);
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ message: expect.any(String), errinfo: null });
    }
  });

  it('answers 400 for a missing body, missing fields or bad JSON', async () => {
    expect((await call(`${hub.url}/v2/auth/token`, { method: 'POST' })).status).toBe(400);
    expect((await exchange({ identifier: 'alice' })).status).toBe(400);
    const bad = await exchange('{not json');
    expect(bad.status).toBe(400);
    expect(bad.json.errinfo).toBeNull();
  });

  it('answers {token} when configured so', async () => {
    hub.setTokenField('token');
    const r = await exchange({ identifier: 'alice', password: 'alice-password' });
    expect(Object.keys(r.json)).toEqual(['token']);
    expect(decodeJwt(r.json.token).claims.sub).toBe('alice');
  });

  it('issues JWTs with the lifetime set at run time, negative included', async () => {
    hub.setJwtLifetime(30);
    const { claims } = decodeJwt(await login(hub));
    expect(claims.exp).toBe((claims.iat as number) + 30);
    hub.setJwtLifetime(-5);
    const expired = await login(hub);
    const r = await call(`${hub.governanceUrl}/orgs/acme/governance/policies`, { token: expired });
    expect(r.status).toBe(401);
    expect(r.json).toEqual({ error: { code: 'unauthenticated', message: expect.any(String) } });
  });
});

describe('bearer check', () => {
  const gov = () => `${hub.governanceUrl}/orgs/acme/governance/policies`;
  const tokens = () => `${hub.url}/v2/access-tokens`;

  it('refuses a missing, malformed or forged JWT on governance and hub routes with their own bodies', async () => {
    const good = await login(hub);
    const [h, c] = good.split('.');
    const forgedClaims = Buffer.from(JSON.stringify({ ...decodeJwt(good).claims, sub: 'bob' })).toString(
      'base64url',
    );
    const candidates = [undefined, 'garbage', `${h}.${forgedClaims}.${good.split('.')[2]}`, `${h}.${c}.AAAA`];
    for (const token of candidates) {
      const g = await call(gov(), { token });
      expect(g.status).toBe(401);
      expect(g.json.error.code).toBe('unauthenticated');
      const t = await call(tokens(), { token });
      expect(t.status).toBe(401);
      expect(t.json).toEqual({ message: expect.any(String), errinfo: null });
    }
    expect((await call(gov(), { token: good })).status).toBe(200);
    expect((await call(tokens(), { token: good })).status).toBe(200);
  });

  it('invalidateJwts() makes earlier JWTs fail and new ones work', async () => {
    const before = await login(hub);
    hub.invalidateJwts();
    expect((await call(gov(), { token: before })).status).toBe(401);
    expect((await call(gov(), { token: await login(hub) })).status).toBe(200);
  });

  it('uses the injected clock for iat, exp and expiry', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const h2 = await startHubEmulator({ clock: () => now });
    try {
      const jwt = await login(h2);
      expect(decodeJwt(jwt).claims.iat).toBe(now / 1000);
      const url = `${h2.governanceUrl}/orgs/acme/governance/policies`;
      expect((await call(url, { token: jwt })).status).toBe(200);
      now += 601_000;
      expect((await call(url, { token: jwt })).status).toBe(401);
    } finally {
      await h2.close();
    }
  });

  it('answers unknown routes with 404', async () => {
    const r = await call(`${hub.url}/v2/nothing-here`);
    expect(r.status).toBe(404);
    expect(r.json.errinfo).toBeNull();
  });
});

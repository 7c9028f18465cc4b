import type { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccessTokenClient } from '../../src/api/access-tokens.js';
import { createHubSession } from '../../src/auth/hub-session.js';
import { ApiError, AuthError } from '../../src/errors.js';
import { collect } from '../../src/http/paginate.js';
import { fakeJwt } from '../auth/jwt-fixture.js';
import { clientWith, ORIGIN, strictAgent } from '../http/mock.js';
import { fixedClock } from '../support/run-cli.js';

let agent: MockAgent;
const clock = fixedClock();
const jwt = fakeJwt({ sub: 'alice', exp: Math.floor(clock.now() / 1000) + 600 });

function tokens() {
  agent.get(ORIGIN).intercept({ path: '/v2/auth/token', method: 'POST' }).reply(200, { access_token: jwt });
  const session = createHubSession({
    http: clientWith(agent, { clock }),
    clock,
    baseUrl: ORIGIN,
    credential: async () => ({ username: 'alice', secret: 'pw', source: 'test' }),
  });
  return createAccessTokenClient(session, ORIGIN);
}
const tok = (n: number) => ({
  uuid: `u${n}`,
  token_label: `t${n}`,
  scopes: ['repo:read'],
  is_active: true,
  created_at: 'x',
});

beforeEach(() => {
  agent = strictAgent();
});
afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
});

describe('access-token client', () => {
  it('creates with POST and a JSON body, bearer-authenticated', async () => {
    const client = tokens();
    let seen: { body: unknown; auth: unknown } | undefined;
    agent
      .get(ORIGIN)
      .intercept({ path: '/v2/access-tokens', method: 'POST' })
      .reply((opts) => {
        seen = {
          body: JSON.parse(String(opts.body)),
          auth: (opts.headers as Record<string, string>).authorization,
        };
        return { statusCode: 201, data: { ...tok(1), token: 'hub_pat_full' } };
      });
    const t = await client.create({ token_label: 't1', scopes: ['repo:read'] });
    expect(t.token).toBe('hub_pat_full');
    expect(seen).toEqual({ body: { token_label: 't1', scopes: ['repo:read'] }, auth: `Bearer ${jwt}` });
  });

  it('listPage sends page and page_size', async () => {
    const client = tokens();
    agent
      .get(ORIGIN)
      .intercept({ path: '/v2/access-tokens?page=2&page_size=5', method: 'GET' })
      .reply(200, { count: 6, next: null, previous: 'p', results: [tok(6)] });
    expect((await client.listPage(2, 5)).results).toEqual([tok(6)]);
  });

  it('listAll follows the absolute `next` links until null', async () => {
    const client = tokens();
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/v2/access-tokens?page=1&page_size=2', method: 'GET' }).reply(200, {
      count: 5,
      next: `${ORIGIN}/v2/access-tokens?page=2&page_size=2`,
      previous: null,
      results: [tok(1), tok(2)],
    });
    pool.intercept({ path: '/v2/access-tokens?page=2&page_size=2', method: 'GET' }).reply(200, {
      count: 5,
      next: `${ORIGIN}/v2/access-tokens?page=3&page_size=2`,
      previous: 'x',
      results: [tok(3), tok(4)],
    });
    pool
      .intercept({ path: '/v2/access-tokens?page=3&page_size=2', method: 'GET' })
      .reply(200, { count: 5, next: null, previous: 'x', results: [tok(5)] });
    expect((await collect(client.listAll(2))).map((t) => t.uuid)).toEqual(['u1', 'u2', 'u3', 'u4', 'u5']);
  });

  it('get, update and delete address /v2/access-tokens/{uuid} with GET, PATCH and DELETE', async () => {
    const client = tokens();
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/v2/access-tokens/u1', method: 'GET' }).reply(200, tok(1));
    pool
      .intercept({ path: '/v2/access-tokens/u1', method: 'PATCH', body: '{"is_active":false}' })
      .reply(200, { ...tok(1), is_active: false });
    pool.intercept({ path: '/v2/access-tokens/u1', method: 'DELETE' }).reply(204, '');
    expect((await client.get('u1')).uuid).toBe('u1');
    expect((await client.update('u1', { is_active: false })).is_active).toBe(false);
    await client.delete('u1');
  });

  it('explains the PAT-derived-JWT refusal: AuthError, exit 4, needs a password login', async () => {
    const client = tokens();
    agent
      .get(ORIGIN)
      .intercept({ path: '/v2/access-tokens?page=1&page_size=10', method: 'GET' })
      .reply(403, { message: 'token issued from personal access token is not allowed', errinfo: null });
    const err = await client.listPage(1, 10).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).exitCode).toBe(4);
    expect((err as AuthError).message).toBe(
      'listing access tokens: token issued from personal access token is not allowed',
    );
    expect((err as AuthError).hint).toMatch(/needs a password login/);
  });

  it('other 403s and 404s keep their own error', async () => {
    const client = tokens();
    agent
      .get(ORIGIN)
      .intercept({ path: '/v2/access-tokens/zz', method: 'GET' })
      .reply(404, { message: 'Not found', errinfo: null });
    const err = await client.get('zz').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).exitCode).toBe(5);
    expect((err as Error).message).toBe('reading access token zz: Not found');
  });
});

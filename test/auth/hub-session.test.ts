import type { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Credential } from '../../src/auth/chain.js';
import { createHubSession, exchangeToken } from '../../src/auth/hub-session.js';
import { ApiError, AuthError, UnexpectedAnswerError } from '../../src/errors.js';
import { clientWith, ORIGIN, strictAgent } from '../http/mock.js';
import { fixedClock } from '../support/run-cli.js';
import { fakeJwt } from './jwt-fixture.js';

const alice: Credential = { username: 'alice', secret: 'alice-password', source: 'test' };

let agent: MockAgent;
let clock: ReturnType<typeof fixedClock>;
let issued: string[];
let exchangeBodies: unknown[];

/** The token exchange answers a new JWT living `lifetime` seconds from the clock's now. */
function exchanges(times: number, lifetime = 600, field: 'access_token' | 'token' = 'access_token') {
  agent
    .get(ORIGIN)
    .intercept({ path: '/v2/auth/token', method: 'POST' })
    .reply((opts) => {
      exchangeBodies.push(JSON.parse(String(opts.body)));
      const jwt = fakeJwt({ sub: 'alice', n: issued.length, exp: Math.floor(clock.now() / 1000) + lifetime });
      issued.push(jwt);
      return { statusCode: 200, data: { [field]: jwt } };
    })
    .times(times);
}

function session(credential: Credential | null = alice) {
  return createHubSession({
    http: clientWith(agent, { clock }),
    clock,
    baseUrl: ORIGIN,
    credential: async () => credential ?? undefined,
  });
}

beforeEach(() => {
  agent = strictAgent();
  clock = fixedClock();
  issued = [];
  exchangeBodies = [];
});
afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
});

describe('hub session', () => {
  it('sends the secret as password and secret, with the account as identifier', async () => {
    exchanges(1);
    await session().jwt();
    expect(exchangeBodies).toEqual([
      { identifier: 'alice', password: 'alice-password', secret: 'alice-password' },
    ]);
  });

  it('reads the JWT from `token` when that is what comes back', async () => {
    exchanges(1, 600, 'token');
    expect(await session().jwt()).toBe(issued[0]);
  });

  it('caches the JWT until 30 s before exp, then exchanges again (no sleeping)', async () => {
    exchanges(2);
    const s = session();
    const first = await s.jwt();
    expect(s.expiresAt()).toBe(clock.now() + 600_000);
    clock.advance(569_000); // 31 s left
    expect(await s.jwt()).toBe(first);
    clock.advance(1_000); // 30 s left: too close
    const second = await s.jwt();
    expect(second).not.toBe(first);
    expect(issued).toEqual([first, second]);
  });

  it('shares one exchange between concurrent callers', async () => {
    exchanges(1);
    const s = session();
    const [a, b, c] = await Promise.all([s.jwt(), s.jwt(), s.jwt()]);
    expect(new Set([a, b, c]).size).toBe(1);
  });

  it('sends the JWT as a bearer token', async () => {
    exchanges(1);
    let auth: unknown;
    agent
      .get(ORIGIN)
      .intercept({ path: '/v2/access-tokens', method: 'GET' })
      .reply((opts) => {
        auth = (opts.headers as Record<string, string>).authorization;
        return { statusCode: 200, data: '{}' };
      });
    await (await session().request({ url: `${ORIGIN}/v2/access-tokens` })).dump();
    expect(auth).toBe(`Bearer ${issued[0]}`);
  });

  it('on a 401 exchanges once more and repeats the call once, with the new JWT', async () => {
    exchanges(2);
    const seen: unknown[] = [];
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/v2/x', method: 'GET' }).reply((opts) => {
      seen.push((opts.headers as Record<string, string>).authorization);
      return { statusCode: 401, data: { message: 'token revoked' } };
    });
    pool.intercept({ path: '/v2/x', method: 'GET' }).reply((opts) => {
      seen.push((opts.headers as Record<string, string>).authorization);
      return { statusCode: 200, data: 'ok' };
    });
    const res = await session().request({ url: `${ORIGIN}/v2/x` });
    expect(await res.text()).toBe('ok');
    expect(seen).toEqual([`Bearer ${issued[0]}`, `Bearer ${issued[1]}`]);
  });

  it('a second 401 is an authentication error, exit 4, after exactly two exchanges and two calls', async () => {
    exchanges(2);
    agent.get(ORIGIN).intercept({ path: '/v2/x', method: 'DELETE' }).reply(401, { message: 'nope' }).times(2);
    const err = await session()
      .request({ method: 'DELETE', url: `${ORIGIN}/v2/x` })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).exitCode).toBe(4);
    expect((err as Error).message).toMatch(/refused a freshly issued token/);
    expect(issued).toHaveLength(2);
  });

  it('does not re-exchange on other errors', async () => {
    exchanges(1);
    agent.get(ORIGIN).intercept({ path: '/v2/x', method: 'GET' }).reply(403, { message: 'forbidden' });
    const err = await session()
      .request({ url: `${ORIGIN}/v2/x` })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(403);
  });

  it('a refused secret is an authentication error naming the account and the source', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/v2/auth/token', method: 'POST' })
      .reply(401, { message: 'Incorrect authentication credentials', errinfo: null });
    const err = await exchangeToken(clientWith(agent), ORIGIN, {
      ...alice,
      source: 'stored credential',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as Error).message).toBe('the hub refused the credential of alice (stored credential)');
  });

  it.each([
    [{ nothing: true }, 'no token in access_token or token'],
    [{ access_token: '' }, 'no token in access_token or token'],
    [{ access_token: 12 }, 'access_token: expected string, got a number'],
    [null, 'expected Object, got null'],
  ])('an exchange that answers %j is an unexpected answer (exit 7), not a token', async (body, what) => {
    agent.get(ORIGIN).intercept({ path: '/v2/auth/token', method: 'POST' }).reply(200, JSON.stringify(body));
    const err = await session()
      .jwt()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnexpectedAnswerError);
    expect((err as Error).message).toBe(
      `signing in as alice: unexpected answer from ${new URL(ORIGIN).host}: ${what}`,
    );
  });

  it('without any credential: not logged in, exit 4, and no request sent', async () => {
    const err = await session(null)
      .jwt()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as Error).message).toBe('you are not logged in');
  });

  it('a JWT without exp is kept for five minutes at most', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/v2/auth/token', method: 'POST' })
      .reply(200, { access_token: 'opaque' })
      .times(2);
    const s = session();
    await s.jwt();
    expect(s.expiresAt()).toBe(clock.now() + 300_000);
    clock.advance(271_000);
    await s.jwt();
  });
});

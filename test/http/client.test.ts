import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, NetworkError, UnexpectedAnswerError, UsageError } from '../../src/errors.js';
import { createHttpClient, retryAfterMs } from '../../src/http/client.js';
import { clientWith, ORIGIN, recordingClock, resetError, strictAgent } from './mock.js';

let agent: MockAgent;
beforeEach(() => {
  agent = strictAgent();
});
afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
});

describe('retries', () => {
  it('a GET that meets 503, 503, 200 succeeds after two backoff sleeps', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/v2/things', method: 'GET' }).reply(503, 'busy').times(2);
    pool.intercept({ path: '/v2/things', method: 'GET' }).reply(200, { ok: true });
    const clock = recordingClock();
    const res = await clientWith(agent, { clock }).request({ url: `${ORIGIN}/v2/things` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    // random() = 1: full jitter at its top, base 100 ms doubled per attempt.
    expect(clock.sleeps).toEqual([100, 200]);
  });

  it('retries 429, 502 and 504 as well, for PUT and DELETE too', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/a', method: 'PUT' }).reply(429, '');
    pool.intercept({ path: '/a', method: 'PUT' }).reply(502, '');
    pool.intercept({ path: '/a', method: 'PUT' }).reply(201, '');
    pool.intercept({ path: '/b', method: 'DELETE' }).reply(504, '');
    pool.intercept({ path: '/b', method: 'DELETE' }).reply(204, '');
    const http = clientWith(agent);
    expect((await http.request({ method: 'PUT', url: `${ORIGIN}/a`, body: 'x' })).status).toBe(201);
    expect((await http.request({ method: 'DELETE', url: `${ORIGIN}/b` })).status).toBe(204);
  });

  it('gives up after the retry budget with a typed error, exit code 7', async () => {
    agent.get(ORIGIN).intercept({ path: '/x', method: 'GET' }).reply(503, '').times(4);
    const clock = recordingClock();
    const err = await clientWith(agent, { clock })
      .request({ url: `${ORIGIN}/x` })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(503);
    expect((err as ApiError).exitCode).toBe(7);
    expect(clock.sleeps).toHaveLength(3);
  });

  it('a POST that meets 503 is sent once and fails', async () => {
    // One interceptor only: a second POST would find no stub and fail differently.
    agent.get(ORIGIN).intercept({ path: '/v2/auth/token', method: 'POST' }).reply(503, '');
    const clock = recordingClock();
    const err = await clientWith(agent, { clock })
      .request({ method: 'POST', url: `${ORIGIN}/v2/auth/token`, json: { a: 1 } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(503);
    expect(clock.sleeps).toEqual([]);
  });

  it('a PATCH that meets 503 is not retried either, even when asked to', async () => {
    agent.get(ORIGIN).intercept({ path: '/p', method: 'PATCH' }).reply(503, '');
    const err = await clientWith(agent)
      .request({ method: 'PATCH', url: `${ORIGIN}/p`, json: {}, retry: true })
      .catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(503);
  });

  it('honours Retry-After in seconds through the injected clock', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/r', method: 'GET' }).reply(429, '', { headers: { 'retry-after': '7' } });
    pool.intercept({ path: '/r', method: 'GET' }).reply(200, 'ok');
    const clock = recordingClock();
    const res = await clientWith(agent, { clock }).request({ url: `${ORIGIN}/r` });
    expect(await res.text()).toBe('ok');
    expect(clock.sleeps).toEqual([7000]);
  });

  it('honours Retry-After as an HTTP date, and caps a huge one at 60 s', async () => {
    const clock = recordingClock(Date.parse('2026-11-22T12:00:00Z'));
    const pool = agent.get(ORIGIN);
    pool
      .intercept({ path: '/d', method: 'GET' })
      .reply(503, '', { headers: { 'retry-after': 'Sun, 22 Nov 2026 12:00:12 GMT' } });
    pool.intercept({ path: '/d', method: 'GET' }).reply(503, '', { headers: { 'retry-after': '3600' } });
    pool.intercept({ path: '/d', method: 'GET' }).reply(200, 'ok');
    await clientWith(agent, { clock }).request({ url: `${ORIGIN}/d` });
    expect(clock.sleeps).toEqual([12_000, 60_000]);
  });

  it('retries a connection reset for GET', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/c', method: 'GET' }).replyWithError(resetError());
    pool.intercept({ path: '/c', method: 'GET' }).reply(200, 'fine');
    const res = await clientWith(agent).request({ url: `${ORIGIN}/c` });
    expect(await res.text()).toBe('fine');
  });

  it('does not retry a connection reset for POST: NetworkError, exit 7', async () => {
    agent.get(ORIGIN).intercept({ path: '/c', method: 'POST' }).replyWithError(resetError());
    const err = await clientWith(agent)
      .request({ method: 'POST', url: `${ORIGIN}/c`, json: {}, what: 'creating a thing' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).exitCode).toBe(7);
    expect((err as Error).message).toBe(
      `creating a thing: POST ${ORIGIN}/c failed: the connection was reset`,
    );
  });

  it('does not retry a streamed body (it cannot be sent again)', async () => {
    agent.get(ORIGIN).intercept({ path: '/s', method: 'PUT' }).reply(503, '');
    async function* body() {
      yield new Uint8Array([1, 2, 3]);
    }
    const err = await clientWith(agent)
      .request({ method: 'PUT', url: `${ORIGIN}/s`, body: body() })
      .catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(503);
  });

  it('stops waiting when the signal aborts during a backoff', async () => {
    agent.get(ORIGIN).intercept({ path: '/z', method: 'GET' }).reply(503, '');
    const controller = new AbortController();
    const clock = {
      now: () => 0,
      sleep: async () => {
        controller.abort(new Error('stop'));
        throw new Error('stop');
      },
    };
    await expect(
      clientWith(agent, { clock }).request({ url: `${ORIGIN}/z`, signal: controller.signal }),
    ).rejects.toThrow('stop');
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and dates, ignores garbage', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Sun, 22 Nov 2026 12:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sun, 22 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});

describe('redirects', () => {
  it('drops Authorization on a cross-origin redirect, and keeps it on a same-origin one', async () => {
    const seen: Record<string, unknown>[] = [];
    const record = (path: string) => (opts: { headers?: unknown }) => {
      seen.push({ path, ...(opts.headers as Record<string, unknown>) });
      return { statusCode: 200, data: 'blob' };
    };
    const a = agent.get(ORIGIN);
    a.intercept({ path: '/v2/blob', method: 'GET' }).reply(307, '', {
      headers: { location: '/v2/blob-same' },
    });
    a.intercept({ path: '/v2/blob-same', method: 'GET' }).reply(record('same'));
    a.intercept({ path: '/v2/other', method: 'GET' }).reply(302, '', {
      headers: { location: 'https://cdn.example.test/storage/x?sig=abc' },
    });
    agent
      .get('https://cdn.example.test')
      .intercept({ path: '/storage/x?sig=abc', method: 'GET' })
      .reply(record('cdn'));
    const http = clientWith(agent);
    const credential = { origin: ORIGIN, authorization: 'Bearer secret-token' };
    const same = await http.request({ url: `${ORIGIN}/v2/blob`, credential });
    expect(same.url).toBe(`${ORIGIN}/v2/blob-same`);
    await same.dump();
    const cross = await http.request({ url: `${ORIGIN}/v2/other`, credential });
    expect(cross.url).toBe('https://cdn.example.test/storage/x?sig=abc');
    await cross.dump();
    const lower = (h: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
    expect(lower(seen[0]!).authorization).toBe('Bearer secret-token');
    expect(lower(seen[1]!).authorization).toBeUndefined();
  });

  it('refuses credentials passed as a header: only the layer attaches them', async () => {
    await expect(
      clientWith(agent).request({ url: `${ORIGIN}/x`, headers: { Authorization: 'Bearer s' } }),
    ).rejects.toThrow(/pass credentials as `credential`/);
  });

  it('withholds a credential from a first request to another origin', async () => {
    let auth: unknown = 'unset';
    agent
      .get('https://other.example.test')
      .intercept({ path: '/x', method: 'GET' })
      .reply((opts) => {
        auth = (opts.headers as Record<string, unknown>).authorization;
        return { statusCode: 200, data: 'ok' };
      });
    const res = await clientWith(agent).request({
      url: 'https://other.example.test/x',
      credential: { origin: ORIGIN, authorization: 'Bearer secret-token' },
    });
    await res.dump();
    expect(auth).toBeUndefined();
  });

  it.each(['http://hub.example.test', 'http://10.0.0.1:8080', 'http://127.0.0.1.nip.io'])(
    'never sends a credential over plain HTTP to %s (not loopback): usage error, nothing sent',
    async (origin) => {
      const err = await clientWith(agent)
        .request({ url: `${origin}/x`, credential: { origin, authorization: 'Bearer s' } })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as Error).message).toBe(
        `refusing to send credentials to ${origin} over plain HTTP (only loopback may use plain HTTP)`,
      );
    },
  );

  it('a secret in the body goes to its origin only, and never follows a redirect', async () => {
    await expect(
      clientWith(agent).request({
        method: 'POST',
        url: 'https://other.example.test/v2/auth/token',
        json: { password: 'p' },
        credential: { origin: ORIGIN },
      }),
    ).rejects.toThrow(/cannot be sent to https:\/\/other\.example\.test/);
  });

  it('does not follow redirects of a POST, and stops after five hops', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/post', method: 'POST' }).reply(302, '', { headers: { location: '/elsewhere' } });
    pool
      .intercept({ path: '/loop', method: 'GET' })
      .reply(302, '', { headers: { location: '/loop' } })
      .times(6);
    const http = clientWith(agent);
    const err = await http
      .request({ method: 'POST', url: `${ORIGIN}/post`, json: {}, okStatuses: [302] })
      .then((r) => r.status);
    expect(err).toBe(302);
    await expect(http.request({ url: `${ORIGIN}/loop` })).rejects.toThrow(/too many redirects/);
  });

  describe('between two real loopback servers (127.0.0.1 and localhost)', () => {
    let origin: Server;
    let target: Server;
    const received: (string | undefined)[] = [];
    beforeEach(async () => {
      received.length = 0;
      target = createServer((req, res) => {
        received.push(req.headers.authorization);
        res.end('payload');
      });
      // No host: dual-stack, so `localhost` reaches it whichever address it resolves to.
      await new Promise<void>((r) => target.listen(0, () => r()));
      const targetPort = (target.address() as AddressInfo).port;
      origin = createServer((req, res) => {
        received.push(req.headers.authorization);
        const to =
          req.url === '/same'
            ? `http://127.0.0.1:${targetPort}/final`
            : `http://localhost:${targetPort}/final`;
        res.writeHead(307, { location: to });
        res.end();
      });
      await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()));
    });
    afterEach(async () => {
      origin.closeAllConnections();
      target.closeAllConnections();
      await new Promise((r) => origin.close(r));
      await new Promise((r) => target.close(r));
    });

    it('sends Authorization to the first host only', async () => {
      const port = (origin.address() as AddressInfo).port;
      const http = createHttpClient({ userAgent: 't', clock: recordingClock() });
      const res = await http.request({
        url: `http://127.0.0.1:${port}/cross`,
        credential: { origin: `http://127.0.0.1:${port}`, authorization: 'Bearer loopback-secret' },
      });
      expect(await res.text()).toBe('payload');
      expect(res.url).toMatch(/^http:\/\/localhost:\d+\/final$/);
      expect(received).toEqual(['Bearer loopback-secret', undefined]);
    });

    it('keeps it when the redirect stays on the same origin… which a different port is not', async () => {
      const port = (origin.address() as AddressInfo).port;
      const http = createHttpClient({ userAgent: 't', clock: recordingClock() });
      const res = await http.request({
        url: `http://127.0.0.1:${port}/same`,
        credential: { origin: `http://127.0.0.1:${port}`, authorization: 'Bearer loopback-secret' },
      });
      await res.dump();
      // 127.0.0.1:A → 127.0.0.1:B is another origin too: the port is part of it.
      expect(received).toEqual(['Bearer loopback-secret', undefined]);
    });
  });
});

describe('errors and tracing', () => {
  it('turns a non-2xx answer into an ApiError naming what was being done', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/v2/orgs/acme/governance/policies/pol_x', method: 'GET' })
      .reply(404, { error: { code: 'not_found', message: 'policy pol_x not found' } });
    const err = await clientWith(agent)
      .request({ url: `${ORIGIN}/v2/orgs/acme/governance/policies/pol_x`, what: 'reading policy pol_x' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('reading policy pol_x: not_found: policy pol_x not found');
    expect((err as ApiError).exitCode).toBe(5);
    expect((err as ApiError).url).toBe(`${ORIGIN}/v2/orgs/acme/governance/policies/pol_x`);
  });

  it('returns statuses named in okStatuses instead of throwing', async () => {
    agent.get(ORIGIN).intercept({ path: '/v2/', method: 'GET' }).reply(401, '');
    const res = await clientWith(agent).request({ url: `${ORIGIN}/v2/`, okStatuses: [401] });
    expect(res.status).toBe(401);
    await res.dump();
  });

  it('sends the user agent and JSON content type', async () => {
    let headers: Record<string, string> = {};
    agent
      .get(ORIGIN)
      .intercept({ path: '/j', method: 'POST', body: '{"a":1}' })
      .reply((opts) => {
        headers = opts.headers as Record<string, string>;
        return { statusCode: 201, data: '{}' };
      });
    await clientWith(agent).request({ method: 'POST', url: `${ORIGIN}/j`, json: { a: 1 } });
    expect(headers['user-agent']).toBe('hubctl-test');
    expect(headers['content-type']).toBe('application/json');
  });

  it('reports malformed JSON in a success answer as an unexpected answer (exit 7)', async () => {
    agent.get(ORIGIN).intercept({ path: '/bad', method: 'GET' }).reply(200, '{not json');
    const res = await clientWith(agent).request({ url: `${ORIGIN}/bad`, what: 'reading x' });
    const err = await res.json().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnexpectedAnswerError);
    expect((err as Error).message).toBe(
      'reading x: unexpected answer from hub.example.test: the body is not valid JSON',
    );
  });

  it('traces request and response lines under --debug with secrets redacted', async () => {
    const lines: string[] = [];
    agent
      .get(ORIGIN)
      .intercept({ path: '/v2/auth/token?token=qs-secret', method: 'POST' })
      .reply(200, { access_token: 'x' }, { headers: { 'set-cookie': 'sid=cookie-secret' } });
    const res = await clientWith(agent, { debug: (l) => lines.push(l) }).request({
      method: 'POST',
      url: `${ORIGIN}/v2/auth/token?token=qs-secret`,
      credential: { origin: ORIGIN, authorization: 'Basic YWxpY2U6cHc=' },
      json: { identifier: 'alice', password: 'pw-secret', secret: 'pw-secret' },
    });
    await res.dump();
    const trace = lines.join('\n');
    expect(trace).toContain('> POST https://hub.example.test/v2/auth/token?token=***');
    expect(trace).toContain('> authorization: Basic ***');
    expect(trace).toContain('"identifier":"alice"');
    expect(trace).toMatch(/< 200 https:\/\/hub\.example\.test\/v2\/auth\/token\?token=\*\*\* \(\d+ ms\)/);
    expect(trace).toContain('< set-cookie: ***');
    for (const secret of ['qs-secret', 'YWxpY2U6cHc=', 'pw-secret', 'cookie-secret']) {
      expect(trace).not.toContain(secret);
    }
  });

  it('times out a server that never answers, as a network error', async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    try {
      const http = createHttpClient({ userAgent: 't', clock: recordingClock(), maxRetries: 0 });
      const err = await http
        .request({ url: `http://127.0.0.1:${port}/slow`, timeoutMs: 200 })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect((err as Error).message).toMatch(/timed out/);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

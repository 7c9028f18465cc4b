import { describe, expect, it } from 'vitest';
import { createRetrier, mayRetry } from '../../../src/http/layers/retry.js';
import { recordingClock } from '../mock.js';
import { closedPort, inTurn, outgoing, realWire, reply, serve, stack, textOf } from './loopback.js';

/** random() = 1: each backoff is at the top of its range, 100 ms doubled per attempt. */
function retrier(maxRetries = 3) {
  const clock = recordingClock(Date.parse('2026-11-22T12:00:00Z'));
  return { clock, ...createRetrier({ clock, maxRetries, baseMs: 100, random: () => 1 }) };
}

/** Cuts the connection as soon as the request is in: the request reached the server. */
const reset = () => (_req: unknown, res: { socket: { destroy(): void } | null }) => res.socket?.destroy();

describe('retry: which requests are sent again, and after how long', () => {
  it('sends a GET again after 503, 503, with the backoff doubling', async () => {
    const server = await serve(inTurn(reply(503), reply(503), reply(200, {}, 'ok')));
    const r = retrier();
    const req = outgoing(server.url);
    const res = await stack(realWire(), r.layer)(req);
    expect(res.status).toBe(200);
    expect(await textOf(res.body)).toBe('ok');
    expect(server.hits).toHaveLength(3);
    expect(r.clock.sleeps).toEqual([100, 200]);
    expect(req.attempts.retried).toBe(2);
  });

  it("waits the server's Retry-After, in seconds or as a date, at most 60 s", async () => {
    const server = await serve(
      inTurn(
        reply(429, { 'retry-after': '7' }),
        reply(503, { 'retry-after': 'Sun, 22 Nov 2026 12:00:19 GMT' }),
        reply(503, { 'retry-after': '3600' }),
        reply(200),
      ),
    );
    const r = retrier();
    const res = await stack(realWire(), r.layer)(outgoing(server.url));
    expect(res.status).toBe(200);
    // The date is 19 s after the clock's start, and 7 s have passed.
    expect(r.clock.sleeps).toEqual([7000, 12_000, 60_000]);
  });

  it('returns the last answer when the budget is spent', async () => {
    const server = await serve(reply(503));
    const r = retrier(2);
    const res = await stack(realWire(), r.layer)(outgoing(server.url));
    expect(res.status).toBe(503);
    expect(server.hits).toHaveLength(3);
  });

  it('shares one budget between the hops and re-reads of one request', async () => {
    const server = await serve(reply(503));
    const r = retrier(3);
    const res = await stack(realWire(), r.layer)(outgoing(server.url, { attempts: { retried: 3 } }));
    expect(res.status).toBe(503);
    expect(server.hits).toHaveLength(1);
  });

  it('asks a read again after a 500, never a write (it may have landed)', async () => {
    const server = await serve(inTurn(reply(500), reply(200)));
    expect((await stack(realWire(), retrier().layer)(outgoing(server.url))).status).toBe(200);
    const write = await serve(inTurn(reply(500), reply(200)));
    const res = await stack(realWire(), retrier().layer)(outgoing(write.url, { method: 'PUT', body: 'x' }));
    expect(res.status).toBe(500);
    expect(write.hits).toHaveLength(1);
  });

  it('sends a PUT or DELETE again after 429/502/503/504, but never a POST or PATCH', async () => {
    const put = await serve(inTurn(reply(502), reply(201)));
    const r = retrier();
    expect((await stack(realWire(), r.layer)(outgoing(put.url, { method: 'PUT', body: 'x' }))).status).toBe(
      201,
    );
    expect(put.hits.map((h) => h.body)).toEqual(['x', 'x']);
    for (const method of ['POST', 'PATCH'] as const) {
      const server = await serve(reply(503));
      const res = await stack(realWire(), r.layer)(outgoing(server.url, { method, body: '{}', retry: true }));
      expect(res.status).toBe(503);
      expect(server.hits).toHaveLength(1);
    }
  });

  it('never sends a streamed body twice', async () => {
    const server = await serve(reply(503));
    async function* body() {
      yield new Uint8Array([1, 2, 3]);
    }
    const req = outgoing(server.url, { method: 'PUT', body: body() });
    expect(mayRetry(req)).toBe(false);
    expect((await stack(realWire(), retrier().layer)(req)).status).toBe(503);
    expect(server.hits).toHaveLength(1);
  });

  it('sends a GET again over a connection cut before the answer; a PUT is sent once', async () => {
    const get = await serve(inTurn(reset(), reply(200)));
    expect((await stack(realWire(), retrier().layer)(outgoing(get.url))).status).toBe(200);
    expect(get.hits).toHaveLength(2);
    const put = await serve(inTurn(reset(), reply(200)));
    const err = await stack(
      realWire(),
      retrier().layer,
    )(outgoing(put.url, { method: 'PUT', body: 'x' })).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toMatch(/^(ECONNRESET|UND_ERR_SOCKET)$/);
    expect(put.hits).toHaveLength(1);
  });

  it('sends a PUT again when the connection was refused (nothing reached the server)', async () => {
    const r = retrier();
    const req = outgoing(`${await closedPort()}/x`, { method: 'PUT', body: 'x' });
    const err = await stack(realWire(), r.layer)(req).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('ECONNREFUSED');
    expect(r.clock.sleeps).toEqual([100, 200, 400]);
    expect(req.attempts.retried).toBe(3);
  });

  it('stops at once when the signal aborts during a backoff', async () => {
    const server = await serve(reply(503));
    const controller = new AbortController();
    const clock = recordingClock();
    const { layer } = createRetrier({
      clock: {
        ...clock,
        sleep: async () => {
          controller.abort(new Error('cancelled'));
          throw controller.signal.reason;
        },
      },
    });
    const err = await stack(
      realWire(),
      layer,
    )(outgoing(server.url, { signal: controller.signal })).catch((e: unknown) => e);
    expect((err as Error).message).toBe('cancelled');
    expect(server.hits).toHaveLength(1);
  });

  it("again(): a read's cut body is asked again while the budget lasts, a write's never", async () => {
    const cut = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const r = retrier(1);
    const get = outgoing('http://127.0.0.1:9/x');
    expect(await r.again(outgoing('http://127.0.0.1:9/x', { method: 'PUT', body: 'x' }), cut)).toBe(false);
    expect(await r.again(get, new Error('no code'))).toBe(false);
    expect(await r.again(get, cut)).toBe(true);
    expect(await r.again(get, cut)).toBe(false);
    expect(r.clock.sleeps).toEqual([100]);
  });
});

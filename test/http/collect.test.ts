// `collect: true` (the audit log's pages): a GET whose body is copied into one buffer as it arrives,
// through undici's dispatch rather than request(). Real HTTP on 127.0.0.1; each case runs with and
// without `collect`, which must behave alike: the same caps, deadlines, retries and sentences.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, UnexpectedAnswerError } from '../../src/errors.js';
import { createHttpClient } from '../../src/http/client.js';
import { cutMidBody, inTurn, reply, serve } from './layers/loopback.js';
import { recordingClock } from './mock.js';

function client(timeoutMs = 5_000) {
  const clock = recordingClock();
  const http = createHttpClient({ userAgent: 't', clock, timeoutMs, retryBaseMs: 100, random: () => 1 });
  return { clock, http };
}

describe.each([true, false])('a GET read whole (collect: %s)', (collect) => {
  it('reads a body announced or chunked, in many pieces past any first buffer, byte for byte', async () => {
    const big = Buffer.alloc(300 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7) % 251;
    const announced = await serve(reply(200, { 'content-length': String(big.length) }, big as never));
    const chunked = await serve((_req, res) => {
      res.writeHead(200);
      for (let i = 0; i < big.length; i += 10_000) res.write(big.subarray(i, i + 10_000));
      res.end();
    });
    for (const server of [announced, chunked]) {
      const res = await client().http.request({ url: `${server.url}/page`, collect });
      expect((await res.bytes(1024 * 1024)).equals(big)).toBe(true);
    }
    const json = await serve(reply(200, { 'content-type': 'application/json' }, '{"events":[],"n":"é"}'));
    const res = await client().http.request({ url: json.url, collect });
    expect(await res.json()).toEqual({ events: [], n: 'é' });
  });

  it('reads whole a body that came before it was asked for, as bytes or as a stream, small or large', async () => {
    const small = Buffer.from('{"events":[]}');
    // larger than what waits for a reader before the request is paused
    const large = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < large.length; i++) large[i] = (i * 13) % 251;
    for (const body of [small, large]) {
      const server = await serve(reply(200, { 'content-length': String(body.length) }, body as never));
      const { http } = client();
      const asBytes = await http.request({ url: server.url, collect });
      await new Promise((r) => setTimeout(r, 100));
      expect((await asBytes.bytes(2 * 1024 * 1024)).equals(body)).toBe(true);
      const asStream = await http.request({ url: server.url, collect });
      await new Promise((r) => setTimeout(r, 100));
      const parts: Buffer[] = [];
      for await (const part of asStream.body) parts.push(part as Buffer);
      expect(Buffer.concat(parts).equals(body)).toBe(true);
      // and the connection is whole for the next request
      expect((await (await http.request({ url: server.url, collect })).bytes(2 * 1024 * 1024)).length).toBe(
        body.length,
      );
    }
  });

  it('refuses a body over its cap, announced or not: an unexpected answer, exit 7', async () => {
    const announced = await serve(reply(200, {}, 'x'.repeat(2048)));
    const chunked = await serve((_req, res) => {
      res.write('x'.repeat(1000));
      setTimeout(() => res.end('x'.repeat(1048)), 20);
    });
    for (const server of [announced, chunked]) {
      const res = await client().http.request({ url: server.url, collect, what: 'reading the audit log' });
      const err = await res.bytes(1024).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UnexpectedAnswerError);
      expect((err as UnexpectedAnswerError).exitCode).toBe(7);
      expect((err as Error).message).toBe(
        `reading the audit log: unexpected answer from ${server.origin.slice(7)}: the answer is larger than 1 KiB`,
      );
    }
  });

  it('ends a body that stalls with a plain sentence, exit 7, and one that trickles at its deadline', async () => {
    const stalled = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('x'.repeat(10));
    });
    const res = await client(200).http.request({ url: `${stalled.url}/p`, collect, retry: false });
    const err = await res.bytes(1000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).exitCode).toBe(7);
    expect((err as Error).message).toBe(`GET ${stalled.url}/p failed: the answer stalled`);

    // A byte every 30 ms never stalls for 200 ms, but ten gaps' time (2 s) is the whole read's.
    const trickle = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      const t = setInterval(() => res.write('x'), 30);
      res.on('close', () => clearInterval(t));
    });
    const started = Date.now();
    const slow = await client(200).http.request({ url: `${trickle.url}/p`, collect, retry: false });
    const err2 = await slow.bytes(1000).catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(NetworkError);
    expect((err2 as Error).message).toBe(
      `GET ${trickle.url}/p failed: the answer took longer than 2 s to arrive`,
    );
    expect(Date.now() - started).toBeLessThan(4_000);
  }, 10_000);

  it('sends a GET cut mid-body again; without retries, says the connection was cut', async () => {
    const flaky = await serve(inTurn(cutMidBody(), reply(200, {}, 'whole')));
    const { clock, http } = client();
    expect(await (await http.request({ url: flaky.url, collect })).text()).toBe('whole');
    expect(flaky.hits).toHaveLength(2);
    expect(clock.sleeps).toEqual([100]);

    const cut = await serve(cutMidBody(64 * 1024));
    const res = await client().http.request({ url: `${cut.url}/p`, collect, retry: false });
    const err = await res.text().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toBe(
      `GET ${cut.url}/p failed: the connection was cut in the middle of the answer`,
    );
    expect(cut.hits).toHaveLength(1);
  });

  it('never hands out a truncated body: fewer bytes than announced, then a clean close', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('x'.repeat(400), () => res.socket?.end());
    });
    const res = await client().http.request({ url: `${server.url}/p`, collect, retry: false });
    const err = await res.bytes(10_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).exitCode).toBe(7);
    expect((err as Error).message).toBe(
      `GET ${server.url}/p failed: the connection was cut in the middle of the answer`,
    );
  });

  it('reads an error body for its message, follows redirects, and returns statuses asked for', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/old') {
        res.writeHead(302, { location: '/new' });
        res.end('moved');
      } else if (req.url === '/new') res.end('here');
      else if (req.url === '/limited') {
        res.writeHead(429, { 'content-type': 'application/json' });
        res.end('{"message":"slow down"}');
      } else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"message":"no such org"}');
      }
    });
    const { http } = client();
    expect(await (await http.request({ url: `${server.url}/old`, collect })).text()).toBe('here');
    const err = await http.request({ url: `${server.url}/gone`, collect }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as Error).message).toMatch(/no such org/);
    const res = await http.request({
      url: `${server.url}/limited`,
      collect,
      okStatuses: 'any',
      retry: false,
    });
    expect(res.status).toBe(429);
    expect(await res.text(64 * 1024)).toBe('{"message":"slow down"}');
  });

  it('refuses a chunked body that passes its cap after the buffer has grown past its first size', async () => {
    // No length: the buffer starts at 64 KiB and doubles; the cap (100 KiB) still holds mid-growth.
    const server = await serve((_req, res) => {
      res.write('x'.repeat(60 * 1024));
      setTimeout(() => res.write('x'.repeat(30 * 1024)), 10);
      setTimeout(() => res.end('x'.repeat(30 * 1024)), 20);
    });
    const res = await client().http.request({ url: server.url, collect, what: 'reading the audit log' });
    const err = await res.bytes(100 * 1024).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnexpectedAnswerError);
    expect((err as Error).message).toBe(
      `reading the audit log: unexpected answer from ${server.origin.slice(7)}: the answer is larger than 100 KiB`,
    );
  });

  it('drops the credential on a redirect to another origin (another port), and keeps it on the same one', async () => {
    const elsewhere = await serve(reply(200, {}, 'there'));
    const home = await serve((req, res) => {
      if (req.url === '/away') res.writeHead(302, { location: `${elsewhere.url}/p?page_token=t` }).end();
      else if (req.url === '/near') res.writeHead(302, { location: '/here' }).end();
      else res.end('here');
    });
    const { http } = client();
    const credential = { origin: home.origin, authorization: 'Bearer secret-token' };
    expect(await (await http.request({ url: `${home.url}/near`, collect, credential })).text()).toBe('here');
    expect(await (await http.request({ url: `${home.url}/away`, collect, credential })).text()).toBe('there');
    expect(home.hits.map((h) => [h.path, h.headers.authorization])).toEqual([
      ['/near', 'Bearer secret-token'],
      ['/here', 'Bearer secret-token'],
      ['/away', 'Bearer secret-token'],
    ]);
    expect(elsewhere.hits.map((h) => [h.path, h.headers.authorization])).toEqual([
      ['/p?page_token=t', undefined],
    ]);
  });

  it('stops at once when the signal aborts mid-body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('x');
    });
    const ac = new AbortController();
    const res = await client().http.request({ url: server.url, collect, signal: ac.signal });
    const read = res.bytes(1000).catch((e: unknown) => e);
    ac.abort(new Error('interrupted'));
    const err = await read;
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toMatch(/interrupted|aborted/);
  });

  it('keeps the deadline of each body read at once: the earlier ends first, the later later, a whole one never', async () => {
    const stalled = await serve((req, res) => {
      res.writeHead(200, { 'content-length': '100000' });
      if (req.url === '/whole') return void res.end('x'.repeat(100000));
      // a byte every 10 ms: never a gap long enough to end it, never whole before its deadline
      const drip = setInterval(() => res.write('x'), 10);
      res.on('close', () => clearInterval(drip));
    });
    // deadlines of ten gaps: 0.4 s and 1.2 s
    const soon = client(40).http;
    const later = client(120).http;
    const started = performance.now();
    const ended = (p: Promise<unknown>) =>
      p.then(
        () => ({ ok: true, at: performance.now() - started }),
        (err: unknown) => ({ ok: false, err, at: performance.now() - started }),
      );
    const slow = ended(
      (await later.request({ url: `${stalled.url}/b`, collect, retry: false })).bytes(200_000),
    );
    const fast = ended(
      (await soon.request({ url: `${stalled.url}/a`, collect, retry: false })).bytes(200_000),
    );
    const whole = ended((await soon.request({ url: `${stalled.url}/whole`, collect })).bytes(200_000));
    const [a, b, w] = await Promise.all([fast, slow, whole]);
    expect(w.ok).toBe(true);
    expect(a.ok).toBe(false);
    expect(b.ok).toBe(false);
    expect((a as { err: Error }).err).toBeInstanceOf(NetworkError);
    expect((b as { err: Error }).err).toBeInstanceOf(NetworkError);
    expect(a.at).toBeGreaterThanOrEqual(350);
    expect(a.at).toBeLessThan(1_000);
    expect(b.at).toBeGreaterThanOrEqual(1_150);
  });

  it('reads many pages under one signal, then stops the one waiting for its headers when it aborts', async () => {
    let n = 0;
    const server = await serve((_req, res) => {
      // the first twenty are answered, the next never
      if (++n <= 20) res.end(`page ${n}`);
    });
    const ac = new AbortController();
    const { http } = client();
    for (let i = 1; i <= 20; i++)
      expect(await (await http.request({ url: server.url, collect, signal: ac.signal })).text()).toBe(
        `page ${i}`,
      );
    // the signal does not gather a listener per request read
    expect(getEventListeners(ac.signal, 'abort').length).toBeLessThanOrEqual(1);
    const pending = http.request({ url: server.url, collect, signal: ac.signal }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    ac.abort(new Error('interrupted'));
    const err = await pending;
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toMatch(/interrupted|aborted/);
  });
});

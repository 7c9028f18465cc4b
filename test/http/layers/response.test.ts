import { describe, expect, it } from 'vitest';
import { NetworkError, UnexpectedAnswerError } from '../../../src/errors.js';
import { plainFailures } from '../../../src/http/layers/failure.js';
import { respond } from '../../../src/http/layers/response.js';
import { createRetrier } from '../../../src/http/layers/retry.js';
import { recordingClock } from '../mock.js';
import { cutMidBody, inTurn, outgoing, realWire, reply, serve, stack } from './loopback.js';

function retrier() {
  const clock = recordingClock();
  return { clock, ...createRetrier({ clock, baseMs: 100, random: () => 1 }) };
}

describe('respond: bodies read with a cap, a cut read sent again', () => {
  it('reads text, JSON and bytes within their cap', async () => {
    const server = await serve(reply(200, { 'content-type': 'application/json' }, '{"a":[1,2]}'));
    const r = retrier();
    expect(await (await respond(realWire(), outgoing(server.url), r)).json()).toEqual({ a: [1, 2] });
    expect(await (await respond(realWire(), outgoing(server.url), r)).text(11)).toBe('{"a":[1,2]}');
    expect((await (await respond(realWire(), outgoing(server.url), r)).bytes(100)).length).toBe(11);
  });

  it('refuses a body over its cap, announced or not, as an unexpected answer (exit 7)', async () => {
    const announced = await serve(reply(200, {}, 'x'.repeat(2048)));
    const chunked = await serve((_req, res) => {
      res.write('x'.repeat(1024));
      res.end('x'.repeat(1024));
    });
    for (const server of [announced, chunked]) {
      const res = await respond(realWire(), outgoing(server.url, { what: 'reading x' }), retrier());
      const err = await res.text(1024).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UnexpectedAnswerError);
      expect((err as UnexpectedAnswerError).exitCode).toBe(7);
      expect((err as Error).message).toBe(
        `reading x: unexpected answer from ${server.origin.slice(7)}: the answer is larger than 1 KiB`,
      );
    }
  });

  it('says so when a success answer is not JSON', async () => {
    const server = await serve(reply(200, {}, '{not json'));
    const err = await (await respond(realWire(), outgoing(server.url), retrier())).json().catch((e) => e);
    expect(err).toBeInstanceOf(UnexpectedAnswerError);
    expect((err as Error).message).toMatch(/: the body is not valid JSON$/);
  });

  it('sends a GET again when its body is cut mid-way, after a backoff', async () => {
    const server = await serve(inTurn(cutMidBody(), reply(200, {}, 'whole')));
    const r = retrier();
    const res = await respond(stack(realWire(), plainFailures), outgoing(server.url), r);
    expect(await res.text()).toBe('whole');
    expect(server.hits).toHaveLength(2);
    expect(r.clock.sleeps).toEqual([100]);
  });

  it('never sends a PUT again when its answer is cut: one sentence, and a hint it may have landed', async () => {
    const server = await serve(cutMidBody());
    const req = outgoing(`${server.url}/up`, { method: 'PUT', body: 'x' });
    const err = await (await respond(realWire(), req, retrier())).text().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toBe(
      `PUT ${server.url}/up failed: the connection was cut in the middle of the answer`,
    );
    expect((err as NetworkError).hint).toMatch(/may or may not have taken effect/);
    expect(server.hits).toHaveLength(1);
  });

  it('a body handed out as a stream fails with the same plain sentence', async () => {
    const server = await serve(cutMidBody(64 * 1024));
    const res = await respond(realWire(), outgoing(`${server.url}/blob`), retrier());
    let got = 0;
    const err = await (async () => {
      for await (const chunk of res.body) got += (chunk as Buffer).length;
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toBe(
      `GET ${server.url}/blob failed: the connection was cut in the middle of the answer`,
    );
    expect(got).toBeLessThanOrEqual(32 * 1024);
  });
});

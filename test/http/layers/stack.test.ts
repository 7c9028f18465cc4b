// The order client.ts stacks the layers in, seen from outside: what each layer sees of the others.
import { describe, expect, it } from 'vitest';
import { NetworkError } from '../../../src/errors.js';
import { createHttpClient } from '../../../src/http/client.js';
import { recordingClock } from '../mock.js';
import { closedPort, cutMidBody, inTurn, reply, serve } from './loopback.js';

function client(debug?: (line: string) => void) {
  const clock = recordingClock();
  return {
    clock,
    http: createHttpClient({ userAgent: 't', clock, retryBaseMs: 100, random: () => 1, debug }),
  };
}

describe("the client's stack", () => {
  it('retries a hop where it failed: a 503 after a redirect is asked again at the new URL', async () => {
    const server = await serve(
      inTurn(reply(302, { location: '/moved' }), reply(503), reply(200, {}, 'there')),
    );
    const { http, clock } = client();
    const res = await http.request({ url: `${server.url}/first` });
    expect(await res.text()).toBe('there');
    expect(res.url).toBe(`${server.url}/moved`);
    expect(server.hits.map((h) => h.path)).toEqual(['/first', '/moved', '/moved']);
    expect(clock.sleeps).toEqual([100]);
  });

  it('sends a read whose body was cut from the start again, redirects and all', async () => {
    const server = await serve(
      inTurn(
        reply(302, { location: '/blob' }),
        cutMidBody(),
        reply(302, { location: '/blob' }),
        reply(200, {}, 'whole'),
      ),
    );
    const res = await client().http.request({ url: `${server.url}/start` });
    expect(await res.text()).toBe('whole');
    expect(server.hits.map((h) => h.path)).toEqual(['/start', '/blob', '/start', '/blob']);
  });

  it('names the request and its tries once the budget is spent, in one sentence', async () => {
    const url = `${await closedPort()}/v2/`;
    const { http, clock } = client();
    const err = await http.request({ url, what: 'checking the registry' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toBe(
      `checking the registry: GET ${url} failed: connection refused (tried 4 times)`,
    );
    expect(clock.sleeps).toEqual([100, 200, 400]);
  });

  it('traces every attempt, and says each time the credential stayed behind', async () => {
    const other = await serve(inTurn(reply(503), reply(200)));
    const lines: string[] = [];
    const { http } = client((l) => lines.push(l));
    const res = await http.request({
      url: `${other.url}/x`,
      credential: { origin: 'https://hub.example.test', authorization: 'Bearer s3cret' },
    });
    await res.dump();
    const kept = `  credential for https://hub.example.test withheld from ${other.origin}`;
    expect(lines.filter((l) => l === kept)).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('> GET '))).toHaveLength(2);
    expect(lines.join('\n')).not.toContain('s3cret');
    expect(other.hits.map((h) => h.headers.authorization)).toEqual([undefined, undefined]);
  });
});

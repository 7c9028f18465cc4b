import { describe, expect, it } from 'vitest';
import { trace } from '../../../src/http/layers/trace.js';
import { recordingClock } from '../mock.js';
import { outgoing, realWire, serve, stack } from './loopback.js';

describe('trace: the --debug lines', () => {
  it('is no layer at all without --debug', () => {
    const next = realWire();
    expect(trace(undefined, recordingClock())(next)).toBe(next);
  });

  it('prints the request and the answer, headers and JSON body included, with every secret redacted', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'set-cookie': 'sid=cookie-secret', 'x-request-id': 'r-1' });
      res.end('{}');
    });
    const lines: string[] = [];
    const clock = recordingClock();
    let reads = 0;
    // 42 ms pass between the request and its answer.
    const timed = { ...clock, now: () => clock.now() + 42 * reads++ };
    const send = stack(
      realWire(),
      trace((l) => lines.push(l), timed),
    );
    const json = { identifier: 'alice', password: 'pw-secret' };
    const res = await send(
      outgoing(`${server.url}/v2/auth/token?token=qs-secret`, {
        method: 'POST',
        headers: { authorization: 'Basic YWxpY2U6cHc=', 'content-type': 'application/json' },
        body: JSON.stringify(json),
        json,
      }),
    );
    await res.body.dump();
    expect(lines.slice(0, 7)).toEqual([
      `> POST ${server.url}/v2/auth/token?token=***`,
      '> authorization: Basic ***',
      '> content-type: application/json',
      '> {"identifier":"alice","password":"***"}',
      `< 200 ${server.url}/v2/auth/token?token=*** (42 ms)`,
      '< set-cookie: ***',
      '< x-request-id: r-1',
    ]);
    // …then the headers node adds (date, connection…), one line each.
    expect(lines.slice(7).every((l) => /^< [a-z-]+: /.test(l))).toBe(true);
    // The request itself went out whole: only the trace is redacted.
    expect(server.hits[0]?.headers.authorization).toBe('Basic YWxpY2U6cHc=');
    expect(server.hits[0]?.path).toBe('/v2/auth/token?token=qs-secret');
  });
});

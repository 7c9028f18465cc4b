import { describe, expect, it } from 'vitest';
import { NetworkError, NotFoundError } from '../../../src/errors.js';
import { networkFailure, plainFailures } from '../../../src/http/layers/failure.js';
import { closedPort, outgoing, realWire, stack } from './loopback.js';

describe("plainFailures: undici's failures in plain words", () => {
  it('a refused connection: one sentence naming what, the request and the tries, exit 7', async () => {
    const url = `${await closedPort()}/v2/things`;
    const err = await stack(
      realWire(),
      plainFailures,
    )(outgoing(url, { what: 'listing things', attempts: { retried: 2 } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).exitCode).toBe(7);
    expect((err as Error).message).toBe(
      `listing things: GET ${url} failed: connection refused (tried 3 times)`,
    );
    expect(((err as Error).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('names the proxy, its password redacted', async () => {
    const url = `${await closedPort()}/x`;
    const err = await stack(
      realWire('http://u:proxy-pw@proxy.test:3128/'),
      plainFailures,
    )(outgoing(url)).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      `GET ${url} failed: connection refused (through the proxy http://u:***@proxy.test:3128)`,
    );
  });

  it('lets our own errors, and an abort, through as they are', async () => {
    const own = new NotFoundError('no such thing');
    expect(
      await plainFailures(() => Promise.reject(own))(outgoing('http://127.0.0.1:9/')).catch((e) => e),
    ).toBe(own);
    const controller = new AbortController();
    controller.abort();
    const abort = new Error('aborted');
    const req = outgoing('http://127.0.0.1:9/', { signal: controller.signal });
    expect(await plainFailures(() => Promise.reject(abort))(req).catch((e) => e)).toBe(abort);
  });

  it('says a write cut while its answer arrived may have taken effect', () => {
    const cut = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const req = outgoing('https://r.test/v2/x/blobs/uploads/1?token=t-secret', { method: 'PUT' });
    const err = networkFailure(req, req.url, cut, true);
    expect(err.message).toBe(
      'PUT https://r.test/v2/x/blobs/uploads/1?token=*** failed: the connection was cut in the middle of the answer',
    );
    expect(err.hint).toBe('The request was not repeated: it may or may not have taken effect.');
    expect(
      networkFailure(outgoing('https://r.test/'), new URL('https://r.test/'), cut, true).hint,
    ).toBeUndefined();
  });
});

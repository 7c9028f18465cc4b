import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors.js';
import { refuseStatuses } from '../../../src/http/layers/status.js';
import { outgoing, realWire, reply, serve, stack } from './loopback.js';

describe('refuseStatuses: an answer the caller did not ask for is an ApiError', () => {
  it("reads the server's error body into the message, naming what was being done", async () => {
    const server = await serve(
      reply(
        404,
        { 'content-type': 'application/json' },
        JSON.stringify({ errors: [{ code: 'MANIFEST_UNKNOWN', message: 'manifest unknown' }] }),
      ),
    );
    const err = await stack(
      realWire(),
      refuseStatuses,
    )(outgoing(`${server.url}/v2/app/manifests/1.0?token=t-secret`, { what: 'reading app:1.0' })).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('reading app:1.0: MANIFEST_UNKNOWN: manifest unknown');
    expect((err as ApiError).exitCode).toBe(5);
    expect((err as ApiError).url).toBe(`${server.url}/v2/app/manifests/1.0?token=***`);
  });

  it('passes 2xx, and the statuses the caller names, as answers', async () => {
    const server = await serve((req, res) => {
      res.writeHead(Number(req.url?.slice(1)));
      res.end();
    });
    const send = stack(realWire(), refuseStatuses);
    expect((await send(outgoing(`${server.url}/204`))).status).toBe(204);
    expect((await send(outgoing(`${server.url}/401`, { okStatuses: [401] }))).status).toBe(401);
    expect((await send(outgoing(`${server.url}/500`, { okStatuses: 'any' }))).status).toBe(500);
    expect(await send(outgoing(`${server.url}/409`, { okStatuses: [401] })).catch((e) => e)).toBeInstanceOf(
      ApiError,
    );
  });

  it('a HEAD has no body to read: the status speaks', async () => {
    const server = await serve(reply(403));
    const err = await stack(
      realWire(),
      refuseStatuses,
    )(outgoing(server.url, { method: 'HEAD' })).catch((e: unknown) => e);
    expect((err as Error).message).toBe('the server answered 403 (forbidden)');
  });

  it('reads no more than 64 KiB of an error body that never ends', async () => {
    let sent = 0;
    const server = await serve((_req, res) => {
      res.writeHead(500);
      const more = () => {
        while (sent < 64 * 1024 * 1024 && res.write('x'.repeat(16 * 1024))) sent += 16 * 1024;
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    const err = await stack(realWire(), refuseStatuses)(outgoing(server.url)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(500);
    // Not JSON: the status speaks. The server stopped well short of its 64 MiB.
    expect((err as Error).message).toBe('the server answered 500 (internal server error)');
    expect(sent).toBeLessThan(8 * 1024 * 1024);
  });
});

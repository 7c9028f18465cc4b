import { describe, expect, it } from 'vitest';
import { closedPort, outgoing, realWire, serve, textOf } from './loopback.js';

describe('wire: one request through undici', () => {
  it('sends the method, path, query, headers and body, and hands back the answer as it came', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('X-Many', ['a', 'b']);
      res.writeHead(201, { 'Content-Type': 'text/plain' });
      res.end('made');
    });
    const res = await realWire()(
      outgoing(`${server.url}/v2/things?n=2`, {
        method: 'PUT',
        headers: { 'user-agent': 'layer-test', 'content-type': 'text/plain' },
        body: 'payload',
      }),
    );
    expect(server.hits).toMatchObject([{ method: 'PUT', path: '/v2/things?n=2', body: 'payload' }]);
    expect(server.hits[0]?.headers['user-agent']).toBe('layer-test');
    expect(res.status).toBe(201);
    expect(res.url.href).toBe(`${server.url}/v2/things?n=2`);
    // Lower-case names, a repeated header joined.
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.headers['x-many']).toBe('a, b');
    expect(await textOf(res.body)).toBe('made');
  });

  it('streams an async iterable body', async () => {
    const server = await serve((_req, res) => res.end());
    async function* body() {
      yield new TextEncoder().encode('one,');
      yield new TextEncoder().encode('two');
    }
    const res = await realWire()(outgoing(server.url, { method: 'PUT', body: body() }));
    await res.body.dump();
    expect(server.hits[0]?.body).toBe('one,two');
  });

  it("throws undici's own error, untranslated: that is the failure layer's job", async () => {
    const err = await realWire()(outgoing(`${await closedPort()}/x`)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('names the proxy a failed request went through on the error', async () => {
    const err = await realWire('http://proxy.test:3128')(outgoing(`${await closedPort()}/x`)).catch(
      (e: unknown) => e,
    );
    expect((err as { proxy?: string }).proxy).toBe('http://proxy.test:3128');
  });
});

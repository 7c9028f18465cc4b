import { describe, expect, it } from 'vitest';
import { NetworkError } from '../../../src/errors.js';
import { bindCredential } from '../../../src/http/layers/credential.js';
import { followRedirects, mayFollow } from '../../../src/http/layers/redirect.js';
import { outgoing, realWire, reply, serve, stack, textOf } from './loopback.js';

describe('followRedirects', () => {
  it('follows a GET through relative and absolute Locations to the final answer', async () => {
    const final = await serve(reply(200, {}, 'here'));
    const first = await serve((req, res) => {
      if (req.url === '/start') res.writeHead(302, { location: '/next?x=1' });
      else res.writeHead(307, { location: `${final.url}/end` });
      res.end('moved');
    });
    const res = await stack(realWire(), followRedirects)(outgoing(`${first.url}/start`));
    expect(res.status).toBe(200);
    expect(res.url.href).toBe(`${final.url}/end`);
    expect(await textOf(res.body)).toBe('here');
    expect(first.hits.map((h) => h.path)).toEqual(['/start', '/next?x=1']);
  });

  it('gives up after five hops with a NetworkError naming the first URL', async () => {
    const loop = await serve((req, res) => {
      res.writeHead(301, { location: `/hop${Number(req.url?.slice(4) || 0) + 1}` });
      res.end();
    });
    const err = await stack(
      realWire(),
      followRedirects,
    )(outgoing(`${loop.url}/hop0`, { what: 'reading x' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toBe(`reading x: GET ${loop.url}/hop0: too many redirects`);
    expect(loop.hits).toHaveLength(6);
  });

  it('hands a write its redirect as the answer, unless the caller asks to follow', async () => {
    const server = await serve((req, res) => {
      res.writeHead(req.url === '/old' ? 307 : 201, req.url === '/old' ? { location: '/new' } : {});
      res.end();
    });
    const send = stack(realWire(), followRedirects);
    const post = await send(outgoing(`${server.url}/old`, { method: 'POST', body: '{}' }));
    expect(post.status).toBe(307);
    await post.body.dump();
    const put = await send(
      outgoing(`${server.url}/old`, { method: 'PUT', body: 'b', followRedirects: true }),
    );
    expect(put.status).toBe(201);
    // 307: the method and the body go along.
    expect(server.hits.slice(1).map((h) => [h.method, h.path, h.body])).toEqual([
      ['PUT', '/old', 'b'],
      ['PUT', '/new', 'b'],
    ]);
  });

  it('never follows for a request whose body carries the secret, even when asked', () => {
    const req = outgoing('https://hub.test/token', {
      method: 'POST',
      credential: { origin: 'https://hub.test' },
      followRedirects: true,
    });
    expect(mayFollow(req)).toBe(false);
    expect(mayFollow(outgoing('https://hub.test/x', { followRedirects: false }))).toBe(false);
    expect(mayFollow(outgoing('https://hub.test/x', { method: 'HEAD' }))).toBe(true);
  });

  it('with the credential layer below it, each hop gets the credential only on its own origin', async () => {
    const elsewhere = await serve(reply(200));
    const own = await serve((req, res) => {
      res.writeHead(302, { location: req.url === '/a' ? '/b' : `${elsewhere.url}/c` });
      res.end();
    });
    const credential = { origin: own.origin, authorization: 'Bearer own-secret' };
    const res = await stack(
      realWire(),
      followRedirects,
      bindCredential(),
    )(outgoing(`${own.url}/a`, { credential }));
    await res.body.dump();
    expect(own.hits.map((h) => h.headers.authorization)).toEqual(['Bearer own-secret', 'Bearer own-secret']);
    expect(elsewhere.hits.map((h) => h.headers.authorization)).toEqual([undefined]);
  });
});

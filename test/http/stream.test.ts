// `stream: true` (a blob's GET): the body comes through undici's dispatch as the one stream between
// the parser and its reader, and takes the reader's taps (body.ts) itself. Real HTTP on 127.0.0.1;
// each case runs with and without `stream` (a Relay over undici's body), which must behave alike:
// every byte through the taps, the same plain sentences, deadlines and backpressure, and a body
// that fails its check never reaching an upload whole. A third run announces the blob's size as 4 MiB
// or more, so it moves on a connection of its own (layers/h1.ts), which must behave the same.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { IntegrityError, NetworkError } from '../../src/errors.js';
import { tapped } from '../../src/http/body.js';
import { OWN_CONNECTION_MIN } from '../../src/http/layers/h1.js';
import { cutMidBody, serve, textOf } from './layers/loopback.js';
import { loopbackClient } from './mock.js';

function pattern(n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 7) % 251;
  return b;
}

const sha = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** A tap that hashes what passes and, at the end, fails unless it is `digest` of `size` bytes. */
function verify(body: Readable, digest: string, size: number): Readable {
  const hash = createHash('sha256');
  let n = 0;
  return tapped(body, {
    chunk(c) {
      hash.update(c);
      n += c.length;
    },
    end() {
      const got = `sha256:${hash.digest('hex')}`;
      return got === digest && n === size ? undefined : new IntegrityError(`got ${got}, ${n} bytes`);
    },
  });
}

/**
 * An upload's destination: takes a PUT's body and counts what arrived, whether or not the request
 * completed. `held` keeps it from reading until `release()`.
 */
async function sink(opts: { held?: boolean } = {}) {
  let released = !opts.held;
  const waiting: (() => void)[] = [];
  let onClosed = () => {};
  const state = {
    received: 0,
    completed: false,
    closed: new Promise<void>((r) => {
      onClosed = r;
    }),
    release() {
      released = true;
      for (const w of waiting.splice(0)) w();
    },
  };
  const server = createServer((req, res) => {
    const start = () => {
      req.on('data', (c: Buffer) => {
        state.received += c.length;
      });
      req.on('end', () => {
        state.completed = true;
        res.writeHead(201).end();
      });
    };
    req.on('close', () => onClosed());
    if (released) start();
    else waiting.push(start);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  servers.push(server);
  return { state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

// The third: a blob announced as 4 MiB or more, which goes on a connection of its own (layers/h1.ts).
describe.each([
  [true, undefined],
  [false, undefined],
  [true, OWN_CONNECTION_MIN],
])('a blob read as a stream (stream: %s, expectedSize: %s)', (stream, expectedSize) => {
  it('hands every byte over, announced or chunked, to taps added after the whole body had arrived', async () => {
    const big = pattern(300 * 1024);
    const announced = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(big.length) });
      res.end(big);
    });
    const chunked = await serve((_req, res) => {
      res.writeHead(200);
      for (let i = 0; i < big.length; i += 10_000) res.write(big.subarray(i, i + 10_000));
      res.end();
    });
    for (const server of [announced, chunked]) {
      const res = await loopbackClient().request({ url: `${server.url}/blob`, stream, expectedSize });
      // Everything is in by now; the taps still see it all, in order.
      await new Promise((r) => setTimeout(r, 50));
      let counted = 0;
      const body = verify(
        tapped(res.body, {
          chunk(c) {
            counted += c.length;
          },
        }),
        sha(big),
        big.length,
      );
      const chunks: Buffer[] = [];
      for await (const c of body) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks).equals(big)).toBe(true);
      expect(counted).toBe(big.length);
    }
  });

  it('feeds an upload byte for byte; a body that fails its check never reaches the upload whole', async () => {
    const blob = pattern(1024 * 1024);
    const source = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(blob.length) });
      res.end(blob);
    });
    const http = loopbackClient();

    const good = await sink();
    const res = await http.request({ url: `${source.url}/blob`, stream, expectedSize });
    const put = await http.request({
      method: 'PUT',
      url: `${good.url}/upload`,
      headers: { 'content-length': String(blob.length) },
      body: verify(res.body, sha(blob), blob.length),
    });
    expect(put.status).toBe(201);
    expect(good.state.received).toBe(blob.length);

    // The same bytes checked against another digest: the upload fails with the check's error, and
    // the destination never has the whole Content-Length (the last chunk waited for the verdict).
    const bad = await sink();
    const res2 = await http.request({ url: `${source.url}/blob`, stream, expectedSize });
    const err = await http
      .request({
        method: 'PUT',
        url: `${bad.url}/upload`,
        headers: { 'content-length': String(blob.length) },
        body: verify(res2.body, sha(Buffer.from('something else')), blob.length),
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IntegrityError);
    await bad.state.closed;
    expect(bad.state.completed).toBe(false);
    expect(bad.state.received).toBeLessThan(blob.length);
  });

  it('fails the body at the chunk a tap refuses: that chunk and what follows never reach the reader', async () => {
    const body = pattern(512 * 1024);
    const server = await serve((_req, res) => {
      res.writeHead(200);
      for (let i = 0; i < body.length; i += 16 * 1024) res.write(body.subarray(i, i + 16 * 1024));
      res.end();
    });
    const res = await loopbackClient().request({ url: `${server.url}/blob`, stream, expectedSize });
    let seen = 0;
    const refused = new IntegrityError('past its size');
    const tappedBody = tapped(res.body, {
      chunk(c) {
        seen += c.length;
        return seen > 100 * 1024 ? refused : undefined;
      },
    });
    let read = 0;
    const err = await (async () => {
      for await (const c of tappedBody) read += (c as Buffer).length;
    })().catch((e: unknown) => e);
    expect(err).toBe(refused);
    expect(read).toBeLessThanOrEqual(100 * 1024);
  });

  it('says a body cut in the middle was cut, in a plain sentence, and the check never passes it', async () => {
    const cut = await serve(cutMidBody(256 * 1024));
    const res = await loopbackClient().request({
      url: `${cut.url}/blob`,
      stream,
      expectedSize,
      retry: false,
    });
    const err = await textOf(verify(res.body, sha(pattern(1)), 256 * 1024)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).exitCode).toBe(7);
    expect((err as Error).message).toBe(
      `GET ${cut.url}/blob failed: the connection was cut in the middle of the answer`,
    );

    // Fewer bytes than announced, then a clean close: the same.
    const short = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('x'.repeat(400), () => res.socket?.end());
    });
    const res2 = await loopbackClient().request({
      url: `${short.url}/blob`,
      stream,
      expectedSize,
      retry: false,
    });
    const err2 = await textOf(res2.body).catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(NetworkError);
    expect((err2 as Error).message).toMatch(/cut in the middle of the answer/);
  });

  it('reads no more than the announced length of a body that runs on past it', async () => {
    const server = await serve((_req, res) => {
      // 10 bytes announced, 20 sent: the 10 after them are no part of this answer.
      res.socket?.end('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n0123456789abcdefghij');
    });
    const res = await loopbackClient().request({
      url: `${server.url}/blob`,
      stream,
      expectedSize,
      retry: false,
    });
    const body = verify(res.body, sha(Buffer.from('0123456789')), 10);
    expect(await textOf(body)).toBe('0123456789');
  });

  it('ends a body that stalls mid-way at its deadline, in a plain sentence', async () => {
    const stalled = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(1024 * 1024) });
      res.write(pattern(64 * 1024));
    });
    const started = Date.now();
    const res = await loopbackClient(300).request({
      url: `${stalled.url}/blob`,
      stream,
      expectedSize,
      retry: false,
    });
    const err = await textOf(res.body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toBe(`GET ${stalled.url}/blob failed: the answer stalled`);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('holds the source back while the upload waits on a slow destination, then sends it all', async () => {
    // 48 MiB: more than the kernel's buffers on the two loopback connections hold, and sent in
    // well under the 400 ms the destination waits when nothing holds the source back.
    const size = 48 * 1024 * 1024;
    const piece = pattern(1024 * 1024);
    let written = 0;
    const source = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(size) });
      const more = () => {
        while (written < size) {
          written += piece.length;
          if (!res.write(piece)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    const slow = await sink({ held: true });
    const http = loopbackClient();
    const res = await http.request({ url: `${source.url}/blob`, stream, expectedSize });
    const put = http.request({
      method: 'PUT',
      url: `${slow.url}/upload`,
      headers: { 'content-length': String(size) },
      body: res.body,
    });
    await new Promise((r) => setTimeout(r, 400));
    expect(written).toBeLessThan(size);
    slow.state.release();
    expect((await put).status).toBe(201);
    expect(slow.state.received).toBe(size);
    expect(written).toBe(size);
  }, 20_000);

  it('keeps a failure that comes before the body is read (a reset, a stall) for its reader, never an unheard error', async () => {
    // A blob is opened, then its upload's POST (or a token fetch) goes out before the body is
    // read: the source dropping the connection meanwhile must reach the reader, not crash the run.
    const reset = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100000' });
      res.write('x'.repeat(1000), () => setTimeout(() => res.socket?.destroy(), 20));
    });
    const res = await loopbackClient().request({
      url: `${reset.url}/blob`,
      stream,
      expectedSize,
      retry: false,
    });
    const body = res.body;
    await new Promise((r) => setTimeout(r, 200));
    const err = await textOf(body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toBe(
      `GET ${reset.url}/blob failed: the connection was cut in the middle of the answer`,
    );

    const silent = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100000' });
      res.flushHeaders();
    });
    const res2 = await loopbackClient(100).request({
      url: `${silent.url}/blob`,
      stream,
      expectedSize,
      retry: false,
    });
    const body2 = res2.body;
    await new Promise((r) => setTimeout(r, 1_500));
    const err2 = await textOf(body2).catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(NetworkError);
    expect((err2 as Error).message).toBe(`GET ${silent.url}/blob failed: the answer stalled`);
  });

  it('holds little of what arrives before its first read, and then hands it all over', async () => {
    const size = 48 * 1024 * 1024;
    const piece = pattern(1024 * 1024);
    let written = 0;
    const source = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(size) });
      const more = () => {
        while (written < size) {
          written += piece.length;
          if (!res.write(piece)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    const before = process.memoryUsage().arrayBuffers;
    const res = await loopbackClient().request({ url: `${source.url}/blob`, stream, expectedSize });
    const body = res.body;
    await new Promise((r) => setTimeout(r, 400));
    // The kernel's buffers hold some; the process holds next to nothing (not the 48 MiB).
    expect(written).toBeLessThan(size);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * 1024 * 1024);
    let n = 0;
    for await (const c of body) n += (c as Buffer).length;
    expect(n).toBe(size);
  }, 20_000);

  it('stops the source GET when the destination drops the upload mid-way', async () => {
    let sourceClosed = false;
    let written = 0;
    const size = 64 * 1024 * 1024;
    const source = await serve((req, res) => {
      res.writeHead(200, { 'content-length': String(size) });
      const piece = pattern(64 * 1024);
      const timer = setInterval(() => {
        written += piece.length;
        res.write(piece);
      }, 5);
      res.on('close', () => {
        clearInterval(timer);
        sourceClosed = true;
      });
      req.on('error', () => undefined);
    });
    const dest = createServer((req) => {
      let got = 0;
      req.on('data', (c: Buffer) => {
        got += c.length;
        if (got > 256 * 1024) req.socket.destroy();
      });
    });
    await new Promise<void>((r) => dest.listen(0, '127.0.0.1', () => r()));
    servers.push(dest);
    const http = loopbackClient();
    const res = await http.request({ url: `${source.url}/blob`, stream, expectedSize });
    const err = await http
      .request({
        method: 'PUT',
        url: `http://127.0.0.1:${(dest.address() as AddressInfo).port}/upload`,
        headers: { 'content-length': String(size) },
        body: verify(res.body, sha(pattern(1)), size),
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    const cutAt = written;
    await new Promise((r) => setTimeout(r, 300));
    expect(sourceClosed).toBe(true);
    expect(written - cutAt).toBeLessThan(1024 * 1024);
  });

  it('stops reading at once when the signal aborts mid-body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100000' });
      res.write('x');
    });
    const ac = new AbortController();
    const res = await loopbackClient().request({ url: server.url, stream, expectedSize, signal: ac.signal });
    const read = textOf(res.body).catch((e: unknown) => e);
    ac.abort(new Error('interrupted'));
    const err = await read;
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toMatch(/interrupted|aborted/);
  });
});

it('a tap on a collected page read as a stream (not a blob) sees every byte too, through a relay', async () => {
  const page = pattern(200 * 1024);
  const server = await serve((_req, res) => {
    res.writeHead(200, { 'content-length': String(page.length) });
    res.end(page);
  });
  const res = await loopbackClient().request({ url: `${server.url}/page`, collect: true });
  await new Promise((r) => setTimeout(r, 50));
  const body = verify(res.body, sha(page), page.length);
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  expect(Buffer.concat(chunks).equals(page)).toBe(true);
});

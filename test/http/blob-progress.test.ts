// A blob's body (`stream: true`) must keep moving: undici's bodyTimeout only bounds each gap, so a
// source that drips a byte just inside it would hold a read open for ever. At least 1 KiB must
// arrive in every window of two gaps (2 s at least) while the reader waits; a reader that holds
// the body back itself (a slow destination) is not a stall; a body nobody reads for a whole window
// is dropped, its failure kept for whoever reads it later. Real HTTP on 127.0.0.1.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError } from '../../src/errors.js';
import { serve, textOf } from './layers/loopback.js';
import { loopbackClient } from './mock.js';

const timers: NodeJS.Timeout[] = [];
afterEach(() => {
  for (const t of timers.splice(0)) clearInterval(t);
});

/** A server that sends `size` bytes, `step` bytes every `everyMs`. */
function drip(size: number, step: number, everyMs: number) {
  return serve((_req, res) => {
    res.writeHead(200, { 'content-length': String(size) });
    let sent = 0;
    const t = setInterval(() => {
      if (res.destroyed || sent >= size) return clearInterval(t);
      const n = Math.min(step, size - sent);
      res.write(Buffer.alloc(n, 0x61));
      sent += n;
      if (sent >= size) res.end();
    }, everyMs);
    timers.push(t);
    res.on('close', () => clearInterval(t));
  });
}

describe('a blob body that must keep moving', () => {
  it('fails a drip under 1 KiB a window within two windows (the first may see the body before it is read), in a plain sentence (a NetworkError)', async () => {
    // A byte every 100 ms: never a gap of the 1 s timeout, 20 bytes a 2 s window.
    const server = await drip(1_000_000, 1, 100);
    const res = await loopbackClient(1_000).request({
      url: `${server.url}/blob`,
      stream: true,
      retry: false,
    });
    const t0 = Date.now();
    const err = await textOf(res.body).catch((e: unknown) => e);
    const took = Date.now() - t0;
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toBe(
      `GET ${server.url}/blob failed: less than 1 KiB arrived in 2 s (the answer is too slow)`,
    );
    expect(took).toBeGreaterThan(1_500);
    expect(took).toBeLessThan(5_500);
  });

  it('lets a body through that keeps above the minimum, however long it takes in all', async () => {
    // 2 KiB every 500 ms for 5 s: above 1 KiB in every 2 s window.
    const server = await drip(20 * 1024, 2048, 500);
    const res = await loopbackClient(1_000).request({
      url: `${server.url}/blob`,
      stream: true,
      retry: false,
    });
    expect((await textOf(res.body)).length).toBe(20 * 1024);
  }, 10_000);

  it('does not take a reader that holds the body back (a slow destination) for a stall', async () => {
    const size = 4 * 1024 * 1024;
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(size) });
      res.end(Buffer.alloc(size, 0x62));
    });
    const res = await loopbackClient(1_000).request({
      url: `${server.url}/blob`,
      stream: true,
      retry: false,
    });
    const body = res.body;
    let got = 0;
    // Reads 64 KiB, then nothing for 5 s (two and a half windows, the body held back all along),
    // then the rest.
    await new Promise<void>((resolve, reject) => {
      body.once('error', reject);
      body.once('readable', () => {
        const first = body.read(64 * 1024) as Buffer | null;
        got += first?.length ?? 0;
        setTimeout(() => {
          body.on('data', (c: Buffer) => {
            got += c.length;
          });
          body.once('end', resolve);
        }, 5_000);
      });
    });
    expect(got).toBe(size);
  }, 15_000);

  it('does not take an upload held back by a slow destination for a stall of its source', async () => {
    const size = 32 * 1024 * 1024;
    const source = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(size) });
      res.end(Buffer.alloc(size, 0x64));
    });
    // Reads nothing for 5 s (two and a half of the source's windows), then all of it.
    let received = 0;
    const destination = createServer((req, res) => {
      setTimeout(() => {
        req.on('data', (c: Buffer) => {
          received += c.length;
        });
        req.on('end', () => res.writeHead(201).end());
      }, 5_000);
    });
    await new Promise<void>((r) => destination.listen(0, '127.0.0.1', () => r()));
    try {
      const http = loopbackClient(1_000);
      const res = await http.request({ url: `${source.url}/blob`, stream: true, retry: false });
      const put = await http.request({
        method: 'PUT',
        url: `http://127.0.0.1:${(destination.address() as AddressInfo).port}/upload`,
        headers: { 'content-length': String(size) },
        body: res.body,
        timeoutMs: 20_000,
      });
      expect(put.status).toBe(201);
      expect(received).toBe(size);
    } finally {
      destination.closeAllConnections();
      await new Promise((r) => destination.close(r));
    }
  }, 20_000);

  it('drops a body nobody reads for a whole window: its connection closes, its reader later hears why', async () => {
    let closed = false;
    const server = await serve((req, res) => {
      res.writeHead(200, { 'content-length': String(8 * 1024 * 1024) });
      // Sends more than a paused body holds, then waits for ever.
      res.write(Buffer.alloc(1024 * 1024, 0x63));
      req.socket.on('close', () => {
        closed = true;
      });
    });
    const res = await loopbackClient(500).request({ url: `${server.url}/blob`, stream: true, retry: false });
    const body = res.body;
    await new Promise((r) => setTimeout(r, 3_000));
    expect(closed).toBe(true);
    const err = await textOf(body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toBe(
      `GET ${server.url}/blob failed: the answer was not read for 2 s, and was dropped`,
    );
  });
});

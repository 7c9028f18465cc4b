// Defects found in a second review of layers/h1.ts (a large blob's exchange on a connection of its
// own), each pinned by a test over real sockets on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { allClosed, exchange, raw } from './h1-harness.js';

describe('h1: what a chunked body keeps in memory', () => {
  it('no piece of a chunked body keeps a read buffer many times its own size alive', async () => {
    // A chunked body that is nearly all framing: each 1-byte chunk behind a 4,000-byte extension.
    // Read in large reads (h1.ts's own MiB buffers), each piece handed on was a view of its read:
    // a reader holding 2,048 such bytes (a stream's buffer, a slow disk's queue) held every MiB
    // read to get them, 8 MiB for 2 KiB, without bound in the framing's share.
    const units = 2048;
    const ext = `;x=${'a'.repeat(4000)}`;
    const unit = Buffer.from(`1${ext}\r\nZ\r\n`, 'latin1');
    const server = await raw((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
      socket.write(Buffer.concat([...Array.from({ length: units }, () => unit), Buffer.from('0\r\n\r\n')]));
      socket.end();
    });
    const kept: Buffer[] = [];
    const rec = await exchange(
      { url: `${server.url}/blob` },
      { onResponseData: (_c, chunk) => kept.push(chunk) },
    );
    expect(rec.error).toBeUndefined();
    expect(Buffer.concat(rec.data).toString('latin1')).toBe('Z'.repeat(units));
    // What the pieces keep alive: each distinct backing store once.
    const stores = new Set(kept.map((b) => b.buffer));
    const retained = [...stores].reduce((n, ab) => n + ab.byteLength, 0);
    expect(retained).toBeLessThanOrEqual(4 * units + 64 * 1024);
    await allClosed();
  });
});

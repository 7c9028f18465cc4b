// The second review of layers/h1.ts: what it found sound, pinned by tests over real sockets.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeEcCertificate } from '../../support/certificate.js';
import { allClosed, exchange, listen, MiB, pattern, raw, sha, sleep } from './h1-harness.js';

// Cases the second review checked and found sound, kept so they stay so: reads land in h1.ts's own
// buffers (node's onread), each read a view of its buffer and the next read after it; a reader that
// keeps every chunk it was given (a stream's buffer, a queued write) and pauses and resumes the
// answer must still hold the bytes that were sent, over TLS (each record a small read) as over TCP.
describe('h1: chunks handed on stay as they were read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hubctl-h1r2-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const framing of ['length', 'close', 'chunked'] as const)
    it(`HTTPS, a ${framing}-framed body of 24 MiB, paused and resumed, every chunk kept`, async () => {
      const key = join(dir, `key-${framing}.pem`);
      const cert = join(dir, `cert-${framing}.pem`);
      makeEcCertificate(key, cert, { commonName: 'h1 test', days: 1, ipAddress: '127.0.0.1' });
      const body = pattern(24 * MiB, 13);
      const s = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
        if (framing === 'length') res.writeHead(200, { 'content-length': String(body.length) });
        else if (framing === 'close') {
          (res as unknown as { useChunkedEncodingByDefault: boolean }).useChunkedEncodingByDefault = false;
          res.writeHead(200, { connection: 'close' });
        } else res.writeHead(200, {});
        for (let i = 0; i < body.length; i += 300_000) res.write(body.subarray(i, i + 300_000));
        res.end();
      });
      const server = await listen(s, 'https');
      const kept: Buffer[] = [];
      let n = 0;
      const rec = await exchange(
        { url: `${server.url}/b`, ca: [readFileSync(cert, 'utf8')] },
        {
          onResponseData: (c, chunk) => {
            kept.push(chunk);
            if (++n % 7 === 0) {
              c.pause();
              setTimeout(() => c.resume(), 3);
            }
          },
        },
      );
      expect(rec.error).toBeUndefined();
      const h = rec.headers ?? {};
      expect([h['content-length'] !== undefined, h['transfer-encoding'] === 'chunked']).toEqual([
        framing === 'length',
        framing === 'chunked',
      ]);
      expect(sha(Buffer.concat(kept))).toBe(sha(body));
      await allClosed();
    }, 30_000);

  it('plain TCP, reads of up to a MiB, paused and resumed, every chunk kept', async () => {
    const body = pattern(40 * MiB, 11);
    const server = await raw((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n`);
      (async () => {
        for (let i = 0; i < body.length; i += 700_000) {
          if (!socket.write(body.subarray(i, i + 700_000))) await new Promise((r) => socket.once('drain', r));
          if (i % 3 === 0) await sleep(1);
        }
      })();
    });
    const kept: Buffer[] = [];
    let n = 0;
    const rec = await exchange(
      { url: `${server.url}/b` },
      {
        onResponseData: (c, chunk) => {
          kept.push(chunk);
          if (++n % 5 === 0) {
            c.pause();
            setTimeout(() => c.resume(), 2);
          }
        },
      },
    );
    expect(rec.error).toBeUndefined();
    expect(sha(Buffer.concat(kept))).toBe(sha(body));
    await allClosed();
  }, 30_000);

  it('small reads share a MiB buffer, never read into twice: a reader holding one chunk pins at most 2 MiB', async () => {
    // 16 KiB writes with a pause between them: each arrives as a read of its own.
    const piece = 16 * 1024;
    const body = pattern(6 * MiB, 5);
    const server = await raw((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n`);
      (async () => {
        for (let i = 0; i < body.length; i += piece) {
          socket.write(body.subarray(i, i + piece));
          if ((i / piece) % 8 === 0) await sleep(1);
        }
      })();
    });
    const buffers = new Set<ArrayBufferLike>();
    const hash = (await import('node:crypto')).createHash('sha256');
    let reads = 0;
    let held: Buffer | undefined;
    let pinnedMax = 0;
    const rec = await exchange(
      { url: `${server.url}/b` },
      {
        onResponseData: (_c, chunk) => {
          reads++;
          hash.update(chunk);
          buffers.add(chunk.buffer);
          // The reader holds the last chunk only: what it pins is that chunk's buffer.
          held = chunk;
          pinnedMax = Math.max(pinnedMax, held.buffer.byteLength);
        },
      },
    );
    expect(rec.error).toBeUndefined();
    expect(hash.digest('hex')).toBe(sha(body));
    // Far fewer buffers than reads: small reads were not each given (or copied into) one of their own.
    expect(reads).toBeGreaterThan(3 * buffers.size);
    expect(buffers.size).toBeLessThanOrEqual(Math.ceil(body.length / (MiB - 64 * 1024)) + 2);
    expect(pinnedMax).toBeLessThanOrEqual(2 * MiB);
    await allClosed();
  }, 30_000);
});

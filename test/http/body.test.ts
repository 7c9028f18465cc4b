import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  BodyTooLargeError,
  BodyTooSlowError,
  formatBytes,
  Relay,
  readCapped,
  tapped,
} from '../../src/http/body.js';

describe('readCapped', () => {
  it('reads a body up to the cap', async () => {
    expect((await readCapped(Readable.from([Buffer.from('ab'), Buffer.from('cd')]), 4)).toString()).toBe(
      'abcd',
    );
  });

  it('refuses a declared Content-Length over the cap before reading a byte', async () => {
    const body = new PassThrough();
    await expect(readCapped(body, 10, { contentLength: '11' })).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(body.destroyed).toBe(true);
  });

  it('stops reading at the cap when the length was not declared, and drops the stream', async () => {
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled++;
        this.push(Buffer.alloc(1024));
      },
    });
    const err = await readCapped(endless, 8 * 1024).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BodyTooLargeError);
    expect((err as Error).message).toBe('the answer is larger than 8 KiB');
    expect(pulled).toBeLessThan(64);
    expect(endless.destroyed).toBe(true);
  });

  it('truncates instead, for error bodies', async () => {
    const buf = await readCapped(Readable.from([Buffer.from('0123456789')]), 4, { truncate: true });
    expect(buf.toString()).toBe('0123');
  });

  it('a body that trickles past the overall deadline is given up, and the stream dropped', async () => {
    const body = new PassThrough();
    const timer = setInterval(() => body.write('x'), 5);
    try {
      const err = await readCapped(body, 1024, { deadlineMs: 60 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BodyTooSlowError);
      expect((err as BodyTooSlowError).code).toBe('UND_ERR_BODY_TIMEOUT');
      expect(body.destroyed).toBe(true);
    } finally {
      clearInterval(timer);
    }
  });

  it('formats sizes', () => {
    expect([formatBytes(16 * 1024 * 1024), formatBytes(64 * 1024), formatBytes(1000)]).toEqual([
      '16 MiB',
      '64 KiB',
      '1000 bytes',
    ]);
  });
});

describe('Relay', () => {
  const chunks = (n: number, size: number) => Array.from({ length: n }, (_, i) => Buffer.alloc(size, i));
  const readAll = async (r: Readable) => {
    const out: Buffer[] = [];
    for await (const c of r) out.push(c as Buffer);
    return Buffer.concat(out);
  };

  it('passes every byte on, and every tap sees every chunk in order, in one relay', async () => {
    const source = Readable.from(chunks(5, 1000));
    const seen: number[] = [];
    let counted = 0;
    const first = tapped(source, { chunk: (c) => seen.push(c[0] as number) });
    const second = tapped(first, { chunk: (c) => (counted += c.length) });
    expect(second).toBe(first);
    expect((await readAll(second)).length).toBe(5000);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(counted).toBe(5000);
  });

  it('reads nothing before its reader asks, so a tap added then misses nothing', async () => {
    let pulled = 0;
    const source = new Readable({
      read() {
        pulled++;
        this.push(pulled <= 3 ? Buffer.from('x') : null);
      },
    });
    const relay = new Relay(source);
    await new Promise((r) => setTimeout(r, 20));
    expect(pulled).toBe(0);
    let n = 0;
    relay.tap({ chunk: (c) => (n += c.length) });
    expect((await readAll(relay)).toString()).toBe('xxx');
    expect(n).toBe(3);
  });

  it('refuses a tap once it is being read, and tapped() then wraps it in a new relay', async () => {
    const relay = new Relay(Readable.from(chunks(3, 10)));
    relay.resume();
    await new Promise((r) => setImmediate(r));
    expect(() => relay.tap({ chunk: () => undefined })).toThrow(/already being read/);
    const other = tapped(relay, { chunk: () => undefined });
    expect(other).not.toBe(relay);
  });

  it('fails instead of ending when a tap says so at the end', async () => {
    const relay = tapped(Readable.from(chunks(2, 10)), {
      chunk: () => undefined,
      end: () => new Error('digest mismatch'),
    });
    await expect(readAll(relay)).rejects.toThrow('digest mismatch');
  });

  it("maps the source's errors, and destroying the relay destroys the source", async () => {
    const source = new PassThrough();
    const relay = new Relay(source, (err) => new Error(`plain: ${(err as Error).message}`));
    const reading = readAll(relay);
    source.write('a');
    source.destroy(new Error('ECONNRESET'));
    await expect(reading).rejects.toThrow('plain: ECONNRESET');

    const source2 = new PassThrough();
    const relay2 = new Relay(source2);
    relay2.destroy();
    expect(source2.destroyed).toBe(true);
  });

  it('holds back a fast source while its reader is slow (backpressure)', async () => {
    let pulled = 0;
    const source = new Readable({
      highWaterMark: 1024,
      read() {
        pulled++;
        this.push(pulled <= 1000 ? Buffer.alloc(1024) : null);
      },
    });
    const relay = new Relay(source);
    relay.once('data', () => relay.pause());
    await new Promise((r) => setTimeout(r, 50));
    // Paused after its first chunk: the source was read a little ahead, never to its end.
    expect(pulled).toBeLessThan(100);
    relay.resume();
    expect((await readAll(relay)).length).toBe(1000 * 1024 - 1024);
  });
});

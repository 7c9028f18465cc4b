import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, BodyTooSlowError, formatBytes, readCapped } from '../../src/http/body.js';

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

  it("a stream's failure mid-way is the read's failure, and a stream closed before its end fails too", async () => {
    const failing = new PassThrough();
    const reading = readCapped(failing, 1024);
    failing.write('abc');
    const cut = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    setImmediate(() => failing.destroy(cut));
    await expect(reading).rejects.toBe(cut);

    const closed = new PassThrough();
    const early = readCapped(closed, 1024);
    closed.write('abc');
    setImmediate(() => closed.destroy());
    expect(await early.catch((e: unknown) => (e as { code?: string }).code)).toBe(
      'ERR_STREAM_PREMATURE_CLOSE',
    );
    await expect(readCapped(closed, 1024)).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });

  it('gathers many chunks whole, and leaves no listener or timer behind', async () => {
    const body = new PassThrough();
    const reading = readCapped(body, 1 << 20, { deadlineMs: 10_000 });
    for (let i = 0; i < 100; i++) body.write(Buffer.alloc(1000, i));
    body.end();
    const buf = await reading;
    expect(buf.length).toBe(100_000);
    expect([buf[0], buf[999], buf[1000], buf[99_999]]).toEqual([0, 0, 1, 99]);
    expect(['readable', 'end', 'error', 'close'].map((e) => body.listenerCount(e))).toEqual([0, 0, 0, 0]);
  });

  it('formats sizes', () => {
    expect([formatBytes(16 * 1024 * 1024), formatBytes(64 * 1024), formatBytes(1000)]).toEqual([
      '16 MiB',
      '64 KiB',
      '1000 bytes',
    ]);
  });
});

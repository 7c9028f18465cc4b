// Reading an answer's body into memory, always with a cap: past it, reading stops and the
// connection is dropped, so a hostile or broken server cannot grow the process.
import { type Readable, Transform } from 'node:stream';

/**
 * JSON documents: 16 MiB. The largest one hubctl reads is a registry's tag list, which distribution
 * 2.8 answers in one unpaginated document (~50 bytes a tag: 16 MiB is ~300,000 tags); a governance
 * policy at its limit of 250 rules, or a page of 100 access tokens, is well under 1 MiB.
 */
export const MAX_JSON_BYTES = 16 * 1024 * 1024;
/** Manifests and indexes: 4 MiB, the limit the OCI distribution spec lets registries enforce. */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
/** Error bodies: only a message is read from them. */
export const MAX_ERROR_BYTES = 64 * 1024;

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the answer is larger than ${formatBytes(limit)}`);
  }
}

export class BodyTooSlowError extends Error {
  readonly code = 'UND_ERR_BODY_TIMEOUT';
  constructor(readonly ms: number) {
    super(`the answer took longer than ${Math.round(ms / 1000)} s to arrive`);
  }
}

/**
 * Reads at most `limit` bytes, within `deadlineMs` overall (gaps are undici's bodyTimeout). Over
 * the cap: BodyTooLargeError, or with `truncate` the first `limit` bytes; the rest is never read.
 *
 * Pulled with `read()` on 'readable' (the stream stays paused between pulls, as an async iterator
 * keeps it) rather than through `for await`: no promise per chunk, no end-of-stream watcher, and
 * one timer that destroys the stream at the deadline rather than a second promise raced against
 * the read (fewer functions for V8 to optimize in a short export, too).
 */
export function readCapped(
  body: Readable,
  limit: number,
  opts: { contentLength?: string; deadlineMs?: number; truncate?: boolean } = {},
): Promise<Buffer> {
  const declared = Number(opts.contentLength);
  if (!opts.truncate && Number.isFinite(declared) && declared > limit) {
    body.destroy();
    return Promise.reject(new BodyTooLargeError(limit));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (err: unknown, value?: Buffer) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      body.off('readable', pull);
      body.off('end', end);
      body.off('error', finish);
      body.off('close', closed);
      if (!body.readableEnded) body.destroy();
      if (err !== undefined) reject(err);
      else resolve(value as Buffer);
    };
    const pull = () => {
      for (let chunk = body.read() as Buffer | null; chunk !== null; chunk = body.read() as Buffer | null) {
        if (total + chunk.length > limit) {
          if (!opts.truncate) return finish(new BodyTooLargeError(limit));
          chunks.push(chunk.subarray(0, limit - total));
          total = limit;
          return finish(undefined, Buffer.concat(chunks, total));
        }
        chunks.push(chunk);
        total += chunk.length;
      }
    };
    const end = () => finish(undefined, Buffer.concat(chunks, total));
    // Closed without an end or an error of its own: destroyed from outside, or cut.
    const closed = () => finish(body.errored ?? prematureClose());
    if (body.destroyed) return finish(body.errored ?? prematureClose());
    if (opts.deadlineMs !== undefined) {
      const ms = opts.deadlineMs;
      timer = setTimeout(() => finish(new BodyTooSlowError(ms)), ms);
    }
    body.on('readable', pull);
    body.once('end', end);
    body.once('error', finish);
    body.once('close', closed);
  });
}

/** What a stream closed before its end gives, as node's own stream helpers name it. */
function prematureClose(): Error {
  return Object.assign(new Error('the answer was cut before its end'), {
    code: 'ERR_STREAM_PREMATURE_CLOSE',
  });
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/**
 * A stream that must keep moving: when fewer than `minBytes` arrive in a window of `windowMs` while
 * its reader is waiting (a stall, or a drip of a byte a second), it is destroyed with `error()`. A
 * reader that is itself slow (the buffer full) is not taken for a stall.
 */
export function watchProgress(
  body: Readable,
  opts: { windowMs: number; minBytes: number; error: () => Error },
): Readable {
  let seen = 0;
  const out = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      cb(null, chunk);
    },
  });
  const timer = setInterval(() => {
    const readerWaiting = out.readableLength < out.readableHighWaterMark;
    if (seen < opts.minBytes && readerWaiting) {
      const err = opts.error();
      out.destroy(err);
      body.destroy(err);
    }
    seen = 0;
  }, opts.windowMs);
  const stop = () => clearInterval(timer);
  out.once('close', () => {
    stop();
    if (!body.destroyed) body.destroy();
  });
  out.once('end', stop);
  body.once('error', (err) => out.destroy(err));
  body.once('close', () => {
    if (!body.readableEnded && !out.destroyed) out.destroy(opts.error());
  });
  body.pipe(out);
  return out;
}

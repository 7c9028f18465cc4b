// Reading an answer's body into memory, always with a cap: past it, reading stops and the
// connection is dropped, so a hostile or broken server cannot grow the process.
import { Readable, Transform } from 'node:stream';

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
 * A body given up while it was still open: too slow on the whole (a drip), or never read. Its
 * message is the plain reason; the HTTP layer names the request.
 */
export class BodyStalledError extends Error {
  readonly code = 'UND_ERR_BODY_TIMEOUT';
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
      if (!body.readableEnded) {
        // Dropped: undici's body then emits its abort as an error, which nobody is left to hear.
        body.on('error', ignore);
        body.destroy();
      }
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

/** A listener for an error nobody is left to hear (a body dropped after its read was settled). */
export function ignore(): void {}

/** What a stream closed before its end gives, as node's own stream helpers name it. */
export function prematureClose(): Error {
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

/** What a tap sees: every chunk as it passes, then, at the end, a chance to fail the stream. */
export interface Tap {
  /**
   * Sees a chunk before it is passed on; an Error it returns fails the stream there, that chunk
   * not passed on (a blob past its size: no later byte can make it right).
   */
  chunk(chunk: Buffer): unknown;
  /** Called once the source has ended, before the relay ends: an Error fails the relay instead. */
  end?(): Error | undefined;
}

/**
 * The taps on one body, and the chunk held back for their verdict when one of them judges the end:
 * what a Relay and a blob's dispatched body (layers/wire.ts) each pass their chunks through.
 */
export class Taps {
  private readonly list: Tap[] = [];
  /** Whether a tap judges the end: then the last chunk waits for its verdict. */
  private judged = false;
  private last: Buffer | undefined;

  add(tap: Tap): void {
    this.list.push(tap);
    if (tap.end) this.judged = true;
  }

  /**
   * `chunk`, seen by every tap: what to pass on now (the chunk before it when the end is judged,
   * undefined when nothing is due yet), or the Error a tap refused it with.
   */
  through(chunk: Buffer): Buffer | Error | undefined {
    const list = this.list;
    for (let i = 0; i < list.length; i++) {
      const err = list[i]?.chunk(chunk);
      if (err instanceof Error) return err;
    }
    if (!this.judged) return chunk;
    const out = this.last;
    this.last = chunk;
    return out;
  }

  /** At the source's end: a tap's Error, else the chunk still held back (undefined for none). */
  end(): Buffer | Error | undefined {
    for (const t of this.list) {
      const err = t.end?.();
      if (err) return err;
    }
    const last = this.last;
    this.last = undefined;
    return last;
  }
}

/**
 * A body passed on in one hop: a Readable over the source's public events (`data` pushed on, with
 * backpressure: pause when full, resume when read), whose taps see each chunk on its way (a hash, a
 * byte count) and may fail it at the end (a digest that does not match). Taps added to a relay
 * share its one hop: a blob read from one registry and sent to another crosses one stream between
 * undici's two, not one per purpose. Its source's errors are mapped by `mapError` (plain sentences);
 * destroying the relay destroys the source. Nothing is read before the relay's reader asks, so a
 * tap added before then sees every byte.
 */
export class Relay extends Readable implements Tappable {
  private readonly taps = new Taps();
  /** Whether the relay's reader has asked for bytes (the source is being read). */
  started = false;
  private pending: Error | undefined;

  constructor(
    private readonly source: Readable,
    mapError: (err: unknown) => Error = (err) => err as Error,
  ) {
    super();
    source.once('end', () => {
      const last = this.taps.end();
      if (last instanceof Error) return void this.destroy(last);
      if (last !== undefined) this.push(last);
      this.push(null);
    });
    // A failure before the first read (a reset while an upload's POST is on its way) waits for
    // the reader: emitted now, nobody would hear it.
    source.once('error', (err) => {
      if (this.started) this.destroy(mapError(err));
      else this.pending = mapError(err);
    });
    // A source that failed before the relay was made has said so already, to nobody.
    if (source.errored) this.pending = mapError(source.errored);
    else if (source.destroyed && !source.readableEnded) this.pending = mapError(prematureClose());
  }

  /**
   * Adds a tap; only before the relay is first read (a tap added later would miss bytes). When a
   * tap judges the end (a digest), the last chunk is held back until it has: a body that fails its
   * check never reaches its reader whole (an upload it feeds stays short of its Content-Length).
   */
  tap(tap: Tap): this {
    if (this.started) throw new Error('Relay.tap: the relay is already being read');
    this.taps.add(tap);
    return this;
  }

  override _read(): void {
    if (!this.started) {
      this.started = true;
      if (this.pending) {
        this.destroy(this.pending);
        return;
      }
      const { taps, source } = this;
      source.on('data', (chunk: Buffer) => {
        const out = taps.through(chunk);
        if (out instanceof Error) return void this.destroy(out);
        if (out !== undefined && !this.push(out)) source.pause();
      });
    }
    this.source.resume();
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.source.destroy();
    cb(err);
  }
}

/**
 * A body that takes taps itself: a Relay, or a blob's body as the HTTP layer hands it over from
 * undici's dispatch (layers/wire.ts), whose taps see each chunk in the handler that receives it.
 */
export interface Tappable extends Readable {
  /** Whether the body's reader has asked for bytes: a tap added then would miss some. */
  readonly started: boolean;
  tap(tap: Tap): this;
}

function isTappable(body: Readable): body is Tappable {
  return typeof (body as Partial<Tappable>).tap === 'function' && 'started' in body;
}

/** `body` with `tap` on it: the same body when it takes taps and is not yet read, else a relay over it. */
export function tapped(body: Readable, tap: Tap): Readable {
  const target: Tappable = isTappable(body) && !body.started ? body : new Relay(body);
  return target.tap(tap);
}

// The innermost layer: one request on the wire through an undici dispatcher (direct, or through the
// proxy the environment names; see ../dispatcher.ts), its answer's headers flattened. Nothing is
// retried, followed or checked here.
//
// A GET marked `collect` (the audit log's pages) goes through undici's public `dispatch` with a
// handler of its own instead: its answer's body is a CollectedBody, whose chunks are copied into
// one buffer as they arrive (`collect()`), with no stream, async iterator or timer race in between.
// A GET marked `stream` (a blob) goes the same way: its body is the one stream between undici's
// parser and the blob's reader, and takes the reader's taps (a hash, a count) itself, each chunk
// seen in the handler that receives it (no undici body stream, no relay in between).
//
// A large blob's request on a direct route (ownConnection: its GET, or an upload streamed with its
// length) goes to h1.ts's exchange instead of undici, through the same handler and CollectedBody.
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import {
  BodyStalledError,
  BodyTooLargeError,
  BodyTooSlowError,
  ignore,
  prematureClose,
  type Tap,
  type Tappable,
  Taps,
} from '../body.js';
import type { DispatcherFor } from '../dispatcher.js';
import type { Answer, AnswerBody, Outgoing, Send } from './exchange.js';
import { exchangeOnce, isStreamBody, OWN_CONNECTION_MIN } from './h1.js';

/** Where dispatchCollected sends its request: undici, or a connection of its own (h1.ts). */
type Dispatch = (opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => void;

export function wire(route: DispatcherFor): Send {
  return async (req) => {
    const { dispatcher, proxy, direct } = route(req.url);
    if (direct && ownConnection(req)) {
      return dispatchCollected(
        (_opts, handler) =>
          exchangeOnce(
            {
              url: req.url,
              method: req.method,
              headers: req.headers,
              body: req.body ?? undefined,
              headersTimeout: req.timeoutMs,
              bodyTimeout: req.timeoutMs,
              ca: direct.ca,
            },
            handler,
          ),
        undefined,
        req,
      );
    }
    if ((req.collect || req.stream) && req.method === 'GET') {
      return dispatchCollected((opts, handler) => dispatcher.dispatch(opts, handler), proxy, req);
    }
    const res = await dispatcher
      .request({
        origin: req.url.origin,
        path: `${req.url.pathname}${req.url.search}`,
        method: req.method,
        headers: req.headers,
        // undici streams any async iterable; its typings only name Readable.
        body: (req.body ?? undefined) as string | Uint8Array | Readable | undefined,
        signal: req.signal,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
        // undici closes the connection after every HEAD unless told otherwise (for servers that
        // send a body with it, undici#258); registries do not, and a sync sends hundreds of HEADs.
        ...(req.method === 'HEAD' ? { reset: false } : {}),
      })
      .catch((err: unknown) => {
        // Says which proxy the failure went through: a corporate network's usual suspect.
        throw proxy ? Object.assign(err as object, { proxy }) : err;
      });
    return {
      status: res.statusCode,
      headers: flattenHeaders(res.headers),
      url: req.url,
      body: res.body as AnswerBody,
    };
  };
}

/**
 * A large blob's bytes, when no proxy stands between (h1.ts): its GET, or an upload streamed with
 * its length. Smaller ones stay on undici's pooled connections: a connection of their own (a TLS
 * handshake, on a real registry) would cost more than it saves.
 */
function ownConnection(req: Outgoing): boolean {
  if (req.stream && req.method === 'GET') return (req.expectedSize ?? 0) >= OWN_CONNECTION_MIN;
  return isStreamBody(req.body) && Number(req.headers['content-length'] ?? 0) >= OWN_CONNECTION_MIN;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/**
 * One GET through `dispatcher.dispatch`, with the options `request()` above gets. It resolves at the
 * answer's headers, as `request()` does, and fails before them with the same undici errors.
 */
function dispatchCollected(dispatch: Dispatch, proxy: unknown, req: Outgoing): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const signal = req.signal;
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    let body: CollectedBody | undefined;
    let controller: Dispatcher.DispatchController | undefined;
    const onAbort = () => {
      const reason = abortReason(signal as AbortSignal);
      if (body) body.cut(reason);
      else controller?.abort(reason);
    };
    const over = signal ? whenAborted(signal, onAbort) : () => {};
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (signal?.aborted) c.abort(abortReason(signal));
      },
      onResponseStart(c, statusCode, headers) {
        if (statusCode < 200) return; // informational: the real answer follows
        const flat = flattenHeaders(headers as Record<string, string | string[] | undefined>);
        const length = Number(flat['content-length']);
        body = new CollectedBody(
          c,
          Number.isFinite(length) ? length : undefined,
          over,
          req.stream === true,
          req.timeoutMs,
        );
        resolve({ status: statusCode, headers: flat, url: req.url, body });
      },
      onResponseData(_c, chunk) {
        body?.data(chunk);
      },
      onResponseEnd() {
        body?.end();
      },
      onResponseError(_c, err) {
        if (body) {
          body.fail(err);
          return;
        }
        over();
        // Says which proxy the failure went through: a corporate network's usual suspect.
        reject(proxy ? Object.assign(err, { proxy }) : err);
      },
    };
    dispatch(
      {
        origin: req.url.origin,
        path: `${req.url.pathname}${req.url.search}`,
        method: req.method,
        headers: req.headers,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
      },
      handler,
    );
  });
}

/** Per signal, what each request in flight does when it aborts (see whenAborted). */
const inFlight = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Runs `onAbort` when `signal` aborts, until the returned function is called. One listener per
 * signal, not one per request: the command's signal outlives thousands of page reads, and adding
 * and removing a listener on node's EventTarget each time was a measurable part of one (with
 * their TurboFan compiles).
 */
function whenAborted(signal: AbortSignal, onAbort: () => void): () => void {
  let set = inFlight.get(signal);
  if (set === undefined) {
    const requests = new Set<() => void>();
    signal.addEventListener(
      'abort',
      () => {
        const now = [...requests];
        requests.clear();
        for (const cut of now) cut();
      },
      { once: true },
    );
    inFlight.set(signal, requests);
    set = requests;
  }
  const requests = set;
  requests.add(onAbort);
  return () => {
    requests.delete(onAbort);
  };
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the request was aborted');
}

/** What `collect()` does with each chunk, the end, or the failure. */
interface Sink {
  data(chunk: Buffer): void;
  end(): void;
  fail(err: Error): void;
}

/** dump(): a rest up to this is read and discarded, keeping the connection (as undici's); more drops it. */
const DUMP_LIMIT = 128 * 1024;
/** Bytes of a page held for a reader that has not come yet; past this the request is paused until it does. */
const HELD_LIMIT = 256 * 1024;

/**
 * A blob's body must keep moving: at least this many bytes in every window of PROGRESS_GAPS gaps
 * (undici's bodyTimeout, `req.timeoutMs`, only bounds each gap: a byte every 29 s passes it) while
 * its reader waits for them. 1 KiB in 60 s by default (HUBCTL_HTTP_TIMEOUT 30 s).
 */
export const PROGRESS_MIN_BYTES = 1024;
export const PROGRESS_GAPS = 2;
/**
 * undici's gap timer ticks about once a second: a window shorter than this (a timeout under a
 * second, in tests) would take a plain stall for a drip, or an unread body's stall for neglect.
 */
const MIN_WINDOW_MS = 2000;

/**
 * A body as the handler hands it over. Read by `collect()`, each chunk is copied on arrival into
 * the page's one buffer (of the announced length, or grown by doubling up to the cap) and let go
 * at once: chunks held until the page's end lived through a scavenge and were promoted. Read any
 * other way (a blob, an error body, `dump()`), it is a plain Readable, paused when its buffer is
 * full. What arrives before the reader comes (the rest of the socket read that brought the
 * headers) is held in a plain list until it does, not pushed into the Readable: pushed and read
 * back out, a page's chunks cost more than the copy (its buffer list, 'readable' ticks, a
 * concatenation). A blob's body (`stream`) takes taps as a Relay does (../body.ts): nothing is
 * passed on before its reader asks (what arrives before is held, untapped, and the answer paused),
 * so a tap added until then sees every byte; any other takes no tap (a tap on it gets a Relay of
 * its own), and its answer is paused only when what it holds passes HELD_LIMIT. When a tap judges
 * the end (a digest), the last chunk is held back until it has: a body that fails its check never
 * reaches its reader whole (an upload it feeds stays short of its Content-Length, and is never
 * complete).
 */
class CollectedBody extends Readable implements Tappable {
  private sink: Sink | undefined;
  private state: 'open' | 'ended' | 'failed' = 'open';
  private readonly taps = new Taps();
  /** Chunks that arrived before the first read (or collect()), and their bytes. */
  private held: Buffer[] | undefined;
  private heldBytes = 0;
  /** The Readable has been read: chunks are pushed to it as they arrive. */
  private reading = false;
  private mapError: (err: Error) => Error = (err) => err;
  /** A failure before the first read (a reset, a stall), kept for the reader: nobody hears it yet. */
  private pending: Error | undefined;
  started = false;
  /** A blob's body: bytes that arrived since the watch's last tick (see `watch`). */
  private seen = 0;
  /** Whether the reader held the body back (a full buffer) at any time since the last tick. */
  private slowed = false;
  private watcher: NodeJS.Timeout | undefined;

  constructor(
    private readonly controller: Dispatcher.DispatchController,
    private readonly length: number | undefined,
    /** Called once when the answer is over (ended, failed or dropped). */
    private readonly over: () => void,
    /** A blob's body (`stream`), which takes taps and must keep moving; any other takes none. */
    private readonly streamed: boolean,
    /** The request's gap timeout (undici's bodyTimeout), which sets a blob's progress window. */
    gapMs: number,
  ) {
    super();
    this.started = !streamed;
    if (streamed) {
      const windowMs = Math.max(gapMs * PROGRESS_GAPS, MIN_WINDOW_MS);
      this.watcher = setInterval(() => this.watch(windowMs), windowMs);
      this.watcher.unref();
    }
  }

  /**
   * Once a window, on one coarse timer (bytes are counted in `data`, nothing more per chunk):
   * a body read but moving at less than PROGRESS_MIN_BYTES a window while its reader waits (a
   * drip) fails; one its reader held back (a slow destination) is not judged for that window. A
   * body never read for a whole window is dropped, its connection closed, the failure kept for
   * whoever reads it later: an opener that neither reads nor destroys it does not hold a socket
   * (and the process) open. A legitimate wait before the first read (an upload's POST on its way)
   * is bounded by the request timeout, half the window.
   */
  private watch(windowMs: number): void {
    if (this.state !== 'open' || this.sink) return;
    if (!this.started) {
      const err = new BodyStalledError(`the answer was not read for ${windowMs / 1000} s, and was dropped`);
      this.fail(err);
      this.controller.abort(err);
      return;
    }
    const seen = this.seen;
    this.seen = 0;
    const heldBack = this.slowed || this.controller.paused;
    this.slowed = this.controller.paused;
    if (heldBack || seen >= PROGRESS_MIN_BYTES) return;
    this.destroy(
      this.mapError(
        new BodyStalledError(
          `less than ${PROGRESS_MIN_BYTES / 1024} KiB arrived in ${windowMs / 1000} s (the answer is too slow)`,
        ),
      ),
    );
  }

  private unwatch(): void {
    if (this.watcher) clearInterval(this.watcher);
    this.watcher = undefined;
  }

  /** Adds a tap; only to a blob's body not yet read (a tap added later would miss bytes). */
  tap(tap: Tap): this {
    if (this.started || this.sink) throw new Error('CollectedBody.tap: the body is already being read');
    this.taps.add(tap);
    return this;
  }

  /** The body itself, its failures (not its taps') mapped by `map`: no relay for plain errors. */
  plain(map: (err: Error) => Error): this {
    this.mapError = map;
    return this;
  }

  data(chunk: Buffer): void {
    if (this.state !== 'open') return;
    this.seen += chunk.length;
    if (this.sink) this.sink.data(chunk);
    else if (this.reading) this.pass(chunk);
    else {
      if (this.held) this.held.push(chunk);
      else this.held = [chunk];
      this.heldBytes += chunk.length;
      if (this.streamed || this.heldBytes > HELD_LIMIT) {
        this.slowed = true;
        this.controller.pause();
      }
    }
  }

  /** A chunk on its way to the reader: through the taps, then pushed (or held back, see above). */
  private pass(chunk: Buffer): void {
    if (this.destroyed) return;
    const out = this.taps.through(chunk);
    if (out instanceof Error) return void this.destroy(out);
    if (out !== undefined && !this.push(out)) {
      this.slowed = true;
      this.controller.pause();
    }
  }

  end(): void {
    if (this.state !== 'open') return;
    this.state = 'ended';
    this.unwatch();
    this.over();
    const sink = this.sink;
    this.sink = undefined;
    if (sink) sink.end();
    else if (this.reading) this.finishRead();
  }

  /** The end, once read to it: the taps' verdicts, then what was held back, then the end. */
  private finishRead(): void {
    const last = this.taps.end();
    if (last instanceof Error) return void this.destroy(last);
    if (last !== undefined) this.push(last);
    this.push(null);
  }

  fail(err: Error): void {
    if (this.state !== 'open') return;
    this.state = 'failed';
    this.unwatch();
    this.over();
    this.takeHeld();
    const sink = this.sink;
    this.sink = undefined;
    if (sink) sink.fail(err);
    // Nobody reads it yet (nor listens for its error): the failure waits for whoever comes.
    else if (!this.reading) this.pending = err;
    else this.destroy(this.mapError(err));
  }

  /** Ends the request with `err`, heard by a reader if there is one (else nobody is left to). */
  cut(err: Error): void {
    if (this.listenerCount('error') === 0) this.on('error', ignore);
    this.destroy(this.mapError(err));
  }

  override _read(): void {
    if (!this.reading) {
      this.reading = true;
      this.started = true;
      if (this.pending) {
        // What arrived before is dropped with it: a body that failed is never passed on in part.
        this.takeHeld();
        this.destroy(this.mapError(this.pending));
        return;
      }
      const held = this.takeHeld();
      if (held) for (const chunk of held) this.pass(chunk);
      if (this.destroyed) return;
      if (this.state === 'ended') {
        this.finishRead();
        return;
      }
    }
    if (this.controller.paused) this.controller.resume();
  }

  /** What is held, taken out (and let go here). */
  private takeHeld(): Buffer[] | undefined {
    const held = this.held;
    this.held = undefined;
    this.heldBytes = 0;
    return held;
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.unwatch();
    this.takeHeld();
    if (this.state === 'open') {
      const reason = err ?? new Error('the answer was not read to its end');
      this.state = 'failed';
      this.over();
      this.sink?.fail(reason);
      this.sink = undefined;
      this.controller.abort(reason);
    }
    cb(err);
  }

  dump(): Promise<void> {
    if (
      this.state !== 'open' ||
      (this.length ?? 0) > DUMP_LIMIT ||
      this.readableLength + this.heldBytes > DUMP_LIMIT
    ) {
      if (!this.readableEnded) this.destroy();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let seen = 0;
      this.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > DUMP_LIMIT) this.destroy();
      });
      this.once('end', resolve);
      this.once('close', resolve);
      this.once('error', () => resolve());
    });
  }

  collect(limit: number, deadlineMs: number): Promise<Buffer> {
    if (this.length !== undefined && this.length > limit) {
      this.destroy();
      return Promise.reject(new BodyTooLargeError(limit));
    }
    return new Promise<Buffer>((resolve, reject) => {
      let buf = Buffer.allocUnsafe(Math.min(limit, this.length ?? 64 * 1024));
      let total = 0;
      let settled = false;
      const finish = (err: Error | undefined) => {
        if (settled) return;
        settled = true;
        onTime();
        if (err) reject(err);
        else resolve(total === buf.length ? buf : buf.subarray(0, total));
      };
      const sink: Sink = {
        data: (chunk) => {
          if (total + chunk.length > buf.length) {
            if (total + chunk.length > limit) {
              finish(new BodyTooLargeError(limit));
              this.destroy();
              return;
            }
            const grown = Buffer.allocUnsafe(Math.min(limit, Math.max(total + chunk.length, 2 * buf.length)));
            buf.copy(grown, 0, 0, total);
            buf = grown;
          }
          total += chunk.copy(buf, total);
        },
        end: () => finish(undefined),
        fail: (err) => finish(err),
      };
      const onTime = deadline(deadlineMs, () => {
        const err = new BodyTooSlowError(deadlineMs);
        finish(err);
        this.cut(err);
      });
      // What arrived before: held (or in the Readable, if it was read), or the answer already over.
      const held = this.takeHeld();
      if (held)
        for (const chunk of held) {
          sink.data(chunk);
          if (settled) return;
        }
      if (this.reading)
        for (let chunk = this.read() as Buffer | null; chunk !== null; chunk = this.read() as Buffer | null) {
          sink.data(chunk);
          if (settled) return;
        }
      if (this.state === 'ended') return finish(undefined);
      if (this.state === 'failed' || this.destroyed)
        return finish(this.errored ?? this.pending ?? prematureClose());
      this.sink = sink;
      if (this.controller.paused) this.controller.resume();
    });
  }
}

/** The bodies being collected, each with the moment (performance.now()) it must be whole by. */
const deadlines = new Map<() => void, number>();
/** One timer for all of them, for the earliest; unref'd while none is being collected. */
let deadlineTimer: NodeJS.Timeout | undefined;
let deadlineTimerAt = Number.POSITIVE_INFINITY;

/**
 * Calls `late` once `ms` have passed, unless the function returned is called first. A timer a
 * body (a page) was set and cleared for each: node's timer list for that duration was made,
 * scheduled and dropped again each time, ~1% of an export's CPU. One timer serves them all, set
 * for the earliest deadline; it keeps the process alive only while a body is being collected.
 */
function deadline(ms: number, late: () => void): () => void {
  const at = performance.now() + ms;
  deadlines.set(late, at);
  if (at < deadlineTimerAt) armDeadlines(at);
  else if (deadlines.size === 1) deadlineTimer?.ref();
  return () => {
    if (deadlines.delete(late) && deadlines.size === 0) deadlineTimer?.unref();
  };
}

function armDeadlines(at: number): void {
  if (deadlineTimer !== undefined) clearTimeout(deadlineTimer);
  deadlineTimerAt = at;
  deadlineTimer = setTimeout(lateOnes, Math.max(1, Math.ceil(at - performance.now())));
}

function lateOnes(): void {
  deadlineTimer = undefined;
  deadlineTimerAt = Number.POSITIVE_INFINITY;
  // A timer may fire a little before the moment it was set for (it counts whole milliseconds).
  const now = performance.now() + 1;
  let next = Number.POSITIVE_INFINITY;
  const late: (() => void)[] = [];
  for (const [call, at] of deadlines) {
    if (at <= now) late.push(call);
    else if (at < next) next = at;
  }
  for (const call of late) deadlines.delete(call);
  if (next !== Number.POSITIVE_INFINITY) armDeadlines(next);
  for (const call of late) call();
}

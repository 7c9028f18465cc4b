// A blob's bytes on the wire: one HTTP/1.1 exchange on a connection of its own, for the requests
// that move a blob (a GET streamed on, an upload whose body is a stream of known length) when no
// proxy stands between. wire.ts hands them here instead of to undici, through the same handler
// (undici's DispatchHandler: the answer's start, each chunk, the end or the failure) and with the
// same error codes, so every layer above reads the answer as it reads undici's.
//
// Why not undici: each 64 KiB read went through undici's parser (copied into its WebAssembly
// memory and out) and its stream plumbing; here a read lands in a MiB buffer of our own
// (ReadBuffers) and is handed on as it came. A copy between registries took ~0.30 s of CPU
// instead of ~0.46 s (README, "Copy's CPU, fourth pass").
// What undici offers beyond one exchange (pooling, pipelining, proxies, HTTP/2) a blob transfer
// does not need: the connection is closed once the answer is whole.
import { isIP, connect as netConnect, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import type { Dispatcher } from 'undici';
import { ignore } from '../body.js';
import {
  ChunkedDecoder,
  FIELD_NAME,
  FIELD_VALUE,
  type Framing,
  framingOf,
  parseResponseHead,
  type ResponseHead,
} from '../h1-parse.js';

/**
 * The smallest blob moved on a connection of its own. ~1 ms of CPU a MiB is saved; a new
 * connection costs a TCP (and on a real registry a TLS) handshake, a few ms.
 */
export const OWN_CONNECTION_MIN = 4 * 1024 * 1024;

/** undici's default for a connection to be made. */
const CONNECT_TIMEOUT_MS = 10_000;

/** What one exchange needs: dispatch()'s options, and the TLS trust for an https:// origin. */
export interface H1Options {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | Readable | AsyncIterable<Uint8Array> | undefined;
  /** For the answer's head, after the request is sent (undici's headersTimeout). */
  headersTimeout: number;
  /** For each gap in the answer's body, and in the request's while it is sent (bodyTimeout). */
  bodyTimeout: number;
  /** Certificates to trust instead of node's store (see dispatcher.ts); undefined: node's. */
  ca?: string[];
}

/** A failure with the code undici gives the same failure, which the layers above read. */
export class WireError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Fields this exchange writes itself. */
const OWN_FIELDS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
]);

/** Whether `body` is sent as a stream: it must then come with its length (see wire.ts). */
export function isStreamBody(body: unknown): body is Readable | AsyncIterable<Uint8Array> {
  return (
    typeof body === 'object' &&
    body !== null &&
    !(body instanceof Uint8Array) &&
    typeof (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] === 'function'
  );
}

/**
 * Sends one request on a new connection and feeds its answer to `handler`, as undici's dispatch
 * does: onRequestStart at once, then onResponseStart, onResponseData, and onResponseEnd or
 * onResponseError (exactly one of them, once).
 */
export function exchangeOnce(opts: H1Options, handler: Dispatcher.DispatchHandler): void {
  new Exchange(opts, handler).start();
}

/** How much one socket read may bring (node's own reads take at most 64 KiB). */
const READ_BUFFER = 1024 * 1024;
/** A read gets at least this much room (node's own read size); less left, a new buffer. */
const MIN_READ_ROOM = 64 * 1024;

/**
 * The buffers a socket reads into (node's `onread`): a read of a blob on loopback or a fast link
 * fills a whole MiB, one event where node's own buffers made sixteen — sixteen times fewer reads,
 * hash updates and upload writes, about a third of what a copy's bytes cost (README, "Copy's CPU,
 * fourth pass"). Each read is handed on as a view of its buffer, never copied, and the next read
 * lands after it in the same buffer, which is never read into twice: small reads (a TLS record of
 * 16 KiB, a slow link) share one MiB, and a new one is taken when less than MIN_READ_ROOM is left.
 * Readers hold what they are handed in order (a stream's buffer, a write queue, a held-back last
 * chunk), so what they pin is what they hold and at most two MiB around it.
 */
class ReadBuffers {
  /** The part of the current buffer not yet read into. */
  private rest: Buffer | undefined;

  readonly next = (): Buffer => {
    if (this.rest === undefined || this.rest.length < MIN_READ_ROOM)
      this.rest = Buffer.allocUnsafeSlow(READ_BUFFER);
    return this.rest;
  };

  /** The `n` bytes just read into `buf`, as a Buffer nobody will read into again. */
  take(n: number, buf: Uint8Array): Buffer {
    const rest = this.rest;
    this.rest = rest !== undefined && buf === rest ? rest.subarray(n) : undefined;
    return Buffer.from(buf.buffer, buf.byteOffset, n);
  }
}

/**
 * A piece of a chunked body as a Buffer that keeps no more than about four times its bytes alive:
 * the decoder's pieces are views of their read, and a body nearly all framing (1-byte chunks behind
 * long extensions) made each of a few bytes hold a whole read's MiB for as long as a reader (a
 * stream's buffer, a slow disk's queue, all counted by length) held it. A small piece is copied into
 * a buffer of its own size (not node's shared pool, whose 8 KiB it would hold in turn).
 */
function ownBytes(chunk: Buffer): Buffer {
  if (chunk.length * 4 >= chunk.buffer.byteLength) return chunk;
  const copy = Buffer.allocUnsafeSlow(chunk.length);
  chunk.copy(copy);
  return copy;
}

type Phase = 'connecting' | 'sending' | 'head' | 'body' | 'done';

class Exchange implements Dispatcher.DispatchController {
  private phase: Phase = 'connecting';
  private socket: Socket | undefined;
  private failure: Error | null = null;
  private isPaused = false;
  private timer: NodeJS.Timeout | undefined;
  /** The head's bytes so far (it may come in pieces). */
  private headBuf: Buffer | undefined;
  private framing: Framing = { kind: 'none' };
  private left = 0;
  private chunked: ChunkedDecoder | undefined;
  /** Stops feeding the request's body (unhooks its listeners). */
  private stopSending: (() => void) | undefined;
  private bodyStream: Readable | undefined;

  constructor(
    private readonly opts: H1Options,
    private readonly handler: Dispatcher.DispatchHandler,
  ) {}

  get aborted(): boolean {
    return this.failure !== null;
  }
  get paused(): boolean {
    return this.isPaused;
  }
  get reason(): Error | null {
    return this.failure;
  }

  start(): void {
    this.handler.onRequestStart?.(this, {});
    if (this.phase === 'done') return;
    let head: string;
    let length: number | undefined;
    try {
      ({ head, length } = this.requestHead());
    } catch (err) {
      this.fail(err as Error);
      return;
    }
    const { url, ca } = this.opts;
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const https = url.protocol === 'https:';
    const port = Number(url.port) || (https ? 443 : 80);
    const reads = new ReadBuffers();
    // Reads land in ReadBuffers' buffers and come here, not as 'data' events; false pauses reading.
    const onread = {
      buffer: reads.next,
      callback: (n: number, buf: Uint8Array): boolean => {
        // A handler that throws (a tap, a progress line) ends the request with its error, as
        // undici's parser does, never as an uncaught exception from the socket's read.
        try {
          this.received(reads.take(n, buf));
        } catch (err) {
          this.fail(err as Error);
        }
        return !this.isPaused;
      },
    };
    // node's TLS takes `onread` as net does (its docs say so); its typings omit it.
    const tlsOptions = {
      host,
      port,
      // No server name for an address (RFC 6066); node then checks the certificate against it.
      ...(isIP(host) ? {} : { servername: host }),
      ...(ca ? { ca } : {}),
      ALPNProtocols: ['http/1.1'],
      onread,
    };
    const socket = https ? tlsConnect(tlsOptions) : netConnect({ host, port, onread });
    this.socket = socket;
    socket.setNoDelay(true);
    this.arm(CONNECT_TIMEOUT_MS, () => new WireError('Connect Timeout Error', 'UND_ERR_CONNECT_TIMEOUT'));
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.closed());
    socket.on('end', () => this.closed());
    socket.once(https ? 'secureConnect' : 'connect', () => {
      if (this.phase !== 'connecting') return;
      this.phase = 'sending';
      socket.write(head);
      this.send(length);
    });
  }

  /** The request line and fields; the body's length, which a stream must declare. */
  private requestHead(): { head: string; length: number | undefined } {
    const { url, method, headers, body } = this.opts;
    // As undici refuses it: a redirect to ftp:// or file:// is no plain-HTTP request to port 80.
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new WireError(
        'Invalid URL protocol: the URL must start with `http:` or `https:`.',
        'UND_ERR_INVALID_ARG',
      );
    }
    let head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
    for (const [name, value] of Object.entries(headers)) {
      if (!FIELD_NAME.test(name) || !FIELD_VALUE.test(value))
        throw new WireError(`invalid header field ${JSON.stringify(name)}`, 'UND_ERR_INVALID_ARG');
      if (!OWN_FIELDS.has(name.toLowerCase())) head += `${name}: ${value}\r\n`;
    }
    let length: number | undefined;
    if (isStreamBody(body)) {
      const declared = headers['content-length'];
      if (declared === undefined || !/^\d{1,15}$/.test(declared)) {
        throw new WireError('a streamed body needs its Content-Length', 'UND_ERR_INVALID_ARG');
      }
      length = Number(declared);
    } else if (body !== undefined) {
      length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    }
    if (length !== undefined) head += `content-length: ${length}\r\n`;
    // No `connection: close`: a server (or a forwarder in front of it) that closes after the answer
    // may cut what it has not flushed yet; the connection is closed here once the answer is whole.
    return { head: `${head}\r\n`, length };
  }

  /** Writes the body (if any), then waits for the answer's head. */
  private send(length: number | undefined): void {
    const socket = this.socket as Socket;
    const body = this.opts.body;
    const sent = () => {
      this.stopSending = undefined;
      if (this.phase !== 'sending') return;
      this.phase = 'head';
      this.arm(
        this.opts.headersTimeout,
        () => new WireError('Headers Timeout Error', 'UND_ERR_HEADERS_TIMEOUT'),
        true,
      );
    };
    if (!isStreamBody(body)) {
      if (body !== undefined && length) socket.write(body);
      sent();
      return;
    }
    // While the body is sent, a stalled socket (the server reads nothing) is a body timeout. The
    // wait starts over when a chunk is handed on or the socket drains, never when bytes come in: a
    // server that reads nothing but trickles 1xx heads (or a head byte by byte) kept it alive.
    // Waiting for the socket to drain, the server stopped reading: undici's headers timeout ("timed
    // out"), not a body timeout ("the answer stalled"); else the body's own source brought nothing.
    const ms = this.opts.bodyTimeout;
    this.arm(
      ms,
      () =>
        socket.writableNeedDrain
          ? new WireError('Headers Timeout Error', 'UND_ERR_HEADERS_TIMEOUT')
          : new Error(`the request's body brought nothing for ${ms / 1000} s`),
      true,
    );
    const progress = () => this.timer?.refresh();
    let count = 0;
    // undici's code for either mismatch (the sentences are ours: they say which).
    const mismatch = (message: string) => new WireError(message, 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH');
    const tooLong = () => mismatch(`the request's body is longer than its Content-Length (${length})`);
    const tooShort = () => mismatch(`the request's body ended at ${count} of its ${length} bytes`);
    if (typeof (body as Readable).on === 'function' && typeof (body as Readable).pause === 'function') {
      const stream = body as Readable;
      this.bodyStream = stream;
      // As undici does: the body's failure is this request's (onError), and a failure this request
      // ends it with (fail) is heard here, never an uncaught 'error' of a stream nobody else reads.
      stream.on('error', ignore);
      const onDrain = () => {
        progress();
        stream.resume();
      };
      const onData = (chunk: Buffer) => {
        count += chunk.length;
        if (count > (length as number)) return void this.fail(tooLong());
        progress();
        if (!socket.write(chunk)) {
          stream.pause();
          socket.once('drain', onDrain);
        }
      };
      const onEnd = () => {
        unhook();
        if (count !== length) this.fail(tooShort());
        else sent();
      };
      const onError = (err: Error) => {
        unhook();
        this.fail(err);
      };
      const closedEarly = (s: Readable) =>
        s.errored ?? new WireError("the request's body was closed before its end", 'UND_ERR_ABORTED');
      // Closed before its end with no error of its own (destroyed by its owner): as undici does, the
      // request fails at once, not after a body timeout blamed on the server. A stream's 'error'
      // comes before its 'close'; the next microtask sees it if this one did not.
      const onClose = () =>
        queueMicrotask(() => {
          if (this.stopSending === unhook) onError(closedEarly(stream));
        });
      const unhook = () => {
        stream.off('data', onData);
        stream.off('end', onEnd);
        stream.off('error', onError);
        stream.off('close', onClose);
        socket.off('drain', onDrain);
      };
      this.stopSending = unhook;
      // A body that failed or was closed before this request came has said so already, to nobody.
      if (stream.destroyed || stream.errored) return void onError(closedEarly(stream));
      stream.on('data', onData);
      stream.once('end', onEnd);
      stream.once('error', onError);
      stream.once('close', onClose);
      // A 'data' listener does not start a stream its owner paused; undici resumes it too.
      stream.resume();
      return;
    }
    let stopped = false;
    /** Ends a wait for the socket's drain: a socket that failed or was let go never drains. */
    let wake: (() => void) | undefined;
    this.stopSending = () => {
      stopped = true;
      wake?.();
    };
    const drained = () =>
      new Promise<void>((resolve) => {
        const done = () => {
          socket.off('drain', done);
          wake = undefined;
          resolve();
        };
        wake = done;
        socket.once('drain', done);
      });
    void (async () => {
      try {
        // A return from inside the loop returns the iterator: its own clean-up (finally) runs.
        for await (const chunk of body) {
          if (stopped) return;
          count += chunk.length;
          if (count > (length as number)) throw tooLong();
          progress();
          if (!socket.write(chunk)) await drained();
          if (stopped) return;
          progress();
        }
        if (count !== length) throw tooShort();
        sent();
      } catch (err) {
        this.fail(err as Error);
      }
    })();
  }

  private received(buf: Buffer): void {
    if (this.phase === 'done') return;
    if (this.phase === 'body') return void this.bodyData(buf);
    // The head, which may come before the body is all sent (a server refusing it early).
    let data = this.headBuf ? Buffer.concat([this.headBuf, buf]) : buf;
    for (;;) {
      let head: ResponseHead | undefined;
      try {
        head = parseResponseHead(data);
      } catch (err) {
        return void this.fail(err as Error);
      }
      if (head === undefined) {
        this.headBuf = data;
        return;
      }
      data = data.subarray(head.length);
      this.headBuf = undefined;
      if (head.status >= 100 && head.status < 200) {
        if (head.status === 101) return void this.fail(new Error('the server switched protocols'));
        continue; // 100 Continue and the like: the answer follows
      }
      this.respond(head);
      if ((this.phase as Phase) === 'body' && data.length > 0) this.bodyData(data);
      return;
    }
  }

  private respond(head: ResponseHead): void {
    try {
      this.framing = framingOf(this.opts.method, head);
    } catch (err) {
      return void this.fail(err as Error);
    }
    // An answer before the whole body was sent ends the sending: the server will not read the rest.
    if (this.stopSending) {
      this.stopSending();
      this.stopSending = undefined;
      this.bodyStream?.destroy();
    }
    this.phase = 'body';
    this.disarm();
    if (this.framing.kind === 'length') this.left = this.framing.length;
    if (this.framing.kind === 'chunked') {
      // Nothing after an abort, from the rest of the same read either.
      this.chunked = new ChunkedDecoder((chunk) => {
        if (this.phase === 'body') this.handler.onResponseData?.(this, ownBytes(chunk));
      });
    }
    this.handler.onResponseStart?.(this, head.status, head.headers, head.statusText);
    if (this.phase !== 'body') return;
    if (this.framing.kind === 'none' || (this.framing.kind === 'length' && this.left === 0))
      return void this.finish();
    this.watchBody();
  }

  private bodyData(buf: Buffer): void {
    switch (this.framing.kind) {
      case 'length': {
        // Bytes past the announced length are not this answer's; the connection closes after it.
        const chunk = buf.length > this.left ? buf.subarray(0, this.left) : buf;
        this.left -= chunk.length;
        if (chunk.length > 0) this.handler.onResponseData?.(this, chunk);
        if (this.left === 0 && this.phase === 'body') this.finish();
        return;
      }
      case 'chunked': {
        let over: boolean;
        try {
          over = (this.chunked as ChunkedDecoder).push(buf);
        } catch (err) {
          return void this.fail(err as Error);
        }
        if (over && this.phase === 'body') this.finish();
        return;
      }
      case 'close':
        this.handler.onResponseData?.(this, buf);
        return;
      case 'none':
        return;
    }
  }

  /** The socket ended: the end of an answer framed by its close, else a cut. */
  private closed(): void {
    if (this.phase === 'done') return;
    if (this.phase === 'body' && this.framing.kind === 'close') return void this.finish();
    this.fail(new WireError('other side closed', 'UND_ERR_SOCKET'));
  }

  private finish(): void {
    if (this.phase === 'done') return;
    this.phase = 'done';
    this.disarm();
    this.socket?.destroy();
    this.handler.onResponseEnd?.(this, {});
  }

  private fail(err: Error): void {
    if (this.phase === 'done') return;
    this.phase = 'done';
    this.failure = err;
    this.disarm();
    this.stopSending?.();
    this.stopSending = undefined;
    // As undici does with a request body it could not send: the source is let go with the failure.
    if (this.bodyStream && !this.bodyStream.destroyed && this.bodyStream.readableEnded !== true) {
      this.bodyStream.destroy(err);
    }
    this.socket?.destroy();
    this.handler.onResponseError?.(this, err);
  }

  abort(reason: Error): void {
    this.fail(reason);
  }

  pause(): void {
    if (this.isPaused || this.phase === 'done') return;
    this.isPaused = true;
    this.socket?.pause();
    // A paused answer is the reader's choice, not a stall: its gaps are not timed meanwhile.
    if (this.phase === 'body') this.disarm();
  }

  resume(): void {
    if (!this.isPaused || this.phase === 'done') return;
    this.isPaused = false;
    this.socket?.resume();
    if (this.phase === 'body') this.watchBody();
  }

  private watchBody(): void {
    if (!this.isPaused)
      this.arm(this.opts.bodyTimeout, () => new WireError('Body Timeout Error', 'UND_ERR_BODY_TIMEOUT'));
  }

  /**
   * Fails with `timeout()` when the socket sees no traffic for `ms` (an idle timeout: each read or
   * write starts it over), or with `fixed` when `ms` pass at all (the head's wait).
   */
  private arm(ms: number, timeout: () => Error, fixed = false): void {
    this.disarm();
    const socket = this.socket as Socket;
    if (fixed) {
      this.timer = setTimeout(() => this.fail(timeout()), ms);
      return;
    }
    socket.setTimeout(ms, () => this.fail(timeout()));
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const socket = this.socket;
    if (socket) {
      socket.setTimeout(0);
      socket.removeAllListeners('timeout');
    }
  }
}

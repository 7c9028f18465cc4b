// Body caps: the answer handed to callers. text(), json() and bytes() read the whole body with a
// cap (../body.ts) and a deadline; a read (GET/HEAD) whose body is cut or stalls is sent again
// through the whole stack (the retrier decides). A body handed out as a stream (a blob) fails with
// the same plain sentence as any read.
import type { Readable } from 'node:stream';
import { UnexpectedAnswerError } from '../../errors.js';
import { BodyTooLargeError, MAX_JSON_BYTES, Relay, readCapped } from '../body.js';
import { MalformedAnswerError } from '../h1-parse.js';
import { type Answer, type AnswerBody, type Outgoing, prefix, type Send } from './exchange.js';
import { networkFailure } from './failure.js';
import { isDroppedConnection, type Retrier } from './retry.js';

export interface HttpResponse {
  status: number;
  /** Lower-case header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The final URL, after redirects. */
  url: string;
  /** The raw body, for streams (blobs); text(), json() and bytes() read it with a cap. */
  body: Readable;
  /** At most `limit` bytes (default MAX_JSON_BYTES); more is an UnexpectedAnswerError. */
  text(limit?: number): Promise<string>;
  json<T = unknown>(limit?: number): Promise<T>;
  bytes(limit: number): Promise<Buffer>;
  dump(): Promise<void>;
  /** Within how long a body read into memory must arrive in all (bytes(), text(), json()). */
  readonly readDeadlineMs: number;
}

/** A body read into memory must arrive within this many gaps' time, however it trickles. */
const READ_DEADLINE_GAPS = 10;

/** Sends `req` through `send` and wraps the answer; `retrier` says when a cut read is sent again. */
export async function respond(send: Send, req: Outgoing, retrier: Retrier): Promise<HttpResponse> {
  return new Response(await send(req), send, req, retrier);
}

/**
 * The answer handed to callers. A class: its methods and the `body` getter live on the prototype,
 * where an object literal made them again (a getter the slow way) for every request.
 */
class Response implements HttpResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  private readonly firstUrl: URL;
  private plain: Readable | undefined;

  constructor(
    /** The answer whose body is read: a read cut short is sent again, and this is the new one. */
    private current: Answer,
    private readonly send: Send,
    private readonly req: Outgoing,
    private readonly retrier: Retrier,
  ) {
    this.status = current.status;
    this.headers = current.headers;
    this.firstUrl = current.url;
  }

  get readDeadlineMs(): number {
    return this.req.timeoutMs * READ_DEADLINE_GAPS;
  }

  get url(): string {
    return this.firstUrl.toString();
  }

  get body(): Readable {
    this.plain ??= withPlainErrors(this.current.body, (err) =>
      networkFailure(this.req, this.current.url, err, true, 0),
    );
    return this.plain;
  }

  async bytes(limit: number): Promise<Buffer> {
    const req = this.req;
    for (;;) {
      try {
        const body = this.current.body;
        if (body.collect) return await body.collect(limit, req.timeoutMs * READ_DEADLINE_GAPS);
        return await readCapped(body, limit, {
          contentLength: this.current.headers['content-length'],
          deadlineMs: req.timeoutMs * READ_DEADLINE_GAPS,
        });
      } catch (err) {
        if (err instanceof BodyTooLargeError) throw new UnexpectedAnswerError(this.unexpected(err.message));
        if (req.signal?.aborted) throw err;
        if (await this.retrier.again(req, err)) {
          this.current = await this.send(req);
          continue;
        }
        throw networkFailure(req, this.current.url, err, true);
      }
    }
  }

  async text(limit = MAX_JSON_BYTES): Promise<string> {
    return (await this.bytes(limit)).toString('utf8');
  }

  async json<T = unknown>(limit?: number): Promise<T> {
    const body = await this.text(limit);
    try {
      return JSON.parse(body) as T;
    } catch (err) {
      throw new UnexpectedAnswerError(this.unexpected('the body is not valid JSON'), { cause: err });
    }
  }

  dump(): Promise<void> {
    return this.current.body.dump();
  }

  private unexpected(why: string): string {
    return `${prefix(this.req)}unexpected answer from ${this.current.url.host}: ${why}`;
  }
}

/**
 * The body as a stream of its own whose network failures are NetworkErrors (their cause kept), in
 * the same plain sentence as any read: one Relay (../body.ts), which the blob's readers tap (its
 * hash, its byte count) rather than each adding a stream, or a dispatched body itself. Destroying
 * it ends the request.
 */
function withPlainErrors(body: AnswerBody, toPlain: (err: unknown) => Error): Readable {
  const map = (err: unknown) =>
    isDroppedConnection(err) || isMalformedAnswer(err) ? toPlain(err) : (err as Error);
  // A dispatched body (a blob's: layers/wire.ts) maps its own failures, and takes the taps itself.
  return body.plain ? body.plain(map) : new Relay(body, map);
}

/**
 * A body that is not plainly HTTP/1.1 (a broken chunked body), found while it is read: a network
 * failure (exit 7) as a malformed head is, not an unexpected error. h1-parse's, or undici's parser's.
 */
function isMalformedAnswer(err: unknown): boolean {
  return err instanceof MalformedAnswerError || (err instanceof Error && err.name === 'HTTPParserError');
}

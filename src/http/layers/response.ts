// Body caps: the answer handed to callers. text(), json() and bytes() read the whole body with a
// cap (../body.ts) and a deadline; a read (GET/HEAD) whose body is cut or stalls is sent again
// through the whole stack (the retrier decides). A body handed out as a stream (a blob) fails with
// the same plain sentence as any read.
import type { Readable } from 'node:stream';
import { UnexpectedAnswerError } from '../../errors.js';
import { BodyTooLargeError, MAX_JSON_BYTES, Relay, readCapped } from '../body.js';
import { type AnswerBody, type Outgoing, prefix, type Send } from './exchange.js';
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
}

/** A body read into memory must arrive within this many gaps' time, however it trickles. */
const READ_DEADLINE_GAPS = 10;

/** Sends `req` through `send` and wraps the answer; `retrier` says when a cut read is sent again. */
export async function respond(send: Send, req: Outgoing, retrier: Retrier): Promise<HttpResponse> {
  let current = await send(req);
  const unexpected = (why: string) => `${prefix(req)}unexpected answer from ${current.url.host}: ${why}`;

  const readAll = async (limit: number): Promise<Buffer> => {
    for (;;) {
      try {
        return await readCapped(current.body, limit, {
          contentLength: current.headers['content-length'],
          deadlineMs: req.timeoutMs * READ_DEADLINE_GAPS,
        });
      } catch (err) {
        if (err instanceof BodyTooLargeError) throw new UnexpectedAnswerError(unexpected(err.message));
        if (req.signal?.aborted) throw err;
        if (await retrier.again(req, err)) {
          current = await send(req);
          continue;
        }
        throw networkFailure(req, current.url, err, true);
      }
    }
  };
  const text = async (limit = MAX_JSON_BYTES) => (await readAll(limit)).toString('utf8');
  let plain: Readable | undefined;

  return {
    status: current.status,
    headers: current.headers,
    url: current.url.toString(),
    get body() {
      plain ??= withPlainErrors(current.body, (err) => networkFailure(req, current.url, err, true, 0));
      return plain;
    },
    text,
    bytes: readAll,
    json: async <T>(limit?: number) => {
      const body = await text(limit);
      try {
        return JSON.parse(body) as T;
      } catch (err) {
        throw new UnexpectedAnswerError(unexpected('the body is not valid JSON'), { cause: err });
      }
    },
    dump: () => current.body.dump(),
  };
}

/**
 * The body as a stream of its own whose network failures are NetworkErrors (their cause kept), in
 * the same plain sentence as any read: one Relay (../body.ts), which the blob's readers tap (its
 * hash, its byte count) rather than each adding a stream. Destroying it ends the request.
 */
function withPlainErrors(body: AnswerBody, toPlain: (err: unknown) => Error): Readable {
  return new Relay(body, (err) => (isDroppedConnection(err) ? toPlain(err) : (err as Error)));
}

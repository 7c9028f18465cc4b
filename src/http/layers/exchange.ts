// What the layers of the HTTP client (src/http/client.ts) pass each other: one request going out,
// one answer coming back, and `Send`, the function each layer wraps. A layer is a `Send` around the
// next one, as go-containerregistry stacks http.RoundTrippers: each has one job and can be read and
// tested alone, over the wire or over a stub `Send`.
import type { Readable } from 'node:stream';
import type { BoundCredential } from '../origin.js';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type RequestBody = string | Uint8Array | Readable | AsyncIterable<Uint8Array> | null;

/** How many times one request was sent again, shared by every hop and every re-read of its body. */
export interface Attempts {
  retried: number;
}

export interface Outgoing {
  method: Method;
  url: URL;
  /** Lower-case names; never `authorization` until the credential layer adds it. */
  headers: Record<string, string>;
  body: RequestBody | undefined;
  /** The JSON value the body was serialised from, for the debug trace (redacted there). */
  json?: unknown;
  credential?: BoundCredential;
  signal?: AbortSignal;
  /** Time allowed for the response headers, and for each gap in the body. */
  timeoutMs: number;
  /** The caller's wish about retries and redirects; the layers add their own rules to it. */
  retry?: boolean;
  followRedirects?: boolean;
  okStatuses?: number[] | 'any';
  /** What we were doing ("listing policies of org acme"), prefixed to error messages. */
  what?: string;
  /** A GET whose 2xx body is read whole (bytes/text/json), never as a stream: see wire.ts. */
  collect?: boolean;
  /** A GET whose body is streamed on (a blob), through undici's dispatch: see wire.ts. */
  stream?: boolean;
  /** The size a streamed blob's answer will have, when known (see wire.ts). */
  expectedSize?: number;
  attempts: Attempts;
}

/**
 * The body undici hands out: a Readable with `dump()`, which reads and discards what is left. A
 * collected body (wire.ts) also has `collect()`: at most `limit` bytes within `deadlineMs`, copied
 * as they arrive; over the cap BodyTooLargeError, past the deadline BodyTooSlowError; and `plain()`.
 */
export type AnswerBody = Readable & {
  dump(): Promise<void>;
  collect?(limit: number, deadlineMs: number): Promise<Buffer>;
  /** The body itself with its failures mapped by `map` (a dispatched body: no relay needed). */
  plain?(map: (err: Error) => Error): Readable;
};

export interface Answer {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  url: URL;
  body: AnswerBody;
}

export type Send = (req: Outgoing) => Promise<Answer>;
export type Layer = (next: Send) => Send;

export function isRead(method: Method): boolean {
  return method === 'GET' || method === 'HEAD';
}

/** The caller's `what`, as the start of an error message. */
export function prefix(req: Outgoing): string {
  return req.what ? `${req.what}: ` : '';
}

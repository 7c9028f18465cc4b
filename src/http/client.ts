// The one HTTP function, a stack of layers (./layers/), each with one job, as go-containerregistry
// stacks its transports. From the caller down to the wire:
//
//   respond          body caps: text/json/bytes read with a cap; a read cut short is sent again
//   refuseStatuses   an answer the caller did not ask for → ApiError from the error body
//   followRedirects  GET/HEAD follow up to five hops; a secret in the body never does
//   plainFailures    undici's failures → NetworkError in plain words ("connection refused")
//   retry            idempotent, replayable requests; backoff or Retry-After; no write sent twice
//   bindCredential   the credential to its own origin only, on every hop and every retry
//   trace            the --debug lines, redacted
//   wire             one request through undici (dispatcher.ts: direct or through a proxy), or a
//                    large blob's on a connection of its own (layers/h1.ts) when direct
//
// Each layer below `respond` is a `Send` around the next (layers/exchange.ts); `outgoing()` below
// reads the caller's options (user agent, JSON body, credential checks) before anything is sent.
// With dispatcher.ts and layers/wire.ts, the only importers of undici.
import type { Dispatcher } from 'undici';
import type { Clock } from '../clock.js';
import { createDispatchers, type DispatcherFor } from './dispatcher.js';
import { bindCredential, checkCredential } from './layers/credential.js';
import type { Method, Outgoing, RequestBody, Send } from './layers/exchange.js';
import { plainFailures } from './layers/failure.js';
import { followRedirects } from './layers/redirect.js';
import { type HttpResponse, respond } from './layers/response.js';
import { createRetrier } from './layers/retry.js';
import { refuseStatuses } from './layers/status.js';
import { trace } from './layers/trace.js';
import { wire } from './layers/wire.js';
import type { BoundCredential } from './origin.js';

export type { Method, RequestBody } from './layers/exchange.js';
export type { HttpResponse } from './layers/response.js';
export { retryAfterMs } from './layers/retry.js';
export type { BoundCredential } from './origin.js';

export interface HttpRequestOptions {
  method?: Method;
  url: string | URL;
  /** Never `authorization`: a credential goes in `credential`, with its origin. */
  headers?: Record<string, string>;
  body?: RequestBody;
  /** Serialised as the body, with content-type application/json. */
  json?: unknown;
  /**
   * Attached only to requests (and redirects) to its origin, and only over HTTPS or to loopback.
   * Without `authorization`, the body carries the secret: the request goes to that origin or nowhere.
   */
  credential?: BoundCredential;
  signal?: AbortSignal;
  /** Time allowed for the response headers, and for each gap in the body. */
  timeoutMs?: number;
  /** Default: on for GET/HEAD (any dropped connection) and PUT/DELETE (only when nothing was sent). */
  retry?: boolean;
  /** Default: on for GET and HEAD. The credential stays behind when the origin changes. */
  followRedirects?: boolean;
  /** Statuses returned rather than thrown. Default: 2xx. */
  okStatuses?: number[] | 'any';
  /** What we were doing, prefixed to error messages ("listing policies of org acme"). */
  what?: string;
  /**
   * A GET whose 2xx body the caller reads whole (bytes/text/json), never as `body`: it is copied
   * into one buffer as it arrives, with no stream in between (the audit log's pages; see
   * layers/wire.ts). Caps, deadlines, retries and every other answer behave as without it.
   */
  collect?: boolean;
  /**
   * A GET whose 2xx body the caller streams on (a blob): it comes through undici's dispatch (or,
   * from `expectedSize` OWN_CONNECTION_MIN, layers/h1.ts) as the one stream between the parser and
   * the caller, which takes the caller's taps (body.ts) itself. Deadlines, retries and every other
   * answer behave as without it.
   */
  stream?: boolean;
  /**
   * How many bytes a streamed blob's answer will bring, when the caller knows (its descriptor): a
   * blob from OWN_CONNECTION_MIN is moved on a connection of its own (layers/h1.ts).
   */
  expectedSize?: number;
}

export interface HttpClient {
  request(options: HttpRequestOptions): Promise<HttpResponse>;
}

export interface HttpClientOptions {
  userAgent: string;
  clock: Clock;
  /** Receives one redacted line per request and response when --debug is on. */
  debug?: (line: string) => void;
  /** Extra CA certificates (PEM file), on top of the system's and NODE_EXTRA_CA_CERTS. */
  caFile?: string;
  /** A CA file trusted for one origin only (registry settings). */
  caFileFor?: (url: URL) => string | undefined;
  /**
   * The environment to read HTTP_PROXY, HTTPS_PROXY and NO_PROXY (either case) and
   * NODE_EXTRA_CA_CERTS from (the context passes its own); default: none, so no proxy.
   */
  env?: Record<string, string | undefined>;
  /** Tests pass undici's MockAgent; by default direct or through the environment's proxy. */
  dispatcher?: Dispatcher;
  /** Default time for headers and for each gap in a body (30 s). */
  timeoutMs?: number;
  maxRetries?: number;
  /** First backoff step; doubled each retry, with full jitter. */
  retryBaseMs?: number;
  random?: () => number;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  let dispatcherFor: DispatcherFor | undefined = options.dispatcher
    ? () => ({ dispatcher: options.dispatcher as Dispatcher })
    : undefined;
  const route: DispatcherFor = (url) => {
    dispatcherFor ??= createDispatchers({
      caFile: options.caFile,
      caFileFor: options.caFileFor,
      env: options.env ?? {},
      debug: options.debug,
    });
    return dispatcherFor(url);
  };
  const retrier = createRetrier({
    clock: options.clock,
    maxRetries: options.maxRetries,
    baseMs: options.retryBaseMs,
    random: options.random,
  });
  const layers = [
    refuseStatuses,
    followRedirects,
    plainFailures,
    retrier.layer,
    bindCredential(options.debug),
    trace(options.debug, options.clock),
  ];
  const send: Send = layers.reduceRight((next, layer) => layer(next), wire(route));
  const defaultTimeoutMs = options.timeoutMs ?? 30_000;

  return {
    request: async (opts) => respond(send, outgoing(opts, options.userAgent, defaultTimeoutMs), retrier),
  };
}

/** The caller's options as the layers read them; a misuse of the API throws here, before any IO. */
function outgoing(opts: HttpRequestOptions, userAgent: string, defaultTimeoutMs: number): Outgoing {
  const url = new URL(String(opts.url));
  const headers: Record<string, string> = { 'user-agent': userAgent, ...lowerKeys(opts.headers) };
  if ('authorization' in headers || 'proxy-authorization' in headers) {
    // A programming error: only the credential layer attaches credentials, so it can keep them at their origin.
    throw new Error('HttpClient.request: pass credentials as `credential`, never as a header');
  }
  let body: RequestBody | undefined = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] ??= 'application/json';
  }
  checkCredential(opts.credential, url);
  return {
    method: opts.method ?? 'GET',
    url,
    headers,
    body,
    json: opts.json,
    credential: opts.credential,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs ?? defaultTimeoutMs,
    retry: opts.retry,
    followRedirects: opts.followRedirects,
    okStatuses: opts.okStatuses,
    what: opts.what,
    collect: opts.collect,
    stream: opts.stream,
    expectedSize: opts.expectedSize,
    attempts: { retried: 0 },
  };
}

function lowerKeys(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = v;
  return out;
}

// The one HTTP function: user agent, timeouts, abort, credentials attached only to the origin they
// belong to (redirects included), retries of idempotent requests with backoff and Retry-After (a
// read whose body is cut is asked again too), bodies read with a cap, failures turned into typed
// errors with secrets redacted, and a --debug trace. With dispatcher.ts, the only importer of undici.

import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { Clock } from '../clock.js';
import { HubctlError, NetworkError, UnexpectedAnswerError } from '../errors.js';
import { BodyTooLargeError, MAX_ERROR_BYTES, MAX_JSON_BYTES, readCapped } from './body.js';
import { createDispatchers, type DispatcherFor } from './dispatcher.js';
import { apiErrorFrom, describeNetworkError, errorCode } from './errors.js';
import { assertSecureCredentialOrigin, type BoundCredential, credentialApplies } from './origin.js';
import { redactHeaders, redactJson, redactUrl } from './redact.js';

export type { BoundCredential } from './origin.js';
export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type RequestBody = string | Uint8Array | Readable | AsyncIterable<Uint8Array> | null;

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
}

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

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** A read the server failed is asked again too; a write that met a 500 may have landed. */
const READ_RETRY_STATUSES = new Set([...RETRY_STATUSES, 500]);
/** Failures before the request reached the server: safe to repeat for PUT and DELETE too. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);
/** Any dropped or stalled connection: a read (GET/HEAD) is asked again. */
const READ_RETRY_CODES = new Set([
  ...NOT_SENT_CODES,
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
const MAX_RETRY_AFTER_MS = 60_000;
/** A body read into memory must arrive within this many gaps' time, however it trickles. */
const READ_DEADLINE_GAPS = 10;

interface Plan {
  method: Method;
  url: URL;
  headers: Record<string, string>;
  body: RequestBody | undefined;
  credential?: BoundCredential;
  isRead: boolean;
  mayRetry: boolean;
  follow: boolean;
  timeoutMs: number;
  opts: HttpRequestOptions;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  url: URL;
  body: Dispatcher.ResponseData['body'];
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const maxRetries = options.maxRetries ?? 3;
  const baseMs = options.retryBaseMs ?? 250;
  const random = options.random ?? Math.random;
  let dispatcherFor: DispatcherFor | undefined = options.dispatcher
    ? () => ({ dispatcher: options.dispatcher as Dispatcher })
    : undefined;
  const pick = (url: URL) => {
    dispatcherFor ??= createDispatchers({
      caFile: options.caFile,
      caFileFor: options.caFileFor,
      env: options.env ?? {},
      debug: options.debug,
    });
    return dispatcherFor(url);
  };

  async function once(plan: Plan, url: URL): Promise<Answer> {
    const headers = { ...plan.headers };
    const cred = plan.credential;
    if (cred?.authorization) {
      if (credentialApplies(cred, url)) headers.authorization = cred.authorization;
      else options.debug?.(`  credential for ${cred.origin} withheld from ${url.origin}`);
    }
    const started = options.clock.now();
    options.debug?.(`> ${plan.method} ${redactUrl(url)}`);
    if (options.debug) {
      for (const [k, v] of Object.entries(redactHeaders(headers))) options.debug(`> ${k}: ${v}`);
      if (plan.opts.json !== undefined) options.debug(`> ${JSON.stringify(redactJson(plan.opts.json))}`);
    }
    const route = pick(url);
    const res = await route.dispatcher
      .request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: plan.method,
        headers,
        // undici streams any async iterable; its typings only name Readable.
        body: (plan.body ?? undefined) as string | Uint8Array | Readable | undefined,
        signal: plan.opts.signal,
        headersTimeout: plan.timeoutMs,
        bodyTimeout: plan.timeoutMs,
        // undici closes the connection after every HEAD unless told otherwise (for servers that
        // send a body with it, undici#258); registries do not, and a sync sends hundreds of HEADs.
        ...(plan.method === 'HEAD' ? { reset: false } : {}),
      })
      .catch((err: unknown) => {
        // Says which proxy the failure went through: a corporate network's usual suspect.
        throw route.proxy ? Object.assign(err as object, { proxy: route.proxy }) : err;
      });
    const flat = flattenHeaders(res.headers);
    if (options.debug) {
      options.debug(`< ${res.statusCode} ${redactUrl(url)} (${options.clock.now() - started} ms)`);
      for (const [k, v] of Object.entries(redactHeaders(flat))) options.debug(`< ${k}: ${v}`);
    }
    return { status: res.statusCode, headers: flat, url, body: res.body };
  }

  /** Sends until an answer worth returning: redirects followed, retryable failures retried. */
  async function exchange(plan: Plan, state: { attempt: number }): Promise<Answer> {
    let url = plan.url;
    let redirects = 0;
    for (;;) {
      let res: Answer;
      try {
        res = await once(plan, url);
      } catch (err) {
        if (plan.opts.signal?.aborted || err instanceof HubctlError) throw err;
        if (retryable(plan, err) && state.attempt < maxRetries) {
          await options.clock.sleep(backoff(state.attempt++), plan.opts.signal);
          continue;
        }
        throw failure(plan, url, err, false, state.attempt);
      }

      if (plan.follow && REDIRECT_STATUSES.has(res.status) && res.headers.location) {
        await res.body.dump().catch(() => undefined);
        if (++redirects > MAX_REDIRECTS) {
          throw new NetworkError(`${prefix(plan)}${plan.method} ${redactUrl(plan.url)}: too many redirects`);
        }
        url = new URL(res.headers.location, url);
        continue;
      }

      const retryStatuses = plan.isRead ? READ_RETRY_STATUSES : RETRY_STATUSES;
      if (plan.mayRetry && state.attempt < maxRetries && retryStatuses.has(res.status)) {
        const wait = retryAfterMs(res.headers['retry-after'], options.clock.now()) ?? backoff(state.attempt);
        state.attempt++;
        await res.body.dump().catch(() => undefined);
        await options.clock.sleep(Math.min(wait, MAX_RETRY_AFTER_MS), plan.opts.signal);
        continue;
      }

      const ok =
        plan.opts.okStatuses === 'any' ||
        (plan.opts.okStatuses ?? []).includes(res.status) ||
        isSuccess(res.status);
      if (!ok) {
        const text = plan.method === 'HEAD' ? '' : await errorText(res, plan.timeoutMs);
        throw apiErrorFrom(res.status, text, { url: redactUrl(url), what: plan.opts.what });
      }
      return res;
    }
  }

  async function request(opts: HttpRequestOptions): Promise<HttpResponse> {
    const plan = makePlan(opts, options.userAgent, options.timeoutMs ?? 30_000);
    const state = { attempt: 0 };
    let current = await exchange(plan, state);

    // Reads the whole body with a cap; a read whose body is cut or stalls is sent again.
    const readAll = async (limit: number): Promise<Buffer> => {
      for (;;) {
        try {
          return await readCapped(current.body, limit, {
            contentLength: current.headers['content-length'],
            deadlineMs: plan.timeoutMs * READ_DEADLINE_GAPS,
          });
        } catch (err) {
          if (err instanceof BodyTooLargeError) {
            throw new UnexpectedAnswerError(
              `${prefix(plan)}unexpected answer from ${current.url.host}: ${err.message}`,
            );
          }
          if (plan.opts.signal?.aborted) throw err;
          if (plan.isRead && retryable(plan, err) && state.attempt < maxRetries) {
            await options.clock.sleep(backoff(state.attempt++), plan.opts.signal);
            current = await exchange(plan, state);
            continue;
          }
          throw failure(plan, current.url, err, true, state.attempt);
        }
      }
    };
    const text = async (limit = MAX_JSON_BYTES) => (await readAll(limit)).toString('utf8');
    let plain: Readable | undefined;

    return {
      status: current.status,
      headers: current.headers,
      url: current.url.toString(),
      // A stream handed out (a blob) fails with the same plain sentence as any read.
      get body() {
        plain ??= withPlainErrors(current.body, (err) => failure(plan, current.url, err, true, 0));
        return plain;
      },
      text,
      bytes: readAll,
      json: async <T>(limit?: number) => {
        const body = await text(limit);
        try {
          return JSON.parse(body) as T;
        } catch (err) {
          throw new UnexpectedAnswerError(
            `${prefix(plan)}unexpected answer from ${current.url.host}: the body is not valid JSON`,
            { cause: err },
          );
        }
      },
      dump: () => current.body.dump(),
    };
  }

  function retryable(plan: Plan, err: unknown): boolean {
    const code = errorCode(err);
    if (!plan.mayRetry || !code) return false;
    return plan.isRead ? READ_RETRY_CODES.has(code) : NOT_SENT_CODES.has(code);
  }

  function backoff(attempt: number): number {
    return Math.round(random() * baseMs * 2 ** attempt);
  }

  return { request };
}

function makePlan(opts: HttpRequestOptions, userAgent: string, defaultTimeoutMs: number): Plan {
  const method = opts.method ?? 'GET';
  const url = new URL(String(opts.url));
  const headers: Record<string, string> = { 'user-agent': userAgent, ...lowerKeys(opts.headers) };
  if ('authorization' in headers || 'proxy-authorization' in headers) {
    // A programming error: only this layer attaches credentials, so it can keep them at their origin.
    throw new Error('HttpClient.request: pass credentials as `credential`, never as a header');
  }
  let body: RequestBody | undefined = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] ??= 'application/json';
  }
  const cred = opts.credential;
  if (cred) {
    assertSecureCredentialOrigin(cred);
    if (!cred.authorization && url.origin !== cred.origin) {
      throw new Error(`HttpClient.request: a secret for ${cred.origin} cannot be sent to ${url.origin}`);
    }
  }
  const replayable =
    body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
  const isRead = method === 'GET' || method === 'HEAD';
  const idempotent = isRead || method === 'PUT' || method === 'DELETE';
  return {
    method,
    url,
    headers,
    body,
    credential: cred,
    isRead,
    mayRetry: (opts.retry ?? idempotent) && idempotent && replayable,
    // A secret in the body never follows a redirect.
    follow: (opts.followRedirects ?? isRead) && !(cred && !cred.authorization),
    timeoutMs: opts.timeoutMs ?? defaultTimeoutMs,
    opts,
  };
}

function prefix(plan: Plan): string {
  return plan.opts.what ? `${plan.opts.what}: ` : '';
}

function failure(plan: Plan, url: URL, err: unknown, reading: boolean, attempts: number): NetworkError {
  const tries = attempts > 0 ? ` (tried ${attempts + 1} times)` : '';
  const proxy = (err as { proxy?: unknown } | null)?.proxy;
  const via = typeof proxy === 'string' ? ` (through the proxy ${redactUrl(proxy).replace(/\/$/, '')})` : '';
  return new NetworkError(
    `${prefix(plan)}${plan.method} ${redactUrl(url)} failed: ${describeNetworkError(err, reading)}${via}${tries}`,
    {
      cause: err,
      hint:
        reading && !plan.isRead
          ? 'The request was not repeated: it may or may not have taken effect.'
          : undefined,
    },
  );
}

/**
 * The body as a stream of its own whose network failures are NetworkErrors (their cause kept), in
 * the same plain sentence as any read: a Readable over the body's public events, with backpressure
 * (pause when full, resume when read). Destroying it destroys the body, which ends the request.
 */
function withPlainErrors(body: Answer['body'], toPlain: (err: unknown) => Error): Readable {
  const out = new Readable({
    read() {
      body.resume();
    },
    destroy(err, cb) {
      body.destroy();
      cb(err);
    },
  });
  body.on('data', (chunk: Buffer) => {
    if (!out.push(chunk)) body.pause();
  });
  body.once('end', () => out.push(null));
  body.once('error', (err) => {
    const code = errorCode(err);
    out.destroy(code && READ_RETRY_CODES.has(code) ? toPlain(err) : err);
  });
  return out;
}

/** An error body, for its message only: the first MAX_ERROR_BYTES, never more. */
async function errorText(res: Answer, timeoutMs: number): Promise<string> {
  try {
    const buf = await readCapped(res.body, MAX_ERROR_BYTES, { truncate: true, deadlineMs: timeoutMs });
    return buf.toString('utf8');
  } catch {
    return '';
  }
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function lowerKeys(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = v;
  return out;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** Retry-After as seconds or as an HTTP date. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

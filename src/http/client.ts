// The one HTTP function: user agent, timeouts, abort, redirects that never carry credentials to
// another origin, retries of idempotent requests with backoff and Retry-After, failures turned
// into typed errors with secrets redacted, and a --debug trace. The only importer of undici.

import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { rootCertificates } from 'node:tls';
import { setFlagsFromString } from 'node:v8';
import type { Dispatcher } from 'undici';
// undici's index also loads fetch, WebSocket, caches and mocks: ~60 ms of every network command's
// start-up on a 2-core machine. These two modules are all this client uses (types in
// undici-parts.d.ts); every test that sends a request goes through them.
import undiciRequest from 'undici/lib/api/api-request.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import type { Clock } from '../clock.js';
import { HubctlError, NetworkError, UsageError } from '../errors.js';
import { apiErrorFrom } from './errors.js';
import { redactHeaders, redactJson, redactUrl } from './redact.js';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type RequestBody = string | Uint8Array | Readable | AsyncIterable<Uint8Array> | null;

export interface HttpRequestOptions {
  method?: Method;
  url: string | URL;
  headers?: Record<string, string>;
  body?: RequestBody;
  /** Serialised as the body, with content-type application/json. */
  json?: unknown;
  signal?: AbortSignal;
  /** Time allowed for the response headers, and for each gap in the body. */
  timeoutMs?: number;
  /** Default: on for GET/HEAD/PUT/DELETE whose body can be sent again; never for POST/PATCH. */
  retry?: boolean;
  /** Default: on for GET and HEAD. Credentials are dropped when the origin changes. */
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
  body: Readable;
  text(): Promise<string>;
  json<T = unknown>(): Promise<T>;
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
  /**
   * The environment to read HTTP_PROXY, HTTPS_PROXY and NO_PROXY (either case) and
   * NODE_EXTRA_CA_CERTS from; default: the process environment (undici's own fallback).
   */
  env?: Record<string, string | undefined>;
  /** Tests pass undici's MockAgent; by default an agent that honours HTTPS_PROXY and NO_PROXY. */
  dispatcher?: Dispatcher;
  maxRetries?: number;
  /** First backoff step; doubled each retry, with full jitter. */
  retryBaseMs?: number;
  random?: () => number;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** A read the server failed is asked again too; a write that met a 500 may have landed. */
const READ_RETRY_STATUSES = new Set([...RETRY_STATUSES, 500]);
const RETRY_ERROR_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
const MAX_RETRY_AFTER_MS = 60_000;

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const maxRetries = options.maxRetries ?? 3;
  const baseMs = options.retryBaseMs ?? 250;
  const random = options.random ?? Math.random;
  let dispatcher = options.dispatcher;
  const getDispatcher = (): Dispatcher => {
    if (!dispatcher) {
      let ca: string[] | undefined;
      if (options.caFile) {
        let extra: string;
        try {
          extra = readFileSync(options.caFile, 'utf8');
        } catch (err) {
          throw new UsageError(`cannot read the CA file ${options.caFile}`, { cause: err });
        }
        // An explicit `ca` replaces Node's store: keep the public roots and NODE_EXTRA_CA_CERTS too.
        ca = [...rootCertificates, ...nodeExtraCerts(options.env), extra];
      }
      keepParserOnBaseline();
      dispatcher = new EnvHttpProxyAgent({
        ...(options.env ? proxySettings(options.env) : {}),
        ...(ca ? { connect: { ca }, requestTls: { ca } } : {}),
      });
    }
    return dispatcher;
  };

  async function once(
    method: Method,
    url: URL,
    headers: Record<string, string>,
    body: RequestBody | undefined,
    opts: HttpRequestOptions,
  ) {
    const started = options.clock.now();
    options.debug?.(`> ${method} ${redactUrl(url)}`);
    if (options.debug) {
      for (const [k, v] of Object.entries(redactHeaders(headers))) options.debug(`> ${k}: ${v}`);
      if (opts.json !== undefined) options.debug(`> ${JSON.stringify(redactJson(opts.json))}`);
    }
    const res = await undiciRequest.call(getDispatcher(), {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method,
      headers,
      // undici streams any async iterable; its typings only name Readable.
      body: (body ?? undefined) as string | Uint8Array | Readable | undefined,
      signal: opts.signal,
      headersTimeout: opts.timeoutMs ?? 30_000,
      bodyTimeout: opts.timeoutMs ?? 30_000,
    });
    const flat = flattenHeaders(res.headers);
    if (options.debug) {
      options.debug(`< ${res.statusCode} ${redactUrl(url)} (${options.clock.now() - started} ms)`);
      for (const [k, v] of Object.entries(redactHeaders(flat))) options.debug(`< ${k}: ${v}`);
    }
    return { status: res.statusCode, headers: flat, body: res.body };
  }

  async function request(opts: HttpRequestOptions): Promise<HttpResponse> {
    const method = opts.method ?? 'GET';
    let url = new URL(String(opts.url));
    const headers: Record<string, string> = { 'user-agent': options.userAgent, ...lowerKeys(opts.headers) };
    let body: RequestBody | undefined = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] ??= 'application/json';
    }
    const replayable =
      body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
    const idempotent = method === 'GET' || method === 'HEAD' || method === 'PUT' || method === 'DELETE';
    const mayRetry = (opts.retry ?? idempotent) && idempotent && replayable;
    const follow = opts.followRedirects ?? (method === 'GET' || method === 'HEAD');

    let redirects = 0;
    let attempt = 0;
    for (;;) {
      let res: Awaited<ReturnType<typeof once>>;
      try {
        res = await once(method, url, headers, body, opts);
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        if (err instanceof HubctlError) throw err;
        const code = errorCode(err);
        if (mayRetry && attempt < maxRetries && code && RETRY_ERROR_CODES.has(code)) {
          await options.clock.sleep(backoff(attempt++), opts.signal);
          continue;
        }
        throw new NetworkError(
          `${opts.what ? `${opts.what}: ` : ''}${method} ${redactUrl(url)} failed: ${describeNetworkError(err)}`,
          { cause: err },
        );
      }

      if (follow && REDIRECT_STATUSES.has(res.status) && res.headers.location) {
        await res.body.dump().catch(() => undefined);
        if (++redirects > MAX_REDIRECTS) {
          throw new NetworkError(`${method} ${redactUrl(opts.url)}: too many redirects`);
        }
        const next = new URL(res.headers.location, url);
        if (next.origin !== url.origin) {
          // Credentials belong to the host they were issued for (decisions §6).
          delete headers.authorization;
          delete headers.cookie;
        }
        url = next;
        continue;
      }

      const retryStatuses = method === 'GET' || method === 'HEAD' ? READ_RETRY_STATUSES : RETRY_STATUSES;
      if (mayRetry && attempt < maxRetries && retryStatuses.has(res.status)) {
        const wait = retryAfterMs(res.headers['retry-after'], options.clock.now()) ?? backoff(attempt);
        attempt++;
        await res.body.dump().catch(() => undefined);
        await options.clock.sleep(Math.min(wait, MAX_RETRY_AFTER_MS), opts.signal);
        continue;
      }

      const ok =
        opts.okStatuses === 'any' || (opts.okStatuses ?? []).includes(res.status) || isSuccess(res.status);
      const finalUrl = url.toString();
      if (!ok) {
        const text = method === 'HEAD' ? '' : await res.body.text().catch(() => '');
        throw apiErrorFrom(res.status, text, { url: redactUrl(finalUrl), what: opts.what });
      }
      const readable = res.body;
      return {
        status: res.status,
        headers: res.headers,
        url: finalUrl,
        body: readable,
        text: () => readable.text(),
        json: async <T>() => {
          const text = await readable.text();
          try {
            return JSON.parse(text) as T;
          } catch (err) {
            throw new NetworkError(
              `${opts.what ? `${opts.what}: ` : ''}the server at ${url.host} answered with malformed JSON`,
              { cause: err },
            );
          }
        },
        dump: () => readable.dump(),
      };
    }
  }

  function backoff(attempt: number): number {
    return Math.round(random() * baseMs * 2 ** attempt);
  }

  return { request };
}

/**
 * undici parses HTTP/1 with llhttp compiled to wasm. After a few responses V8 tiers its main
 * function up to TurboFan on a background thread (~80 ms of CPU here), and node waits for that
 * compilation before the process can exit: every network command ended ~80–180 ms after its last
 * response. The baseline (Liftoff) code parses a response as well for a CLI's needs, so TurboFan is
 * kept out of wasm. Set before undici compiles llhttp (on its first connection); the flag only
 * touches wasm, and undici's parser is the only wasm hubctl runs.
 */
function keepParserOnBaseline(): void {
  setFlagsFromString('--liftoff-only');
}

/** Proxy settings from an environment; empty strings (no proxy) rather than undici's process.env fallback. */
export function proxySettings(env: Record<string, string | undefined>): {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
} {
  const httpProxy = env.http_proxy ?? env.HTTP_PROXY ?? '';
  return {
    httpProxy,
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? httpProxy,
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
  };
}

function nodeExtraCerts(env: Record<string, string | undefined> | undefined): string[] {
  const file = env?.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return [readFileSync(file, 'utf8')];
  } catch {
    return []; // node itself only warns about an unreadable file
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

function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function describeNetworkError(err: unknown): string {
  const code = errorCode(err);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return 'the connection was reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name could not be resolved';
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'ETIMEDOUT':
      return 'timed out';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return 'the server certificate is not trusted (add its CA with --ca-file or NODE_EXTRA_CA_CERTS)';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}

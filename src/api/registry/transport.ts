// The registry transport: one request function with auth (a token per scope, refreshed once on a
// 401 with a new challenge), bound to the registry's origin so that the HTTP layer never sends it
// elsewhere, redirects included (decisions §6), and registry error bodies turned into typed errors.

import type { Clock } from '../../clock.js';
import { AuthError, NetworkError } from '../../errors.js';
import { MAX_ERROR_BYTES } from '../../http/body.js';
import type { HttpClient, HttpRequestOptions, HttpResponse, Method, RequestBody } from '../../http/client.js';
import { apiErrorFrom } from '../../http/errors.js';
import { type RepositoryName, registryBaseUrl } from '../../ref/reference.js';
import type { RegistryCredentialLookup } from './auth.js';
import { RegistryAuth, scopeFor } from './auth.js';

/** What a registry client is made of (client.ts re-exports it). */
export interface RegistryClientOptions {
  http: HttpClient;
  clock: Clock;
  credentials: RegistryCredentialLookup;
  /** Hosts named with --plain-http (decisions §1). */
  plainHttpHosts?: readonly string[];
  signal?: AbortSignal;
}

export type Actions = readonly ('pull' | 'push' | 'delete')[];

export interface SendOptions {
  method?: Method;
  /** Path below the registry base, or an absolute URL (upload locations). */
  url: string;
  actions: Actions;
  /** Extra scopes (pull on the mount source). */
  extraScopes?: string[];
  /** Scopes instead of the repository's (`registry:catalog:*`). */
  scopes?: string[];
  headers?: Record<string, string>;
  body?: RequestBody;
  timeoutMs?: number;
  what: string;
  follow?: boolean;
  /** Sent even after the run was cancelled (cancelling uploads on Ctrl-C). */
  ignoreAbort?: boolean;
  /** A GET whose body is streamed on (a blob): see HttpRequestOptions.stream. */
  stream?: boolean;
  /** A streamed blob's size, when known: see HttpRequestOptions.expectedSize. */
  expectedSize?: number;
}

export class RegistryTransport {
  readonly auth: RegistryAuth;
  protected readonly http: HttpClient;
  private readonly plainHttpHosts: readonly string[];
  protected readonly signal?: AbortSignal;

  constructor(opts: RegistryClientOptions) {
    this.http = opts.http;
    this.plainHttpHosts = opts.plainHttpHosts ?? [];
    this.signal = opts.signal;
    this.auth = new RegistryAuth(opts.http, opts.clock, opts.credentials, opts.signal);
  }

  /** Each registry's base URL, worked out once (every request asks: a sync sends thousands). */
  private readonly bases = new Map<string, string>();

  baseUrl(registry: string): string {
    let base = this.bases.get(registry);
    if (base === undefined) {
      base = registryBaseUrl(registry, this.plainHttpHosts);
      this.bases.set(registry, base);
    }
    return base;
  }

  /** One request with auth, a refresh on a 401 with a new challenge, and safe redirects. */
  protected async send(repo: RepositoryName, opts: SendOptions): Promise<HttpResponse> {
    const base = this.baseUrl(repo.registry);
    const scopes = opts.scopes
      ? [...opts.scopes]
      : [scopeFor(repo.repository, opts.actions), ...(opts.extraScopes ?? [])];
    const method = opts.method ?? 'GET';
    const replayable =
      opts.body === undefined ||
      opts.body === null ||
      typeof opts.body === 'string' ||
      opts.body instanceof Uint8Array;
    const signal = opts.ignoreAbort ? null : this.signal;
    let refreshed = false;
    for (;;) {
      const authorization = await this.auth.authorization(repo.registry, base, scopes, signal);
      const res = await this.exchange(base, method, new URL(opts.url, `${base}/`), authorization, opts);
      if (res.status !== 401) return res;
      await res.dump().catch(() => undefined);
      const challenge = this.auth.learn(repo.registry, res.headers['www-authenticate']);
      this.auth.invalidate(repo.registry, scopes);
      if (!refreshed && replayable && challenge) {
        refreshed = true;
        // The registry names the scope it wants (distribution: DELETE needs "delete").
        if (challenge.kind === 'bearer' && challenge.scope) {
          for (const s of challenge.scope.split(' ')) if (!scopes.includes(s)) scopes.push(s);
        }
        continue;
      }
      const why = challenge?.kind === 'bearer' && challenge.error ? ` (${challenge.error})` : '';
      throw new AuthError(`${opts.what}: the registry refused access${why}`, {
        hint: `Check your permissions on ${repo.registry}/${repo.repository}, or run "hubctl auth login ${repo.registry}".`,
      });
    }
  }

  private async exchange(
    base: string,
    method: Method,
    url: URL,
    authorization: string | undefined,
    opts: SendOptions,
  ): Promise<HttpResponse> {
    const req: HttpRequestOptions = {
      method,
      url,
      headers: opts.headers,
      // The HTTP layer attaches it to the registry's own origin only, redirects included.
      ...(authorization ? { credential: { origin: new URL(base).origin, authorization } } : {}),
      body: opts.body,
      okStatuses: 'any',
      followRedirects: opts.follow ?? (method === 'GET' || method === 'HEAD'),
      signal: opts.ignoreAbort ? undefined : this.signal,
      what: opts.what,
      ...(opts.stream ? { stream: true } : {}),
      ...(opts.expectedSize !== undefined ? { expectedSize: opts.expectedSize } : {}),
    };
    if (opts.timeoutMs !== undefined) req.timeoutMs = opts.timeoutMs;
    return this.http.request(req);
  }

  /** Turns a non-success answer into a typed error with the registry's code in the message. */
  protected async fail(res: HttpResponse, what: string, method: Method = 'GET'): Promise<never> {
    const text = method === 'HEAD' ? '' : await res.text(MAX_ERROR_BYTES).catch(() => '');
    throw apiErrorFrom(res.status, text, { url: res.url, what });
  }

  protected async expect(res: HttpResponse, statuses: number[], what: string, method: Method = 'GET') {
    if (!statuses.includes(res.status)) await this.fail(res, what, method);
  }

  protected location(res: HttpResponse, what: string, fallback?: string): string {
    const loc = res.headers.location;
    if (!loc) {
      if (fallback) return fallback;
      throw new NetworkError(`${what}: the registry answered without a Location`);
    }
    return new URL(loc, res.url).toString();
  }
}

/**
 * `Range: 0-1234` → 1235 (the next byte to send). distribution answers `0-0` for an empty upload,
 * so `0-0` is read as 0: at worst one byte is sent again, which the registry then refuses.
 */
export function rangeEnd(range: string | undefined): number | undefined {
  const m = /^(?:bytes=)?(\d+)-(\d+)$/.exec(range?.trim() ?? '');
  if (!m) return undefined;
  const end = Number(m[2]);
  return end === 0 ? 0 : end + 1;
}

/** The URL of `rel="next"` in a Link header. */
export function nextLink(link: string | undefined): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(/,(?=\s*<)/)) {
    const m = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (m && /rel="?next"?/i.test(m[2] ?? '')) return m[1];
  }
  return undefined;
}

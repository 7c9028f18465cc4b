// The registry client: the eleven operations of interface.md (B) over the shared HTTP layer.
// Authorization is attached only to the registry's own origin; redirects are followed here so
// that a redirect to another host never carries it (decisions §6).

import type { Readable } from 'node:stream';
import type { Clock } from '../../clock.js';
import { ApiError, AuthError, HubctlError, NetworkError, NotFoundError } from '../../errors.js';
import type { HttpClient, HttpRequestOptions, HttpResponse, Method, RequestBody } from '../../http/client.js';
import { apiErrorFrom } from '../../http/errors.js';
import { paginate } from '../../http/paginate.js';
import { type RepositoryName, registryBaseUrl } from '../../ref/reference.js';
import { RegistryAuth, type RegistryCredentialLookup, scopeFor } from './auth.js';
import { type ParsedManifest, parseManifest, sha256Digest, verifyManifestDigest } from './manifest.js';
import { MANIFEST_ACCEPT } from './media-types.js';

export interface RegistryClientOptions {
  http: HttpClient;
  clock: Clock;
  credentials: RegistryCredentialLookup;
  /** Hosts named with --plain-http (decisions §1). */
  plainHttpHosts?: readonly string[];
  signal?: AbortSignal;
}

export interface FetchedManifest {
  bytes: Buffer;
  digest: string;
  mediaType: string;
  parsed: ParsedManifest;
}

export interface ManifestHead {
  digest?: string;
  mediaType?: string;
  size?: number;
}

export interface BlobStream {
  body: Readable;
  /** The offset the body starts at: the requested one, or 0 when the server ignored Range. */
  start: number;
  /** Total blob size when the server said. */
  size?: number;
}

export type StartedUpload = { mounted: true } | { mounted: false; location: string };

export interface UploadState {
  location: string;
  /** Bytes the registry holds (the next byte to send). */
  offset: number;
}

export type DeleteOutcome = 'deleted' | 'background';

const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

type Actions = readonly ('pull' | 'push' | 'delete')[];

interface SendOptions {
  method?: Method;
  /** Path below the registry base, or an absolute URL (upload locations). */
  url: string;
  actions: Actions;
  /** Extra scopes (pull on the mount source). */
  extraScopes?: string[];
  headers?: Record<string, string>;
  body?: RequestBody;
  /** Whether the body can be sent again after a 401 (no body, or bytes). */
  timeoutMs?: number;
  what: string;
  follow?: boolean;
  /** Sent even after the run was cancelled (cancelling uploads on Ctrl-C). */
  ignoreAbort?: boolean;
}

export class RegistryClient {
  readonly auth: RegistryAuth;
  private readonly http: HttpClient;
  private readonly plainHttpHosts: readonly string[];
  private readonly signal?: AbortSignal;

  constructor(opts: RegistryClientOptions) {
    this.http = opts.http;
    this.plainHttpHosts = opts.plainHttpHosts ?? [];
    this.signal = opts.signal;
    this.auth = new RegistryAuth(opts.http, opts.clock, opts.credentials, opts.signal);
  }

  baseUrl(registry: string): string {
    return registryBaseUrl(registry, this.plainHttpHosts);
  }

  /** One request with auth, a refresh on a 401 with a new challenge, and safe redirects. */
  private async send(repo: RepositoryName, opts: SendOptions): Promise<HttpResponse> {
    const base = this.baseUrl(repo.registry);
    const scopes = [scopeFor(repo.repository, opts.actions), ...(opts.extraScopes ?? [])];
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
    first: URL,
    authorization: string | undefined,
    opts: SendOptions,
  ): Promise<HttpResponse> {
    const origin = new URL(base).origin;
    let url = first;
    const follow = opts.follow ?? (method === 'GET' || method === 'HEAD');
    for (let hops = 0; ; hops++) {
      const headers: Record<string, string> = { ...opts.headers };
      // Credentials belong to the registry's own origin only.
      if (authorization && url.origin === origin) headers.authorization = authorization;
      const req: HttpRequestOptions = {
        method,
        url,
        headers,
        body: opts.body,
        okStatuses: 'any',
        followRedirects: false,
        signal: opts.ignoreAbort ? undefined : this.signal,
        what: opts.what,
      };
      if (opts.timeoutMs !== undefined) req.timeoutMs = opts.timeoutMs;
      const res = await this.http.request(req);
      if (follow && REDIRECTS.has(res.status) && res.headers.location) {
        await res.dump().catch(() => undefined);
        if (hops >= MAX_REDIRECTS) throw new NetworkError(`${opts.what}: too many redirects`);
        url = new URL(res.headers.location, url);
        continue;
      }
      return res;
    }
  }

  /** Turns a non-success answer into a typed error with the registry's code in the message. */
  private async fail(res: HttpResponse, what: string, method: Method = 'GET'): Promise<never> {
    const text = method === 'HEAD' ? '' : await res.text().catch(() => '');
    throw apiErrorFrom(res.status, text, { url: res.url, what });
  }

  private async expect(res: HttpResponse, statuses: number[], what: string, method: Method = 'GET') {
    if (!statuses.includes(res.status)) await this.fail(res, what, method);
  }

  // ---- manifests --------------------------------------------------------------------------

  async getManifest(repo: RepositoryName, reference: string): Promise<FetchedManifest> {
    const what = `getting manifest ${reference} of ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      url: `v2/${repo.repository}/manifests/${reference}`,
      actions: ['pull'],
      headers: { accept: MANIFEST_ACCEPT },
      what,
    });
    if (res.status === 404) {
      const text = await res.text().catch(() => '');
      const err = apiErrorFrom(404, text, { url: res.url, what });
      throw new NotFoundError(err.message, { cause: err });
    }
    await this.expect(res, [200], what);
    const bytes = await readLimited(res.body, MAX_MANIFEST_BYTES, what);
    const headerDigest = res.headers['docker-content-digest'] ?? res.headers['registry-content-digest'];
    const parsed = parseManifest(bytes, res.headers['content-type'], what);
    const digest = verifyManifestDigest(bytes, headerDigest, what);
    if (reference.startsWith('sha256:')) verifyManifestDigest(bytes, reference, what);
    return { bytes, digest, mediaType: parsed.mediaType, parsed };
  }

  /** HEAD a manifest: undefined when it does not exist. */
  async headManifest(repo: RepositoryName, reference: string): Promise<ManifestHead | undefined> {
    const what = `checking manifest ${reference} of ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      method: 'HEAD',
      url: `v2/${repo.repository}/manifests/${reference}`,
      actions: ['pull'],
      headers: { accept: MANIFEST_ACCEPT },
      what,
    });
    await res.dump().catch(() => undefined);
    if (res.status === 404) return undefined;
    await this.expect(res, [200], what, 'HEAD');
    const size = Number(res.headers['content-length']);
    return {
      digest: res.headers['docker-content-digest'] ?? res.headers['registry-content-digest'],
      mediaType: res.headers['content-type']?.split(';')[0]?.trim(),
      size: Number.isFinite(size) ? size : undefined,
    };
  }

  /** PUT a manifest under a tag or digest; answers the digest (checked against the bytes). */
  async putManifest(
    repo: RepositoryName,
    reference: string,
    bytes: Uint8Array,
    mediaType: string,
  ): Promise<string> {
    const what = `pushing manifest ${reference} to ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      method: 'PUT',
      url: `v2/${repo.repository}/manifests/${reference}`,
      actions: ['pull', 'push'],
      headers: { 'content-type': mediaType },
      body: bytes,
      what,
    });
    await this.expect(res, [200, 201, 202], what);
    await res.dump().catch(() => undefined);
    const expected = res.headers['docker-content-digest'] ?? res.headers['registry-content-digest'];
    return verifyManifestDigest(bytes, expected, what);
  }

  /**
   * DELETE a manifest by digest. 202 → deleted; 500 → the registry finishes in the background
   * (no retry); 403 → still referenced; 405, or 400 UNSUPPORTED → deletes are not allowed.
   */
  async deleteManifest(repo: RepositoryName, digest: string): Promise<DeleteOutcome> {
    const what = `deleting manifest ${digest} of ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      method: 'DELETE',
      url: `v2/${repo.repository}/manifests/${digest}`,
      actions: ['delete'],
      what,
    });
    if (res.status === 200 || res.status === 202 || res.status === 204) {
      await res.dump().catch(() => undefined);
      return 'deleted';
    }
    const text = await res.text().catch(() => '');
    const err = apiErrorFrom(res.status, text, { url: res.url, what });
    if (res.status >= 500 && res.status !== 501) return 'background';
    if (res.status === 403) {
      throw new ApiError(`${what}: the manifest is still referenced by another tag or image`, {
        status: 403,
        apiCode: err.apiCode,
        url: res.url,
        hint: 'Delete the images or tags that reference it first.',
      });
    }
    if (res.status === 405 || res.status === 501 || (res.status === 400 && err.apiCode === 'UNSUPPORTED')) {
      throw new ApiError(
        `${what}: the registry does not allow deletes (${err.message.replace(`${what}: `, '')})`,
        {
          status: res.status,
          apiCode: err.apiCode,
          url: res.url,
        },
      );
    }
    if (res.status === 404) throw new NotFoundError(err.message, { cause: err });
    throw err;
  }

  // ---- blobs ------------------------------------------------------------------------------

  /** HEAD a blob: its size when it exists, undefined when not. */
  async headBlob(repo: RepositoryName, digest: string): Promise<number | undefined> {
    const what = `checking blob ${digest} in ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      method: 'HEAD',
      url: `v2/${repo.repository}/blobs/${digest}`,
      actions: ['pull'],
      what,
    });
    await res.dump().catch(() => undefined);
    if (res.status === 404) return undefined;
    await this.expect(res, [200], what, 'HEAD');
    const size = Number(res.headers['content-length']);
    return Number.isFinite(size) ? size : -1;
  }

  /** GET a blob, from `start` with a Range request when start > 0. The caller verifies the digest. */
  async getBlob(repo: RepositoryName, digest: string, start = 0): Promise<BlobStream> {
    const what = `pulling blob ${digest} from ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      url: `v2/${repo.repository}/blobs/${digest}`,
      actions: ['pull'],
      headers: start > 0 ? { range: `bytes=${start}-` } : {},
      what,
    });
    if (res.status === 404) {
      const text = await res.text().catch(() => '');
      throw new NotFoundError(apiErrorFrom(404, text, { url: res.url, what }).message);
    }
    await this.expect(res, [200, 206], what);
    if (res.status === 206) {
      const m = /bytes (\d+)-(\d+)\/(\d+|\*)/.exec(res.headers['content-range'] ?? '');
      const from = m ? Number(m[1]) : start;
      if (from !== start) {
        res.body.destroy();
        throw new NetworkError(`${what}: asked for bytes from ${start}, the registry sent from ${from}`);
      }
      return { body: res.body, start, size: m && m[3] !== '*' ? Number(m[3]) : undefined };
    }
    const len = Number(res.headers['content-length']);
    return { body: res.body, start: 0, size: Number.isFinite(len) ? len : undefined };
  }

  // ---- uploads ----------------------------------------------------------------------------

  /** POST /blobs/uploads/: a new upload, or a mount from another repository of the same registry. */
  async startUpload(repo: RepositoryName, mount?: { digest: string; from: string }): Promise<StartedUpload> {
    const what = mount
      ? `mounting blob ${mount.digest} from ${mount.from} into ${repo.registry}/${repo.repository}`
      : `starting an upload to ${repo.registry}/${repo.repository}`;
    const query = mount
      ? `?mount=${encodeURIComponent(mount.digest)}&from=${encodeURIComponent(mount.from)}`
      : '';
    const res = await this.send(repo, {
      method: 'POST',
      url: `v2/${repo.repository}/blobs/uploads/${query}`,
      actions: ['pull', 'push'],
      extraScopes: mount ? [scopeFor(mount.from, ['pull'])] : [],
      headers: { 'content-length': '0' },
      body: '',
      what,
    });
    await this.expect(res, [201, 202], what);
    await res.dump().catch(() => undefined);
    if (res.status === 201) return { mounted: true };
    return { mounted: false, location: this.location(res, what) };
  }

  /** PATCH one chunk (`start` is its first byte); answers the new location and offset. */
  async patchUpload(
    repo: RepositoryName,
    location: string,
    body: RequestBody,
    start: number,
    length: number,
  ): Promise<UploadState> {
    const what = `uploading to ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      method: 'PATCH',
      url: location,
      actions: ['pull', 'push'],
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(length),
        'content-range': `${start}-${start + length - 1}`,
      },
      body,
      timeoutMs: 120_000,
      what,
    });
    await this.expect(res, [202, 204], what);
    await res.dump().catch(() => undefined);
    const next = this.location(res, what, location);
    const reported = rangeEnd(res.headers.range);
    return { location: next, offset: Math.max(reported ?? 0, start + length) };
  }

  /** PUT ?digest= to finish an upload, with the rest of the bytes (monolithic) or none. */
  async completeUpload(
    repo: RepositoryName,
    location: string,
    digest: string,
    body?: { data: RequestBody; length: number },
  ): Promise<void> {
    const what = `finishing the upload of ${digest} to ${repo.registry}/${repo.repository}`;
    const url = new URL(location, `${this.baseUrl(repo.registry)}/`);
    url.searchParams.append('digest', digest);
    const res = await this.send(repo, {
      method: 'PUT',
      url: url.toString(),
      actions: ['pull', 'push'],
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(body?.length ?? 0),
      },
      body: body?.data ?? '',
      timeoutMs: 120_000,
      what,
    });
    await this.expect(res, [201, 204], what);
    await res.dump().catch(() => undefined);
    const got = res.headers['docker-content-digest'] ?? res.headers['registry-content-digest'];
    if (got && got !== digest) {
      throw new NetworkError(`${what}: the registry stored ${got}`);
    }
  }

  /** GET an upload's status: its offset, or undefined when the registry no longer has it. */
  async uploadStatus(repo: RepositoryName, location: string): Promise<UploadState | undefined> {
    const what = `asking the status of an upload to ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, { url: location, actions: ['pull', 'push'], what, follow: false });
    if (res.status === 404 || res.status === 400) {
      await res.dump().catch(() => undefined);
      return undefined;
    }
    await this.expect(res, [204, 200], what);
    await res.dump().catch(() => undefined);
    return { location: this.location(res, what, location), offset: rangeEnd(res.headers.range) ?? 0 };
  }

  /** DELETE an upload (cancel). A 404 (already gone) is fine. */
  async cancelUpload(repo: RepositoryName, location: string): Promise<void> {
    const what = `cancelling an upload to ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      method: 'DELETE',
      url: location,
      actions: ['pull', 'push'],
      what,
      ignoreAbort: true,
    });
    await res.dump().catch(() => undefined);
    if (res.status !== 404) await this.expect(res, [200, 202, 204], what, 'HEAD');
  }

  private location(res: HttpResponse, what: string, fallback?: string): string {
    const loc = res.headers.location;
    if (!loc) {
      if (fallback) return fallback;
      throw new NetworkError(`${what}: the registry answered without a Location`);
    }
    return new URL(loc, res.url).toString();
  }

  // ---- tags -------------------------------------------------------------------------------

  /** Every tag of a repository, following `Link: <…>; rel="next"`. */
  listTags(repo: RepositoryName): AsyncGenerator<string> {
    const what = `listing tags of ${repo.registry}/${repo.repository}`;
    return paginate<string>(async (cursor) => {
      const res = await this.send(repo, {
        url: cursor ?? `v2/${repo.repository}/tags/list`,
        actions: ['pull'],
        what,
      });
      if (res.status === 404) {
        const text = await res.text().catch(() => '');
        throw new NotFoundError(apiErrorFrom(404, text, { url: res.url, what }).message);
      }
      await this.expect(res, [200], what);
      const body = await res.json<{ tags?: string[] | null }>();
      const next = nextLink(res.headers.link);
      return { items: body.tags ?? [], next: next ? new URL(next, res.url).toString() : null };
    });
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

async function readLimited(body: Readable, limit: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += (chunk as Buffer).length;
    if (total > limit) {
      body.destroy();
      throw new HubctlError(`${what}: the manifest is larger than ${limit} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export { sha256Digest };

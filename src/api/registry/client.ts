// The registry client: the eleven operations of interface.md (B) over the registry transport
// (transport.ts: auth, safe redirects, error bodies).

import type { Readable } from 'node:stream';
import { ApiError, AuthError, NetworkError, NotFoundError, UnexpectedAnswerError } from '../../errors.js';
import { MAX_ERROR_BYTES, MAX_MANIFEST_BYTES } from '../../http/body.js';
import type { HttpResponse, Method, RequestBody } from '../../http/client.js';
import { apiErrorFrom } from '../../http/errors.js';
import { nextPageUrl, paginate } from '../../http/paginate.js';
import {
  type ParsedManifest,
  parseManifest,
  sha256Digest,
  verifyManifestDigest,
} from '../../oci/manifest.js';
import { type Descriptor, MANIFEST_ACCEPT, OCI_INDEX } from '../../oci/media-types.js';
import type { RepositoryName } from '../../ref/reference.js';
import { readAnswer } from '../answer.js';
import { CatalogAnswer, TagListAnswer } from './answers.js';
import { scopeFor } from './auth.js';
import { type RateLimit, rateLimitOf } from './rate-limit.js';
import {
  type Actions,
  nextLink,
  type RegistryClientOptions,
  RegistryTransport,
  rangeEnd,
} from './transport.js';

export type { RegistryClientOptions };

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
  /** Within how long the body, read into memory whole (a config), must arrive in all. */
  deadlineMs?: number;
}

export type StartedUpload = { mounted: true } | { mounted: false; location: string };

export interface UploadState {
  location: string;
  /** Bytes the registry holds (the next byte to send). */
  offset: number;
}

export type DeleteOutcome = 'deleted' | 'background';

/**
 * Tag lists stop past these: 1,000,000 tags (~50 MB in memory) is beyond any repository we know of,
 * and 10,000 pages fit it at the 100 tags a page Docker Hub answers.
 */
const MAX_TAGS = 1_000_000;
const MAX_TAG_PAGES = 10_000;
/** Referrers of one manifest listed at most, and pages read for them. */
export const MAX_REFERRERS = 10_000;
const MAX_REFERRER_PAGES = 1_000;

export class RegistryClient extends RegistryTransport {
  // ---- the login ---------------------------------------------------------------------------

  /**
   * Checks the credential hubctl has for a registry: with its token service (a token with no
   * scope), or the registry itself when it asks for Basic. Answers how the registry authenticates;
   * throws AuthError when the credential is refused.
   */
  async checkLogin(registry: string): Promise<'token service' | 'basic' | 'none'> {
    const base = this.baseUrl(registry);
    const challenge = await this.auth.challengeFor(registry, base);
    if (challenge.kind === 'none') return 'none';
    const authorization = await this.auth.authorization(registry, base, []);
    if (challenge.kind === 'bearer') return 'token service';
    const what = `checking the credential for ${registry}`;
    const res = await this.http.request({
      url: `${base}/v2/`,
      ...(authorization ? { credential: { origin: new URL(base).origin, authorization } } : {}),
      okStatuses: 'any',
      what,
    });
    await res.dump().catch(() => undefined);
    if (res.status === 401 || res.status === 403)
      throw new AuthError(`${what}: the registry refused it (${res.status})`);
    await this.expect(res, [200], what);
    return 'basic';
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
      const text = await res.text(MAX_ERROR_BYTES).catch(() => '');
      const err = apiErrorFrom(404, text, { url: res.url, what });
      throw new NotFoundError(err.message, { cause: err });
    }
    await this.expect(res, [200], what);
    const bytes = await res.bytes(MAX_MANIFEST_BYTES);
    const headerDigest = res.headers['docker-content-digest'] ?? res.headers['registry-content-digest'];
    const parsed = parseManifest(bytes, res.headers['content-type'], what, new URL(res.url).host);
    const digest = verifyManifestDigest(bytes, headerDigest, what);
    if (reference.startsWith('sha256:')) verifyManifestDigest(bytes, reference, what);
    return { bytes, digest, mediaType: parsed.mediaType, parsed };
  }

  /** The answer to a HEAD of a manifest (every current type accepted), its empty body drained. */
  private async headManifestAnswer(repo: RepositoryName, reference: string, what: string) {
    const res = await this.send(repo, {
      method: 'HEAD',
      url: `v2/${repo.repository}/manifests/${reference}`,
      actions: ['pull'],
      headers: { accept: MANIFEST_ACCEPT },
      what,
    });
    await res.dump().catch(() => undefined);
    return res;
  }

  /** HEAD a manifest: undefined when it does not exist. */
  async headManifest(repo: RepositoryName, reference: string): Promise<ManifestHead | undefined> {
    const what = `checking manifest ${reference} of ${repo.registry}/${repo.repository}`;
    const res = await this.headManifestAnswer(repo, reference, what);
    if (res.status === 404) return undefined;
    await this.expect(res, [200], what, 'HEAD');
    const size = Number(res.headers['content-length']);
    return {
      digest: res.headers['docker-content-digest'] ?? res.headers['registry-content-digest'],
      mediaType: res.headers['content-type']?.split(';')[0]?.trim(),
      size: Number.isFinite(size) ? size : undefined,
    };
  }

  /**
   * The pull rate limit the registry reports, from a HEAD of a manifest (Docker Hub does not count
   * a HEAD as a pull); undefined when it reports none.
   */
  async rateLimit(repo: RepositoryName, reference: string): Promise<RateLimit | undefined> {
    const what = `checking the rate limit of ${repo.registry}/${repo.repository}`;
    const res = await this.headManifestAnswer(repo, reference, what);
    if (res.status === 404)
      throw new NotFoundError(`${what}: ${repo.repository}:${reference} does not exist`);
    // 429 carries the headers too: the limit is reached.
    if (res.status !== 429) await this.expect(res, [200], what, 'HEAD');
    return rateLimitOf(res.headers);
  }

  /** PUT a manifest under a tag or digest; answers the digest (checked against the bytes). */
  async putManifest(
    repo: RepositoryName,
    reference: string,
    bytes: Uint8Array,
    mediaType: string,
  ): Promise<string> {
    return (await this.pushManifest(repo, reference, bytes, mediaType)).digest;
  }

  /**
   * PUT a manifest; answers its digest and whether the registry said it indexed the manifest's
   * subject (the `OCI-Subject` header of the referrers API): when not, the client keeps the
   * fallback tag (OCI distribution 1.1).
   */
  async pushManifest(
    repo: RepositoryName,
    reference: string,
    bytes: Uint8Array,
    mediaType: string,
  ): Promise<{ digest: string; subjectIndexed: boolean }> {
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
    return {
      digest: verifyManifestDigest(bytes, expected, what),
      subjectIndexed: Boolean(res.headers['oci-subject']),
    };
  }

  /**
   * The referrers API (`GET /v2/<name>/referrers/<digest>`, OCI distribution 1.1), page by page:
   * undefined when the registry does not have it (404, which a registry that has it never answers).
   * `filtered` tells whether the registry applied the artifact type filter (`OCI-Filters-Applied`).
   */
  async referrersApi(
    repo: RepositoryName,
    digest: string,
    artifactType?: string,
  ): Promise<{ descriptors: Descriptor[]; filtered: boolean } | undefined> {
    const what = `listing the referrers of ${digest} in ${repo.registry}/${repo.repository}`;
    const query = artifactType ? `?artifactType=${encodeURIComponent(artifactType)}` : '';
    const descriptors: Descriptor[] = [];
    let filtered = artifactType !== undefined;
    let url: string | undefined = `v2/${repo.repository}/referrers/${digest}${query}`;
    const seen = new Set<string>();
    for (let page = 0; url; page++) {
      if (page >= MAX_REFERRER_PAGES || seen.has(url))
        throw new UnexpectedAnswerError(
          `${what}: unexpected answer from ${repo.registry}: the pages do not end`,
        );
      seen.add(url);
      const res = await this.send(repo, {
        url,
        actions: ['pull'],
        headers: { accept: OCI_INDEX },
        what,
      });
      if (res.status === 404 && page === 0) {
        await res.dump().catch(() => undefined);
        return undefined;
      }
      await this.expect(res, [200], what);
      if (!/\bartifactType\b/i.test(res.headers['oci-filters-applied'] ?? '')) filtered = false;
      const bytes = await res.bytes(MAX_MANIFEST_BYTES);
      const parsed = parseManifest(bytes, res.headers['content-type'] ?? OCI_INDEX, what, repo.registry);
      if (parsed.kind !== 'index')
        throw new UnexpectedAnswerError(`${what}: unexpected answer from ${repo.registry}: not an index`);
      descriptors.push(...parsed.index.manifests);
      if (descriptors.length > MAX_REFERRERS)
        throw new UnexpectedAnswerError(
          `${what}: unexpected answer from ${repo.registry}: more than ${MAX_REFERRERS} referrers`,
        );
      const next = nextLink(res.headers.link);
      url = next ? nextPageUrl(next, res.url, what) : undefined;
    }
    return { descriptors, filtered };
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
    const text = await res.text(MAX_ERROR_BYTES).catch(() => '');
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

  /**
   * HEAD a blob: its size when it exists, undefined when not. A push asks with the push scope, so
   * that the check and the upload that follows share one token.
   */
  async headBlob(
    repo: RepositoryName,
    digest: string,
    actions: Actions = ['pull'],
  ): Promise<number | undefined> {
    const what = `checking blob ${digest} in ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      method: 'HEAD',
      url: `v2/${repo.repository}/blobs/${digest}`,
      actions,
      what,
    });
    await res.dump().catch(() => undefined);
    if (res.status === 404) return undefined;
    await this.expect(res, [200], what, 'HEAD');
    const size = Number(res.headers['content-length']);
    return Number.isFinite(size) ? size : -1;
  }

  /**
   * GET a blob, from `start` with a Range request when start > 0 (`size`, when known, is the
   * blob's whole size). The caller verifies the digest.
   */
  async getBlob(repo: RepositoryName, digest: string, start = 0, size?: number): Promise<BlobStream> {
    const what = `pulling blob ${digest} from ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      url: `v2/${repo.repository}/blobs/${digest}`,
      actions: ['pull'],
      headers: start > 0 ? { range: `bytes=${start}-` } : {},
      stream: true,
      ...(size !== undefined ? { expectedSize: size - start } : {}),
      what,
    });
    await this.throwIfMissing(res, what);
    await this.expect(res, [200, 206], what);
    if (res.status === 206) {
      const m = /bytes (\d+)-(\d+)\/(\d+|\*)/.exec(res.headers['content-range'] ?? '');
      const from = m ? Number(m[1]) : start;
      if (from !== start) {
        res.body.destroy();
        throw new NetworkError(`${what}: asked for bytes from ${start}, the registry sent from ${from}`);
      }
      return {
        body: res.body,
        start,
        size: m && m[3] !== '*' ? Number(m[3]) : undefined,
        deadlineMs: res.readDeadlineMs,
      };
    }
    const len = Number(res.headers['content-length']);
    return {
      body: res.body,
      start: 0,
      size: Number.isFinite(len) ? len : undefined,
      deadlineMs: res.readDeadlineMs,
    };
  }

  /** A 404 as a NotFoundError with the registry's own words. */
  private async throwIfMissing(res: HttpResponse, what: string): Promise<void> {
    if (res.status !== 404) return;
    const text = await res.text(MAX_ERROR_BYTES).catch(() => '');
    throw new NotFoundError(apiErrorFrom(404, text, { url: res.url, what }).message);
  }

  /** A small blob (a config) read into memory: at most `limit` bytes, a cut read fetched again. */
  async getBlobBytes(repo: RepositoryName, digest: string, limit: number): Promise<Buffer> {
    const what = `pulling blob ${digest} from ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      url: `v2/${repo.repository}/blobs/${digest}`,
      actions: ['pull'],
      what,
    });
    await this.throwIfMissing(res, what);
    await this.expect(res, [200], what);
    return res.bytes(limit);
  }

  // ---- uploads ----------------------------------------------------------------------------

  /**
   * POST /blobs/uploads/: a new upload, or a mount from another repository of the same registry.
   * A mount from the repository itself asks whether it holds the blob and opens an upload when it
   * does not, in one request (no scope beyond the upload's).
   */
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
      extraScopes: mount && mount.from !== repo.repository ? [scopeFor(mount.from, ['pull'])] : [],
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
    const sent = await this.patch(repo, location, body, {
      'content-length': String(length),
      'content-range': `${start}-${start + length - 1}`,
    });
    return { location: sent.location, offset: Math.max(sent.offset ?? 0, start + length) };
  }

  /**
   * PATCH a body of unknown length (chunked, no Content-Range: the API's stream upload), as a
   * blob made on the way is sent; answers the new location and the registry's offset.
   */
  async streamUpload(repo: RepositoryName, location: string, body: RequestBody): Promise<UploadState> {
    const sent = await this.patch(repo, location, body, {});
    return { location: sent.location, offset: sent.offset ?? 0 };
  }

  /** One PATCH of an upload: the next location, and the offset the registry reports (if any). */
  private async patch(
    repo: RepositoryName,
    location: string,
    body: RequestBody,
    headers: Record<string, string>,
  ): Promise<{ location: string; offset: number | undefined }> {
    const what = `uploading to ${repo.registry}/${repo.repository}`;
    const res = await this.send(repo, {
      method: 'PATCH',
      url: location,
      actions: ['pull', 'push'],
      headers: { 'content-type': 'application/octet-stream', ...headers },
      body,
      timeoutMs: 120_000,
      what,
    });
    await this.expect(res, [202, 204], what);
    await res.dump().catch(() => undefined);
    return { location: this.location(res, what, location), offset: rangeEnd(res.headers.range) };
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

  // ---- repositories and tags --------------------------------------------------------------

  /**
   * The repositories of a registry (`/v2/_catalog`, token scope `registry:catalog:*`), page by page
   * with `n` and `last` and the `Link` header; the caller stops when it has enough.
   */
  listRepositories(registry: string): AsyncGenerator<string> {
    const what = `listing the repositories of ${registry}`;
    const site = { registry, repository: '' };
    return paginate<string>(
      async (cursor) => {
        const res = await this.send(site, {
          url: cursor ?? `v2/_catalog?n=${CATALOG_PAGE}`,
          actions: [],
          scopes: ['registry:catalog:*'],
          what,
        });
        if (res.status === 404) {
          await res.dump().catch(() => undefined);
          throw new NotFoundError(
            `${registry} does not offer a repository listing (/v2/_catalog answered 404)`,
          );
        }
        await this.expect(res, [200], what);
        const body = await readAnswer(res, CatalogAnswer, what);
        const next = nextLink(res.headers.link);
        return { items: body.repositories ?? [], next: next ? nextPageUrl(next, res.url, what) : null };
      },
      // The command stops at its --limit (100,000 at most); a registry that goes on past that is
      // not read further.
      {
        host: registry,
        what,
        maxPages: 1 + MAX_CATALOG_ITEMS / CATALOG_PAGE,
        maxItems: MAX_CATALOG_ITEMS + CATALOG_PAGE,
      },
    );
  }

  /**
   * One request of `hubctl api --service registry:HOST`: `url` on the registry's own origin, with
   * the token `scopes` need (src/api/raw.ts registryScope); a non-success answer is a typed error.
   */
  async rawRequest(
    registry: string,
    opts: {
      method: Method;
      url: URL;
      scopes: string[];
      headers?: Record<string, string>;
      body?: RequestBody;
    },
  ): Promise<HttpResponse> {
    const what = `${opts.method} ${opts.url.pathname}`;
    const res = await this.send(
      { registry, repository: '' },
      {
        method: opts.method,
        url: opts.url.toString(),
        actions: [],
        scopes: opts.scopes,
        ...(opts.headers ? { headers: opts.headers } : {}),
        ...(opts.body === undefined ? {} : { body: opts.body }),
        what,
      },
    );
    if (res.status < 200 || res.status > 299) await this.fail(res, what, opts.method);
    return res;
  }

  /** Every tag of a repository, following `Link: <…>; rel="next"`. */
  listTags(repo: RepositoryName): AsyncGenerator<string> {
    const what = `listing tags of ${repo.registry}/${repo.repository}`;
    return paginate<string>(
      async (cursor) => {
        const res = await this.send(repo, {
          url: cursor ?? `v2/${repo.repository}/tags/list`,
          actions: ['pull'],
          what,
        });
        await this.throwIfMissing(res, what);
        await this.expect(res, [200], what);
        const body = await readAnswer(res, TagListAnswer, what);
        const next = nextLink(res.headers.link);
        return { items: body.tags ?? [], next: next ? nextPageUrl(next, res.url, what) : null };
      },
      { host: repo.registry, what, maxPages: MAX_TAG_PAGES, maxItems: MAX_TAGS },
    );
  }
}

/** Repositories asked for per catalog page, and listed at most. */
const CATALOG_PAGE = 100;
export const MAX_CATALOG_ITEMS = 100_000;

export { nextLink, rangeEnd, sha256Digest };

// Pushing one blob (decisions §6): HEAD first (skip), mount from another repository of the same
// registry when one is known to hold it, else upload — monolithic for small blobs, PATCH chunks for
// large ones. A failed chunk asks the upload's status and continues from the registry's Range (or
// starts a new upload when the registry dropped it); chunk offsets are saved under the state
// directory so that the next run continues an upload this process could not finish.

import type { Readable } from 'node:stream';
import type { RegistryClient } from '../../api/registry/client.js';
import { ApiError, AuthError, HubctlError, IntegrityError, NetworkError } from '../../errors.js';
import { tapped } from '../../http/body.js';
import type { BlobAction, TransferProgress } from '../../output/progress.js';
import type { RepositoryName } from '../../ref/reference.js';
import { asNetworkError } from '../verified-write.js';
import type { BlobMemory } from './known-blobs.js';
import type { UploadStateStore } from './upload-state.js';

export const DEFAULT_MONOLITHIC_MAX = 32 * 1024 * 1024;
export const DEFAULT_CHUNK_SIZE = 64 * 1024 * 1024;
export const MAX_FAILURES = 5;
/** The checks of a push ask for the upload's scope: one token for the HEAD and the upload. */
export const PUSH = ['pull', 'push'] as const;

export interface OpenUpload {
  repo: RepositoryName;
  location: string;
  digest: string;
}

export interface UploadContext {
  client: RegistryClient;
  repo: RepositoryName;
  progress: TransferProgress;
  signal: AbortSignal;
  /** Uploads in flight, cancelled (DELETE) when the run is interrupted. */
  open: Set<OpenUpload>;
  uploads?: UploadStateStore;
  known?: BlobMemory;
  /** A repository of the same registry that has the blobs (copy within one registry). */
  mountFrom?: string;
  monolithicMax?: number;
  chunkSize?: number;
  /**
   * Blobs up to this size are not HEADed first: the upload's POST asks for a mount from the
   * repository itself (or the one known to hold it), which answers 201 when the blob is there and
   * opens the upload when it is not — one request fewer for a new blob, as many for a present one.
   * A registry that ignores such a mount has the (small) blob uploaded again.
   */
  probeByMountMax?: number;
  /** Notes for --debug ("resumed at byte N"). */
  note?: (line: string) => void;
}

/** Opens the blob's bytes from `start` to `end` (exclusive). */
export type BlobOpen = (start: number, end: number) => Promise<Readable>;

export function isRetryable(err: unknown): boolean {
  if (err instanceof AuthError || err instanceof IntegrityError) return false;
  if (err instanceof NetworkError) return true;
  if (err instanceof ApiError) return err.status >= 500 || err.status === 408 || err.status === 429;
  if (err instanceof HubctlError) return false;
  const code = (err as { code?: string } | undefined)?.code;
  return (
    typeof code === 'string' &&
    /^(ECONNRESET|EPIPE|ETIMEDOUT|ECONNREFUSED|UND_ERR_|ERR_STREAM_PREMATURE_CLOSE)/.test(code)
  );
}

/** Counts what passes, as a tap on the body's relay (http/body.ts): no stream of its own. */
function metered(body: Readable, onBytes: (n: number) => void): Readable {
  let n = 0;
  return tapped(body, {
    chunk(chunk) {
      n += chunk.length;
      onBytes(n);
    },
  });
}

/**
 * The next PATCH's length: a tail under a quarter of a chunk rides with the chunk before it, so a
 * blob just over N chunks (a 128 MiB layer plus its tar headers) takes N requests, not N + 1.
 */
export function chunkLength(left: number, chunkSize: number): number {
  return left - chunkSize < chunkSize / 4 ? left : chunkSize;
}

export async function pushBlob(
  uc: UploadContext,
  digest: string,
  size: number,
  open: BlobOpen,
): Promise<BlobAction> {
  const { client, repo } = uc;
  const probeByMount = size <= (uc.probeByMountMax ?? -1);
  if (!probeByMount && (await client.headBlob(repo, digest, PUSH)) !== undefined) {
    uc.progress.done(digest, size, 'skipped');
    return 'skipped';
  }
  const monolithicMax = uc.monolithicMax ?? DEFAULT_MONOLITHIC_MAX;
  const chunkSize = uc.chunkSize ?? DEFAULT_CHUNK_SIZE;
  // Saved state only helps a later run: failing to write it never fails this one.
  const save = async (location: string, offset: number) =>
    uc.uploads
      ?.save({ registry: repo.registry, repository: repo.repository, digest, location, offset })
      .catch((err: Error) => uc.note?.(`could not save the upload state of ${digest}: ${err.message}`));

  let resumed: string | undefined;
  let offset = 0;
  const saved = await uc.uploads?.load(repo.registry, repo.repository, digest);
  if (saved) {
    const status = await client.uploadStatus(repo, saved.location).catch(() => undefined);
    if (status && status.offset <= size) {
      resumed = status.location;
      offset = status.offset;
      uc.note?.(`continuing the upload of ${digest} left by an earlier run at byte ${offset}`);
    } else {
      uc.note?.(`the registry no longer has the earlier upload of ${digest}; starting again`);
      await uc.uploads?.remove(repo.registry, repo.repository, digest);
    }
  }
  let location: string;
  let early: Promise<Readable> | undefined;
  if (resumed) location = resumed;
  else {
    const known = uc.mountFrom ?? (await uc.known?.repositoryWith(repo.registry, digest, repo.repository));
    const from = known && known !== repo.repository ? known : probeByMount ? repo.repository : undefined;
    // A small blob probed in its own repository (no other known to hold it) is read from the source
    // while the POST is on its way: one round trip fewer when it has to be sent; the read is
    // dropped when the registry has the blob.
    if (from === repo.repository && size <= monolithicMax) {
      early = open(0, size);
      early.catch(() => undefined);
    }
    let started: Started;
    try {
      started = await startOrMount(uc, digest, from);
    } catch (err) {
      drop(early);
      throw err;
    }
    if (started.mounted) {
      drop(early);
      // Mounted from the repository itself: it was there already.
      const action = started.self ? 'skipped' : 'mounted';
      uc.progress.done(digest, size, action);
      return action;
    }
    location = started.location;
  }

  const entry: OpenUpload = { repo, location, digest };
  uc.open.add(entry);
  uc.progress.begin(digest, size);
  if (size > monolithicMax) await save(location, offset);
  let failures = 0;
  for (;;) {
    let body: Readable | undefined;
    try {
      if (offset === 0 && size <= monolithicMax) {
        const first = early;
        early = undefined;
        body = metered(await (first ?? open(0, size)), (n) => uc.progress.update(digest, n));
        await client.completeUpload(repo, location, digest, { data: body, length: size });
      } else {
        while (offset < size) {
          const len = chunkLength(size - offset, chunkSize);
          const base = offset;
          body = metered(await open(offset, offset + len), (n) => uc.progress.update(digest, base + n));
          const next = await client.patchUpload(repo, location, body, offset, len);
          location = next.location;
          entry.location = location;
          offset = next.offset;
          await save(location, offset);
        }
        await client.completeUpload(repo, location, digest);
      }
      break;
    } catch (err) {
      // A source read the request never took (it failed before sending: a token it could not get)
      // is dropped: paused, unread, it would hold its connection open with no deadline.
      body?.destroy();
      if (uc.signal.aborted) throw err;
      // A lost answer to the final PUT (and a repeated PUT then refused as an unknown upload):
      // the registry may have the blob already.
      if ((await client.headBlob(repo, digest, PUSH).catch(() => undefined)) !== undefined) break;
      if (!isRetryable(err)) {
        // Not a broken connection: this upload cannot succeed as it is; do not leave it behind.
        uc.open.delete(entry);
        await client.cancelUpload(repo, location).catch(() => undefined);
        await uc.uploads?.remove(repo.registry, repo.repository, digest);
        throw err;
      }
      if (++failures > MAX_FAILURES) throw asNetworkError(err, `pushing blob ${digest}`);
      const status: Awaited<ReturnType<RegistryClient['uploadStatus']>> = await client
        .uploadStatus(repo, location)
        .catch(() => undefined);
      if (status && status.offset <= size && (status.offset > 0 || size > monolithicMax)) {
        uc.note?.(
          `upload of ${digest} broke (${(err as Error).message}); the registry holds ${status.offset} bytes, continuing`,
        );
        location = status.location;
        offset = status.offset;
      } else {
        uc.note?.(`upload of ${digest} broke (${(err as Error).message}); starting a new upload`);
        // The registry may still hold the broken one (a cut monolithic PUT leaves it at byte 0):
        // cancelled, not left for its purge. An upload it no longer has answers 404, which is fine.
        if (status) await client.cancelUpload(repo, location).catch(() => undefined);
        const started = await client.startUpload(repo);
        if (started.mounted) break;
        location = started.location;
        offset = 0;
      }
      entry.location = location;
      if (offset > 0) await save(location, offset);
    }
  }
  uc.open.delete(entry);
  await uc.uploads?.remove(repo.registry, repo.repository, digest);
  uc.progress.done(digest, size, 'pushed');
  return 'pushed';
}

type Started = Awaited<ReturnType<RegistryClient['startUpload']>> & { self?: boolean };

/**
 * The upload's POST: a mount from `from` (a repository known to hold the blob, or the destination
 * repository itself when probing), else a plain new upload.
 */
async function startOrMount(uc: UploadContext, digest: string, from: string | undefined): Promise<Started> {
  const { client, repo } = uc;
  const mount = from ? { digest, from } : undefined;
  const self = from === repo.repository;
  try {
    return { ...(await client.startUpload(repo, mount)), self };
  } catch (err) {
    // No access to the mount's source (a token service may refuse the extra scope), or a
    // registry that refuses a mount from the repository itself: upload.
    const refused = err instanceof AuthError || (self && err instanceof ApiError && err.status < 500);
    if (!mount || !refused) throw err;
    uc.note?.(`could not mount ${digest} from ${mount.from} (${(err as Error).message}); uploading it`);
    return client.startUpload(repo);
  }
}

/** Drops a read begun early that is not needed (the registry had the blob, or the POST failed). */
function drop(read: Promise<Readable> | undefined): void {
  read?.then(
    (body) => body.destroy(),
    () => undefined,
  );
}

/** Ctrl-C: cancel every upload still open (DELETE), and forget their saved state. */
export async function cancelOpenUploads(
  client: RegistryClient,
  open: Set<OpenUpload>,
  uploads?: UploadStateStore,
) {
  await Promise.all(
    [...open].map(async (u) => {
      await client.cancelUpload(u.repo, u.location).catch(() => undefined);
      await uploads?.remove(u.repo.registry, u.repo.repository, u.digest);
    }),
  );
  open.clear();
}

// image push: a local image (OCI layout or docker archive) to a registry. Blobs first, each once
// (with --concurrency in flight), then the manifests below the top by digest, children before the
// index that lists them (nested indexes to any depth), then the top manifest under the tag.

import type { RegistryClient } from '../api/registry/client.js';
import { parseManifest, sha256Digest } from '../api/registry/manifest.js';
import { IntegrityError } from '../errors.js';
import type { TransferProgress } from '../output/progress.js';
import { formatReference, type ImageReference } from '../ref/reference.js';
import type { LocalImage } from './local-image.js';
import { blobsOf, manifestsBelow, type TreeManifest } from './manifest-tree.js';
import { runPool } from './pool.js';
import type { KnownBlobs, UploadStateStore } from './resume-state.js';
import type { BlobResult, TransferResult } from './types.js';
import { cancelOpenUploads, type OpenUpload, pushBlob } from './upload.js';

export interface PushOptions {
  client: RegistryClient;
  source: LocalImage;
  dest: ImageReference;
  progress: TransferProgress;
  signal: AbortSignal;
  concurrency?: number;
  uploads?: UploadStateStore;
  known?: KnownBlobs;
  monolithicMax?: number;
  chunkSize?: number;
  note?: (line: string) => void;
}

export async function pushImage(opts: PushOptions): Promise<TransferResult> {
  const { client, source, dest } = opts;
  const what = source.describe;
  const parsed = parseManifest(source.top.bytes, source.top.mediaType, what);
  const top: TreeManifest = { ...source.top, mediaType: parsed.mediaType, parsed };
  // The whole tree is read (and a bad one refused) before anything is sent.
  const below = await manifestsBelow(
    top,
    async (d) => {
      const bytes = await source.blobs.readBlob(d.digest);
      // A layout checks its blobs; an archive's entries are checked here.
      if (sha256Digest(bytes) !== d.digest)
        throw new IntegrityError(`${what}: the manifest ${d.digest} does not match its digest`);
      const m = parseManifest(bytes, d.mediaType, `${what} (${d.digest})`);
      return { digest: d.digest, mediaType: m.mediaType, bytes, parsed: m };
    },
    what,
  );
  const blobs = blobsOf([top, ...below]);

  const open = new Set<OpenUpload>();
  const uc = {
    client,
    repo: dest,
    progress: opts.progress,
    signal: opts.signal,
    open,
    uploads: opts.uploads,
    known: opts.known,
    monolithicMax: opts.monolithicMax,
    chunkSize: opts.chunkSize,
    note: opts.note,
  };
  let results: BlobResult[];
  try {
    results = await runPool(blobs, opts.concurrency ?? 4, async (d) => {
      const size = (await source.blobs.blobSize(d.digest)) ?? d.size;
      const action = await pushBlob(uc, d.digest, size, (start, end) =>
        source.blobs.openBlob(d.digest, start, end),
      );
      return { digest: d.digest, size, action };
    });
  } catch (err) {
    if (opts.signal.aborted) await cancelOpenUploads(client, open, opts.uploads);
    throw err;
  }
  await opts.known
    ?.remember(
      dest.registry,
      dest.repository,
      blobs.map((d) => d.digest),
    )
    .catch(() => undefined);

  for (const m of below) await client.putManifest(dest, m.digest, m.bytes, m.mediaType);
  const tagOrDigest = dest.tag ?? dest.digest ?? source.top.digest;
  const digest = await client.putManifest(dest, tagOrDigest, source.top.bytes, top.mediaType);
  return { reference: formatReference(dest), digest, mediaType: top.mediaType, blobs: results };
}

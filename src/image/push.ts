// image push: a local image (OCI layout or docker archive) to a registry. Blobs first (with
// --concurrency in flight), then child manifests by digest, then the top manifest under the tag.

import type { RegistryClient } from '../api/registry/client.js';
import { parseManifest } from '../api/registry/manifest.js';
import type { Descriptor, ImageManifest } from '../api/registry/media-types.js';
import type { TransferProgress } from '../output/progress.js';
import { formatReference, type ImageReference } from '../ref/reference.js';
import type { LocalImage } from './local-image.js';
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

interface PlannedManifest {
  digest: string;
  mediaType: string;
  bytes: Buffer;
  manifest: ImageManifest;
}

export async function pushImage(opts: PushOptions): Promise<TransferResult> {
  const { client, source, dest } = opts;
  const what = source.describe;
  const top = parseManifest(source.top.bytes, source.top.mediaType, what);
  const children: PlannedManifest[] = [];
  if (top.kind === 'index') {
    for (const d of top.index.manifests) {
      const bytes = await source.blobs.readBlob(d.digest);
      const parsed = parseManifest(bytes, d.mediaType, `${what} (${d.digest})`);
      if (parsed.kind !== 'image') continue; // nested indexes are rare; their blobs are not pushed
      children.push({ digest: d.digest, mediaType: parsed.mediaType, bytes, manifest: parsed.manifest });
    }
  } else {
    children.push({
      digest: source.top.digest,
      mediaType: top.mediaType,
      bytes: source.top.bytes,
      manifest: top.manifest,
    });
  }

  // Every distinct blob once.
  const blobs = new Map<string, Descriptor>();
  for (const c of children)
    for (const d of [c.manifest.config, ...c.manifest.layers]) if (!d.urls) blobs.set(d.digest, d);

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
    results = await runPool([...blobs.values()], opts.concurrency ?? 4, async (d) => {
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
  await opts.known?.remember(dest.registry, dest.repository, [...blobs.keys()]).catch(() => undefined);

  const tagOrDigest = dest.tag ?? dest.digest ?? source.top.digest;
  if (top.kind === 'index') {
    for (const c of children) await client.putManifest(dest, c.digest, c.bytes, c.mediaType);
  }
  const digest = await client.putManifest(dest, tagOrDigest, source.top.bytes, top.mediaType);
  return { reference: formatReference(dest), digest, mediaType: top.mediaType, blobs: results };
}

// image pull: a registry image to an OCI layout (`oci:DIR[:tag]`) or a docker archive. Each blob is
// one GET (a missing blob answers 404), verified while it streams, renamed into place only when it
// matches; a partial blob left by a broken run is continued with Range. index.json (or the
// archive) is written last, so a failed pull never names an image.

import { rm, stat } from 'node:fs/promises';
import type { FetchedManifest, RegistryClient } from '../api/registry/client.js';
import type { Descriptor, ImageManifest } from '../api/registry/media-types.js';
import { IntegrityError, NotFoundError, UsageError } from '../errors.js';
import type { TransferProgress } from '../output/progress.js';
import { formatReference, type ImageReference, manifestReference } from '../ref/reference.js';
import type { ImageLocation } from '../ref/transport.js';
import { OciLayout } from './oci-layout.js';
import { formatPlatform, type PlatformSpec, selectManifest } from './platform.js';
import { runPool } from './pool.js';
import type { KnownBlobs } from './resume-state.js';
import type { BlobResult, TransferResult } from './types.js';
import { writeVerifiedBlob } from './verified-write.js';

export interface PullOptions {
  client: RegistryClient;
  ref: ImageReference;
  dest: ImageLocation;
  /** The platform to pick from an index (default: the machine's, chosen by the caller). */
  platform: PlatformSpec;
  allPlatforms?: boolean;
  progress: TransferProgress;
  signal: AbortSignal;
  concurrency?: number;
  known?: KnownBlobs;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The manifests a pull or copy takes: the top one, and the image manifests below it. */
export async function resolveImages(
  client: RegistryClient,
  ref: ImageReference,
  platform: PlatformSpec,
  allPlatforms: boolean,
): Promise<{ top: FetchedManifest; images: FetchedManifest[] }> {
  const top = await client.getManifest(ref, manifestReference(ref));
  if (top.parsed.kind === 'image') return { top, images: [top] };
  const what = formatReference(ref);
  if (allPlatforms) {
    const images: FetchedManifest[] = [];
    for (const d of top.parsed.index.manifests) {
      const child = await client.getManifest(ref, d.digest);
      if (child.parsed.kind === 'image') images.push(child);
    }
    return { top, images };
  }
  const chosen = selectManifest(top.parsed.index.manifests, platform, what);
  const child = await client.getManifest(ref, chosen.digest);
  if (child.parsed.kind !== 'image') {
    throw new NotFoundError(`${what}: the entry for ${formatPlatform(platform)} is not an image manifest`);
  }
  return { top: child, images: [child] };
}

export function blobsOf(images: FetchedManifest[]): Descriptor[] {
  const blobs = new Map<string, Descriptor>();
  for (const img of images) {
    if (img.parsed.kind !== 'image') continue;
    for (const d of [img.parsed.manifest.config, ...img.parsed.manifest.layers])
      if (!d.urls) blobs.set(d.digest, d);
  }
  return [...blobs.values()];
}

export async function pullImage(opts: PullOptions): Promise<TransferResult> {
  const { client, ref, dest } = opts;
  if (dest.transport === 'docker-archive' && opts.allPlatforms) {
    throw new UsageError('a docker archive holds one platform: pull --all-platforms into oci:DIR instead');
  }
  const { top, images } = await resolveImages(client, ref, opts.platform, Boolean(opts.allPlatforms));
  const dir = dest.transport === 'oci' ? dest.path : `${dest.path}.hubctl-partial.d`;
  const created = !(await exists(dir));
  const layout = await OciLayout.create(dir);

  let results: BlobResult[];
  try {
    results = await runPool(blobsOf(images), opts.concurrency ?? 4, async (d) => {
      if ((await layout.blobSize(d.digest)) === d.size) {
        opts.progress.done(d.digest, d.size, 'skipped');
        return { digest: d.digest, size: d.size, action: 'skipped' as const };
      }
      opts.progress.begin(d.digest, d.size);
      await writeVerifiedBlob({
        digest: d.digest,
        size: d.size,
        finalPath: layout.blobPath(d.digest),
        partialPath: layout.partialPath(d.digest),
        open: (start) => client.getBlob(ref, d.digest, start),
        onProgress: (have) => opts.progress.update(d.digest, have),
        signal: opts.signal,
      });
      opts.progress.done(d.digest, d.size, 'pulled');
      return { digest: d.digest, size: d.size, action: 'pulled' as const };
    });
  } catch (err) {
    // A corrupt blob leaves nothing behind: drop what this run created.
    if (err instanceof IntegrityError && created) await rm(dir, { recursive: true, force: true });
    throw err;
  }
  await opts.known
    ?.remember(
      ref.registry,
      ref.repository,
      results.map((r) => r.digest),
    )
    .catch(() => undefined);

  for (const img of images) await layout.writeBlob(img.digest, img.bytes);
  if (top !== images[0] || images.length > 1) await layout.writeBlob(top.digest, top.bytes);
  const descriptor: Descriptor = { mediaType: top.mediaType, digest: top.digest, size: top.bytes.length };

  if (dest.transport === 'oci') {
    await layout.setTag(dest.tag ?? ref.tag, descriptor);
  } else {
    const { writeDockerArchive } = await import('./docker-archive.js');
    const manifest = (top.parsed as { manifest: ImageManifest }).manifest;
    const repoTag = ref.tag ? formatReference({ ...ref, digest: undefined }) : undefined;
    await writeDockerArchive(dest.path, layout, descriptor, manifest, repoTag);
    await rm(dir, { recursive: true, force: true });
  }
  return { reference: formatReference(ref), digest: top.digest, mediaType: top.mediaType, blobs: results };
}

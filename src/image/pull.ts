// image pull: a registry image to an OCI layout (`oci:DIR[:tag]`) or a docker archive. Each blob is
// HEAD then GET, verified while it streams, renamed into place only when it matches; a partial
// blob left by a broken run is continued with Range. index.json (or the archive) is written last,
// so a failed pull never names an image.

import { rm, stat } from 'node:fs/promises';
import type { FetchedManifest, RegistryClient } from '../api/registry/client.js';
import type { Descriptor, ImageManifest } from '../api/registry/media-types.js';
import { IntegrityError, UsageError } from '../errors.js';
import { tryLock } from '../files/lock.js';
import type { TransferProgress } from '../output/progress.js';
import { formatReference, type ImageReference, manifestReference } from '../ref/reference.js';
import type { ImageLocation } from '../ref/transport.js';
import { checkSingleImage } from './image-config.js';
import { blobsOf, findPlatform, manifestsBelow } from './manifest-tree.js';
import { OciLayout } from './oci-layout.js';
import type { PlatformSpec } from './platform.js';
import { runPool } from './pool.js';
import type { KnownBlobs } from './resume-state.js';
import type { BlobResult, TransferResult } from './types.js';
import { writeVerifiedBlob } from './verified-write.js';

/** A download's claim on its partial file is taken over only when its run is gone, or after a day. */
const DOWNLOAD_STALE_MS = 24 * 60 * 60 * 1000;

export interface PullOptions {
  client: RegistryClient;
  ref: ImageReference;
  dest: ImageLocation;
  /** The platform to pick from an index (default: the machine's, chosen by the caller). */
  platform: PlatformSpec;
  /** The user named the platform: a single image of another one is refused, not noted. */
  platformExplicit?: boolean;
  /** Shown to the user (stderr, not with --quiet or --json): a single image of another platform. */
  notice?: (line: string) => void;
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

export interface ResolvedImages {
  /** What the tag will name: the top manifest, or the image chosen for a platform. */
  top: FetchedManifest;
  /** With --all-platforms, every manifest below the top, children before their index. */
  below: FetchedManifest[];
  /** The image manifests whose blobs are transferred. */
  images: FetchedManifest[];
  /**
   * A platform was to be picked but the reference named an image manifest, not an index: the
   * image's platform is only in its config, described here (undefined otherwise).
   */
  singleConfig: Descriptor | undefined;
}

/** The manifests a pull or copy takes: one platform's image, or with allPlatforms the whole tree. */
export async function resolveImages(
  client: RegistryClient,
  ref: ImageReference,
  platform: PlatformSpec,
  allPlatforms: boolean,
): Promise<ResolvedImages> {
  const top = await client.getManifest(ref, manifestReference(ref));
  // getManifest checks the bytes against a digest reference.
  const fetch = (d: Descriptor) => client.getManifest(ref, d.digest);
  const what = formatReference(ref);
  if (top.parsed.kind === 'index' && allPlatforms) {
    const below = await manifestsBelow(top, fetch, what);
    return { top, below, images: below.filter((m) => m.parsed.kind === 'image'), singleConfig: undefined };
  }
  const image = await findPlatform(top, platform, fetch, what);
  // With --all-platforms a single image is simply taken: no platform was asked for.
  const singleConfig = top.parsed.kind === 'image' && !allPlatforms ? top.parsed.manifest.config : undefined;
  return { top: image, below: [], images: [image], singleConfig };
}

export async function pullImage(opts: PullOptions): Promise<TransferResult> {
  const { client, ref, dest } = opts;
  if (dest.transport === 'docker-archive' && opts.allPlatforms) {
    throw new UsageError('a docker archive holds one platform: pull --all-platforms into oci:DIR instead');
  }
  const {
    top,
    below,
    images,
    singleConfig: configDesc,
  } = await resolveImages(client, ref, opts.platform, Boolean(opts.allPlatforms));
  // Checked before anything is written; the config's bytes are kept, not fetched twice.
  const config =
    configDesc &&
    (await checkSingleImage({
      client,
      repo: ref,
      what: formatReference(ref),
      config: configDesc,
      want: opts.platform,
      explicit: Boolean(opts.platformExplicit),
      notice: opts.notice,
      headFirst: true,
    }));
  const dir = dest.transport === 'oci' ? dest.path : `${dest.path}.hubctl-partial.d`;
  const created = !(await exists(dir));
  const layout = await OciLayout.create(dir);

  let results: BlobResult[];
  try {
    results = await runPool(blobsOf(images), opts.concurrency ?? 4, async (d) => {
      if (await layout.hasVerifiedBlob(d.digest, d.size)) {
        opts.progress.done(d.digest, d.size, 'skipped');
        return { digest: d.digest, size: d.size, action: 'skipped' as const };
      }
      if ((await layout.blobSize(d.digest)) !== undefined) {
        // Present but not these bytes (truncated, altered): never skipped, fetched again.
        opts.notice?.(`blob ${d.digest} in ${dir} does not match its digest: fetching it again`);
        await rm(layout.blobPath(d.digest), { force: true });
      }
      if (config && d.digest === configDesc?.digest) {
        opts.progress.begin(d.digest, d.size);
        await layout.writeBlob(d.digest, config);
        opts.progress.done(d.digest, d.size, 'pulled');
        return { digest: d.digest, size: d.size, action: 'pulled' as const };
      }
      await client.headBlob(ref, d.digest);
      opts.progress.begin(d.digest, d.size);
      // Another run pulling into this layout may be downloading the same blob: it keeps the shared
      // partial file (the one a later run resumes); this run downloads into a file of its own.
      const shared = layout.partialPath(d.digest);
      const release = tryLock(shared, DOWNLOAD_STALE_MS);
      const partialPath = release ? shared : `${shared}-${process.pid}`;
      try {
        await writeVerifiedBlob({
          digest: d.digest,
          size: d.size,
          finalPath: layout.blobPath(d.digest),
          partialPath,
          open: (start) => client.getBlob(ref, d.digest, start),
          onProgress: (have) => opts.progress.update(d.digest, have),
          signal: opts.signal,
        });
      } finally {
        if (release) release();
        else await rm(partialPath, { force: true });
      }
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

  for (const m of [...below, top]) await layout.writeBlob(m.digest, m.bytes);
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

// Platform selection, once for every caller: transfer (pull, push, copy) and inspect/digest. From
// the manifest a source's reference names, take one platform's image (the one asked for, else this
// machine's) or, with `all`, the whole index tree. A single image names its platform only in its
// config, which is read to check a platform the user named (and kept, so it is not read twice).

import { IntegrityError, NetworkError, NotFoundError, ValidationError } from '../errors.js';
import { BodyTooLargeError, BodyTooSlowError, readCapped } from '../http/body.js';
import { sha256Digest } from '../oci/manifest.js';
import type { Descriptor } from '../oci/media-types.js';
import { checkSingleImagePlatform, isImageConfig, MAX_CONFIG, platformInConfig } from './image-config.js';
import { findPlatform, manifestsBelow } from './manifest-tree.js';
import { formatPlatform, noImageFor, type PlatformSpec, platformMatches } from './platform.js';
import type { BlobRead, ImageSource, StoredManifest } from './store.js';

export type PlatformChoice =
  /** One platform: named by the user (`explicit`), or this machine's by default. */
  | { kind: 'one'; platform: PlatformSpec; explicit: boolean }
  /** The whole index, every platform. */
  | { kind: 'all' }
  /**
   * Some platforms of an index (`platforms:` in a sync file): the index is rewritten with only
   * their entries (its digest changes unless every entry is kept); a single image must be one.
   */
  | { kind: 'some'; platforms: readonly PlatformSpec[] };

export interface Selection {
  /** What the destination's tag will name: the top manifest, or the image chosen for a platform. */
  top: StoredManifest;
  /** With `all`, every manifest below the top, children before their index. */
  below: StoredManifest[];
  /** The image manifests whose blobs are transferred. */
  images: StoredManifest[];
  /** A single image's config bytes when they were read for the platform check. */
  config?: { digest: string; bytes: Buffer };
}

/** Reads a small blob (a config) whole, checked against its digest. */
export async function readSmallBlob(source: ImageSource, d: Descriptor): Promise<Buffer> {
  if (d.size > MAX_CONFIG)
    throw new ValidationError(`the blob ${d.digest} is too large to read (${d.size} bytes)`);
  const bytes = await readBlobWhole(source.name, await source.openBlob(d, 0), d);
  if (bytes === undefined || bytes.length !== d.size || sha256Digest(bytes) !== d.digest)
    throw new IntegrityError(`${source.name}: the blob ${d.digest} does not match its digest`);
  return bytes;
}

/**
 * A blob's body read into memory: at most its size (undefined past it: a byte more cannot match),
 * within the deadline a network source gives (a NetworkError naming the blob past it). Not checked
 * against its digest here.
 */
export async function readBlobWhole(
  name: string,
  read: BlobRead,
  d: Descriptor,
): Promise<Buffer | undefined> {
  try {
    return await readCapped(read.body, d.size, { deadlineMs: read.deadlineMs });
  } catch (err) {
    if (err instanceof BodyTooLargeError) return undefined;
    if (err instanceof BodyTooSlowError)
      throw new NetworkError(
        `${name}: the blob ${d.digest} (${d.size} bytes) took longer than ${err.ms / 1000} s to arrive`,
        { cause: err },
      );
    throw err;
  }
}

/**
 * The manifests a transfer takes. `notice` receives the note for a single image of another
 * platform than the default one (docker takes it with a warning; a platform the user named is
 * refused, exit 5).
 */
export async function selectImages(
  source: ImageSource,
  choice: PlatformChoice,
  notice?: (line: string) => void,
): Promise<Selection> {
  const top = await source.getManifest(await source.resolve());
  const fetch = (d: Descriptor) => source.getManifest(d);
  if (choice.kind === 'some') return selectSome(source, top, choice.platforms);
  if (top.parsed.kind === 'index' && choice.kind === 'all') {
    const below = await manifestsBelow(top, fetch, source.name);
    return { top, below, images: below.filter((m) => m.parsed.kind === 'image') };
  }
  if (choice.kind === 'all' || top.parsed.kind === 'index') {
    // With `all` a single image is simply taken: no platform was asked for.
    const image = choice.kind === 'all' ? top : await findPlatform(top, choice.platform, fetch, source.name);
    return { top: image, below: [], images: [image] };
  }
  const configDesc = top.parsed.manifest.config;
  if (!isImageConfig(configDesc) || configDesc.size > MAX_CONFIG) return { top, below: [], images: [top] };
  const bytes = await readSmallBlob(source, configDesc);
  const line = checkSingleImagePlatform(
    source.name,
    platformInConfig(bytes),
    choice.platform,
    choice.explicit,
  );
  if (line) notice?.(line);
  return { top, below: [], images: [top], config: { digest: configDesc.digest, bytes } };
}

/** Buildkit's attestation entries name the image they describe in this annotation. */
const REFERENCE_DIGEST = 'vnd.docker.reference.digest';

/** The index with only the entries of `platforms` (and the attestations of those entries). */
async function selectSome(
  source: ImageSource,
  top: StoredManifest,
  platforms: readonly PlatformSpec[],
): Promise<Selection> {
  if (top.parsed.kind === 'image') {
    const configDesc = top.parsed.manifest.config;
    const bytes = await readSmallBlob(source, configDesc);
    const have = platformInConfig(bytes);
    if (!have || !platforms.some((p) => platformMatches(have, p)))
      throw new NotFoundError(
        `${source.name} is a single image for ${have ? formatPlatform(have) : 'no named platform'}, not one of ${platforms.map(formatPlatform).join(', ')}`,
      );
    return { top, below: [], images: [top], config: { digest: configDesc.digest, bytes } };
  }
  const entries = top.parsed.index.manifests;
  const kept = entries.filter((d) => d.platform && platforms.some((p) => platformMatches(d.platform!, p)));
  if (kept.length === 0)
    throw noImageFor(
      source.name,
      platforms[0]!,
      entries.map((d) => formatPlatform(d.platform)),
    );
  const keptDigests = new Set(kept.map((d) => d.digest));
  const withAttestations = entries.filter(
    (d) => keptDigests.has(d.digest) || keptDigests.has(d.annotations?.[REFERENCE_DIGEST] ?? ''),
  );
  const below: StoredManifest[] = [];
  for (const d of withAttestations) below.push(await source.getManifest(d));
  let newTop = top;
  if (withAttestations.length !== entries.length) {
    const doc = JSON.parse(top.bytes.toString('utf8')) as Record<string, unknown>;
    const bytes = Buffer.from(JSON.stringify({ ...doc, manifests: withAttestations }));
    newTop = {
      digest: sha256Digest(bytes),
      mediaType: top.mediaType,
      bytes,
      parsed: { ...top.parsed, index: { ...top.parsed.index, manifests: withAttestations } },
    };
  }
  return { top: newTop, below, images: below.filter((m) => m.parsed.kind === 'image') };
}

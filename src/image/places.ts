// From a place (src/ref/transport.ts) to its back end (store.ts): the one door commands go through.
// Back ends are loaded only when used, so a command that reads a layout never loads the registry
// code, and the reverse. A kind of place added to the table of transport.ts (PLACES) fails to
// compile here until openSource and openDestination have its case.

import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { EngineClient } from '../api/engine/client.js';
import type { RegistryClient } from '../api/registry/client.js';
import { NotFoundError, UsageError } from '../errors.js';
import { formatReference, type ImageReference, parseReference } from '../ref/reference.js';
import { formatPlace, type PlaceRef, tagOf } from '../ref/transport.js';
import type { CompressedLayers } from './engine/compressed-layers.js';
import type { BlobMemory } from './registry/known-blobs.js';
import type { UploadStateStore } from './registry/upload-state.js';
import type { ImageDestination, ImageSource } from './store.js';

export interface PlaceDeps {
  /** The registry client, built by the context. */
  registry(): Promise<RegistryClient>;
  /** The container engine client, built by the context (docker-daemon: places). */
  engine?(): Promise<EngineClient>;
  signal: AbortSignal;
  known?: BlobMemory;
  /** What earlier runs compressed engine layers to. */
  compressed?: CompressedLayers;
  uploads?: UploadStateStore;
  monolithicMax?: number;
  chunkSize?: number;
  /**
   * Destination blobs up to this size probed by a mount POST instead of a HEAD (registry/upload.ts;
   * image sync, whose plan has read each manifest).
   */
  probeByMountMax?: number;
  /** False: no HEAD before a registry source's blob GET (image sync, and copy between registries; pull keeps it). */
  headBeforeGet?: boolean;
  note?: (line: string) => void;
  /** Lines for the user (stderr, not with --quiet or --json). */
  notice?: (line: string) => void;
  /** The mirror host pulls from a registry try first (its `mirror` setting). */
  mirrorFor?(registry: string): Promise<string | undefined>;
}

/** How a place is named in messages and results (a registry in its canonical form). */
export function placeName(place: PlaceRef): string {
  return formatPlace(place, formatReference);
}

/**
 * Blobs up to this size (configs, small layers) are probed at a registry destination by the
 * upload's own POST (a mount from the repository itself) instead of a HEAD before it, where the
 * blob's size is known from its manifest (image sync, and image copy between registries): one
 * request fewer for each one that is not there.
 */
export const PROBE_BY_MOUNT_MAX = 64 * 1024;

/**
 * A transfer from one registry to another that streams each blob from its manifest (image copy
 * between registries, image sync): the manifest gives each blob's size, so a small one is probed at
 * the destination by its upload's POST; and a source blob is not HEADed before its GET, whose own
 * 404 names a missing blob (a NotFoundError, exit 5) as a HEAD's would. A pull keeps its HEAD
 * (issue 5: a partial file is made only for a blob that is there).
 */
export const BETWEEN_REGISTRIES = {
  probeByMountMax: PROBE_BY_MOUNT_MAX,
  headBeforeGet: false,
} as const satisfies Partial<PlaceDeps>;

export async function openSource(place: PlaceRef, deps: PlaceDeps): Promise<ImageSource> {
  const name = placeName(place);
  switch (place.transport) {
    case 'registry': {
      const { RegistrySource } = await import('./registry/source.js');
      const client = await deps.registry();
      const headFirst = deps.headBeforeGet !== false;
      const origin = new RegistrySource(client, place.ref, deps.known, headFirst);
      const mirror = await deps.mirrorFor?.(place.ref.registry);
      if (!mirror) return origin;
      const { MirroredSource } = await import('./registry/mirrored-source.js');
      const copy = new RegistrySource(client, { ...place.ref, registry: mirror }, deps.known, headFirst);
      return new MirroredSource(copy, origin, deps.signal, deps.note);
    }
    case 'oci': {
      const { OciSource } = await import('./oci-store.js');
      return OciSource.open(name, place.path, place.tag);
    }
    case 'oci-archive': {
      const { OciArchiveSource } = await import('./oci-archive.js');
      return OciArchiveSource.open(name, place.path, place.tag);
    }
    case 'docker-archive': {
      const { DockerArchiveSource } = await import('./docker-archive.js');
      return DockerArchiveSource.open(name, place.path, place.ref);
    }
    case 'docker-daemon': {
      const { EngineSource } = await import('./engine/source.js');
      return new EngineSource(await engineOf(deps), place.ref, {
        signal: deps.signal,
        compressed: deps.compressed,
      });
    }
    default:
      return unknownPlace(place);
  }
}

/** The `default` of a switch over every kind of place: a kind without a case does not compile. */
function unknownPlace(place: never): never {
  throw new Error(`no back end for the place ${JSON.stringify(place)}`);
}

function engineOf(deps: PlaceDeps): Promise<EngineClient> {
  if (!deps.engine) throw new UsageError('docker-daemon: is not available here');
  return deps.engine();
}

/** The name `docker load` gives an archive's image: its REF, else a registry source's name:tag. */
function repoTagFor(dest: PlaceRef & { transport: 'docker-archive' }, from: PlaceRef): string | undefined {
  if (dest.ref && !dest.ref.startsWith('@')) return formatReference(parseReference(dest.ref));
  if (dest.ref)
    throw new UsageError(
      `docker-archive:${dest.path}:${dest.ref}: a position names an image to read, not one to write`,
    );
  if (from.transport === 'registry' && from.ref.tag) {
    const ref: ImageReference = {
      registry: from.ref.registry,
      repository: from.ref.repository,
      tag: from.ref.tag,
    };
    return formatReference(ref);
  }
  return undefined;
}

async function parentExists(path: string): Promise<void> {
  const parent = dirname(path);
  const ok = await stat(parent).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!ok) throw new NotFoundError(`the folder ${parent} does not exist`);
}

/** The destination for a transfer from `from` (whose tag a destination without one takes). */
export async function openDestination(
  place: PlaceRef,
  from: PlaceRef,
  deps: PlaceDeps,
): Promise<ImageDestination> {
  const name = placeName(place);
  switch (place.transport) {
    case 'registry': {
      const { RegistryDestination } = await import('./registry/destination.js');
      return new RegistryDestination(await deps.registry(), place.ref, deps);
    }
    case 'oci': {
      const { OciDestination } = await import('./oci-store.js');
      await parentExists(place.path);
      return new OciDestination(name, place.path, place.tag ?? tagOf(from), deps.signal, deps.notice);
    }
    case 'oci-archive': {
      const { OciArchiveDestination } = await import('./oci-archive.js');
      await parentExists(place.path);
      return new OciArchiveDestination(name, place.path, place.tag ?? tagOf(from));
    }
    case 'docker-archive': {
      const { DockerArchiveDestination } = await import('./docker-archive.js');
      await parentExists(place.path);
      return new DockerArchiveDestination(name, place.path, repoTagFor(place, from));
    }
    case 'docker-daemon': {
      const { EngineDestination } = await import('./engine/destination.js');
      const engine = await engineOf(deps);
      await engine.negotiate(); // an absent engine is said before anything is read from the source
      return new EngineDestination(engine, place.ref, deps.signal);
    }
    default:
      return unknownPlace(place);
  }
}

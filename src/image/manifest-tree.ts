// Index trees. An index may list other indexes (an index of per-variant indexes, say), to any
// depth. Push, pull and copy walk the whole tree; a platform is searched for through it. Each
// manifest is fetched once, and the depth is bounded so that a malformed tree ends in a sentence
// rather than in endless recursion.

import { ValidationError } from '../errors.js';
import type { ParsedManifest } from '../oci/manifest.js';
import { type Descriptor, isIndexType } from '../oci/media-types.js';
import { formatPlatform, matchManifest, noImageFor, type PlatformSpec } from './platform.js';

export interface TreeManifest {
  digest: string;
  mediaType: string;
  bytes: Buffer;
  parsed: ParsedManifest;
}

/** Fetches the manifest an index entry names, checked against the entry's digest. */
export type FetchManifest<T extends TreeManifest> = (entry: Descriptor) => Promise<T>;

/** Indexes on one path, the top one included. Trees in use are two or three deep. */
export const MAX_INDEX_DEPTH = 8;

function checkDepth(path: readonly string[], what: string): void {
  if (path.length > MAX_INDEX_DEPTH)
    throw new ValidationError(`${what} nests indexes more than ${MAX_INDEX_DEPTH} deep`);
}

// Verified digests make a cycle impossible to build; this catches a source that does not verify.
function checkCycle(entry: Descriptor, path: readonly string[], what: string): void {
  if (path.includes(entry.digest))
    throw new ValidationError(
      `${what}: the index ${entry.digest} lists itself, directly or through its entries`,
    );
}

/**
 * Every manifest below `top`, each once, children before the index that lists them: the order a
 * registry accepts them in, since it refuses an index whose entries it does not hold yet.
 */
export async function manifestsBelow<T extends TreeManifest>(
  top: TreeManifest,
  fetch: FetchManifest<T>,
  what: string,
): Promise<T[]> {
  const seen = new Set<string>();
  const out: T[] = [];
  const visit = async (node: TreeManifest, path: string[]): Promise<void> => {
    if (node.parsed.kind !== 'index') return;
    checkDepth(path, what);
    for (const entry of node.parsed.index.manifests) {
      checkCycle(entry, path, what);
      if (seen.has(entry.digest)) continue;
      seen.add(entry.digest);
      const child = await fetch(entry);
      await visit(child, [...path, entry.digest]);
      out.push(child);
    }
  };
  await visit(top, [top.digest]);
  return out;
}

/**
 * The image manifest for a platform in an index tree. At each index the entry that names the
 * platform comes first, then the nested indexes that name no platform, in the order listed;
 * the search goes depth-first and the first image found wins. containerd ranks the candidates the
 * same way (entries that name the platform before those that name none) but follows only the
 * first; here a nested index that lacks the platform does not end the search: the next is tried.
 */
export async function findPlatform<T extends TreeManifest>(
  top: T,
  want: PlatformSpec,
  fetch: FetchManifest<T>,
  what: string,
): Promise<T> {
  if (top.parsed.kind === 'image') return top;
  const available = new Set<string>();
  const seen = new Set<string>();
  const search = async (node: T, path: string[]): Promise<T | undefined> => {
    if (node.parsed.kind !== 'index') return undefined;
    checkDepth(path, what);
    const entries = node.parsed.index.manifests;
    for (const d of entries) if (!isIndexType(d.mediaType)) available.add(formatPlatform(d.platform));
    const best = matchManifest(entries, want);
    const nested = entries.filter((d) => !d.platform && isIndexType(d.mediaType));
    for (const entry of best ? [best, ...nested] : nested) {
      checkCycle(entry, path, what);
      if (seen.has(entry.digest)) continue;
      seen.add(entry.digest);
      const child = await fetch(entry);
      // An image only counts where the platform was asked for, not where an index was expected.
      if (child.parsed.kind === 'image') {
        if (entry === best) return child;
        continue;
      }
      const found = await search(child, [...path, entry.digest]);
      if (found) return found;
    }
    return undefined;
  };
  const found = await search(top, [top.digest]);
  if (!found) throw noImageFor(what, want, [...available]);
  return found;
}

/** The blobs (configs and layers) of the image manifests among `manifests`, each once. */
export function blobsOf(manifests: readonly TreeManifest[]): Descriptor[] {
  const blobs = new Map<string, Descriptor>();
  for (const m of manifests) {
    if (m.parsed.kind !== 'image') continue;
    // Foreign layers (with urls) live elsewhere and are not copied.
    for (const d of [m.parsed.manifest.config, ...m.parsed.manifest.layers])
      if (!d.urls) blobs.set(d.digest, d);
  }
  return [...blobs.values()];
}

// image delete: resolve the tag to a digest, find every other tag of the repository that points at
// the same manifest (a delete by digest removes them too), then DELETE by digest.
//
// An index is deleted alone: the manifests it lists (nested indexes, images) stay. They are
// addressed by digest and may be listed by other indexes or named by tags, and a registry cannot
// say what references a manifest, so removing them could break another image; crane, regctl and
// skopeo delete only the named manifest too. The plan lists what stays, so the user is told; the
// registry's garbage collection removes what nothing references.

import type { DeleteOutcome, RegistryClient } from '../api/registry/client.js';
import { NotFoundError } from '../errors.js';
import { type Descriptor, isIndexType } from '../oci/media-types.js';
import { runPool } from '../pool.js';
import { formatReference, type ImageReference, manifestReference } from '../ref/reference.js';
import { manifestsBelow } from './manifest-tree.js';
import { formatPlatform } from './platform.js';

/** A manifest below a deleted index, which the delete leaves in place. */
export interface KeptManifest {
  digest: string;
  mediaType: string;
  /** The platform its index names for it, when it names one. */
  platform?: string;
  /** Tags of the repository that still name it after the delete. */
  tags: string[];
}

export interface DeletePlan {
  reference: string;
  digest: string;
  /** Every tag pointing at the digest (the one named included). */
  tags: string[];
  /** Only when the manifest is an index: every manifest below it (each once), none deleted. */
  kept?: KeptManifest[];
}

interface Target {
  digest: string;
  mediaType?: string;
}

async function resolveTarget(client: RegistryClient, ref: ImageReference): Promise<Target> {
  const reference = manifestReference(ref);
  const head = await client.headManifest(ref, reference);
  if (!head) throw new NotFoundError(`${formatReference(ref)} does not exist`);
  if (ref.digest) return { digest: ref.digest, mediaType: head.mediaType };
  if (head.digest?.startsWith('sha256:')) return { digest: head.digest, mediaType: head.mediaType };
  const got = await client.getManifest(ref, reference);
  return { digest: got.digest, mediaType: got.mediaType };
}

export async function resolveDigest(client: RegistryClient, ref: ImageReference): Promise<string> {
  if (ref.digest) return ref.digest;
  return (await resolveTarget(client, ref)).digest;
}

export async function planDelete(client: RegistryClient, ref: ImageReference): Promise<DeletePlan> {
  const target = await resolveTarget(client, ref);
  const { digest } = target;
  const tagNames: string[] = [];
  for await (const t of client.listTags(ref)) tagNames.push(t);
  // What every tag names: the tags that go with the digest, and the tags that keep a child named.
  const named = await runPool(tagNames, 8, async (t) => {
    if (t === ref.tag) return { tag: t, digest };
    const head = await client.headManifest(ref, t).catch(() => undefined);
    return { tag: t, digest: head?.digest };
  });
  const list = named.filter((n) => n.digest === digest).map((n) => n.tag);
  list.sort();
  if (ref.tag && !list.includes(ref.tag) && !ref.digest) list.unshift(ref.tag);
  const plan: DeletePlan = { reference: formatReference(ref), digest, tags: list };
  if (isIndexType(target.mediaType)) plan.kept = await manifestsKept(client, ref, digest, named);
  return plan;
}

async function manifestsKept(
  client: RegistryClient,
  ref: ImageReference,
  digest: string,
  named: { tag: string; digest?: string }[],
): Promise<KeptManifest[]> {
  const top = await client.getManifest(ref, digest);
  const entries = new Map<string, Descriptor>();
  const below = await manifestsBelow(
    top,
    (entry) => {
      entries.set(entry.digest, entry);
      return client.getManifest(ref, entry.digest);
    },
    formatReference(ref),
  );
  return below.map((m) => {
    const platform = entries.get(m.digest)?.platform;
    return {
      digest: m.digest,
      mediaType: m.mediaType,
      ...(platform ? { platform: formatPlatform(platform) } : {}),
      tags: named
        .filter((n) => n.digest === m.digest)
        .map((n) => n.tag)
        .sort(),
    };
  });
}

export function executeDelete(
  client: RegistryClient,
  ref: ImageReference,
  digest: string,
): Promise<DeleteOutcome> {
  return client.deleteManifest(ref, digest);
}

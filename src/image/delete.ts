// image delete: resolve the tag to a digest, find every other tag of the repository that points at
// the same manifest (a delete by digest removes them too), then DELETE by digest.

import type { DeleteOutcome, RegistryClient } from '../api/registry/client.js';
import { NotFoundError } from '../errors.js';
import { formatReference, type ImageReference, manifestReference } from '../ref/reference.js';
import { runPool } from './pool.js';

export interface DeletePlan {
  reference: string;
  digest: string;
  /** Every tag pointing at the digest (the one named included). */
  tags: string[];
}

export async function resolveDigest(client: RegistryClient, ref: ImageReference): Promise<string> {
  if (ref.digest) return ref.digest;
  const reference = manifestReference(ref);
  const head = await client.headManifest(ref, reference);
  if (!head) throw new NotFoundError(`${formatReference(ref)} does not exist`);
  if (head.digest?.startsWith('sha256:')) return head.digest;
  return (await client.getManifest(ref, reference)).digest;
}

export async function planDelete(client: RegistryClient, ref: ImageReference): Promise<DeletePlan> {
  const digest = await resolveDigest(client, ref);
  const tags: string[] = [];
  for await (const t of client.listTags(ref)) tags.push(t);
  const pointing = await runPool(tags, 8, async (t) => {
    if (t === ref.tag) return t;
    const head = await client.headManifest(ref, t).catch(() => undefined);
    return head?.digest === digest ? t : undefined;
  });
  const list = pointing.filter((t): t is string => t !== undefined).sort();
  if (ref.tag && !list.includes(ref.tag) && !ref.digest) list.unshift(ref.tag);
  return { reference: formatReference(ref), digest, tags: list };
}

export function executeDelete(
  client: RegistryClient,
  ref: ImageReference,
  digest: string,
): Promise<DeleteOutcome> {
  return client.deleteManifest(ref, digest);
}

// What a sync's destination holds, asked with as few requests as will do (sync.ts): one tag list
// for a mapping that keeps several tags — a tag it does not name is not there, and needs no HEAD —
// then a HEAD of each tag it names, for its digest.

import type { RegistryClient } from '../api/registry/client.js';
import { HubctlError } from '../errors.js';
import type { RepositoryName } from '../ref/reference.js';

/** A mapping keeping fewer tags asks each one with a HEAD rather than listing the destination. */
export const LIST_DESTINATION_FROM = 4;

/**
 * Tags read from a destination's list before it is given up for a HEAD per tag (a destination far
 * larger than what the mapping keeps costs more to list than to ask).
 */
export function listDestinationMax(kept: number): number {
  return Math.max(1000, 10 * kept);
}

/**
 * Which of `wanted` the destination lists; undefined when it is not worth listing or could not be
 * listed (then each tag is asked with a HEAD). A repository that does not exist yet holds none.
 */
export async function tagsThere(
  list: AsyncIterable<string>,
  wanted: readonly string[],
  signal: AbortSignal,
): Promise<Set<string> | undefined> {
  if (wanted.length < LIST_DESTINATION_FROM) return undefined;
  const want = new Set(wanted);
  const there = new Set<string>();
  const max = listDestinationMax(wanted.length);
  let seen = 0;
  try {
    for await (const tag of list) {
      if (++seen > max) return undefined;
      if (want.has(tag)) there.add(tag);
    }
  } catch (err) {
    if (signal.aborted) throw err;
    if (err instanceof HubctlError && err.code === 'NOT_FOUND') return there;
    // A registry that does not let this user list tags, say: the HEADs decide.
    return undefined;
  }
  return there;
}

/**
 * The digest `tag` names at the destination, from a HEAD (no body), asked of the destination itself
 * (never of a mirror configured for its host); undefined when there is no such tag.
 */
export async function digestAt(
  client: RegistryClient,
  repo: RepositoryName,
  tag: string,
): Promise<string | undefined> {
  const head = await client.headManifest(repo, tag);
  if (!head) return undefined;
  // A registry that leaves the digest out of a HEAD's answer: read the manifest.
  return head.digest ?? (await client.getManifest(repo, tag)).digest;
}

// `image copy --all-tags SRC-REPO DST-REPO`: every tag of a repository through the one transfer,
// a few tags at a time. Tags of one repository share most of their blobs: each blob goes to the
// destination once (blobs-once.ts), and within one registry it is mounted. A tag that fails does
// not stop the others; the report says which failed and why.

import { HubctlError } from '../errors.js';
import type { BlobAction, TransferProgress } from '../output/progress.js';
import { runPool } from '../pool.js';
import type { ImageReference, RepositoryName } from '../ref/reference.js';
import { BlobsOnce } from './blobs-once.js';
import { openDestination, openSource, type PlaceDeps } from './places.js';
import type { PlatformChoice } from './select.js';
import { transfer } from './transfer.js';

/** Tags copied at most: a repository of more is copied in parts (`--limit` of tags). */
export const MAX_TAGS = 10_000;

export interface TagOutcome {
  tag: string;
  status: 'copied' | 'failed';
  digest?: string;
  blobs?: Partial<Record<BlobAction, number>>;
  error?: string;
}

export interface AllTagsReport {
  source: string;
  destination: string;
  tags: TagOutcome[];
  copied: number;
  failed: number;
}

export interface AllTagsOptions {
  src: RepositoryName;
  dst: RepositoryName;
  deps: PlaceDeps;
  platforms: PlatformChoice;
  /** Tags in flight at once. */
  tagConcurrency: number;
  /** Blobs in flight per tag. */
  blobConcurrency: number;
  /** Carry each tag's referrers along. */
  referrers?: boolean;
  progress: TransferProgress;
  /** Told when a tag is done (a line on stderr). */
  onTag?: (outcome: TagOutcome) => void;
}

const name = (r: RepositoryName) => `${r.registry}/${r.repository}`;

export async function copyAllTags(tags: readonly string[], opts: AllTagsOptions): Promise<AllTagsReport> {
  const once = new BlobsOnce();
  const ref = (repo: RepositoryName, tag: string): ImageReference => ({ ...repo, tag });
  const outcomes = await runPool(tags, opts.tagConcurrency, async (tag): Promise<TagOutcome> => {
    try {
      const from = { transport: 'registry' as const, ref: ref(opts.src, tag) };
      const source = await openSource(from, opts.deps);
      const dest = await openDestination({ transport: 'registry', ref: ref(opts.dst, tag) }, from, opts.deps);
      const result = await transfer(source, once.wrap(dest, name(opts.dst)), {
        platforms: opts.platforms,
        progress: opts.progress,
        concurrency: opts.blobConcurrency,
        referrers: opts.referrers,
      });
      const blobs: Partial<Record<BlobAction, number>> = {};
      for (const b of result.blobs) blobs[b.action] = (blobs[b.action] ?? 0) + 1;
      const outcome: TagOutcome = { tag, status: 'copied', digest: result.digest, blobs };
      opts.onTag?.(outcome);
      return outcome;
    } catch (err) {
      // Ctrl-C stops everything; any other failure is this tag's.
      if (opts.deps.signal.aborted) throw err;
      const message = err instanceof HubctlError || err instanceof Error ? err.message : String(err);
      const outcome: TagOutcome = { tag, status: 'failed', error: message };
      opts.onTag?.(outcome);
      return outcome;
    }
  });
  const copied = outcomes.filter((o) => o.status === 'copied').length;
  return {
    source: name(opts.src),
    destination: name(opts.dst),
    tags: outcomes,
    copied,
    failed: outcomes.length - copied,
  };
}

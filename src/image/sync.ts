// `image sync -f FILE`: many repositories mirrored from one reviewed file (sync-file.ts). It plans
// first: each mapping's tags are listed page by page through its filters (tag-filter.ts; memory
// bounded by the tags kept, not the repository), then each kept tag's manifest digest is compared
// with the destination's (a tag the destination's list does not name is not there:
// sync-destination.ts): the same digest is "already there", anything else is copied through the
// one transfer, from the source the plan resolved (the manifest planned is the one written, not
// asked for again). So a second run copies nothing, and a run killed half way, run again, copies only
// what it had not finished (a tag is named at the destination only once its image is whole).
// A mapping or tag that fails is one sentence in the report; the others still run.

import { HubctlError } from '../errors.js';
import type { TransferProgress } from '../output/progress.js';
import { Limiter, runPool } from '../pool.js';
import { formatRepository, type ImageReference, type RepositoryName } from '../ref/reference.js';
import type { PlaceRef } from '../ref/transport.js';
import { BlobsOnce } from './blobs-once.js';
import { BETWEEN_REGISTRIES, openDestination, openSource, type PlaceDeps } from './places.js';
import { PlannedSource } from './planned-source.js';
import { BatchedKnownBlobs } from './registry/known-blobs.js';
import { type PlatformChoice, selectImages } from './select.js';
import type { ImageSource } from './store.js';
import { digestAt, tagsThere } from './sync-destination.js';
import type { SyncMapping } from './sync-file.js';
import { KeptSources } from './sync-run-state.js';
import { TagFilter } from './tag-filter.js';
import { transfer } from './transfer.js';

/** Tags one mapping may keep after its filters: more is a failure of that mapping (filter it). */
export const MAX_SYNC_TAGS = 10_000;

export type SyncStatus = 'copy' | 'copied' | 'already' | 'failed';

export interface SyncItem {
  source: string;
  destination: string;
  /** Absent when the whole mapping failed (its tags could not be listed). */
  tag?: string;
  status: SyncStatus;
  digest?: string;
  /** Bytes of blobs written (not those skipped or already there). */
  bytes?: number;
  referrers?: number;
  error?: string;
}

export interface SyncReport {
  dryRun: boolean;
  copied: number;
  already: number;
  filtered: number;
  failed: number;
  bytes: number;
  seconds: number;
  items: SyncItem[];
}

export interface SyncDeps {
  places: PlaceDeps;
  listTags(repo: RepositoryName): AsyncIterable<string>;
  progress: TransferProgress;
  now(): number;
  /** Set by sync(): one put per blob and destination repository. */
  once?: BlobsOnce;
}

export interface SyncOptions {
  /** Tags planned and copied at once. */
  concurrency: number;
  /** Blobs in flight per tag. */
  blobConcurrency: number;
  dryRun: boolean;
  /** Told of each item once it is planned (dry run) or done. */
  onItem?: (item: SyncItem) => void;
  /** Told of each tag the filters leave out, as it is listed (nothing is kept of it). */
  onFiltered?: (source: string, tag: string) => void;
}

function choiceOf(m: SyncMapping): PlatformChoice {
  if (m.platforms === 'all') return { kind: 'all' };
  if (m.platforms.length === 1) return { kind: 'one', platform: m.platforms[0]!, explicit: true };
  return { kind: 'some', platforms: m.platforms };
}

const place = (repo: RepositoryName, tag: string): PlaceRef & { transport: 'registry' } => ({
  transport: 'registry',
  ref: { registry: repo.registry, repository: repo.repository, tag } as ImageReference,
});

function sentence(err: unknown): string {
  const text = err instanceof HubctlError || err instanceof Error ? err.message : String(err);
  return text.split('\n')[0]!.slice(0, 500);
}

interface Planned {
  mapping: SyncMapping;
  item: SyncItem;
  /**
   * The source the plan resolved, kept for the copy while `KEEP_PLANNED_BYTES` (sync-run-state.ts) allows: the copy
   * writes the manifest planned (its digest is the plan's) without asking the registry for it again.
   */
  source?: ImageSource;
}

/** Bytes of one tag's child manifests and configs the plan keeps for its copy (planned-source.ts). */
const PLANNED_MEMORY = 1024 * 1024;

/** The tags of one mapping after its filters, and how many the filters left out. */
async function tagsOf(
  m: SyncMapping,
  deps: SyncDeps,
  onFiltered?: (source: string, tag: string) => void,
): Promise<{ tags: string[]; filtered: number }> {
  const filter = new TagFilter(m.tags, 'tags.');
  let taken = 0;
  const name = formatRepository(m.source);
  for await (const t of deps.listTags(m.source)) {
    const took = filter.add(t);
    if (!took) onFiltered?.(name, t);
    if (took && ++taken > MAX_SYNC_TAGS && m.tags.latest === undefined)
      throw new HubctlError(
        `${formatRepository(m.source)} has more than ${MAX_SYNC_TAGS} tags after the filters: narrow them (include, semver, latest)`,
      );
  }
  const tags = filter.result();
  return { tags, filtered: filter.seen - tags.length };
}

/**
 * Compares one tag's manifest digest at the source and the destination. A tag to copy keeps its
 * source open for the copy (within `budget`).
 */
async function planTag(
  m: SyncMapping,
  tag: string,
  deps: SyncDeps,
  kept: KeptSources,
  listed?: Set<string>,
): Promise<{ item: SyncItem; source?: ImageSource }> {
  const item: SyncItem = {
    source: `${formatRepository(m.source)}:${tag}`,
    destination: `${formatRepository(m.destination)}:${tag}`,
    tag,
    status: 'copy',
  };
  const src = new PlannedSource(await openSource(place(m.source, tag), deps.places), PLANNED_MEMORY);
  let keeping = false;
  const copy = async () => {
    const top = await src.resolve();
    // All of an index's images are copied: their manifests are read now, at once.
    if (m.platforms === 'all') await src.readChildren();
    keeping = kept.keep(src, top.size + src.kept);
    return { item, ...(keeping ? { source: src } : {}) };
  };
  try {
    const choice = choiceOf(m);
    const client = await deps.places.registry();
    const read = () =>
      choice.kind === 'all'
        ? src.resolve().then((d) => d.digest)
        : selectImages(src, choice).then((sel) => sel.top.digest);
    // A tag the destination lists is likely there already: the source is asked with a HEAD (no
    // body, and no pull counted by a registry that counts GETs), and read only when the digests
    // differ. Not when platforms are chosen (the digest compared is the selection's), nor with a
    // mirror set for the source (the HEAD would go to the registry the mirror stands in for).
    const headFirst =
      choice.kind === 'all' &&
      listed?.has(tag) === true &&
      (await deps.places.mirrorFor?.(m.source.registry)) === undefined;
    // The two ends are asked at once: one round trip, not two, before the tag is planned.
    let [digest, there] = await Promise.all([
      headFirst ? digestAt(client, m.source, tag) : read(),
      // A tag the destination's list does not name is not there.
      listed && !listed.has(tag) ? undefined : digestAt(client, m.destination, tag),
    ]);
    // Not there, or changed (or gone) at the source: the manifest is read.
    if (digest === undefined || (headFirst && digest !== there)) digest = await read();
    item.digest = digest;
    if (there !== digest) return await copy();
    if (m.referrers && src.referrers) {
      // The subject is there; its referrers too? (Those of referrers come along when it is copied.)
      const dst = await openSource(place(m.destination, tag), deps.places);
      try {
        if (dst.referrers) {
          const want = (await src.referrers(digest)).descriptors.map((d) => d.digest);
          const have = new Set((await dst.referrers(digest)).descriptors.map((d) => d.digest));
          if (want.some((d) => !have.has(d))) return await copy();
        }
      } finally {
        await dst.close().catch(() => undefined);
      }
    }
    item.status = 'already';
    return { item };
  } finally {
    if (!keeping) await src.close().catch(() => undefined);
  }
}

async function copyTag(p: Planned, deps: SyncDeps, opts: SyncOptions, kept: KeptSources): Promise<void> {
  const { mapping: m, item } = p;
  const from = place(m.source, item.tag!);
  // The plan's source answers the manifest it resolved (transfer() closes it), else a new one.
  const source = p.source ? kept.take(p.source) : await openSource(from, deps.places);
  p.source = undefined;
  const destination = await openDestination(place(m.destination, item.tag!), from, deps.places).catch(
    async (err) => {
      await source.close().catch(() => undefined);
      throw err;
    },
  );
  const result = await transfer(
    source,
    deps.once ? deps.once.wrap(destination, item.destination.replace(/:[^:/]+$/, '')) : destination,
    {
      platforms: choiceOf(m),
      progress: deps.progress,
      concurrency: opts.blobConcurrency,
      referrers: m.referrers,
    },
  );
  item.status = 'copied';
  item.digest = result.digest;
  // Bytes sent: a blob already there, or mounted from another repository of the registry, sent none.
  item.bytes = result.blobs
    .filter((b) => b.action !== 'skipped' && b.action !== 'mounted')
    .reduce((n, b) => n + b.size, 0);
  if (result.referrers) item.referrers = result.referrers.length;
}

export async function sync(
  mappings: readonly SyncMapping[],
  deps: SyncDeps,
  opts: SyncOptions,
): Promise<SyncReport> {
  const known = deps.places.known ? new BatchedKnownBlobs(deps.places.known) : undefined;
  const batched = {
    ...deps,
    once: new BlobsOnce(),
    // The plan has read each manifest: fewer requests per blob (places.ts).
    places: { ...deps.places, ...BETWEEN_REGISTRIES, ...(known ? { known } : {}) },
  };
  try {
    return await syncAll(mappings, batched, opts);
  } finally {
    await known?.flush();
  }
}

async function syncAll(
  mappings: readonly SyncMapping[],
  deps: SyncDeps,
  opts: SyncOptions,
): Promise<SyncReport> {
  const started = deps.now();
  const signal = deps.places.signal;
  const planned: Planned[] = [];
  const failedMappings: SyncItem[] = [];
  const kept = new KeptSources();
  let filtered = 0;
  try {
    // Plan: the mappings' tag lists and their tags' digests, all under one bound (`concurrency`
    // listings or tags at once), so that many small mappings overlap as the tags of a large one do.
    // Memory: the kept tags of the mappings, which the plan holds anyway.
    const limit = new Limiter(opts.concurrency);
    const planOne = async (m: SyncMapping, tag: string, listed?: Set<string>): Promise<Planned> => {
      try {
        return { mapping: m, ...(await limit.run(() => planTag(m, tag, deps, kept, listed))) };
      } catch (err) {
        if (signal.aborted) throw err;
        const item: SyncItem = {
          source: `${formatRepository(m.source)}:${tag}`,
          destination: `${formatRepository(m.destination)}:${tag}`,
          tag,
          status: 'failed',
          error: sentence(err),
        };
        return { mapping: m, item };
      }
    };
    const planMapping = async (m: SyncMapping): Promise<Planned[] | SyncItem> => {
      let tags: string[];
      try {
        const listed = await limit.run(() => tagsOf(m, deps, opts.onFiltered));
        tags = listed.tags;
        filtered += listed.filtered;
      } catch (err) {
        if (signal.aborted) throw err;
        const base = { source: formatRepository(m.source), destination: formatRepository(m.destination) };
        const item: SyncItem = { ...base, status: 'failed', error: sentence(err) };
        opts.onItem?.(item);
        return item;
      }
      const listed = await limit.run(() => tagsThere(deps.listTags(m.destination), tags, signal));
      return Promise.all(tags.map((tag) => planOne(m, tag, listed)));
    };
    // Settled, so that nothing is left running when Ctrl-C ends one of them; results in file order.
    const results = await Promise.allSettled(mappings.map(planMapping));
    for (const r of results) if (r.status === 'rejected') throw r.reason;
    for (const r of results) {
      const v = (r as PromiseFulfilledResult<Planned[] | SyncItem>).value;
      if (Array.isArray(v)) planned.push(...v);
      else failedMappings.push(v);
    }
    if (opts.dryRun) for (const p of planned) opts.onItem?.(p.item);
    else
      await runPool(
        planned.filter((p) => p.item.status === 'copy'),
        opts.concurrency,
        async (p) => {
          try {
            await copyTag(p, deps, opts, kept);
          } catch (err) {
            if (signal.aborted) throw err;
            p.item.status = 'failed';
            p.item.error = sentence(err);
          }
          opts.onItem?.(p.item);
        },
      );
  } finally {
    // Sources kept for a copy that did not happen (a dry run, Ctrl-C).
    await kept.closeAll();
  }
  const items = [...failedMappings, ...planned.map((p) => p.item)];
  const count = (s: SyncStatus) => items.filter((i) => i.status === s).length;
  return {
    dryRun: opts.dryRun,
    copied: count('copied'),
    already: count('already'),
    filtered,
    failed: count('failed'),
    bytes: items.reduce((n, i) => n + (i.bytes ?? 0), 0),
    seconds: Math.round((deps.now() - started) / 10) / 100,
    items,
  };
}

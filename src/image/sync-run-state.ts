// What one image sync keeps while it runs (sync.ts): the sources its plan read, kept for the copy
// within a bound, and the blobs it wrote, remembered once at its end and offered for mounts
// meanwhile.

import { KnownBlobs, type KnownBlobsEntry } from './registry/known-blobs.js';
import type { ImageSource } from './store.js';

/** Bytes of manifests (and configs) the plan keeps for the copy, across all mappings; past it, the copy asks again. */
export const KEEP_PLANNED_BYTES = 32 * 1024 * 1024;

/** The sources the plan keeps open for the copy, within `KEEP_PLANNED_BYTES` of what they read. */
export class KeptSources {
  private left = KEEP_PLANNED_BYTES;
  private readonly open = new Set<ImageSource>();

  /** Keeps `source` when what it read (`size` bytes) fits. */
  keep(source: ImageSource, size: number): boolean {
    if (size > this.left) return false;
    this.left -= size;
    this.open.add(source);
    return true;
  }

  /** Hands a kept source over to the copy, which closes it. */
  take(source: ImageSource): ImageSource {
    this.open.delete(source);
    return source;
  }

  async closeAll(): Promise<void> {
    const open = [...this.open];
    this.open.clear();
    await Promise.all(open.map((s) => s.close().catch(() => undefined)));
  }
}

/**
 * Known blobs remembered once at the end of a sync, not once per tag: each remember is a locked
 * read-modify-write of one file, and eight tags at once queued on that lock.
 */
export class BatchedKnownBlobs extends KnownBlobs {
  private readonly pending = new Map<
    string,
    { registry: string; repository: string; digests: Set<string> }
  >();

  constructor(private readonly inner: KnownBlobs) {
    super('');
  }

  /** What this run wrote counts too: a mapping can mount the blobs an earlier one sent. */
  override repositoryWith(registry: string, digest: string, except: string): Promise<string | undefined> {
    for (const e of this.pending.values())
      if (e.registry === registry && e.repository !== except && e.digests.has(digest))
        return Promise.resolve(e.repository);
    return this.inner.repositoryWith(registry, digest, except);
  }

  override async remember(registry: string, repository: string, digests: string[]): Promise<void> {
    const key = `${registry} ${repository}`;
    const entry = this.pending.get(key) ?? { registry, repository, digests: new Set<string>() };
    for (const d of digests) entry.digests.add(d);
    this.pending.set(key, entry);
  }

  override async rememberAll(entries: readonly KnownBlobsEntry[]): Promise<void> {
    for (const { registry, repository, digests } of entries)
      await this.remember(registry, repository, [...digests]);
  }

  /** What was remembered, written in one locked write of the file. */
  async flush(): Promise<void> {
    const entries = [...this.pending.values()].map((e) => ({ ...e, digests: [...e.digests] }));
    this.pending.clear();
    await this.inner.rememberAll(entries).catch(() => undefined);
  }
}

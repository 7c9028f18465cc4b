// State the registry back end keeps under hubctl's state directory for later runs: which
// repositories hold a blob. One small JSON file, written atomically under its lock.

import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../files/atomic.js';
import { withLock } from '../../files/lock.js';

/** Which repositories of a registry hold a blob: the file itself, or a run's batch over it. */
export interface BlobMemory {
  /** Another repository of `registry` known to hold `digest`. */
  repositoryWith(registry: string, digest: string, except: string): Promise<string | undefined>;
  remember(registry: string, repository: string, digests: string[]): Promise<void>;
  rememberAll(entries: readonly KnownBlobsEntry[]): Promise<void>;
}

/**
 * Repositories of each registry that hubctl has seen holding a blob (pushed or pulled), so that a
 * later push to another repository of the same registry can mount it instead of uploading.
 */
export class KnownBlobs implements BlobMemory {
  constructor(private readonly path: string) {}

  private cache?: Record<string, string[]>;

  private async read(): Promise<Record<string, string[]>> {
    if (this.cache) return this.cache;
    let text: string | undefined;
    try {
      text = await readFile(this.path, 'utf8');
    } catch {
      // No file yet (or unreadable): nothing known, as on a first run.
    }
    this.cache = text === undefined ? {} : parseKnownBlobs(text);
    return this.cache;
  }

  /** Another repository of `registry` known to hold `digest`. */
  async repositoryWith(registry: string, digest: string, except: string): Promise<string | undefined> {
    const map = await this.read();
    return map[`${registry} ${digest}`]?.find((r) => r !== except);
  }

  /** Adds to the file under its lock, re-read there: concurrent runs each keep what they add. */
  async remember(registry: string, repository: string, digests: string[]): Promise<void> {
    await this.rememberAll([{ registry, repository, digests }]);
  }

  /**
   * Several repositories' blobs in one locked read-modify-write of the file (a copy's source and
   * destination, a sync's every mapping): each write is a lock, a read, an fsync and a rename.
   */
  async rememberAll(entries: readonly KnownBlobsEntry[]): Promise<void> {
    if (!entries.some((e) => e.digests.length > 0)) return;
    await mkdir(join(this.path, '..'), { recursive: true, mode: 0o700 });
    await withLock(this.path, async () => {
      this.cache = undefined;
      const map = await this.read();
      for (const { registry, repository, digests } of entries) add(map, registry, repository, digests);
      // Keep the file small: the most recent 5000 blobs.
      const keys = Object.keys(map);
      if (keys.length > 5000) for (const k of keys.slice(0, keys.length - 5000)) delete map[k];
      await writeFileAtomic(this.path, JSON.stringify(map));
    });
  }
}

/** Blobs seen in one repository. */
export interface KnownBlobsEntry {
  registry: string;
  repository: string;
  digests: readonly string[];
}

function add(
  map: Record<string, string[]>,
  registry: string,
  repository: string,
  digests: readonly string[],
) {
  for (const d of digests) {
    const key = `${registry} ${d}`;
    const list = (map[key] ?? []).filter((r) => r !== repository);
    list.unshift(repository);
    delete map[key];
    map[key] = list.slice(0, 4);
  }
}

/**
 * Known blobs remembered once at the end of a sync (not once per tag: eight tags at once queued on
 * the file's lock) or of a copy (not once for its source and once for its destination): each write
 * is a lock, a read, an fsync and a rename.
 */
export class BatchedKnownBlobs implements BlobMemory {
  private readonly pending = new Map<
    string,
    { registry: string; repository: string; digests: Set<string> }
  >();

  constructor(private readonly inner: BlobMemory) {}

  /** What this run wrote counts too: a mapping can mount the blobs an earlier one sent. */
  repositoryWith(registry: string, digest: string, except: string): Promise<string | undefined> {
    for (const e of this.pending.values())
      if (e.registry === registry && e.repository !== except && e.digests.has(digest))
        return Promise.resolve(e.repository);
    return this.inner.repositoryWith(registry, digest, except);
  }

  async remember(registry: string, repository: string, digests: string[]): Promise<void> {
    const key = `${registry} ${repository}`;
    const entry = this.pending.get(key) ?? { registry, repository, digests: new Set<string>() };
    for (const d of digests) entry.digests.add(d);
    this.pending.set(key, entry);
  }

  async rememberAll(entries: readonly KnownBlobsEntry[]): Promise<void> {
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

/** A key of the file: `registry digest`, as add() writes it. */
const ENTRY_KEY = /^[^\s]{1,256} [a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-zA-Z0-9=_-]{1,256}$/;

/**
 * The state file's text as a map, keeping only well-formed entries: it is a hint (a mount to try),
 * so a file that is not JSON, not an object, or holds an entry of another shape (a `null` left by a
 * hand edit, a number) loses that much and no more, instead of failing the copy that reads it.
 */
export function parseKnownBlobs(text: string): Record<string, string[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  const map: Record<string, string[]> = {};
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return map;
  for (const [key, value] of Object.entries(parsed)) {
    // `registry digest`, as add() writes it (which also keeps out `__proto__` and its kin).
    if (!ENTRY_KEY.test(key) || !Array.isArray(value)) continue;
    const repos = value.filter((r): r is string => typeof r === 'string' && r.length > 0 && r.length <= 256);
    if (repos.length > 0) map[key] = repos.slice(0, 4);
  }
  return map;
}

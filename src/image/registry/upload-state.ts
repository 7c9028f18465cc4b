// Unfinished uploads, kept under hubctl's state directory so that the next `image push` of the same
// blob to the same repository continues it: its upload URL and the offset the registry confirmed.
// One small JSON file per (registry, repository, digest), written atomically under its lock.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../files/atomic.js';
import { withLock } from '../../files/lock.js';

export interface SavedUpload {
  registry: string;
  repository: string;
  digest: string;
  /** The upload URL the registry gave last (absolute). */
  location: string;
  /** Bytes the registry confirmed. */
  offset: number;
  /** Milliseconds since the epoch. */
  updatedAt: number;
}

/** Uploads older than this are not resumed (registries purge them; distribution after a week). */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

export class UploadStateStore {
  constructor(
    private readonly dir: string,
    private readonly now: () => number,
  ) {}

  private file(registry: string, repository: string, digest: string): string {
    const key = createHash('sha256')
      .update(`${registry}\n${repository}\n${digest}`)
      .digest('hex')
      .slice(0, 32);
    return join(this.dir, `${key}.json`);
  }

  async load(registry: string, repository: string, digest: string): Promise<SavedUpload | undefined> {
    const file = this.file(registry, repository, digest);
    // Most blobs have none: a stat, rather than a read that fails and builds an error each time.
    if (!existsSync(file)) return undefined;
    try {
      const saved = JSON.parse(await readFile(file, 'utf8')) as SavedUpload;
      if (saved.registry !== registry || saved.repository !== repository || saved.digest !== digest)
        return undefined;
      if (this.now() - saved.updatedAt > MAX_AGE_MS) return undefined;
      return saved;
    } catch {
      return undefined;
    }
  }

  async save(entry: Omit<SavedUpload, 'updatedAt'>): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = this.file(entry.registry, entry.repository, entry.digest);
    await withLock(file, () => writeFileAtomic(file, JSON.stringify({ ...entry, updatedAt: this.now() })));
  }

  async remove(registry: string, repository: string, digest: string): Promise<void> {
    const file = this.file(registry, repository, digest);
    if (!existsSync(file)) return;
    await withLock(file, () => unlink(file).catch(() => undefined));
  }

  async list(): Promise<SavedUpload[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const out: SavedUpload[] = [];
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      try {
        out.push(JSON.parse(await readFile(join(this.dir, name), 'utf8')) as SavedUpload);
      } catch {
        // A torn file from a killed process: ignore it.
      }
    }
    return out;
  }
}

// What image transfers keep under hubctl's state directory for later runs: unfinished uploads (so
// that the next `image push` of the same blob to the same repository continues it: its upload URL
// and the offset the registry confirmed; one small JSON file per (registry, repository, digest),
// written atomically under its lock), the repositories known to hold a blob (KnownBlobs), and what
// engine layers were compressed to (CompressedLayers).

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { withLock } from '../files/lock.js';
import { atomicWrite } from './oci-layout.js';

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
    try {
      const saved = JSON.parse(
        await readFile(this.file(registry, repository, digest), 'utf8'),
      ) as SavedUpload;
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
    await withLock(file, () => atomicWrite(file, JSON.stringify({ ...entry, updatedAt: this.now() })));
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

/**
 * Repositories of each registry that hubctl has seen holding a blob (pushed or pulled), so that a
 * later push to another repository of the same registry can mount it instead of uploading.
 */
export class KnownBlobs {
  constructor(private readonly path: string) {}

  private cache?: Record<string, string[]>;

  private async read(): Promise<Record<string, string[]>> {
    if (this.cache) return this.cache;
    try {
      this.cache = JSON.parse(await readFile(this.path, 'utf8')) as Record<string, string[]>;
    } catch {
      this.cache = {};
    }
    return this.cache;
  }

  /** Another repository of `registry` known to hold `digest`. */
  async repositoryWith(registry: string, digest: string, except: string): Promise<string | undefined> {
    const map = await this.read();
    return map[`${registry} ${digest}`]?.find((r) => r !== except);
  }

  /** Adds to the file under its lock, re-read there: concurrent runs each keep what they add. */
  async remember(registry: string, repository: string, digests: string[]): Promise<void> {
    await mkdir(join(this.path, '..'), { recursive: true, mode: 0o700 });
    await withLock(this.path, async () => {
      this.cache = undefined;
      await this.add(registry, repository, digests);
    });
  }

  private async add(registry: string, repository: string, digests: string[]): Promise<void> {
    const map = await this.read();
    for (const d of digests) {
      const key = `${registry} ${d}`;
      const list = (map[key] ?? []).filter((r) => r !== repository);
      list.unshift(repository);
      delete map[key];
      map[key] = list.slice(0, 4);
    }
    // Keep the file small: the most recent 5000 blobs.
    const keys = Object.keys(map);
    if (keys.length > 5000) for (const k of keys.slice(0, keys.length - 5000)) delete map[k];
    await atomicWrite(this.path, JSON.stringify(map));
  }
}

export interface CompressedLayer {
  digest: string;
  size: number;
}

const MAX_LAYERS = 5000;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * What earlier runs compressed each engine layer to: diff_id → the gzip blob's digest and size, as
 * a registry confirmed them. A push from the engine learns a layer's digest only by compressing it;
 * with this, a layer the registry already holds is not compressed and sent again (skopeo keeps the
 * same in its blob-info cache). One small JSON file, changed under its lock, the last 5000 layers.
 */
export class CompressedLayers {
  constructor(private readonly path: string) {}

  private async read(): Promise<Record<string, CompressedLayer>> {
    try {
      const map = JSON.parse(await readFile(this.path, 'utf8')) as unknown;
      return map && typeof map === 'object' ? (map as Record<string, CompressedLayer>) : {};
    } catch {
      return {};
    }
  }

  /** The blob an earlier run made of the layer `diffId`, if one did. */
  async get(diffId: string): Promise<CompressedLayer | undefined> {
    const found = (await this.read())[diffId];
    // A hand-edited or torn entry is ignored, not trusted.
    if (!found || typeof found.digest !== 'string' || !DIGEST.test(found.digest)) return undefined;
    if (!Number.isSafeInteger(found.size) || found.size < 0) return undefined;
    return { digest: found.digest, size: found.size };
  }

  /** Adds to the file under its lock, re-read there: concurrent runs each keep what they add. */
  async remember(diffId: string, layer: CompressedLayer): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await withLock(this.path, async () => {
      const map = await this.read();
      delete map[diffId];
      map[diffId] = { digest: layer.digest, size: layer.size };
      const keys = Object.keys(map);
      for (const k of keys.slice(0, Math.max(0, keys.length - MAX_LAYERS))) delete map[k];
      await atomicWrite(this.path, JSON.stringify(map));
    });
  }
}

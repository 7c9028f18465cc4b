// What one image sync keeps while it runs (sync.ts): the sources its plan read, kept for the copy
// within a bound. (The blobs it wrote are remembered once at its end: registry/known-blobs.ts.)

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

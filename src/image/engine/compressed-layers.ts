// What engine layers were compressed to, kept under hubctl's state directory (see CompressedLayers).

import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../files/atomic.js';
import { withLock } from '../../files/lock.js';

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
      await writeFileAtomic(this.path, JSON.stringify(map));
    });
  }
}

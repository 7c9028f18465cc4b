// The transfer's blob slots: the config, already in memory from the platform check, is written
// beside the pool, so that 4 layers with the default 4 slots all start at once; --concurrency 1
// stays one blob at a time, and a failed config stops the layers that have not started.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSource, type PlaceDeps } from '../../src/image/places.js';
import type { BlobFeed, ImageDestination, StoredManifest } from '../../src/image/store.js';
import { transfer } from '../../src/image/transfer.js';
import type { Descriptor } from '../../src/oci/media-types.js';
import type { BlobAction, TransferProgress } from '../../src/output/progress.js';
import { parsePlace } from '../../src/ref/transport.js';
import { makeOciImage } from '../support/oci-images.js';

const quiet: TransferProgress = { begin() {}, update() {}, done() {}, stop() {} };
const deps: PlaceDeps = {
  registry: () => Promise.reject(new Error('no registry in these tests')),
  signal: new AbortController().signal,
};
const amd64 = { kind: 'one', platform: { os: 'linux', architecture: 'amd64' }, explicit: true } as const;

/** A destination that records which blobs are in flight; the config's write waits on `configGate`. */
class SlotsDestination implements ImageDestination {
  readonly name = 'slots';
  readonly accepts = 'any';
  readonly multiPlatform = true;
  readonly maxConcurrency = 32;
  inFlight = new Set<string>();
  most = 0;
  started: string[] = [];
  constructor(
    private readonly configDigest: () => string,
    private readonly configGate: (dest: SlotsDestination) => Promise<void>,
  ) {}
  async hasBlob(): Promise<boolean> {
    return false;
  }
  async putBlob(d: Descriptor, feed: BlobFeed): Promise<BlobAction> {
    this.started.push(d.digest);
    this.inFlight.add(d.digest);
    this.most = Math.max(this.most, this.inFlight.size);
    try {
      if (d.digest === this.configDigest()) await this.configGate(this);
      const { body } = await feed.open(0);
      for await (const _ of body) {
        // drained
      }
      await new Promise((r) => setTimeout(r, 5));
      return 'copied';
    } finally {
      this.inFlight.delete(d.digest);
    }
  }
  async putManifest(m: StoredManifest): Promise<string> {
    return m.digest;
  }
  async commit(): Promise<void> {}
  async abort(): Promise<void> {}
}

async function image(layers: number) {
  const dir = join(mkdtempSync(join(tmpdir(), 'hubctl-slots-')), 'img');
  const img = await makeOciImage(dir, { layers, layerSize: 4096 });
  const source = await openSource(parsePlace(`oci:${dir}`), deps);
  return { img, source, config: img.images[0]!.config.digest };
}

describe('transfer slots', () => {
  it('4 layers and 4 slots: every layer starts while the config is still being written', async () => {
    const { source, config } = await image(4);
    const dest = new SlotsDestination(
      () => config,
      async (d) => {
        // Before this change the 4th layer waited for the config's slot: this never happened.
        for (let i = 0; i < 200 && d.inFlight.size < 5; i++) await new Promise((r) => setTimeout(r, 5));
        expect(d.inFlight.size).toBe(5);
      },
    );
    const r = await transfer(source, dest, { platforms: amd64, progress: quiet });
    expect(r.blobs.map((b) => b.action)).toEqual(Array(5).fill('copied'));
    expect(r.blobs[0]!.digest).toBe(config);
    expect(dest.most).toBe(5);
  });

  it('--concurrency 1 writes one blob at a time, the config first', async () => {
    const { source, config } = await image(3);
    const dest = new SlotsDestination(
      () => config,
      async () => undefined,
    );
    await transfer(source, dest, { platforms: amd64, progress: quiet, concurrency: 1 });
    expect(dest.most).toBe(1);
    expect(dest.started[0]).toBe(config);
  });

  it('a failed config write stops the layers that have not started', async () => {
    const { source, config } = await image(6);
    const dest = new SlotsDestination(
      () => config,
      async () => {
        throw new Error('config refused');
      },
    );
    await expect(
      transfer(source, dest, { platforms: amd64, progress: quiet, concurrency: 2 }),
    ).rejects.toThrow('config refused');
    // The config, and the two layers that took the slots before it failed.
    expect(dest.started).toHaveLength(3);
  });
});

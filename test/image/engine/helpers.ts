// Test helpers for the engine back end: an engine client as the context builds one, a source over
// an OCI layout made by oci-images.ts, and a minimal copy loop (the real one is image/transfer.ts
// on the images branch) that drives a source and a destination through the store interface.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { engineAddress } from '../../../src/api/engine/address.js';
import { createEngineClient, type EngineClient } from '../../../src/api/engine/client.js';
import { systemClock } from '../../../src/clock.js';
import { createHttpClient } from '../../../src/http/client.js';
import { engineDispatcher } from '../../../src/http/engine-transport.js';
import type { ImageDestination, ImageSource, StoredManifest } from '../../../src/image/store.js';
import { parseManifest } from '../../../src/oci/manifest.js';
import type { Descriptor } from '../../../src/oci/media-types.js';
import type { TransferProgress } from '../../../src/output/progress.js';

export function engineClient(host: string, pinned?: string): EngineClient {
  const address = engineAddress(host, {});
  const http = createHttpClient({
    userAgent: 'test',
    clock: systemClock,
    dispatcher: engineDispatcher(address.transport),
  });
  return createEngineClient({ http, address, pinned });
}

export function layoutSource(dir: string, top: Descriptor): ImageSource {
  const blob = (d: Descriptor) => readFile(join(dir, 'blobs', 'sha256', d.digest.slice(7)));
  return {
    name: `oci:${dir}`,
    rereadable: true,
    resolve: async () => top,
    async getManifest(d): Promise<StoredManifest> {
      const bytes = await blob(d);
      return {
        digest: d.digest,
        mediaType: d.mediaType,
        bytes,
        parsed: parseManifest(bytes, d.mediaType, dir),
      };
    },
    async openBlob(d, start = 0) {
      return { body: Readable.from([(await blob(d)).subarray(start)]), start };
    },
    close: async () => undefined,
  };
}

export const quiet: TransferProgress = { begin() {}, update() {}, done() {}, stop() {} };

export async function copyImage(source: ImageSource, destination: ImageDestination): Promise<string> {
  try {
    const top = await source.getManifest(await source.resolve());
    if (top.parsed.kind !== 'image') throw new Error('a single image is expected here');
    const { config, layers } = top.parsed.manifest;
    for (const d of [config, ...layers]) {
      await destination.putBlob(
        d,
        { open: (start) => source.openBlob(d, start), rereadable: source.rereadable },
        quiet,
      );
    }
    const digest = await destination.putManifest(top, true);
    await destination.commit();
    return digest;
  } catch (err) {
    await destination.abort();
    throw err;
  } finally {
    await source.close();
  }
}

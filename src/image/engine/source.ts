// The engine as a source (`docker-daemon:NAME[:TAG]`): GET /images/{name}/get, read as it streams
// (export-reader.ts), offered as one docker v2 image with gzip layers. To a registry, the layers are
// compressed while they are uploaded (streamTo); a layer is then read again, if at all, by
// compressing its raw file once more (the same bytes: compress.ts).
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { EngineClient } from '../../api/engine/client.js';
import { NotFoundError } from '../../errors.js';
import { parseManifest, sha256Digest } from '../../oci/manifest.js';
import { type Descriptor, DOCKER_MANIFEST } from '../../oci/media-types.js';
import type { BlobRead, ImageSource, StoredManifest, StreamedBlobWriter } from '../store.js';
import { gzipStream } from './compress.js';
import type { CompressedLayers } from './compressed-layers.js';
import { type ExportedImage, readEngineExport } from './export-reader.js';

/**
 * Layers compressed at once: zlib works on libuv's thread pool, 4 threads unless UV_THREADPOOL_SIZE
 * says otherwise, so 4 keep every thread busy whatever the cores. Measured against one per core (2
 * here) on the engine push of 4 × 128 MiB, 6 interleaved pairs at load 1.9-4.2: 7.05 s against
 * 8.16 s (medians), faster in each pair: with two, the third layer waited for the first's upload.
 */
const COMPRESSIONS = 4;

export interface EngineSourceOptions {
  signal?: AbortSignal;
  /** Where the spool folder is made (default: the system's temporary folder). */
  tmp?: string;
  /** What earlier runs compressed layers to (lets a registry that holds one skip it). */
  compressed?: CompressedLayers;
  /** Layers compressed at once (default COMPRESSIONS). */
  concurrency?: number;
}

export class EngineSource implements ImageSource {
  readonly name: string;
  readonly rereadable = true;
  private exported?: Promise<ExportedImage>;
  private dir?: string;
  private write?: StreamedBlobWriter;

  constructor(
    private readonly engine: EngineClient,
    private readonly image: string,
    private readonly opts: EngineSourceOptions = {},
  ) {
    this.name = `docker-daemon:${image}`;
  }

  private load(): Promise<ExportedImage> {
    this.exported ??= (async () => {
      this.dir = await mkdtemp(join(this.opts.tmp ?? tmpdir(), 'hubctl-engine-'));
      const body = await this.engine.exportImage(this.image, this.opts.signal);
      return readEngineExport(body, {
        dir: this.dir,
        host: this.engine.address.display,
        what: `exporting ${this.image} from the engine`,
        concurrency: this.opts.concurrency ?? COMPRESSIONS,
        write: this.write,
        compressed: this.opts.compressed,
      });
    })();
    return this.exported;
  }

  /** Layers are compressed while they are sent to `write` (a registry), not to files. */
  streamTo(write: StreamedBlobWriter): void {
    if (!this.exported) this.write = write;
  }

  async resolve(): Promise<Descriptor> {
    const { manifest } = await this.load();
    return { mediaType: DOCKER_MANIFEST, digest: (await this.top()).digest, size: manifest.length };
  }

  private async top(): Promise<StoredManifest> {
    const { manifest } = await this.load();
    const parsed = parseManifest(manifest, DOCKER_MANIFEST, this.name);
    return { digest: sha256Digest(manifest), mediaType: DOCKER_MANIFEST, bytes: manifest, parsed };
  }

  async getManifest(d: Descriptor): Promise<StoredManifest> {
    const top = await this.top();
    if (d.digest !== top.digest) throw new NotFoundError(`${this.name} holds no manifest ${d.digest}`);
    return top;
  }

  async openBlob(d: Descriptor, start = 0, end?: number): Promise<BlobRead> {
    const blob = (await this.load()).blobs.get(d.digest);
    if (!blob) throw new NotFoundError(`${this.name} holds no blob ${d.digest}`);
    const stop = end ?? blob.size;
    if (blob.bytes) return { body: Readable.from([blob.bytes.subarray(start, stop)]), start };
    if (blob.raw) return { body: slice(gzipStream(blob.raw.file, blob.raw.level), start, stop), start };
    const body = createReadStream(blob.file as string, { start, end: stop - 1, highWaterMark: 1 << 20 });
    return { body, start };
  }

  async close(): Promise<void> {
    await this.exported?.catch(() => undefined);
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}

/** Bytes `start` to `stop` (exclusive) of a stream. */
function slice(source: Readable, start: number, stop: number): Readable {
  let at = 0;
  return Readable.from(
    (async function* () {
      try {
        for await (const chunk of source as AsyncIterable<Buffer>) {
          const from = Math.max(start - at, 0);
          const to = Math.min(stop - at, chunk.length);
          at += chunk.length;
          if (to > from) yield chunk.subarray(from, to);
          if (at >= stop) return;
        }
      } finally {
        source.destroy();
      }
    })(),
    { objectMode: false },
  );
}

// gzip for the layers an engine hands over uncompressed: the level, a file compressed to a file,
// a file compressed as a stream (sent while it is made), and a bound on compressions at once.

import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { pipeline as pipe, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip, deflateRaw as deflateRawCallback, gzip as gzipCallback } from 'node:zlib';
import { sha256Digest } from '../../oci/manifest.js';
import { Limiter } from '../../pool.js';
import { READ_CHUNK } from '../io-sizes.js';

const gzip = promisify(gzipCallback);
const deflateRaw = promisify(deflateRawCallback);

/**
 * gzip level 1, chosen by measurement (Node's zlib, 128 MiB of a real root filesystem: this
 * machine's /usr/lib and /usr/bin tarred; 2 busy cores): level 1 compressed at 20 MiB/s to 33.8 %,
 * level 2 21 MiB/s / 33.1 %, level 3 13 / 32.7 %, level 6 (gzip's and skopeo's default) 7 / 30.8 %.
 * Level 1 is ~2.9× faster than 6 for ~10 % more bytes. Compression, not the network, bounds a push
 * from the engine (the registry takes 150+ MiB/s on loopback), so the fastest level wins; random
 * data is incompressible at every level and costs the same.
 */
export const ENGINE_GZIP_LEVEL = 1;
/** zlib's output buffer: fewer, larger chunks for the hash and the socket than its 16 KiB default. */
const GZIP_CHUNK = 256 << 10;

/**
 * At most `limit` jobs at once; the others wait their turn (src/pool.ts's Limiter: a freed slot
 * passes straight to the next waiting job, so that one arriving meanwhile cannot take it as well).
 */
export function limiter(limit: number) {
  const slots = new Limiter(limit);
  const run = <T>(job: () => Promise<T>): Promise<T> => slots.run(job);
  return Object.assign(run, { acquire: () => slots.acquire() });
}

/**
 * Level 0 (stored blocks, still gzip) for a layer that does not compress: zlib spends as long on
 * random bytes at level 1 as on text (8 MiB/s on this busy machine) to save nothing, where Go's
 * compressor (skopeo's) skips incompressible data. Eight 64 KiB samples across the file decide,
 * compressed on the thread pool: four 256 KiB ones on the main thread held it for ~70 ms a layer
 * of random bytes, while the export was still being read.
 */
export async function levelFor(raw: string, size: number, level: number): Promise<number> {
  const sample = 64 << 10;
  const samples = 8;
  if (size < samples * sample) return level;
  const handle = await open(raw, 'r');
  try {
    for (let i = 0; i < samples; i++) {
      const buf = Buffer.alloc(sample);
      await handle.read(buf, 0, sample, Math.floor((i / samples) * (size - sample)));
      if ((await deflateRaw(buf, { level: 1 })).length < sample * 0.95) return level;
    }
    return 0;
  } finally {
    await handle.close();
  }
}

/**
 * The file gzip-compressed, as a stream. zlib's output depends on the input, the level and, for
 * level 0's stored blocks, how input and output are cut: all fixed here, so every call gives the
 * same bytes and an upload that broke is made again from here (a registry checks the digest).
 */
export function gzipStream(raw: string, level: number): Readable {
  return pipe(
    createReadStream(raw, { highWaterMark: READ_CHUNK }),
    createGzip({ level, chunkSize: GZIP_CHUNK }),
    () => undefined, // errors reach the reader of the returned stream
  );
}

/** The file compressed to `out`; the raw file is removed. */
export async function compressFile(raw: string, out: string, preferred: number, rawSize: number) {
  const level = await levelFor(raw, rawSize, preferred);
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    gzipStream(raw, level),
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    },
    createWriteStream(out),
  );
  await unlink(raw);
  return { file: out, digest: `sha256:${hash.digest('hex')}`, size };
}

export async function compressBytes(bytes: Buffer, level: number) {
  const out = await gzip(bytes, { level });
  return { bytes: out, digest: sha256Digest(out), size: out.length };
}

// Reads an engine export (GET /images/{name}/get, a docker-archive tar) as it streams. The tar
// names its manifest.json last (docker and podman both), so which entries are layers is known only
// at the end: each large entry is spooled to its own temporary file as it arrives, and layers the
// engine hands over uncompressed are gzip-compressed from there, several at once, while the rest
// of the stream is still being read. Small entries (configs, legacy metadata) stay in memory. The
// whole archive is never staged, and every layer is checked against the config's diff_ids.

import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, readFile, unlink } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip, deflateRawSync, gunzipSync, gzip as gzipCallback } from 'node:zlib';
import { checkAnswer, v } from '../../api/answer.js';
import { sha256Digest } from '../../api/registry/manifest.js';
import { DOCKER_CONFIG, DOCKER_LAYER_GZIP, DOCKER_MANIFEST } from '../../api/registry/media-types.js';
import { IntegrityError, UnexpectedAnswerError } from '../../errors.js';
import { readTarStream } from './tar-stream.js';

const gzip = promisify(gzipCallback);

/**
 * gzip level 1, chosen by measurement (Node's zlib, 128 MiB of a real root filesystem: this
 * machine's /usr/lib and /usr/bin tarred; 2 busy cores): level 1 compressed at 20 MiB/s to 33.8 %,
 * level 2 21 MiB/s / 33.1 %, level 3 13 / 32.7 %, level 6 (gzip's and skopeo's default) 7 / 30.8 %.
 * Level 1 is ~2.9× faster than 6 for ~10 % more bytes. Compression, not the network, bounds a push
 * from the engine (the registry takes 150+ MiB/s on loopback), so the fastest level wins; random
 * data is incompressible at every level and costs the same.
 */
export const ENGINE_GZIP_LEVEL = 1;
/** Entries up to this size are kept in memory; larger ones are spooled to a file. */
const IN_MEMORY_MAX = 1 << 20;

export interface ExportedBlob {
  digest: string;
  size: number;
  mediaType: string;
  /** The bytes, or the file holding them. */
  bytes?: Buffer;
  file?: string;
}

export interface ExportedImage {
  manifest: Buffer;
  config: Buffer;
  blobs: Map<string, ExportedBlob>;
  repoTags: string[];
}

interface Spooled {
  rawDigest: string;
  rawSize: number;
  bytes?: Buffer;
  /** The raw entry on disk (removed once compressed). */
  rawFile?: string;
  gzip: boolean;
  /** The layer as it will be sent: gzip bytes on disk, with their digest. */
  compressed?: Promise<{ file?: string; bytes?: Buffer; digest: string; size: number }>;
}

const archiveManifest = v.pipe(
  v.array(
    v.looseObject({
      Config: v.string(),
      RepoTags: v.nullish(v.array(v.string())),
      Layers: v.array(v.string()),
    }),
  ),
  v.minLength(1, 'an empty manifest.json'),
);
const imageConfig = v.looseObject({
  rootfs: v.looseObject({ type: v.string(), diff_ids: v.array(v.string()) }),
});

/** At most `limit` compressions at once; the reader keeps spooling meanwhile. */
function limiter(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(job: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await job();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/**
 * Level 0 (stored blocks, still gzip) for a layer that does not compress: zlib spends as long on
 * random bytes at level 1 as on text (8 MiB/s on this busy machine) to save nothing, where Go's
 * compressor (skopeo's) skips incompressible data. Four 256 KiB samples across the file decide.
 */
async function levelFor(raw: string, size: number, level: number): Promise<number> {
  const sample = 256 << 10;
  if (size < 4 * sample) return level;
  const handle = await open(raw, 'r');
  try {
    for (const at of [0, 0.25, 0.5, 0.75]) {
      const buf = Buffer.alloc(sample);
      await handle.read(buf, 0, sample, Math.floor(at * (size - sample)));
      if (deflateRawSync(buf, { level: 1 }).length < sample * 0.95) return level;
    }
    return 0;
  } finally {
    await handle.close();
  }
}

async function compressFile(raw: string, out: string, preferred: number, rawSize: number) {
  const level = await levelFor(raw, rawSize, preferred);
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    createReadStream(raw, { highWaterMark: 1 << 20 }),
    createGzip({ level, chunkSize: 256 << 10 }),
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

export interface ReadExportOptions {
  /** A private temporary folder for spooled layers (the caller removes it). */
  dir: string;
  /** The host that answered, for messages. */
  host: string;
  what: string;
  concurrency: number;
  level?: number;
}

export async function readEngineExport(
  stream: AsyncIterable<Buffer | string>,
  opts: ReadExportOptions,
): Promise<ExportedImage> {
  const level = opts.level ?? ENGINE_GZIP_LEVEL;
  const limit = limiter(opts.concurrency);
  const entries = new Map<string, Spooled>();
  const links = new Map<string, string>();
  let n = 0;
  for await (const entry of readTarStream(stream, opts.what)) {
    if (entry.type === '2') {
      links.set(entry.name, posix.normalize(posix.join(posix.dirname(entry.name), entry.linkname)));
      continue;
    }
    if (entry.type !== '0' && entry.type !== '7') continue;
    const hash = createHash('sha256');
    if (entry.size <= IN_MEMORY_MAX) {
      const parts: Buffer[] = [];
      for await (const c of entry.body) parts.push(c);
      const bytes = Buffer.concat(parts);
      entries.set(entry.name, {
        rawDigest: sha256Digest(bytes),
        rawSize: bytes.length,
        bytes,
        gzip: isGzip(bytes),
      });
      continue;
    }
    const rawFile = join(opts.dir, `${n++}.raw`);
    let first: Buffer | undefined;
    await pipeline(
      entry.body,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          first ??= chunk;
          hash.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(rawFile),
    );
    const spooled: Spooled = {
      rawDigest: `sha256:${hash.digest('hex')}`,
      rawSize: entry.size,
      rawFile,
      gzip: isGzip(first),
    };
    if (!spooled.gzip) {
      spooled.compressed = limit(() => compressFile(rawFile, `${rawFile}.gz`, level, entry.size));
      spooled.compressed.catch(() => undefined); // awaited below
    }
    entries.set(entry.name, spooled);
  }

  const bad = (what: string) =>
    new UnexpectedAnswerError(`${opts.what}: unexpected answer from ${opts.host}: ${what}`);
  const find = (name: string): Spooled => {
    const clean = posix.normalize(name);
    const found = entries.get(clean) ?? entries.get(links.get(clean) ?? '');
    if (!found) throw bad(`the archive names ${name}, which it does not hold`);
    return found;
  };
  const manifestEntry = entries.get('manifest.json');
  if (!manifestEntry?.bytes) throw bad('the archive has no manifest.json');
  const list = checkAnswer(archiveManifest, parseJson(manifestEntry.bytes, bad), {
    host: opts.host,
    what: opts.what,
  });
  const image = list[0]!;
  const configEntry = find(image.Config);
  const config = await entryBytes(configEntry);
  const parsedConfig = checkAnswer(imageConfig, parseJson(config, bad), {
    host: opts.host,
    what: `${opts.what}: the config`,
  });
  const diffIds = parsedConfig.rootfs.diff_ids;
  if (diffIds.length !== image.Layers.length) {
    throw bad(`the config lists ${diffIds.length} layers and manifest.json ${image.Layers.length}`);
  }

  const blobs = new Map<string, ExportedBlob>();
  const configDigest = sha256Digest(config);
  blobs.set(configDigest, {
    digest: configDigest,
    size: config.length,
    mediaType: DOCKER_CONFIG,
    bytes: config,
  });
  const layers: { mediaType: string; size: number; digest: string }[] = [];
  for (const [i, name] of image.Layers.entries()) {
    const layer = find(name);
    if (!layer.gzip) layer.compressed ??= compressBytes(layer.bytes as Buffer, level);
    const sent = layer.gzip
      ? { file: layer.rawFile, bytes: layer.bytes, digest: layer.rawDigest, size: layer.rawSize }
      : await (layer.compressed as NonNullable<Spooled['compressed']>);
    // An uncompressed layer is its diff_id; a compressed one is checked by whoever unpacks it.
    if (!layer.gzip && layer.rawDigest !== diffIds[i]) {
      throw new IntegrityError(
        `${opts.what}: layer ${i + 1} is ${layer.rawDigest}, but the config says ${diffIds[i]}`,
      );
    }
    layers.push({ mediaType: DOCKER_LAYER_GZIP, size: sent.size, digest: sent.digest });
    blobs.set(sent.digest, { ...sent, mediaType: DOCKER_LAYER_GZIP });
  }
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: DOCKER_MANIFEST,
      config: { mediaType: DOCKER_CONFIG, size: config.length, digest: configDigest },
      layers,
    }),
  );
  return { manifest, config, blobs, repoTags: image.RepoTags ?? [] };
}

async function compressBytes(bytes: Buffer, level: number) {
  const out = await gzip(bytes, { level });
  return { bytes: out, digest: sha256Digest(out), size: out.length };
}

async function entryBytes(entry: Spooled): Promise<Buffer> {
  if (entry.bytes) return entry.gzip ? gunzipSync(entry.bytes) : entry.bytes;
  if (entry.rawFile && entry.gzip) return gunzipSync(await readFile(entry.rawFile));
  const c = await entry.compressed;
  return gunzipSync(c?.file ? await readFile(c.file) : (c?.bytes as Buffer));
}

function parseJson(bytes: Buffer, bad: (what: string) => Error): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw bad('a JSON file of the archive is not valid JSON');
  }
}

function isGzip(b: Buffer | undefined): boolean {
  return b !== undefined && b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
}

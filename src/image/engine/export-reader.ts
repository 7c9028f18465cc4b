// Reads an engine export (GET /images/{name}/get, a docker-archive tar) as it streams. The tar
// names its manifest.json last (docker and podman both), so which entries are layers is known only
// at the end: each large entry is spooled to its own temporary file as it arrives, and layers the
// engine hands over uncompressed are gzip-compressed from there, several at once, while the rest
// of the stream is still being read: to files, or, given `write` (a registry destination), while
// they are uploaded, each upload committed only once the entry is known to be a layer whose bytes
// match the config's diff_id. Small entries (configs, legacy metadata) stay in memory. The whole
// archive is never staged, and every layer is checked against the config's diff_ids.

import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { gunzipSync } from 'node:zlib';
import { checkAnswer, v } from '../../api/answer.js';
import { IntegrityError, UnexpectedAnswerError, ValidationError } from '../../errors.js';
import { sha256Digest } from '../../oci/manifest.js';
import { DOCKER_CONFIG, DOCKER_LAYER_GZIP, DOCKER_MANIFEST } from '../../oci/media-types.js';
import { WRITE_BATCH } from '../io-sizes.js';
import type { StreamedBlobWriter } from '../store.js';
import { compressBytes, compressFile, ENGINE_GZIP_LEVEL, gzipStream, levelFor, limiter } from './compress.js';
import type { CompressedLayers } from './compressed-layers.js';
import { readTarStream } from './tar-stream.js';

/** Entries up to this size are kept in memory; larger ones are spooled to a file. */
const IN_MEMORY_MAX = 1 << 20;
/**
 * The small entries kept in memory, together: an image's metadata is a few KiB and its small layers
 * a few MiB; an export of endless small entries stops here rather than growing the process.
 */
export const IN_MEMORY_TOTAL_MAX = 256 * 1024 * 1024;
/** Entries of one image's export: a few per layer (at most 127 layers) and a few more. */
export const MAX_EXPORT_ENTRIES = 10_000;

export interface ExportedBlob {
  digest: string;
  size: number;
  mediaType: string;
  /** The bytes, or the file holding them, or the raw file they are compressed from at `level`. */
  bytes?: Buffer;
  file?: string;
  raw?: { file: string; level: number };
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
  /** The raw entry on disk (removed once compressed to a file; kept when streamed). */
  rawFile?: string;
  gzip: boolean;
  /** The layer as it will be sent: gzip bytes on disk or in memory, or streamed from the raw file. */
  compressed?: Promise<Omit<ExportedBlob, 'mediaType'>>;
  /** A streamed entry's upload waits for this: settled once the entry is checked as a layer. */
  gate?: Gate;
}

/** A promise settled from outside. */
interface Gate {
  promise: Promise<void>;
  open(): void;
  refuse(err: unknown): void;
}
function gate(): Gate {
  let open = () => {};
  let refuse: (err: unknown) => void = () => {};
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    refuse = reject;
  });
  promise.catch(() => undefined); // the writer awaits it
  return { promise, open, refuse };
}

/** Why a streamed entry's upload is cancelled when the archive does not list it as a layer. */
class NotALayer extends Error {}

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

export interface ReadExportOptions {
  /** A private temporary folder for spooled layers (the caller removes it). */
  dir: string;
  /** The host that answered, for messages. */
  host: string;
  what: string;
  concurrency: number;
  level?: number;
  /** Layers compressed on the way go here as they are made, rather than to files. */
  write?: StreamedBlobWriter;
  /** What earlier runs compressed layers to: offered to `write`, and kept up to date. */
  compressed?: CompressedLayers;
}

export async function readEngineExport(
  stream: AsyncIterable<Buffer | string>,
  opts: ReadExportOptions,
): Promise<ExportedImage> {
  const entries = new Map<string, Spooled>();
  const links = new Map<string, string>();
  try {
    await spool(stream, opts, entries, links);
    return await assemble(opts, entries, links);
  } catch (err) {
    // The rest of the export is not read: its connection is closed, not left open.
    (stream as { destroy?: (err?: Error) => void }).destroy?.();
    // Uploads under way are cancelled and waited for: nothing runs on after a failure.
    for (const e of entries.values()) e.gate?.refuse(err);
    await Promise.allSettled([...entries.values()].map((e) => e.compressed));
    throw err;
  }
}

/** Reads the archive: small entries into memory, large ones to files, compressed as they land. */
async function spool(
  stream: AsyncIterable<Buffer | string>,
  opts: ReadExportOptions,
  entries: Map<string, Spooled>,
  links: Map<string, string>,
): Promise<void> {
  const level = opts.level ?? ENGINE_GZIP_LEVEL;
  const limit = limiter(opts.concurrency);
  const write = opts.write;
  let n = 0;
  let inMemory = 0;
  for await (const entry of asAnswer(readTarStream(stream, opts.what, MAX_EXPORT_ENTRIES), opts)) {
    if (entry.type === '2') {
      links.set(entry.name, posix.normalize(posix.join(posix.dirname(entry.name), entry.linkname)));
      continue;
    }
    if (entry.type !== '0' && entry.type !== '7') continue;
    const hash = createHash('sha256');
    if (entry.size <= IN_MEMORY_MAX) {
      inMemory += entry.size;
      if (inMemory > IN_MEMORY_TOTAL_MAX)
        throw new UnexpectedAnswerError(
          `${opts.what}: unexpected answer from ${opts.host}: the archive's small entries add up to more than ${IN_MEMORY_TOTAL_MAX / (1024 * 1024)} MiB`,
        );
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
      // Chunks that arrive while a write is under way go out together in one writev.
      createWriteStream(rawFile, { highWaterMark: WRITE_BATCH }),
    );
    const spooled: Spooled = {
      rawDigest: `sha256:${hash.digest('hex')}`,
      rawSize: entry.size,
      rawFile,
      gzip: isGzip(first),
    };
    if (!spooled.gzip) {
      if (write) spooled.gate = gate();
      spooled.compressed = write
        ? streamEntry(spooled, rawFile, level, write, limit.acquire, opts.compressed)
        : limit(() => compressFile(rawFile, `${rawFile}.gz`, level, entry.size));
      spooled.compressed.catch(() => undefined); // awaited below
    }
    entries.set(entry.name, spooled);
  }
}

/** The engine's archive is its answer: a malformed or oversized one is an unexpected answer (exit 7). */
async function* asAnswer<T>(entries: AsyncGenerator<T>, opts: ReadExportOptions): AsyncGenerator<T> {
  try {
    yield* entries;
  } catch (err) {
    if (err instanceof ValidationError)
      throw new UnexpectedAnswerError(
        `${err.message.replace(`${opts.what}: `, `${opts.what}: unexpected answer from ${opts.host}: `)}`,
        { cause: err },
      );
    throw err;
  }
}

/**
 * A spooled entry compressed while it is sent, committed once it is known to be a layer (its
 * gate). The limit counts compressions under way, not uploads waiting for their gate.
 */
async function streamEntry(
  entry: Spooled,
  rawFile: string,
  preferred: number,
  write: StreamedBlobWriter,
  turn: () => Promise<() => void>,
  compressed?: CompressedLayers,
) {
  const level = await levelFor(rawFile, entry.rawSize, preferred);
  const known = await compressed?.get(entry.rawDigest);
  const sent = await write({
    known,
    open: async () => {
      const release = await turn();
      const body = gzipStream(rawFile, level);
      body.once('close', release);
      return body;
    },
    label: entry.rawDigest,
    estimate: entry.rawSize,
    checked: (entry.gate as Gate).promise,
  });
  // The writer answers only once the entry is a layer that matched its diff_id.
  if (sent.digest !== known?.digest) await compressed?.remember(entry.rawDigest, sent).catch(() => undefined);
  return { ...sent, raw: { file: rawFile, level } };
}

/** The image from the archive's manifest.json and config, every layer checked against its diff_id. */
async function assemble(
  opts: ReadExportOptions,
  entries: Map<string, Spooled>,
  links: Map<string, string>,
): Promise<ExportedImage> {
  const level = opts.level ?? ENGINE_GZIP_LEVEL;
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
  const config = await entryBytes(configEntry, bad);
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
  const found = image.Layers.map(find);
  // An uncompressed layer is its diff_id; a compressed one is checked by whoever unpacks it.
  for (const [i, layer] of found.entries()) {
    if (!layer.gzip && layer.rawDigest !== diffIds[i]) {
      throw new IntegrityError(
        `${opts.what}: layer ${i + 1} is ${layer.rawDigest}, but the config says ${diffIds[i]}`,
      );
    }
  }
  // Streamed layers may now be committed; a large entry that is no layer is not sent.
  for (const e of entries.values()) {
    if (found.includes(e)) e.gate?.open();
    else e.gate?.refuse(new NotALayer());
  }
  const layers: { mediaType: string; size: number; digest: string }[] = [];
  for (const layer of found) {
    if (!layer.gzip) layer.compressed ??= compressBytes(layer.bytes as Buffer, level);
    const sent = layer.gzip
      ? { file: layer.rawFile, bytes: layer.bytes, digest: layer.rawDigest, size: layer.rawSize }
      : await (layer.compressed as NonNullable<Spooled['compressed']>);
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

/** A config (JSON) read from the export: past this, decompressed or not, it is refused. */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

async function entryBytes(entry: Spooled, bad: (what: string) => Error): Promise<Buffer> {
  const tooLarge = () => bad(`the image config is larger than ${MAX_CONFIG_BYTES / (1024 * 1024)} MiB`);
  // A gzip bomb stops at the cap: zlib refuses to produce more than maxOutputLength.
  const gunzip = (b: Buffer) => {
    try {
      return gunzipSync(b, { maxOutputLength: MAX_CONFIG_BYTES });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
      throw bad('the image config is not valid gzip');
    }
  };
  const read = async (file: string) => {
    if ((await stat(file)).size > MAX_CONFIG_BYTES) throw tooLarge();
    return readFile(file);
  };
  if (entry.bytes) return entry.gzip ? gunzip(entry.bytes) : entry.bytes;
  if (entry.rawFile && entry.gzip) return gunzip(await read(entry.rawFile));
  if (entry.rawFile && entry.gate) return read(entry.rawFile); // kept while streamed
  const c = await entry.compressed;
  return gunzip(c?.file ? await read(c.file) : (c?.bytes as Buffer));
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

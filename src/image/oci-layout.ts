// OCI image layouts on disk: `oci-layout`, `index.json`, `blobs/sha256/<hex>`. Writes go through
// files/atomic.ts (a temporary file, fsync, a rename); blobs are verified while they stream
// (verified-write.ts).

import type { Stats } from 'node:fs';
import { lstat, mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { IntegrityError, NotFoundError, UsageError, ValidationError } from '../errors.js';
import { writeFileAtomic } from '../files/atomic.js';
import { withLock } from '../files/lock.js';
import { filesystemError, kindOf, openInput } from '../files/safe-open.js';
import { listSome } from '../list-some.js';
import { sha256Digest } from '../oci/manifest.js';
import { type Descriptor, type ImageIndex, OCI_INDEX } from '../oci/media-types.js';
import { assertDigest } from '../ref/reference.js';
import { READ_CHUNK } from './io-sizes.js';
import { sha256OfFile } from './verified-write.js';

/** index.json and the small blobs read whole (manifests, configs): past this they are refused. */
export const MAX_LOCAL_JSON_BYTES = 64 * 1024 * 1024;

export const REF_NAME = 'org.opencontainers.image.ref.name';

export interface LocalBlobSource {
  /** Bytes of a small blob (manifest, config). */
  readBlob(digest: string): Promise<Buffer>;
  /** A stream of the blob from `start` up to `end` (exclusive; default: the end). */
  openBlob(digest: string, start?: number, end?: number): Promise<Readable>;
  blobSize(digest: string): Promise<number | undefined>;
}

export class OciLayout implements LocalBlobSource {
  constructor(readonly dir: string) {}

  static async open(dir: string): Promise<OciLayout> {
    let marker: string;
    try {
      marker = await readFile(join(dir, 'oci-layout'), 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT')
        throw new NotFoundError(`${dir} is not an OCI image layout (no oci-layout file)`);
      throw filesystemError(err, join(dir, 'oci-layout'), 'cannot read');
    }
    try {
      JSON.parse(marker);
    } catch {
      throw new ValidationError(`${join(dir, 'oci-layout')} is not valid JSON`);
    }
    return new OciLayout(dir);
  }

  /** Creates the layout's folders and marker when missing. */
  static async create(dir: string): Promise<OciLayout> {
    const blobs = join(dir, 'blobs', 'sha256');
    await mkdir(blobs, { recursive: true }).catch(async (err) => {
      // A file where a folder of the layout goes: name the one that is in the way.
      for (const p of [dir, join(dir, 'blobs'), blobs]) {
        const st = await stat(p).catch(() => undefined);
        if (st && !st.isDirectory()) throw new ValidationError(`${p} is ${kindOf(st)}, not a directory`);
      }
      throw filesystemError(err, (err as NodeJS.ErrnoException).path ?? blobs, 'cannot create the directory');
    });
    try {
      await stat(join(dir, 'oci-layout'));
    } catch {
      await writeFileAtomic(join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
    }
    return new OciLayout(dir);
  }

  blobPath(digest: string): string {
    assertDigest(digest);
    return join(this.dir, 'blobs', 'sha256', digest.slice('sha256:'.length));
  }

  /** Where a blob's download is kept until it is verified (hidden, in the same folder). */
  partialPath(digest: string): string {
    assertDigest(digest);
    return join(this.dir, 'blobs', 'sha256', `.${digest.slice('sha256:'.length)}.partial`);
  }

  /** What is at a blob's name (not followed when it is a symlink), or undefined. */
  async blobEntry(digest: string): Promise<Stats | undefined> {
    try {
      return await lstat(this.blobPath(digest));
    } catch {
      return undefined;
    }
  }

  /** The size of a blob that is a regular file (followed through a symlink); else undefined. */
  async blobSize(digest: string): Promise<number | undefined> {
    try {
      const st = await stat(this.blobPath(digest));
      return st.isFile() ? st.size : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Whether the blob is here with this size and bytes that hash to its digest. A file of the right
   * size is read through (a truncated or altered blob must not be taken for the real one). Only a
   * plain file counts: a symlink (to /dev/zero, a FIFO or anything else) is not a blob held here.
   */
  async hasVerifiedBlob(digest: string, size: number): Promise<boolean> {
    const st = await this.blobEntry(digest);
    if (!st?.isFile() || st.size !== size) return false;
    return (await sha256OfFile(this.blobPath(digest))) === digest;
  }

  /** Opens a blob to read: a regular file, or one sentence (a directory, a FIFO, a device: exit 2). */
  private async openFile(digest: string) {
    const path = this.blobPath(digest);
    try {
      return await openInput(path, 'blob');
    } catch (err) {
      if ((err as { cause?: NodeJS.ErrnoException }).cause?.code === 'ENOENT')
        throw new NotFoundError(`blob ${digest} is missing from ${this.dir}`);
      throw err;
    }
  }

  async readBlob(digest: string): Promise<Buffer> {
    const fh = await this.openFile(digest);
    let bytes: Buffer;
    try {
      const { size } = await fh.stat();
      if (size > MAX_LOCAL_JSON_BYTES)
        throw new ValidationError(
          `blob ${digest} in ${this.dir} is ${size} bytes, over the ${MAX_LOCAL_JSON_BYTES / (1024 * 1024)} MiB a manifest or config may have`,
        );
      bytes = await fh.readFile();
    } finally {
      await fh.close();
    }
    if (sha256Digest(bytes) !== digest)
      throw new IntegrityError(`blob ${digest} in ${this.dir} does not match its digest`);
    return bytes;
  }

  /**
   * A stream of the blob from `start` up to `end`. With `expected` (the descriptor's size), a file
   * of another size is refused at once (exit 1): a truncated blob is local corruption, not a
   * network failure.
   */
  async openBlob(digest: string, start = 0, end?: number, expected?: number): Promise<Readable> {
    const fh = await this.openFile(digest);
    const { size } = await fh.stat();
    if (expected !== undefined && size !== expected) {
      await fh.close();
      throw new IntegrityError(
        `blob ${digest} in ${this.dir} is ${size < expected ? 'truncated' : 'too long'}: ${size} bytes where its descriptor says ${expected}`,
      );
    }
    const stop = Math.min(end ?? size, size);
    if (stop <= start) {
      await fh.close();
      return Readable.from([]);
    }
    return fh.createReadStream({ start, end: stop - 1, highWaterMark: READ_CHUNK });
  }

  /** Writes a small blob (manifest, config) from bytes, verifying the digest. */
  async writeBlob(digest: string, bytes: Uint8Array): Promise<void> {
    if (sha256Digest(bytes) !== digest)
      throw new IntegrityError(`blob ${digest}: the bytes do not match the digest`);
    const path = this.blobPath(digest);
    const st = await this.blobEntry(digest);
    if (st?.isDirectory()) throw new ValidationError(`${path} is a directory, not a blob`);
    if (st?.isFile() && st.size === bytes.length && (await readFile(path)).equals(bytes)) return;
    await writeFileAtomic(path, bytes);
  }

  async readIndex(): Promise<ImageIndex> {
    const path = join(this.dir, 'index.json');
    let fh: Awaited<ReturnType<typeof openInput>>;
    try {
      fh = await openInput(path, 'the index');
    } catch (err) {
      if ((err as { cause?: NodeJS.ErrnoException }).cause?.code === 'ENOENT')
        return { schemaVersion: 2, mediaType: OCI_INDEX, manifests: [] };
      throw err;
    }
    let text: string;
    try {
      if ((await fh.stat()).size > MAX_LOCAL_JSON_BYTES)
        throw new ValidationError(`${path} is over ${MAX_LOCAL_JSON_BYTES / (1024 * 1024)} MiB`);
      text = await fh.readFile('utf8');
    } finally {
      await fh.close();
    }
    return parseIndexJson(text, path);
  }

  /** The descriptor a tag names in index.json (see pickFromIndex). */
  async resolve(tag?: string): Promise<Descriptor> {
    return pickFromIndex(await this.readIndex(), tag, this.dir, 'oci');
  }

  /**
   * Points a tag at a descriptor in index.json (replacing the tag's previous entry), under the
   * index's lock: concurrent pulls into one layout each add their tag.
   */
  async setTag(tag: string | undefined, descriptor: Descriptor): Promise<void> {
    await withLock(join(this.dir, 'index.json'), () => this.writeTag(tag, descriptor));
  }

  private async writeTag(tag: string | undefined, descriptor: Descriptor): Promise<void> {
    const index = await this.readIndex();
    const entry: Descriptor = {
      mediaType: descriptor.mediaType,
      digest: descriptor.digest,
      size: descriptor.size,
      ...(descriptor.platform ? { platform: descriptor.platform } : {}),
      ...(tag !== undefined ? { annotations: { [REF_NAME]: tag } } : {}),
    };
    index.manifests = index.manifests.filter((d) =>
      tag !== undefined ? d.annotations?.[REF_NAME] !== tag : d.digest !== descriptor.digest,
    );
    index.manifests.push(entry);
    await writeFileAtomic(
      join(this.dir, 'index.json'),
      JSON.stringify({ ...index, schemaVersion: 2, manifests: index.manifests }),
    );
  }
}

/**
 * The descriptor a tag names in an index.json; without a tag, the only image in it (an error when
 * there are several). `transport` names the form to suggest (`oci:DIR:TAG`).
 */
export function pickFromIndex(
  index: ImageIndex,
  tag: string | undefined,
  where: string,
  transport: string,
): Descriptor {
  if (tag !== undefined) {
    const found = index.manifests.find((d) => d.annotations?.[REF_NAME] === tag);
    if (!found) {
      const tags = index.manifests.map((d) => d.annotations?.[REF_NAME]).filter(Boolean);
      throw new NotFoundError(`no image tagged "${tag}" in ${where}`, {
        hint: tags.length > 0 ? `Tags there: ${listSome(tags as string[])}.` : undefined,
      });
    }
    return found;
  }
  if (index.manifests.length === 1) return index.manifests[0]!;
  if (index.manifests.length === 0) throw new NotFoundError(`${where} holds no image`);
  throw new UsageError(
    `${where} holds ${index.manifests.length} images: name one with ${transport}:${where}:TAG`,
  );
}

/** index.json's text as an index, or a sentence naming the file. */
export function parseIndexJson(text: string, where: string): ImageIndex {
  let index: ImageIndex;
  try {
    index = JSON.parse(text) as ImageIndex;
  } catch (err) {
    throw new ValidationError(`${where} is not a valid OCI index (not JSON)`, { cause: err });
  }
  if (!index || typeof index !== 'object' || !Array.isArray(index.manifests))
    throw new ValidationError(`${where} is not a valid OCI index (no list of manifests)`);
  // Every entry is read further (tags, digests): one that is not a descriptor is named here.
  for (const [i, d] of index.manifests.entries()) {
    const ok =
      d !== null &&
      typeof d === 'object' &&
      typeof d.mediaType === 'string' &&
      typeof d.digest === 'string' &&
      Number.isSafeInteger(d.size) &&
      d.size >= 0 &&
      (d.annotations === undefined ||
        (d.annotations !== null &&
          typeof d.annotations === 'object' &&
          Object.values(d.annotations).every((a) => typeof a === 'string')));
    if (!ok)
      throw new ValidationError(
        `${where} is not a valid OCI index: manifest ${i + 1} is not a descriptor (mediaType, digest, size)`,
      );
  }
  return index;
}

// OCI image layouts on disk: `oci-layout`, `index.json`, `blobs/sha256/<hex>`. Writes go through a
// temporary file and a rename; blobs are verified while they stream (verified-write.ts).

import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sha256Digest } from '../api/registry/manifest.js';
import { type Descriptor, type ImageIndex, OCI_INDEX } from '../api/registry/media-types.js';
import { IntegrityError, NotFoundError, UsageError, ValidationError } from '../errors.js';
import { withLock } from '../files/lock.js';
import { assertDigest } from '../ref/reference.js';
import { READ_CHUNK } from './io-sizes.js';
import { sha256OfFile } from './verified-write.js';

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
    } catch {
      throw new NotFoundError(`${dir} is not an OCI image layout (no oci-layout file)`);
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
    await mkdir(join(dir, 'blobs', 'sha256'), { recursive: true });
    try {
      await stat(join(dir, 'oci-layout'));
    } catch {
      await atomicWrite(join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
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

  async blobSize(digest: string): Promise<number | undefined> {
    try {
      return (await stat(this.blobPath(digest))).size;
    } catch {
      return undefined;
    }
  }

  /**
   * Whether the blob is here with this size and bytes that hash to its digest. A file of the right
   * size is read through (a truncated or altered blob must not be taken for the real one).
   */
  async hasVerifiedBlob(digest: string, size: number): Promise<boolean> {
    if ((await this.blobSize(digest)) !== size) return false;
    return (await sha256OfFile(this.blobPath(digest))) === digest;
  }

  async readBlob(digest: string): Promise<Buffer> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.blobPath(digest));
    } catch {
      throw new NotFoundError(`blob ${digest} is missing from ${this.dir}`);
    }
    if (sha256Digest(bytes) !== digest)
      throw new IntegrityError(`blob ${digest} in ${this.dir} does not match its digest`);
    return bytes;
  }

  async openBlob(digest: string, start = 0, end?: number): Promise<Readable> {
    const path = this.blobPath(digest);
    const size = await this.blobSize(digest);
    if (size === undefined) throw new NotFoundError(`blob ${digest} is missing from ${this.dir}`);
    const stop = Math.min(end ?? size, size);
    if (stop <= start) return Readable.from([]);
    return createReadStream(path, { start, end: stop - 1, highWaterMark: READ_CHUNK });
  }

  /** Writes a small blob (manifest, config) from bytes, verifying the digest. */
  async writeBlob(digest: string, bytes: Uint8Array): Promise<void> {
    if (sha256Digest(bytes) !== digest)
      throw new IntegrityError(`blob ${digest}: the bytes do not match the digest`);
    const path = this.blobPath(digest);
    if ((await this.blobSize(digest)) === bytes.length && (await readFile(path)).equals(bytes)) return;
    await atomicWrite(this.blobPath(digest), bytes);
  }

  async readIndex(): Promise<ImageIndex> {
    let text: string;
    try {
      text = await readFile(join(this.dir, 'index.json'), 'utf8');
    } catch {
      return { schemaVersion: 2, mediaType: OCI_INDEX, manifests: [] };
    }
    return parseIndexJson(text, join(this.dir, 'index.json'));
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
    await atomicWrite(
      join(this.dir, 'index.json'),
      JSON.stringify({ ...index, schemaVersion: 2, manifests: index.manifests }),
    );
  }
}

/** Writes a file through a temporary sibling and a rename. */
export async function atomicWrite(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${path}.tmp-${randomBytes(6).toString('hex')}`;
  await writeFile(tmp, data);
  await rename(tmp, path);
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
        hint: tags.length > 0 ? `Tags there: ${tags.join(', ')}.` : undefined,
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
  try {
    const index = JSON.parse(text) as ImageIndex;
    if (!index || !Array.isArray(index.manifests)) throw new Error('no manifests');
    return index;
  } catch (err) {
    throw new ValidationError(`${where} is not a valid OCI index`, { cause: err });
  }
}

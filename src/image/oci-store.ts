// `oci:DIR[:TAG]`, an OCI image layout directory, as a source and as a destination. Blobs are
// written through a partial file, verified while they stream and continued with Range after a
// broken download (verified-write.ts); a blob already there is hashed before it is skipped, and
// rewritten when its bytes are wrong. index.json names the image only at commit.

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat, unlink } from 'node:fs/promises';
import { parseManifest } from '../api/registry/manifest.js';
import type { Descriptor } from '../api/registry/media-types.js';
import { IntegrityError } from '../errors.js';
import type { BlobAction, TransferProgress } from '../output/progress.js';
import { READ_CHUNK } from './io-sizes.js';
import { OciLayout } from './oci-layout.js';
import type { BlobFeed, BlobRead, ImageDestination, ImageSource, StoredManifest } from './store.js';
import { writeVerifiedBlob } from './verified-write.js';

/** A manifest read from a local place: bytes checked by the caller, parsed with the entry's type. */
export function localManifest(bytes: Buffer, d: Descriptor, where: string): StoredManifest {
  const parsed = parseManifest(bytes, d.mediaType, `${where} (${d.digest})`);
  return { digest: d.digest, mediaType: parsed.mediaType, bytes, parsed };
}

export class OciSource implements ImageSource {
  readonly rereadable = true;

  private constructor(
    readonly name: string,
    private readonly layout: OciLayout,
    private readonly tag: string | undefined,
  ) {}

  static async open(name: string, dir: string, tag?: string): Promise<OciSource> {
    return new OciSource(name, await OciLayout.open(dir), tag);
  }

  resolve(): Promise<Descriptor> {
    return this.layout.resolve(this.tag);
  }

  async getManifest(d: Descriptor): Promise<StoredManifest> {
    return localManifest(await this.layout.readBlob(d.digest), d, this.name);
  }

  async openBlob(d: Descriptor, start = 0, end?: number): Promise<BlobRead> {
    return { body: await this.layout.openBlob(d.digest, start, end), start };
  }

  async close(): Promise<void> {}
}

async function fileDigest(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: READ_CHUNK }))
    hash.update(chunk as Buffer);
  return `sha256:${hash.digest('hex')}`;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

export class OciDestination implements ImageDestination {
  readonly accepts = 'oci';
  readonly multiPlatform = true;
  readonly maxConcurrency = 32;
  private layout?: Promise<OciLayout>;
  private created = false;
  private top?: Descriptor;

  constructor(
    readonly name: string,
    private readonly dir: string,
    private readonly tag: string | undefined,
    private readonly signal?: AbortSignal,
  ) {}

  private open(): Promise<OciLayout> {
    this.layout ??= (async () => {
      this.created = !(await exists(this.dir));
      return OciLayout.create(this.dir);
    })();
    return this.layout;
  }

  async hasBlob(d: Descriptor): Promise<boolean> {
    const layout = await this.open();
    if ((await layout.blobSize(d.digest)) !== d.size) return false;
    return (await fileDigest(layout.blobPath(d.digest))) === d.digest;
  }

  async putBlob(d: Descriptor, feed: BlobFeed, progress: TransferProgress): Promise<BlobAction> {
    const layout = await this.open();
    if (await this.hasBlob(d)) {
      progress.done(d.digest, d.size, 'skipped');
      return 'skipped';
    }
    // Wrong bytes under the right name (a torn copy, a disk error): replaced, not trusted.
    await unlink(layout.blobPath(d.digest)).catch(() => undefined);
    progress.begin(d.digest, d.size);
    await writeVerifiedBlob({
      digest: d.digest,
      size: d.size,
      finalPath: layout.blobPath(d.digest),
      partialPath: layout.partialPath(d.digest),
      open: (start) => feed.open(start),
      onProgress: (have) => progress.update(d.digest, have),
      signal: this.signal,
    });
    const action = feed.repository ? 'pulled' : 'copied';
    progress.done(d.digest, d.size, action);
    return action;
  }

  async putManifest(m: StoredManifest, top: boolean): Promise<string> {
    await (await this.open()).writeBlob(m.digest, m.bytes);
    if (top) this.top = { mediaType: m.mediaType, digest: m.digest, size: m.bytes.length };
    return m.digest;
  }

  async commit(): Promise<void> {
    if (!this.top) throw new Error('commit before the top manifest');
    await (await this.open()).setTag(this.tag, this.top);
  }

  async abort(reason?: unknown): Promise<void> {
    // A corrupt blob leaves nothing behind; a broken download keeps its partial file for the next run.
    if (reason instanceof IntegrityError && this.created)
      await rm(this.dir, { recursive: true, force: true });
  }
}

// `oci:DIR[:TAG]`, an OCI image layout directory, as a source and as a destination. Blobs are
// written through a partial file, verified while they stream and continued with Range after a
// broken download (verified-write.ts); a blob already there is hashed before it is skipped, and
// rewritten when its bytes are wrong. index.json names the image only at commit.

import { randomBytes } from 'node:crypto';
import { readdir, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { parseManifest } from '../api/registry/manifest.js';
import type { Descriptor } from '../api/registry/media-types.js';
import { IntegrityError, ValidationError } from '../errors.js';
import { tryLock } from '../files/lock.js';
import type { BlobAction, TransferProgress } from '../output/progress.js';
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
    return { body: await this.layout.openBlob(d.digest, start, end, d.size), start };
  }

  async close(): Promise<void> {}
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** A download's claim on its partial file is taken over only when its run is gone, or after a day. */
const DOWNLOAD_STALE_MS = 24 * 60 * 60 * 1000;

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
    /** Told when a blob of the layout had wrong bytes and is fetched again. */
    private readonly notice?: (line: string) => void,
  ) {}

  private open(): Promise<OciLayout> {
    this.layout ??= (async () => {
      this.created = !(await exists(this.dir));
      return OciLayout.create(this.dir);
    })();
    return this.layout;
  }

  async hasBlob(d: Descriptor): Promise<boolean> {
    return (await this.open()).hasVerifiedBlob(d.digest, d.size);
  }

  async putBlob(d: Descriptor, feed: BlobFeed, progress: TransferProgress): Promise<BlobAction> {
    const layout = await this.open();
    if (await this.hasBlob(d)) {
      progress.done(d.digest, d.size, 'skipped');
      return 'skipped';
    }
    const there = await layout.blobEntry(d.digest);
    if (there?.isDirectory())
      throw new ValidationError(`${layout.blobPath(d.digest)} is a directory where blob ${d.digest} goes`);
    if (there) {
      // Wrong bytes under the right name (truncated, altered, a link elsewhere): never skipped,
      // fetched again.
      this.notice?.(`blob ${d.digest} in ${this.dir} does not match its digest: fetching it again`);
      await unlink(layout.blobPath(d.digest)).catch(() => undefined);
    }
    progress.begin(d.digest, d.size);
    // Another run writing into this layout may be downloading the same blob: it keeps the shared
    // partial file (the one a later run resumes); this run downloads into a file of its own.
    const shared = layout.partialPath(d.digest);
    let release = tryLock(shared, DOWNLOAD_STALE_MS);
    let partialPath = shared;
    let own = false;
    if (!release) {
      partialPath = `${shared}-${randomBytes(4).toString('hex')}`;
      release = tryLock(partialPath, DOWNLOAD_STALE_MS);
      own = true;
    }
    try {
      await writeVerifiedBlob({
        digest: d.digest,
        size: d.size,
        finalPath: layout.blobPath(d.digest),
        partialPath,
        open: (start) => feed.open(start),
        onProgress: (have) => progress.update(d.digest, have),
        signal: this.signal,
      });
    } finally {
      if (own) await rm(partialPath, { force: true });
      release?.();
    }
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
    const layout = await this.open();
    await layout.setTag(this.tag, this.top);
    await sweepPartials(layout);
  }

  async abort(reason?: unknown): Promise<void> {
    // A corrupt blob leaves nothing behind; a broken download keeps its partial file for the next run.
    if (reason instanceof IntegrityError && this.created)
      await rm(this.dir, { recursive: true, force: true });
  }
}

const PARTIAL = /^\.([0-9a-f]{64})\.partial(-[0-9a-f]+)?$/;

/**
 * Removes what dead runs left in the layout's blob folder and no run will continue: a private
 * partial file (`.<hex>.partial-<id>`), or a shared one whose blob is now in place. Each is claimed
 * under its lock first, so a live run's file is never touched (its lock is held); a dead run's lock
 * is taken over. A shared partial of a blob the layout still lacks stays, for the next pull of it.
 */
export async function sweepPartials(layout: OciLayout): Promise<void> {
  const dir = join(layout.dir, 'blobs', 'sha256');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = PARTIAL.exec(name);
    if (!m) continue;
    const path = join(dir, name);
    const release = tryLock(path, DOWNLOAD_STALE_MS);
    if (!release) continue;
    try {
      if (m[2] || (await layout.blobSize(`sha256:${m[1]}`)) !== undefined) await rm(path, { force: true });
    } finally {
      release();
    }
  }
}

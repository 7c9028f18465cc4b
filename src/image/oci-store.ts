// `oci:DIR[:TAG]`, an OCI image layout directory, as a source and as a destination. Blobs are
// written through a partial file, verified while they stream and continued with Range after a
// broken download (verified-write.ts); a blob already there is hashed before it is skipped, and
// rewritten when its bytes are wrong. index.json names the image only at commit.

import { randomBytes } from 'node:crypto';
import { rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { IntegrityError, ValidationError } from '../errors.js';
import { tryLock, withLock } from '../files/lock.js';
import { sweepClaimed } from '../files/sweep.js';
import { parseManifest, sha256Digest } from '../oci/manifest.js';
import { type Descriptor, type ImageIndex, OCI_INDEX } from '../oci/media-types.js';
import type { BlobAction, TransferProgress } from '../output/progress.js';
import { OciLayout, REF_NAME } from './oci-layout.js';
import {
  fallbackTag,
  indexBytes,
  ofArtifactType,
  type ReferrerList,
  type ReferrersVia,
  referrerDescriptor,
  subjectOf,
  withReferrer,
} from './referrers.js';
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

  referrers(subject: string, artifactType?: string): Promise<ReferrerList> {
    return layoutReferrers(this.layout, subject, artifactType, this.name);
  }

  async close(): Promise<void> {}
}

/** The referrers an OCI layout lists under the subject's fallback tag in index.json. */
async function layoutReferrers(
  layout: OciLayout,
  subject: string,
  artifactType: string | undefined,
  where: string,
): Promise<ReferrerList> {
  const index = await fallbackIndex(layout, subject, where);
  return { via: 'tag', descriptors: ofArtifactType(index?.manifests ?? [], artifactType) };
}

async function fallbackIndex(
  layout: OciLayout,
  subject: string,
  where: string,
): Promise<ImageIndex | undefined> {
  const tag = fallbackTag(subject);
  const entry = (await layout.readIndex()).manifests.find((d) => d.annotations?.[REF_NAME] === tag);
  if (!entry) return undefined;
  const m = localManifest(await layout.readBlob(entry.digest), entry, where);
  if (m.parsed.kind !== 'index')
    throw new ValidationError(`${where}: the referrers fallback tag ${tag} names an image, not an index`);
  return m.parsed.index;
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
  /** Referrers put, listed under their subject's fallback tag at commit. */
  private readonly referrersOf: { subject: string; descriptor: Descriptor }[] = [];

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

  async putReferrer(m: StoredManifest): Promise<ReferrersVia> {
    await (await this.open()).writeBlob(m.digest, m.bytes);
    const subject = subjectOf(m);
    if (subject) this.referrersOf.push({ subject, descriptor: referrerDescriptor(m) });
    return 'tag';
  }

  async commit(): Promise<void> {
    if (!this.top && this.referrersOf.length === 0) throw new Error('commit before the top manifest');
    const layout = await this.open();
    if (this.top) await layout.setTag(this.tag, this.top);
    // The fallback tags' indexes, read and written again under a lock of their own (setTag takes
    // index.json's), so that two runs adding referrers to one layout both keep theirs.
    if (this.referrersOf.length > 0)
      await withLock(join(this.dir, 'index.json.referrers'), async () => {
        for (const { subject, descriptor } of this.referrersOf) {
          const next = withReferrer(await fallbackIndex(layout, subject, this.name), descriptor);
          if (!next) continue;
          const bytes = indexBytes(next);
          const digest = sha256Digest(bytes);
          await layout.writeBlob(digest, bytes);
          await layout.setTag(fallbackTag(subject), { mediaType: OCI_INDEX, digest, size: bytes.length });
        }
      });
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
  await sweepClaimed(
    join(layout.dir, 'blobs', 'sha256'),
    DOWNLOAD_STALE_MS,
    (name) => PARTIAL.test(name),
    async (path, name) => {
      const m = PARTIAL.exec(name)!;
      if (m[2] || (await layout.blobSize(`sha256:${m[1]}`)) !== undefined) await rm(path, { force: true });
    },
  );
}

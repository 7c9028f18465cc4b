// What the two archive places share: reading blobs straight out of a tar by its header index
// (nothing extracted), and writing an image into a tar front to back as its blobs arrive, with no
// staging copy: each blob is one `blobs/sha256/<hex>` entry, verified while it is written, and
// continued from where it broke when the source's stream breaks. The file is written beside its
// final name and renamed at commit.

import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { IntegrityError, NetworkError, NotFoundError } from '../errors.js';
import { tryLock } from '../files/lock.js';
import { filesystemError } from '../files/safe-open.js';
import { sweepClaimed } from '../files/sweep.js';
import { sha256Digest } from '../oci/manifest.js';
import type { Descriptor } from '../oci/media-types.js';
import type { BlobAction, TransferProgress } from '../output/progress.js';
import type { BlobFeed, BlobRead, ImageDestination, StoredManifest } from './store.js';
import { indexTar, openTarEntry, readTarEntry, type TarEntry, TarWriter } from './tar.js';
import { asNetworkError } from './verified-write.js';

export const blobEntryName = (digest: string) => `blobs/sha256/${digest.slice('sha256:'.length)}`;

/** A tar file's entries, and its `blobs/sha256/<hex>` entries by digest. */
export class TarFile {
  readonly blobs = new Map<string, TarEntry>();

  private constructor(
    readonly path: string,
    readonly entries: Map<string, TarEntry>,
  ) {
    for (const e of entries.values()) {
      const m = /^blobs\/sha256\/([a-f0-9]{64})$/.exec(e.name);
      if (m) this.blobs.set(`sha256:${m[1]}`, e);
    }
  }

  static async open(path: string): Promise<TarFile> {
    try {
      return new TarFile(path, await indexTar(path));
    } catch (err) {
      if ((err as { cause?: { code?: string } }).cause?.code === 'ENOENT')
        throw new NotFoundError(`${path} does not exist`);
      throw err;
    }
  }

  entry(name: string): TarEntry | undefined {
    return this.entries.get(name);
  }

  read(entry: TarEntry): Promise<Buffer> {
    return readTarEntry(this.path, entry);
  }

  private blob(digest: string): TarEntry {
    const e = this.blobs.get(digest);
    if (!e) throw new NotFoundError(`blob ${digest} is not in ${this.path}`);
    return e;
  }

  /** A small blob (a manifest), checked against its digest. */
  async readBlob(digest: string): Promise<Buffer> {
    const bytes = await this.read(this.blob(digest));
    if (sha256Digest(bytes) !== digest)
      throw new IntegrityError(`blob ${digest} in ${this.path} does not match its digest`);
    return bytes;
  }

  openBlob(digest: string, start = 0, end?: number, entry = this.blob(digest)): BlobRead {
    return { body: openTarEntry(this.path, entry, start, end), start };
  }
}

/** Writes an image's entries into `path` (through a temporary sibling); one blob at a time. */
export class TarImageWriter {
  private readonly tmp: string;
  private out?: WriteStream;
  /** The claim on the temporary file: a later run removes it only once its owner is gone. */
  private release?: () => void;
  private tar!: TarWriter;
  private readonly written = new Set<string>();
  private started?: Promise<void>;

  constructor(
    private readonly path: string,
    private readonly head: (tar: TarWriter) => Promise<void>,
  ) {
    this.tmp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.partial`);
  }

  /** Opens the file on the first write, so that a failed selection leaves nothing behind. */
  private start(): Promise<void> {
    this.started ??= (async () => {
      this.release = tryLock(this.tmp, PARTIAL_STALE_MS);
      // Created new (O_EXCL): never through a symlink, never into a file that exists.
      const out = createWriteStream(this.tmp, { flags: 'wx', mode: 0o644 });
      this.out = out;
      await new Promise<void>((resolve, reject) => {
        out.once('open', () => resolve());
        out.once('error', (err) => reject(filesystemError(err, this.tmp, 'cannot write')));
      });
      out.on('error', () => undefined); // reported by the write that meets it
      this.tar = new TarWriter(out);
      await this.head(this.tar);
    })();
    return this.started;
  }

  async putBlob(d: Descriptor, feed: BlobFeed, progress: TransferProgress, action: BlobAction) {
    await this.start();
    if (this.written.has(d.digest)) {
      progress.done(d.digest, d.size, 'skipped');
      return 'skipped' as const;
    }
    progress.begin(d.digest, d.size);
    const hash = createHash('sha256');
    let have = 0;
    const source = async function* (): AsyncGenerator<Buffer> {
      for (let attempt = 0; ; attempt++) {
        try {
          const { body, start } = await feed.open(have);
          if (start !== have) {
            body.destroy();
            throw new IntegrityError(`${d.digest}: the source could not continue at byte ${have}`);
          }
          for await (const chunk of body) {
            const c = chunk as Buffer;
            // A source that sends more or fewer bytes than the descriptor is a mismatch (exit 1),
            // not a malformed entry (the tar writer's own check, exit 2).
            if (have + c.length > d.size)
              throw new IntegrityError(
                `blob ${d.digest} is larger than the ${d.size} bytes its descriptor says`,
              );
            hash.update(c);
            have += c.length;
            progress.update(d.digest, have);
            yield c;
          }
          if (have !== d.size)
            throw new IntegrityError(
              `blob ${d.digest} has ${have} bytes, not the ${d.size} its descriptor says`,
            );
          return;
        } catch (err) {
          if (err instanceof IntegrityError || attempt >= 3 || !isBrokenStream(err))
            throw asNetworkError(err, `reading ${d.digest}`);
        }
      }
    };
    await this.tar.addStream(blobEntryName(d.digest), d.size, source());
    const actual = `sha256:${hash.digest('hex')}`;
    if (actual !== d.digest)
      throw new IntegrityError(
        `blob ${d.digest} does not match its digest: the bytes received hash to ${actual}`,
      );
    this.written.add(d.digest);
    progress.done(d.digest, d.size, action);
    return action;
  }

  async putBuffer(name: string, bytes: Buffer): Promise<void> {
    await this.start();
    await this.tar.addBuffer(name, bytes);
  }

  async putManifest(digest: string, bytes: Buffer): Promise<void> {
    if (this.written.has(digest)) return;
    await this.putBuffer(blobEntryName(digest), bytes);
    this.written.add(digest);
  }

  async commit(): Promise<void> {
    await this.start();
    await this.tar.finish();
    await rename(this.tmp, this.path).catch((err) => {
      throw filesystemError(err, this.path, 'cannot write');
    });
    this.release?.();
    await sweepArchivePartials(this.path);
  }

  async abort(): Promise<void> {
    if (!this.out) return;
    this.out.destroy();
    await unlink(this.tmp).catch(() => undefined);
    this.release?.();
  }
}

/** A temporary archive's claim is taken over when its run is gone (same host), or after a day. */
const PARTIAL_STALE_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the temporary files dead runs left beside `path` (`.<name>.<id>.partial`): each is
 * claimed under its lock first, so a live run's file is never touched.
 */
export async function sweepArchivePartials(path: string): Promise<void> {
  const prefix = `.${basename(path)}.`;
  await sweepClaimed(
    dirname(path),
    PARTIAL_STALE_MS,
    (name) => name.startsWith(prefix) && /^[0-9a-f]{8}\.partial$/.test(name.slice(prefix.length)),
    (tmp) => rm(tmp, { force: true }),
  );
}

function isBrokenStream(err: unknown): boolean {
  // A registry's body fails as a NetworkError (its socket error as the cause): http/layers/response.ts.
  if (err instanceof NetworkError) return true;
  const code = (err as { code?: string })?.code;
  return (
    typeof code === 'string' && /^(ECONNRESET|EPIPE|ETIMEDOUT|UND_ERR_|ERR_STREAM_PREMATURE_CLOSE)/.test(code)
  );
}

export const OCI_LAYOUT_MARKER = Buffer.from(JSON.stringify({ imageLayoutVersion: '1.0.0' }));

/**
 * A destination written as one tar of an OCI layout (oci-archive:, docker-archive:): blobs and
 * manifests as `blobs/sha256/<hex>` entries as they come; a subclass writes its index entries at
 * commit, then the file is renamed into place.
 */
export abstract class ArchiveDestination implements ImageDestination {
  abstract readonly accepts: 'any' | 'oci';
  abstract readonly multiPlatform: boolean;
  readonly maxConcurrency = 1;
  protected readonly writer: TarImageWriter;
  protected top?: StoredManifest;

  constructor(
    readonly name: string,
    path: string,
  ) {
    this.writer = new TarImageWriter(path, async (tar) => {
      await tar.addBuffer('oci-layout', OCI_LAYOUT_MARKER);
      await tar.addDirectory('blobs');
      await tar.addDirectory('blobs/sha256');
    });
  }

  /** The file is written anew: it holds nothing yet. */
  async hasBlob(): Promise<boolean> {
    return false;
  }

  putBlob(d: Descriptor, feed: BlobFeed, progress: TransferProgress): Promise<BlobAction> {
    return this.writer.putBlob(d, feed, progress, feed.repository ? 'pulled' : 'copied');
  }

  async putManifest(m: StoredManifest, top: boolean): Promise<string> {
    await this.writer.putManifest(m.digest, m.bytes);
    if (top) this.top = m;
    return m.digest;
  }

  /** The entries that name the image (index.json, manifest.json), before the rename. */
  protected abstract finish(top: StoredManifest): Promise<void>;

  async commit(): Promise<void> {
    if (!this.top) throw new Error('commit before the top manifest');
    await this.finish(this.top);
    await this.writer.commit();
  }

  abort(): Promise<void> {
    return this.writer.abort();
  }
}

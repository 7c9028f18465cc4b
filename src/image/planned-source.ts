// A source the sync plan has read, kept for the copy (sync.ts): the manifests and small blobs the
// plan asked for (an index's children and the configs read to choose platforms) are answered again
// from memory, so the one transfer asks the registry only for what the plan did not read. Bounded:
// past `maxBytes` nothing more is kept, and reads go to the source as before.

import { Readable } from 'node:stream';
import { sha256Digest } from '../oci/manifest.js';
import type { Descriptor } from '../oci/media-types.js';
import type { RepositoryName } from '../ref/reference.js';
import type { ReferrerList } from './referrers.js';
import { readBlobWhole } from './select.js';
import type { BlobRead, ImageSource, StoredManifest } from './store.js';

/** Blobs kept whole when read from their start: configs, small artifacts. */
export const PLANNED_BLOB_MAX = 64 * 1024;

export class PlannedSource implements ImageSource {
  readonly name: string;
  readonly rereadable: boolean;
  readonly repository?: RepositoryName;
  readonly referrers?: (subject: string, artifactType?: string) => Promise<ReferrerList>;
  private readonly manifests = new Map<string, Promise<StoredManifest>>();
  private readonly blobs = new Map<string, Buffer>();
  /** Bytes kept, top manifest excluded (the source keeps that one itself). */
  kept = 0;

  constructor(
    private readonly inner: ImageSource,
    private readonly maxBytes: number,
  ) {
    this.name = inner.name;
    this.rereadable = inner.rereadable;
    if (inner.repository) this.repository = inner.repository;
    if (inner.referrers) this.referrers = inner.referrers.bind(inner);
  }

  private fits(size: number): boolean {
    if (this.kept + size > this.maxBytes) return false;
    this.kept += size;
    return true;
  }

  resolve(): Promise<Descriptor> {
    return this.inner.resolve();
  }

  getManifest(d: Descriptor): Promise<StoredManifest> {
    const had = this.manifests.get(d.digest);
    if (had) return had;
    const read = this.inner.getManifest(d);
    if (this.fits(d.size)) {
      this.manifests.set(d.digest, read);
      // A failed read is not kept: the copy asks again.
      read.catch(() => {
        this.manifests.delete(d.digest);
        this.kept -= d.size;
      });
    }
    return read;
  }

  /** The children of the top index, read at once (the copy reads them one after the other). */
  async readChildren(): Promise<void> {
    const top = await this.inner.getManifest(await this.inner.resolve());
    if (top.parsed.kind !== 'index') return;
    await Promise.all(top.parsed.index.manifests.map((d) => this.getManifest(d)));
  }

  async openBlob(d: Descriptor, start = 0, end?: number): Promise<BlobRead> {
    const had = this.blobs.get(d.digest);
    if (had) return { body: Readable.from([had.subarray(start, end)]), start };
    if (start !== 0 || end !== undefined || d.size > PLANNED_BLOB_MAX || !this.fits(d.size))
      return this.inner.openBlob(d, start, end);
    let bytes: Buffer;
    try {
      // Past its size: handed on empty, for the reader to refuse as short.
      bytes = (await readBlobWhole(this.name, await this.inner.openBlob(d, 0), d)) ?? Buffer.alloc(0);
    } catch (err) {
      // A failed read keeps nothing, so it counts for nothing.
      this.kept -= d.size;
      throw err;
    }
    // Kept only when whole and right; otherwise handed on as read, for the reader to refuse.
    if (bytes.length === d.size && sha256Digest(bytes) === d.digest) this.blobs.set(d.digest, bytes);
    else this.kept -= d.size;
    return { body: Readable.from([bytes]), start: 0 };
  }

  close(): Promise<void> {
    this.manifests.clear();
    this.blobs.clear();
    return this.inner.close();
  }
}

// A registry source with a mirror (`registry.HOST.mirror`): the mirror is asked first, the
// registry itself when the mirror does not have the image or cannot be reached. A blob the chosen
// mirror lacks is read from the registry. The mirror's own credentials are used for it (they are
// bound to its origin); nothing of the registry's is sent to it.

import { HubctlError } from '../../errors.js';
import type { Descriptor } from '../../oci/media-types.js';
import type { ReferrerList } from '../referrers.js';
import type { BlobRead, ImageSource, StoredManifest } from '../store.js';
import type { RegistrySource } from './source.js';

export class MirroredSource implements ImageSource {
  readonly name: string;
  readonly rereadable = false;
  readonly repository: RegistrySource['repository'];
  private chosen?: RegistrySource;

  constructor(
    private readonly mirror: RegistrySource,
    private readonly origin: RegistrySource,
    private readonly signal: AbortSignal,
    private readonly note?: (line: string) => void,
  ) {
    this.name = origin.name;
    this.repository = origin.repository;
  }

  private fallback(err: unknown): boolean {
    return !this.signal.aborted && err instanceof HubctlError;
  }

  async resolve(): Promise<Descriptor> {
    if (this.chosen) return this.chosen.resolve();
    try {
      const d = await this.mirror.resolve();
      this.chosen = this.mirror;
      this.note?.(`pulling ${this.origin.name} from the mirror ${this.mirror.name}`);
      return d;
    } catch (err) {
      if (!this.fallback(err)) throw err;
      this.note?.(
        `the mirror ${this.mirror.name} failed (${(err as Error).message}): using ${this.origin.name}`,
      );
      this.chosen = this.origin;
      return this.origin.resolve();
    }
  }

  private async both<T>(f: (s: RegistrySource) => Promise<T>): Promise<T> {
    const first = this.chosen ?? this.origin;
    if (first === this.origin) return f(this.origin);
    try {
      return await f(first);
    } catch (err) {
      if (!this.fallback(err)) throw err;
      return f(this.origin);
    }
  }

  getManifest(d: Descriptor): Promise<StoredManifest> {
    return this.both((s) => s.getManifest(d));
  }

  openBlob(d: Descriptor, start?: number): Promise<BlobRead> {
    return this.both((s) => s.openBlob(d, start));
  }

  referrers(subject: string, artifactType?: string): Promise<ReferrerList> {
    return this.origin.referrers(subject, artifactType);
  }

  async close(): Promise<void> {
    await Promise.all([this.mirror.close(), this.origin.close()]);
  }
}

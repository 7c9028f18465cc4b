// `oci-archive:FILE[:TAG]`, a tar of an OCI image layout (what skopeo and buildah write). Read in
// place through the tar's header index; written front to back with no staging copy: `oci-layout`
// first, blobs as they arrive, manifests, and `index.json` last (tar readers take entries in any
// order). Writing replaces the file, as skopeo does: one archive, one image.

import type { Descriptor } from '../api/registry/media-types.js';
import { NotFoundError } from '../errors.js';
import type { BlobAction, TransferProgress } from '../output/progress.js';
import { parseIndexJson, pickFromIndex, REF_NAME } from './oci-layout.js';
import { localManifest } from './oci-store.js';
import type { BlobFeed, BlobRead, ImageDestination, ImageSource, StoredManifest } from './store.js';
import { TarFile, TarImageWriter } from './tar-image.js';

export const OCI_LAYOUT_MARKER = Buffer.from(JSON.stringify({ imageLayoutVersion: '1.0.0' }));

export class OciArchiveSource implements ImageSource {
  readonly rereadable = true;

  private constructor(
    readonly name: string,
    private readonly tar: TarFile,
    private readonly tag: string | undefined,
  ) {}

  static async open(name: string, path: string, tag?: string): Promise<OciArchiveSource> {
    const tar = await TarFile.open(path);
    if (!tar.entry('oci-layout') || !tar.entry('index.json'))
      throw new NotFoundError(`${path} is not an OCI archive (no oci-layout or index.json)`);
    return new OciArchiveSource(name, tar, tag);
  }

  async resolve(): Promise<Descriptor> {
    const text = (await this.tar.read(this.tar.entry('index.json')!)).toString('utf8');
    return pickFromIndex(
      parseIndexJson(text, `${this.tar.path} (index.json)`),
      this.tag,
      this.tar.path,
      'oci-archive',
    );
  }

  async getManifest(d: Descriptor): Promise<StoredManifest> {
    return localManifest(await this.tar.readBlob(d.digest), d, this.name);
  }

  async openBlob(d: Descriptor, start = 0, end?: number): Promise<BlobRead> {
    return this.tar.openBlob(d.digest, start, end);
  }

  async close(): Promise<void> {}
}

export class OciArchiveDestination implements ImageDestination {
  readonly accepts = 'oci';
  readonly multiPlatform = true;
  readonly maxConcurrency = 1;
  private readonly writer: TarImageWriter;
  private top?: Descriptor;

  constructor(
    readonly name: string,
    path: string,
    private readonly tag: string | undefined,
  ) {
    this.writer = new TarImageWriter(path, async (tar) => {
      await tar.addBuffer('oci-layout', OCI_LAYOUT_MARKER);
      await tar.addDirectory('blobs');
      await tar.addDirectory('blobs/sha256');
    });
  }

  async hasBlob(): Promise<boolean> {
    return false;
  }

  putBlob(d: Descriptor, feed: BlobFeed, progress: TransferProgress): Promise<BlobAction> {
    return this.writer.putBlob(d, feed, progress, feed.repository ? 'pulled' : 'copied');
  }

  async putManifest(m: StoredManifest, top: boolean): Promise<string> {
    await this.writer.putManifest(m.digest, m.bytes);
    if (top) this.top = { mediaType: m.mediaType, digest: m.digest, size: m.bytes.length };
    return m.digest;
  }

  async commit(): Promise<void> {
    if (!this.top) throw new Error('commit before the top manifest');
    const entry = { ...this.top, ...(this.tag ? { annotations: { [REF_NAME]: this.tag } } : {}) };
    const index = {
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: [entry],
    };
    await this.writer.putBuffer('index.json', Buffer.from(JSON.stringify(index)));
    await this.writer.commit();
  }

  abort(): Promise<void> {
    return this.writer.abort();
  }
}

// `oci-archive:FILE[:TAG]`, a tar of an OCI image layout (what skopeo and buildah write). Read in
// place through the tar's header index; written front to back with no staging copy: `oci-layout`
// first, blobs as they arrive, manifests, and `index.json` last (tar readers take entries in any
// order). Writing replaces the file, as skopeo does: one archive, one image.

import { NotFoundError } from '../errors.js';
import { type Descriptor, OCI_INDEX } from '../oci/media-types.js';
import { parseIndexJson, pickFromIndex, REF_NAME } from './oci-layout.js';
import { localManifest } from './oci-store.js';
import type { BlobRead, ImageSource, StoredManifest } from './store.js';
import { ArchiveDestination, TarFile } from './tar-image.js';

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

export class OciArchiveDestination extends ArchiveDestination {
  readonly accepts = 'oci';
  readonly multiPlatform = true;

  constructor(
    name: string,
    path: string,
    private readonly tag: string | undefined,
  ) {
    super(name, path);
  }

  protected async finish(top: StoredManifest): Promise<void> {
    const entry = {
      mediaType: top.mediaType,
      digest: top.digest,
      size: top.bytes.length,
      ...(this.tag ? { annotations: { [REF_NAME]: this.tag } } : {}),
    };
    const index = { schemaVersion: 2, mediaType: OCI_INDEX, manifests: [entry] };
    await this.writer.putBuffer('index.json', Buffer.from(JSON.stringify(index)));
  }
}

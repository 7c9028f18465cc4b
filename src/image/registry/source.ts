// A registry repository as a source: manifests by tag or digest (checked against their digest),
// blobs streamed with Range from an offset. The blobs read are remembered (KnownBlobs) so that a
// later push to another repository of the same registry can mount them.

import type { FetchedManifest, RegistryClient } from '../../api/registry/client.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { Descriptor } from '../../oci/media-types.js';
import { formatReference, type ImageReference, manifestReference } from '../../ref/reference.js';
import { fallbackTag, ofArtifactType, type ReferrerList } from '../referrers.js';
import type { BlobRead, ImageSource, StoredManifest } from '../store.js';
import type { BlobMemory } from './known-blobs.js';

export class RegistrySource implements ImageSource {
  readonly name: string;
  readonly rereadable = false;
  private top?: FetchedManifest;
  private readonly read = new Set<string>();

  constructor(
    private readonly client: RegistryClient,
    readonly repository: ImageReference,
    private readonly known?: BlobMemory,
    /** A HEAD before each blob's first GET (pull); sync and a copy between registries read its 404 from the GET. */
    private readonly headFirst = true,
  ) {
    this.name = formatReference(repository);
  }

  async resolve(): Promise<Descriptor> {
    this.top ??= await this.client.getManifest(this.repository, manifestReference(this.repository));
    return { mediaType: this.top.mediaType, digest: this.top.digest, size: this.top.bytes.length };
  }

  async getManifest(d: Descriptor): Promise<StoredManifest> {
    if (this.top?.digest === d.digest) return this.top;
    return this.client.getManifest(this.repository, d.digest);
  }

  async openBlob(d: Descriptor, start = 0): Promise<BlobRead> {
    // A HEAD before a blob's first GET (issue 5): a missing blob is told apart from a broken one.
    if (
      this.headFirst &&
      !this.read.has(d.digest) &&
      (await this.client.headBlob(this.repository, d.digest)) === undefined
    )
      throw new NotFoundError(`blob ${d.digest} is missing from ${this.name}`);
    const {
      body,
      start: from,
      deadlineMs,
    } = await this.client.getBlob(this.repository, d.digest, start, d.size);
    this.read.add(d.digest);
    return { body, start: from, deadlineMs };
  }

  async referrers(subject: string, artifactType?: string): Promise<ReferrerList> {
    const api = await this.client.referrersApi(this.repository, subject, artifactType);
    if (api)
      return {
        via: 'api',
        descriptors: api.filtered ? api.descriptors : ofArtifactType(api.descriptors, artifactType),
      };
    const index = await this.client
      .getManifest(this.repository, fallbackTag(subject))
      .catch((err: unknown) => {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      });
    if (!index) return { via: 'tag', descriptors: [] };
    if (index.parsed.kind !== 'index')
      throw new ValidationError(
        `${this.name}: the referrers fallback tag ${fallbackTag(subject)} names an image, not an index`,
      );
    return { via: 'tag', descriptors: ofArtifactType(index.parsed.index.manifests, artifactType) };
  }

  async close(): Promise<void> {
    const { registry, repository } = this.repository;
    if (this.read.size > 0) await this.known?.remember(registry, repository, [...this.read]);
  }
}

// A local image to push: its top manifest (or index) and a source of its blobs.

import type { ImageLocation } from '../ref/transport.js';
import { type LocalBlobSource, OciLayout } from './oci-layout.js';

export interface LocalImage {
  top: { bytes: Buffer; digest: string; mediaType: string };
  blobs: LocalBlobSource;
  /** `oci:DIR:tag` or `docker-archive:FILE`, for messages. */
  describe: string;
}

export async function openLocalImage(location: ImageLocation): Promise<LocalImage> {
  if (location.transport === 'docker-archive') {
    const { readDockerArchive } = await import('./docker-archive.js');
    return readDockerArchive(location.path);
  }
  const layout = await OciLayout.open(location.path);
  const desc = await layout.resolve(location.tag);
  const bytes = await layout.readBlob(desc.digest);
  return {
    top: { bytes, digest: desc.digest, mediaType: desc.mediaType },
    blobs: layout,
    describe: `oci:${location.path}${location.tag ? `:${location.tag}` : ''}`,
  };
}

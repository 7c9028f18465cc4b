// `image attach`: an artifact (an SBOM, a scan report) pushed as a referrer of an image, as
// `oras attach` does: an OCI image manifest with the artifact type, the empty config, one layer
// per file (titled with its base name), and the image as its `subject`. Nothing in it depends on
// the time, so attaching the same files twice makes the same manifest (and adds nothing).

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { NotFoundError, UsageError } from '../errors.js';
import { parseManifest, sha256Digest } from '../oci/manifest.js';
import { type Descriptor, OCI_EMPTY, OCI_MANIFEST } from '../oci/media-types.js';
import type { TransferProgress } from '../output/progress.js';
import type { ReferrersVia } from './referrers.js';
import type { ImageDestination, StoredManifest } from './store.js';

/** The layer media type of an attached file (oras's default). */
export const ATTACHED_FILE_TYPE = 'application/vnd.oci.image.layer.v1.tar';
const TITLE = 'org.opencontainers.image.title';
const EMPTY = Buffer.from('{}');

export interface AttachRequest {
  subject: Descriptor;
  artifactType: string;
  files: readonly string[];
  annotations: Record<string, string>;
}

export interface Attached {
  digest: string;
  mediaType: string;
  size: number;
  artifactType: string;
  subject: string;
  via: ReferrersVia;
}

/** A file's digest and size, read once (a regular file, not a folder or a device). */
async function describeFile(path: string): Promise<Descriptor> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch {
    throw new NotFoundError(`the file ${path} cannot be read`);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new UsageError(`${path} is not a regular file`);
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of handle.createReadStream({ autoClose: false })) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    return {
      mediaType: ATTACHED_FILE_TYPE,
      digest: `sha256:${hash.digest('hex')}`,
      size,
      annotations: { [TITLE]: basename(path) },
    };
  } finally {
    await handle.close();
  }
}

/** The artifact manifest's bytes (pure). */
export function artifactManifest(
  subject: Descriptor,
  artifactType: string,
  layers: readonly Descriptor[],
  annotations: Record<string, string>,
): Buffer {
  const doc = {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    artifactType,
    config: { mediaType: OCI_EMPTY, digest: sha256Digest(EMPTY), size: EMPTY.length, data: 'e30=' },
    layers,
    subject: { mediaType: subject.mediaType, digest: subject.digest, size: subject.size },
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
  };
  return Buffer.from(JSON.stringify(doc));
}

export async function attach(
  destination: ImageDestination,
  req: AttachRequest,
  progress: TransferProgress,
): Promise<Attached> {
  if (!destination.putReferrer)
    throw new UsageError(`${destination.name} cannot hold referrers (a registry or oci:DIR can)`);
  const names = new Set<string>();
  for (const f of req.files) {
    if (names.has(basename(f))) throw new UsageError(`two files are named ${basename(f)}: rename one`);
    names.add(basename(f));
  }
  try {
    const layers: Descriptor[] = [];
    for (const f of req.files) layers.push(await describeFile(f));
    const config = { mediaType: OCI_EMPTY, digest: sha256Digest(EMPTY), size: EMPTY.length };
    await destination.putBlob(
      config,
      {
        open: async (start, end) => ({ body: Readable.from([EMPTY.subarray(start, end)]), start }),
        rereadable: true,
      },
      progress,
    );
    for (const [i, d] of layers.entries()) {
      const path = req.files[i]!;
      await destination.putBlob(
        d,
        {
          open: async (start, end) => ({
            body: createReadStream(path, { start, ...(end !== undefined ? { end: end - 1 } : {}) }),
            start,
          }),
          rereadable: true,
        },
        progress,
      );
    }
    const bytes = artifactManifest(req.subject, req.artifactType, layers, req.annotations);
    const digest = sha256Digest(bytes);
    const m: StoredManifest = {
      digest,
      mediaType: OCI_MANIFEST,
      bytes,
      parsed: parseManifest(bytes, OCI_MANIFEST, 'the artifact manifest'),
    };
    const via = await destination.putReferrer(m);
    await destination.commit();
    return {
      digest,
      mediaType: OCI_MANIFEST,
      size: bytes.length,
      artifactType: req.artifactType,
      subject: req.subject.digest,
      via,
    };
  } catch (err) {
    await destination.abort(err).catch(() => undefined);
    throw err;
  }
}

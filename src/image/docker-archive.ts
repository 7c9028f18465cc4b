// docker-archive files (`docker save` / `docker load`). Reading: a legacy archive (manifest.json,
// <id>.json config, <id>/layer.tar) becomes a docker v2 manifest with digests computed by streaming
// each layer once; an archive that also holds an OCI layout (docker 25+, and what hubctl writes)
// is read through its index.json, which keeps the original digests. Writing: manifest.json plus
// an OCI layout of the same blobs, so both `docker load` and an OCI reader understand it.

import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { sha256Digest } from '../api/registry/manifest.js';
import {
  type Descriptor,
  DOCKER_CONFIG,
  DOCKER_LAYER_GZIP,
  DOCKER_LAYER_TAR,
  DOCKER_MANIFEST,
  type ImageManifest,
} from '../api/registry/media-types.js';
import { NotFoundError, UsageError, ValidationError } from '../errors.js';
import type { LocalImage } from './local-image.js';
import { type LocalBlobSource, type OciLayout, REF_NAME } from './oci-layout.js';
import { indexTar, openTarEntry, readTarEntry, type TarEntry, TarWriter } from './tar.js';

interface ArchiveManifestEntry {
  Config: string;
  RepoTags?: string[] | null;
  Layers: string[];
}

class TarBlobs implements LocalBlobSource {
  constructor(
    private readonly path: string,
    private readonly byDigest: Map<string, TarEntry>,
  ) {}

  private entry(digest: string): TarEntry {
    const e = this.byDigest.get(digest);
    if (!e) throw new NotFoundError(`blob ${digest} is not in ${this.path}`);
    return e;
  }

  async readBlob(digest: string): Promise<Buffer> {
    return readTarEntry(this.path, this.entry(digest));
  }

  async openBlob(digest: string, start = 0, end?: number): Promise<Readable> {
    return openTarEntry(this.path, this.entry(digest), start, end);
  }

  async blobSize(digest: string): Promise<number | undefined> {
    return this.byDigest.get(digest)?.size;
  }
}

async function digestEntry(path: string, entry: TarEntry): Promise<{ digest: string; gzip: boolean }> {
  const hash = createHash('sha256');
  let first: Buffer | undefined;
  for await (const chunk of openTarEntry(path, entry)) {
    first ??= chunk as Buffer;
    hash.update(chunk as Buffer);
  }
  return {
    digest: `sha256:${hash.digest('hex')}`,
    gzip: first !== undefined && first[0] === 0x1f && first[1] === 0x8b,
  };
}

export async function readDockerArchive(path: string): Promise<LocalImage> {
  let entries: Map<string, TarEntry>;
  try {
    entries = await indexTar(path);
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') throw new NotFoundError(`${path} does not exist`);
    throw err;
  }
  const blobs = new Map<string, TarEntry>();
  for (const e of entries.values()) {
    const m = /^blobs\/sha256\/([a-f0-9]{64})$/.exec(e.name);
    if (m) blobs.set(`sha256:${m[1]}`, e);
  }

  const indexEntry = entries.get('index.json');
  if (indexEntry && entries.has('oci-layout')) {
    const index = JSON.parse((await readTarEntry(path, indexEntry)).toString('utf8')) as {
      manifests?: Descriptor[];
    };
    const top = index.manifests?.[0];
    if (top && blobs.has(top.digest)) {
      if ((index.manifests?.length ?? 0) > 1) {
        throw new UsageError(
          `${path} holds ${index.manifests?.length} images; hubctl pushes archives of one image`,
        );
      }
      const source = new TarBlobs(path, blobs);
      const bytes = await source.readBlob(top.digest);
      if (sha256Digest(bytes) !== top.digest)
        throw new ValidationError(`${path}: ${top.digest} does not match its digest`);
      return {
        top: { bytes, digest: top.digest, mediaType: top.mediaType },
        blobs: source,
        describe: `docker-archive:${path}`,
      };
    }
  }

  const manifestEntry = entries.get('manifest.json');
  if (!manifestEntry) throw new ValidationError(`${path} is not a docker archive (no manifest.json)`);
  const list = JSON.parse(
    (await readTarEntry(path, manifestEntry)).toString('utf8'),
  ) as ArchiveManifestEntry[];
  if (!Array.isArray(list) || list.length !== 1) {
    throw new UsageError(
      `${path} holds ${Array.isArray(list) ? list.length : 0} images; hubctl pushes archives of one image`,
    );
  }
  const item = list[0]!;
  const configEntry = entries.get(item.Config);
  if (!configEntry) throw new ValidationError(`${path}: the config ${item.Config} is missing`);
  const byDigest = new Map(blobs);
  const configBytes = await readTarEntry(path, configEntry);
  const configDigest = sha256Digest(configBytes);
  byDigest.set(configDigest, configEntry);
  const layers: Descriptor[] = [];
  for (const name of item.Layers) {
    const entry = entries.get(name);
    if (!entry) throw new ValidationError(`${path}: the layer ${name} is missing`);
    const { digest, gzip } = await digestEntry(path, entry);
    byDigest.set(digest, entry);
    layers.push({ mediaType: gzip ? DOCKER_LAYER_GZIP : DOCKER_LAYER_TAR, digest, size: entry.size });
  }
  const manifest: ImageManifest = {
    schemaVersion: 2,
    mediaType: DOCKER_MANIFEST,
    config: { mediaType: DOCKER_CONFIG, digest: configDigest, size: configBytes.length },
    layers,
  };
  const bytes = Buffer.from(JSON.stringify(manifest));
  return {
    top: { bytes, digest: sha256Digest(bytes), mediaType: DOCKER_MANIFEST },
    blobs: new TarBlobs(path, byDigest),
    describe: `docker-archive:${path}`,
  };
}

/**
 * Writes one image manifest (already complete in `layout`) as a docker archive, through a
 * temporary file and a rename.
 */
export async function writeDockerArchive(
  path: string,
  layout: OciLayout,
  top: { digest: string; mediaType: string; size: number },
  manifest: ImageManifest,
  repoTag: string | undefined,
): Promise<void> {
  const tmp = `${path}.partial`;
  const out = createWriteStream(tmp);
  const tar = new TarWriter(out);
  try {
    const blobName = (d: string) => `blobs/sha256/${d.slice('sha256:'.length)}`;
    await tar.addBuffer('oci-layout', Buffer.from(JSON.stringify({ imageLayoutVersion: '1.0.0' })));
    await tar.addDirectory('blobs');
    await tar.addDirectory('blobs/sha256');
    for (const d of [manifest.config, ...manifest.layers]) {
      await tar.addStream(blobName(d.digest), d.size, await layout.openBlob(d.digest));
    }
    await tar.addBuffer(blobName(top.digest), await layout.readBlob(top.digest));
    const index = {
      schemaVersion: 2,
      manifests: [
        {
          mediaType: top.mediaType,
          digest: top.digest,
          size: top.size,
          ...(repoTag
            ? {
                annotations: {
                  'io.containerd.image.name': repoTag,
                  [REF_NAME]: repoTag.slice(repoTag.lastIndexOf(':') + 1),
                },
              }
            : {}),
        },
      ],
    };
    await tar.addBuffer('index.json', Buffer.from(JSON.stringify(index)));
    const dockerManifest = [
      {
        Config: blobName(manifest.config.digest),
        RepoTags: repoTag ? [repoTag] : [],
        Layers: manifest.layers.map((l) => blobName(l.digest)),
      },
    ];
    await tar.addBuffer('manifest.json', Buffer.from(JSON.stringify(dockerManifest)));
    await tar.finish();
    await rename(tmp, path);
  } catch (err) {
    out.destroy();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

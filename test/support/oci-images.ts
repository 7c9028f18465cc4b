// Test images: OCI layouts with random (incompressible) layers, gzip level 0 (stored blocks, still
// valid gzip) so large images are quick to make. Single images, multi-arch indexes, and indexes
// of indexes (makeNestedIndex).
//
//   const img = await makeOciImage(dir, { tag: 'v1', layers: 2, layerSize: 256 * 1024 });
//   img.top.digest, img.images[0].layers[0].digest …

import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

export interface BlobInfo {
  mediaType: string;
  digest: string;
  size: number;
}

export interface MadeImage {
  platform: { os: string; architecture: string; variant?: string };
  manifest: BlobInfo;
  config: BlobInfo;
  layers: (BlobInfo & { diffId: string })[];
}

export interface MadeLayout {
  dir: string;
  tag: string;
  /** The descriptor index.json names: a manifest, or an index for several platforms. */
  top: BlobInfo;
  images: MadeImage[];
}

export interface MakeImageOptions {
  tag?: string;
  layers?: number;
  layerSize?: number;
  /** `linux/amd64`, `linux/arm64/v8`…; two or more make an index. */
  platforms?: string[];
  /** Docker media types instead of OCI ones. */
  docker?: boolean;
}

function tarHeader(name: string, size: number): Buffer {
  const h = Buffer.alloc(512, 0);
  const put = (off: number, len: number, s: string) => h.write(s, off, len, 'ascii');
  const oct = (n: number, len: number) => `${n.toString(8).padStart(len - 1, '0')}\0`;
  put(0, 100, name);
  put(100, 8, oct(0o644, 8));
  put(108, 8, oct(0, 8));
  put(116, 8, oct(0, 8));
  put(124, 12, oct(size, 12));
  put(136, 12, oct(1_700_000_000, 12));
  put(148, 8, '        ');
  put(156, 1, '0');
  put(257, 6, 'ustar\0');
  put(263, 2, '00');
  let sum = 0;
  for (const b of h) sum += b;
  put(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return h;
}

/** A tar stream of one file of `size` random bytes. */
function randomTar(name: string, size: number): Readable {
  let left = size;
  let stage = 0;
  return new Readable({
    highWaterMark: 1 << 20,
    read() {
      if (stage === 0) {
        stage = 1;
        this.push(tarHeader(name, size));
      } else if (left > 0) {
        const n = Math.min(1 << 20, left);
        left -= n;
        this.push(randomBytes(n));
      } else if (stage === 1) {
        stage = 2;
        this.push(Buffer.alloc(((512 - (size % 512)) % 512) + 1024));
      } else this.push(null);
    },
  });
}

function hashing(hash: ReturnType<typeof createHash>, count: { n: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _e, cb) {
      hash.update(chunk);
      count.n += chunk.length;
      cb(null, chunk);
    },
  });
}

async function writeBlob(dir: string, bytes: Buffer): Promise<{ digest: string; size: number }> {
  const hex = createHash('sha256').update(bytes).digest('hex');
  await writeFile(join(dir, 'blobs', 'sha256', hex), bytes);
  return { digest: `sha256:${hex}`, size: bytes.length };
}

const LAYER_TYPES = {
  oci: 'application/vnd.oci.image.layer.v1.tar+gzip',
  docker: 'application/vnd.docker.image.rootfs.diff.tar.gzip',
};
const CONFIG_TYPES = {
  oci: 'application/vnd.oci.image.config.v1+json',
  docker: 'application/vnd.docker.container.image.v1+json',
};
const MANIFEST_TYPES = {
  oci: 'application/vnd.oci.image.manifest.v1+json',
  docker: 'application/vnd.docker.distribution.manifest.v2+json',
};
const INDEX_TYPES = {
  oci: 'application/vnd.oci.image.index.v1+json',
  docker: 'application/vnd.docker.distribution.manifest.list.v2+json',
};

async function makeLayer(dir: string, name: string, size: number, kind: 'oci' | 'docker') {
  const tmp = join(dir, 'blobs', 'sha256', `.tmp-${randomBytes(6).toString('hex')}`);
  const diff = createHash('sha256');
  const blob = createHash('sha256');
  const diffCount = { n: 0 };
  const blobCount = { n: 0 };
  await pipeline(
    randomTar(name, size),
    hashing(diff, diffCount),
    createGzip({ level: 0, chunkSize: 1 << 20 }),
    hashing(blob, blobCount),
    createWriteStream(tmp),
  );
  const hex = blob.digest('hex');
  await rename(tmp, join(dir, 'blobs', 'sha256', hex));
  return {
    mediaType: LAYER_TYPES[kind],
    digest: `sha256:${hex}`,
    size: blobCount.n,
    diffId: `sha256:${diff.digest('hex')}`,
  };
}

async function startLayout(dir: string): Promise<void> {
  await mkdir(join(dir, 'blobs', 'sha256'), { recursive: true });
  await writeFile(join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
}

/** One image (layers, config, manifest) for a platform `os/arch[/variant]`, written as blobs. */
async function makeImage(dir: string, p: string, opts: MakeImageOptions): Promise<MadeImage> {
  const kind = opts.docker ? 'docker' : 'oci';
  const [os, architecture, variant] = p.split('/') as [string, string, string?];
  const layers = [];
  for (let i = 0; i < (opts.layers ?? 2); i++) {
    layers.push(await makeLayer(dir, `layer${i}/data.bin`, opts.layerSize ?? 64 * 1024, kind));
  }
  const config = {
    created: '2026-01-01T00:00:00Z',
    architecture,
    os,
    ...(variant ? { variant } : {}),
    config: { Cmd: ['/bin/sh'], Labels: { 'test.nonce': randomBytes(8).toString('hex') } },
    rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) },
  };
  const cfg = await writeBlob(dir, Buffer.from(JSON.stringify(config)));
  const manifest = {
    schemaVersion: 2,
    mediaType: MANIFEST_TYPES[kind],
    config: { mediaType: CONFIG_TYPES[kind], ...cfg },
    layers: layers.map(({ mediaType, digest, size }) => ({ mediaType, digest, size })),
  };
  const m = await writeBlob(dir, Buffer.from(JSON.stringify(manifest)));
  return {
    platform: { os, architecture, ...(variant ? { variant } : {}) },
    manifest: { mediaType: MANIFEST_TYPES[kind], ...m },
    config: { mediaType: CONFIG_TYPES[kind], ...cfg },
    layers,
  };
}

async function writeIndex(dir: string, manifests: object[], docker: boolean): Promise<BlobInfo> {
  const mediaType = INDEX_TYPES[docker ? 'docker' : 'oci'];
  const index = { schemaVersion: 2, mediaType, manifests };
  return { mediaType, ...(await writeBlob(dir, Buffer.from(JSON.stringify(index)))) };
}

/** Names `top` with `tag` in index.json (replacing the tag's earlier entry). */
async function tagTop(dir: string, tag: string, top: BlobInfo): Promise<void> {
  const indexPath = join(dir, 'index.json');
  let outer: {
    schemaVersion: number;
    manifests: Array<BlobInfo & { annotations?: Record<string, string> }>;
  } = {
    schemaVersion: 2,
    manifests: [],
  };
  try {
    outer = JSON.parse(await readFile(indexPath, 'utf8'));
  } catch {
    // new layout
  }
  outer.manifests = outer.manifests.filter(
    (d) => d.annotations?.['org.opencontainers.image.ref.name'] !== tag,
  );
  outer.manifests.push({ ...top, annotations: { 'org.opencontainers.image.ref.name': tag } });
  await writeFile(indexPath, JSON.stringify(outer));
}

export async function makeOciImage(dir: string, opts: MakeImageOptions = {}): Promise<MadeLayout> {
  const tag = opts.tag ?? 'latest';
  await startLayout(dir);
  const images: MadeImage[] = [];
  for (const p of opts.platforms ?? ['linux/amd64']) images.push(await makeImage(dir, p, opts));
  const top =
    images.length === 1
      ? images[0]!.manifest
      : await writeIndex(
          dir,
          images.map((im) => ({ ...im.manifest, platform: im.platform })),
          Boolean(opts.docker),
        );
  await tagTop(dir, tag, top);
  return { dir, tag, top, images };
}

/** A platform (an image) or a list of entries (an index). */
export type TreeSpec = string | TreeSpec[];

export interface MadeTree extends MadeLayout {
  /** Every index of the tree, the top one last; each listed once. */
  indexes: BlobInfo[];
}

/**
 * An index whose entries may be indexes themselves, tagged in an OCI layout:
 *
 *   await makeNestedIndex(dir, ['linux/s390x', ['linux/amd64', ['linux/arm64']]], { tag: 'n' })
 *
 * is a top index of an s390x image and an index (amd64, and an index of arm64). The same
 * platform named twice is one image listed in two places; nested index entries carry no platform.
 */
export async function makeNestedIndex(
  dir: string,
  spec: TreeSpec[],
  opts: Omit<MakeImageOptions, 'platforms'> = {},
): Promise<MadeTree> {
  await startLayout(dir);
  const byPlatform = new Map<string, MadeImage>();
  const indexes: BlobInfo[] = [];
  const build = async (entries: TreeSpec[]): Promise<BlobInfo> => {
    const manifests: object[] = [];
    for (const e of entries) {
      if (typeof e === 'string') {
        let im = byPlatform.get(e);
        if (!im) {
          im = await makeImage(dir, e, opts);
          byPlatform.set(e, im);
        }
        manifests.push({ ...im.manifest, platform: im.platform });
      } else manifests.push(await build(e));
    }
    const index = await writeIndex(dir, manifests, Boolean(opts.docker));
    indexes.push(index);
    return index;
  };
  const top = await build(spec);
  const tag = opts.tag ?? 'latest';
  await tagTop(dir, tag, top);
  return { dir, tag, top, images: [...byPlatform.values()], indexes };
}

/** Every blob digest of a made layout (configs and layers). */
export function blobDigests(layout: MadeLayout): string[] {
  return [...new Set(layout.images.flatMap((im) => [im.config.digest, ...im.layers.map((l) => l.digest)]))];
}

// `docker-archive:FILE[:REF]` (`docker save` / `docker load`). Reading: an archive that holds an OCI
// layout too (docker 25+, and what hubctl writes) is read through its index.json, which keeps the
// original digests; a legacy one (manifest.json, <id>.json config, <id>/layer.tar) becomes a docker
// v2 manifest, each layer's digest computed by streaming it once. REF picks the image of a
// multi-image archive: a `name:tag` of its RepoTags, or `@N`. Writing: one image, front to back
// with no staging copy, as manifest.json plus an OCI layout of the same blobs, so both `docker load`
// and an OCI reader understand it; REF (or the source's name) becomes its RepoTags.

import { createHash } from 'node:crypto';
import { NotFoundError, UsageError, ValidationError } from '../errors.js';
import { listSome } from '../list-some.js';
import { sha256Digest } from '../oci/manifest.js';
import {
  type Descriptor,
  DOCKER_CONFIG,
  DOCKER_LAYER_GZIP,
  DOCKER_LAYER_TAR,
  DOCKER_MANIFEST,
  type ImageManifest,
} from '../oci/media-types.js';
import { formatReference, parseReference } from '../ref/reference.js';
import { parseIndexJson, REF_NAME } from './oci-layout.js';
import { localManifest } from './oci-store.js';
import type { BlobRead, ImageSource, StoredManifest } from './store.js';
import type { TarEntry } from './tar.js';
import { ArchiveDestination, blobEntryName, TarFile } from './tar-image.js';

const IMAGE_NAME = 'io.containerd.image.name';

interface ArchiveManifestEntry {
  Config: string;
  RepoTags?: string[] | null;
  Layers: string[];
}

/** `app:1` and `docker.io/library/app:1` name the same image. */
function sameName(a: string, b: string): boolean {
  try {
    return formatReference(parseReference(a)) === formatReference(parseReference(b));
  } catch {
    return a === b;
  }
}

/** The item REF names among `names` (one list of names per image), or the only one. */
function pick(path: string, ref: string | undefined, names: string[][]): number {
  if (ref?.startsWith('@')) {
    const n = Number(ref.slice(1));
    if (!/^@\d{1,9}$/.test(ref))
      throw new UsageError(`docker-archive:${path}:${ref}: a position is @ and a number (@0, @1 …)`);
    if (n >= names.length)
      throw new NotFoundError(`${path} holds ${names.length} images: there is no ${ref}`);
    return n;
  }
  if (ref !== undefined) {
    const i = names.findIndex((list) => list.some((t) => sameName(t, ref)));
    if (i < 0) {
      const all = names.flat();
      throw new NotFoundError(`no image named ${ref} in ${path}`, {
        hint:
          all.length > 0
            ? `Images there: ${listSome(all)}.`
            : 'Name one by position: docker-archive:FILE:@0.',
      });
    }
    return i;
  }
  if (names.length === 1) return 0;
  if (names.length === 0) throw new NotFoundError(`${path} holds no image`);
  throw new UsageError(
    `${path} holds ${names.length} images: name one with docker-archive:${path}:REF (a name:tag, or @0 to @${names.length - 1})`,
  );
}

async function digestEntry(tar: TarFile, entry: TarEntry): Promise<{ digest: string; gzip: boolean }> {
  const hash = createHash('sha256');
  let first: Buffer | undefined;
  for await (const chunk of tar.openBlob('', 0, undefined, entry).body) {
    first ??= chunk as Buffer;
    hash.update(chunk as Buffer);
  }
  return { digest: `sha256:${hash.digest('hex')}`, gzip: first?.[0] === 0x1f && first[1] === 0x8b };
}

export class DockerArchiveSource implements ImageSource {
  readonly rereadable = true;
  private constructor(
    readonly name: string,
    private readonly tar: TarFile,
    private readonly top: Descriptor,
    /** Blobs by digest; a legacy archive's are named by id, not digest. */
    private readonly byDigest: Map<string, TarEntry>,
    /** A legacy archive's manifest, made here. */
    private readonly made?: StoredManifest,
  ) {}

  static async open(name: string, path: string, ref?: string): Promise<DockerArchiveSource> {
    const tar = await TarFile.open(path);
    const indexEntry = tar.entry('index.json');
    if (indexEntry && tar.entry('oci-layout')) {
      const index = parseIndexJson((await tar.read(indexEntry)).toString('utf8'), `${path} (index.json)`);
      const names = index.manifests.map((d) =>
        [d.annotations?.[IMAGE_NAME], d.annotations?.[REF_NAME]].filter((n): n is string => !!n),
      );
      // Not found here (or several and no REF): manifest.json decides, and says what there is.
      let found: Descriptor | undefined;
      try {
        found = index.manifests[pick(path, ref, names)];
      } catch {}
      if (found && tar.blobs.has(found.digest)) return new DockerArchiveSource(name, tar, found, tar.blobs);
    }
    const manifestEntry = tar.entry('manifest.json');
    if (!manifestEntry) throw new ValidationError(`${path} is not a docker archive (no manifest.json)`);
    let list: ArchiveManifestEntry[];
    try {
      list = JSON.parse((await tar.read(manifestEntry)).toString('utf8')) as ArchiveManifestEntry[];
      const strings = (a: unknown) => Array.isArray(a) && a.every((x) => typeof x === 'string');
      if (
        !Array.isArray(list) ||
        list.some(
          (e) =>
            typeof e?.Config !== 'string' ||
            !strings(e.Layers) ||
            (e.RepoTags !== undefined && e.RepoTags !== null && !strings(e.RepoTags)),
        )
      )
        throw new Error('not a list of images');
    } catch (err) {
      throw new ValidationError(`${path}: manifest.json is not a docker archive manifest`, { cause: err });
    }
    const item =
      list[
        pick(
          path,
          ref,
          list.map((e) => e.RepoTags ?? []),
        )
      ]!;
    return DockerArchiveSource.legacy(name, tar, item);
  }

  private static async legacy(
    name: string,
    tar: TarFile,
    item: ArchiveManifestEntry,
  ): Promise<DockerArchiveSource> {
    const missing = (what: string) => new ValidationError(`${tar.path}: the ${what} is missing`);
    const configEntry = tar.entry(item.Config);
    if (!configEntry) throw missing(`config ${item.Config}`);
    const byDigest = new Map(tar.blobs);
    const configBytes = await tar.read(configEntry);
    const configDigest = sha256Digest(configBytes);
    byDigest.set(configDigest, configEntry);
    const layers: Descriptor[] = [];
    for (const layerName of item.Layers) {
      const entry = tar.entry(layerName);
      if (!entry) throw missing(`layer ${layerName}`);
      const { digest, gzip } = await digestEntry(tar, entry);
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
    const top = { mediaType: DOCKER_MANIFEST, digest: sha256Digest(bytes), size: bytes.length };
    const made = localManifest(bytes, top, name);
    return new DockerArchiveSource(name, tar, top, byDigest, made);
  }

  async resolve(): Promise<Descriptor> {
    return this.top;
  }

  async getManifest(d: Descriptor): Promise<StoredManifest> {
    if (this.made?.digest === d.digest) return this.made;
    return localManifest(await this.tar.readBlob(d.digest), d, this.name);
  }

  async openBlob(d: Descriptor, start = 0, end?: number): Promise<BlobRead> {
    const entry = this.byDigest.get(d.digest);
    if (!entry) throw new NotFoundError(`blob ${d.digest} is not in ${this.tar.path}`);
    return this.tar.openBlob(d.digest, start, end, entry);
  }

  async close(): Promise<void> {}
}

export class DockerArchiveDestination extends ArchiveDestination {
  readonly accepts = 'any';
  readonly multiPlatform = false;

  /** `repoTag`: the name `docker load` gives the image (none: untagged). */
  constructor(
    name: string,
    path: string,
    private readonly repoTag: string | undefined,
  ) {
    super(name, path);
  }

  protected async finish(top: StoredManifest): Promise<void> {
    if (top.parsed.kind !== 'image') throw new Error('a docker archive holds an image manifest');
    const manifest = top.parsed.manifest;
    const tag = this.repoTag;
    const annotations = tag
      ? { [IMAGE_NAME]: tag, [REF_NAME]: tag.slice(tag.lastIndexOf(':') + 1) }
      : undefined;
    const entry = { mediaType: top.mediaType, digest: top.digest, size: top.bytes.length };
    const index = { schemaVersion: 2, manifests: [{ ...entry, ...(annotations ? { annotations } : {}) }] };
    await this.writer.putBuffer('index.json', Buffer.from(JSON.stringify(index)));
    const legacy = [
      {
        Config: blobEntryName(manifest.config.digest),
        RepoTags: tag ? [tag] : [],
        Layers: manifest.layers.map((l) => blobEntryName(l.digest)),
      },
    ];
    await this.writer.putBuffer('manifest.json', Buffer.from(JSON.stringify(legacy)));
  }
}

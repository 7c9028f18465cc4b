// Docker v2 schema 2 manifests (and lists) rewritten with OCI media types, as skopeo does when it
// writes `oci:`: skopeo, podman and containerd read an OCI layout's index.json only for OCI types
// ("no descriptor found for reference" otherwise). Blobs keep their bytes and digests (a docker
// config is an OCI config; a docker layer is an OCI layer); the manifests' digests change.

import { sha256Digest } from '../oci/manifest.js';
import {
  type Descriptor,
  DOCKER_CONFIG,
  DOCKER_LAYER_GZIP,
  DOCKER_LAYER_TAR,
  DOCKER_LIST,
  DOCKER_MANIFEST,
  OCI_CONFIG,
  OCI_INDEX,
  OCI_LAYER_GZIP,
  OCI_LAYER_TAR,
  OCI_MANIFEST,
  REGISTRY_CONFIG,
  REGISTRY_LIST,
  REGISTRY_MANIFEST,
} from '../oci/media-types.js';
import type { Selection } from './select.js';
import type { StoredManifest } from './store.js';

const FOREIGN = 'application/vnd.docker.image.rootfs.foreign.diff.tar.gzip';
const OCI_NONDISTRIBUTABLE = 'application/vnd.oci.image.layer.nondistributable.v1.tar+gzip';

const BLOB_TYPES: Record<string, string> = {
  [DOCKER_CONFIG]: OCI_CONFIG,
  [REGISTRY_CONFIG]: OCI_CONFIG,
  [DOCKER_LAYER_GZIP]: OCI_LAYER_GZIP,
  [DOCKER_LAYER_TAR]: OCI_LAYER_TAR,
  [FOREIGN]: OCI_NONDISTRIBUTABLE,
};

const DOCKER_TYPES = [DOCKER_MANIFEST, REGISTRY_MANIFEST, DOCKER_LIST, REGISTRY_LIST];

/** Whether a selection holds a docker-typed manifest, which an OCI-only place must convert. */
export function needsConversion(sel: Selection): boolean {
  return [sel.top, ...sel.below].some((m) => DOCKER_TYPES.includes(m.mediaType));
}

function rewrite(m: StoredManifest, doc: Record<string, unknown>, mediaType: string): StoredManifest {
  const bytes = Buffer.from(JSON.stringify(doc));
  const body = { ...doc } as never;
  const parsed =
    m.parsed.kind === 'index'
      ? { kind: 'index' as const, mediaType, index: body }
      : { kind: 'image' as const, mediaType, manifest: body };
  return { digest: sha256Digest(bytes), mediaType, bytes, parsed };
}

const blob = (d: Descriptor): Descriptor => ({ ...d, mediaType: BLOB_TYPES[d.mediaType] ?? d.mediaType });

function convertOne(m: StoredManifest, done: Map<string, StoredManifest>): StoredManifest {
  if (!DOCKER_TYPES.includes(m.mediaType)) return m;
  if (m.parsed.kind === 'image') {
    const { config, layers, annotations } = m.parsed.manifest;
    return rewrite(
      m,
      {
        schemaVersion: 2,
        mediaType: OCI_MANIFEST,
        config: blob(config),
        layers: layers.map(blob),
        ...(annotations ? { annotations } : {}),
      },
      OCI_MANIFEST,
    );
  }
  const { manifests, annotations } = m.parsed.index;
  const entries = manifests.map((d) => {
    const child = done.get(d.digest);
    return child ? { ...d, mediaType: child.mediaType, digest: child.digest, size: child.bytes.length } : d;
  });
  return rewrite(
    m,
    { schemaVersion: 2, mediaType: OCI_INDEX, manifests: entries, ...(annotations ? { annotations } : {}) },
    OCI_INDEX,
  );
}

/** The selection with every docker manifest converted, children before the indexes that list them. */
export function convertToOci(sel: Selection): Selection {
  const done = new Map<string, StoredManifest>();
  const below = sel.below.map((m) => {
    const c = convertOne(m, done);
    done.set(m.digest, c);
    return c;
  });
  const top = done.get(sel.top.digest) ?? convertOne(sel.top, done);
  done.set(sel.top.digest, top);
  return { ...sel, top, below, images: sel.images.map((m) => done.get(m.digest) ?? m) };
}

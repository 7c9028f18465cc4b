// Manifest and blob media types (decisions §0, §6): OCI, the live docker names, and the neutral
// vnd.registry names of interface.md. All are accepted; what is sent back is what was received.

export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_CONFIG = 'application/vnd.oci.image.config.v1+json';
export const OCI_LAYER_GZIP = 'application/vnd.oci.image.layer.v1.tar+gzip';
export const OCI_LAYER_TAR = 'application/vnd.oci.image.layer.v1.tar';

export const DOCKER_LIST = 'application/vnd.docker.distribution.manifest.list.v2+json';
export const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';
export const DOCKER_CONFIG = 'application/vnd.docker.container.image.v1+json';
export const DOCKER_LAYER_GZIP = 'application/vnd.docker.image.rootfs.diff.tar.gzip';
export const DOCKER_LAYER_TAR = 'application/vnd.docker.image.rootfs.diff.tar';

/** The empty JSON blob (`{}`) an artifact without a config names (OCI image spec 1.1). */
export const OCI_EMPTY = 'application/vnd.oci.empty.v1+json';

export const REGISTRY_LIST = 'application/vnd.registry.distribution.manifest.list.v2+json';
export const REGISTRY_MANIFEST = 'application/vnd.registry.distribution.manifest.v2+json';
export const REGISTRY_CONFIG = 'application/vnd.registry.container.image.v1+json';

export const SCHEMA1_TYPES = [
  'application/vnd.docker.distribution.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v1+prettyjws',
  'application/vnd.registry.distribution.manifest.v1+json',
  'application/vnd.registry.distribution.manifest.v1+prettyjws',
];

export const INDEX_TYPES = [OCI_INDEX, DOCKER_LIST, REGISTRY_LIST];
export const IMAGE_MANIFEST_TYPES = [OCI_MANIFEST, DOCKER_MANIFEST, REGISTRY_MANIFEST];

/** The Accept header of manifest GET and HEAD: every current type (decisions §6). */
export const MANIFEST_ACCEPT = [
  OCI_INDEX,
  OCI_MANIFEST,
  DOCKER_LIST,
  DOCKER_MANIFEST,
  REGISTRY_LIST,
  REGISTRY_MANIFEST,
].join(', ');

export function isIndexType(mediaType: string | undefined): boolean {
  return mediaType !== undefined && INDEX_TYPES.includes(mediaType);
}

export function isImageManifestType(mediaType: string | undefined): boolean {
  return mediaType !== undefined && IMAGE_MANIFEST_TYPES.includes(mediaType);
}

export function isSchema1Type(mediaType: string | undefined): boolean {
  return mediaType !== undefined && SCHEMA1_TYPES.includes(mediaType);
}

export interface Platform {
  architecture: string;
  os: string;
  variant?: string;
  'os.version'?: string;
}

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: Platform;
  annotations?: Record<string, string>;
  urls?: string[];
  /** The artifact type of the manifest a referrers list names (OCI distribution 1.1). */
  artifactType?: string;
}

export interface ImageManifest {
  schemaVersion: number;
  mediaType?: string;
  config: Descriptor;
  layers: Descriptor[];
  annotations?: Record<string, string>;
  /** OCI 1.1: what the artifact is, and the manifest it points at (it is a referrer of it). */
  artifactType?: string;
  subject?: Descriptor;
}

export interface ImageIndex {
  schemaVersion: number;
  mediaType?: string;
  manifests: Descriptor[];
  annotations?: Record<string, string>;
  artifactType?: string;
  subject?: Descriptor;
}

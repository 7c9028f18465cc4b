// OCI referrers (distribution 1.1): manifests whose `subject` names another manifest (signatures,
// SBOMs, attestations). A registry with the referrers API indexes them itself; elsewhere (a
// registry without it, an OCI layout) they are listed in an index under the fallback tag
// `sha256-<hex>`, which whoever writes a referrer updates by read-modify-write. These are the pure
// parts: the tag, the descriptor a list holds, adding one to a list, filtering by artifact type.

import { ValidationError } from '../errors.js';
import type { Descriptor, ImageIndex } from '../oci/media-types.js';
import { OCI_INDEX } from '../oci/media-types.js';
import type { StoredManifest } from './store.js';

export type { ReferrerList, ReferrersVia } from './store.js';

/** The fallback tag of a subject: `sha256:<hex>` → `sha256-<hex>`. */
export function fallbackTag(digest: string): string {
  const m = /^(sha256):([a-f0-9]{64})$/.exec(digest);
  if (!m) throw new ValidationError(`"${digest}" is not a sha256 digest`);
  return `${m[1]}-${m[2]}`;
}

/** A manifest's subject digest, when it has one. */
export function subjectOf(m: StoredManifest): string | undefined {
  const p = m.parsed;
  return (p.kind === 'image' ? p.manifest.subject : p.index.subject)?.digest;
}

/**
 * A manifest's artifact type: its `artifactType`, else (an image manifest) its config's media type
 * (the rule the distribution spec gives for the referrers list).
 */
export function artifactTypeOf(m: StoredManifest): string | undefined {
  const p = m.parsed;
  if (p.kind === 'image') return p.manifest.artifactType ?? p.manifest.config.mediaType;
  return p.index.artifactType;
}

/** The descriptor a referrers list holds for a manifest: type, digest, size, artifact type, annotations. */
export function referrerDescriptor(m: StoredManifest): Descriptor {
  const p = m.parsed;
  const annotations = p.kind === 'image' ? p.manifest.annotations : p.index.annotations;
  const artifactType = artifactTypeOf(m);
  return {
    mediaType: m.mediaType,
    digest: m.digest,
    size: m.bytes.length,
    ...(artifactType ? { artifactType } : {}),
    ...(annotations && Object.keys(annotations).length > 0 ? { annotations } : {}),
  };
}

/** An empty referrers list. */
export function emptyReferrersIndex(): ImageIndex {
  return { schemaVersion: 2, mediaType: OCI_INDEX, manifests: [] };
}

/**
 * The list with `d` added; undefined when it is there already (same digest), so that writing it
 * again is skipped and a re-run adds no duplicate.
 */
export function withReferrer(index: ImageIndex | undefined, d: Descriptor): ImageIndex | undefined {
  const base = index ?? emptyReferrersIndex();
  if (base.manifests.some((e) => e.digest === d.digest)) return undefined;
  return { ...base, schemaVersion: 2, mediaType: OCI_INDEX, manifests: [...base.manifests, d] };
}

/** The bytes of a referrers list as it is stored (compact JSON). */
export function indexBytes(index: ImageIndex): Buffer {
  return Buffer.from(JSON.stringify(index));
}

/** The descriptors of an artifact type (all of them without one). */
export function ofArtifactType(descriptors: readonly Descriptor[], artifactType?: string): Descriptor[] {
  return artifactType === undefined
    ? [...descriptors]
    : descriptors.filter((d) => d.artifactType === artifactType);
}

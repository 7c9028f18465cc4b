// Reading manifest bytes into typed manifests: the media type comes from the body when it says
// one, else from the Content-Type; schema 1 is refused (decisions §6).

import { createHash } from 'node:crypto';
import { HubctlError, IntegrityError, ValidationError } from '../../errors.js';
import {
  DOCKER_MANIFEST,
  type ImageIndex,
  type ImageManifest,
  isIndexType,
  isSchema1Type,
  OCI_INDEX,
  OCI_MANIFEST,
} from './media-types.js';

export type ParsedManifest =
  | { kind: 'index'; mediaType: string; index: ImageIndex }
  | { kind: 'image'; mediaType: string; manifest: ImageManifest };

export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

export class Schema1Error extends HubctlError {
  override readonly code = 'SCHEMA1_UNSUPPORTED';
}

export function schema1Error(what: string): Schema1Error {
  return new Schema1Error(
    `${what} is a schema 1 manifest (image format v1), which is no longer supported: ask the image's author to upgrade it`,
    { hint: 'Pushing the image again with a current docker, buildah or skopeo writes a current manifest.' },
  );
}

/** Checks bytes against an expected digest (the reference's, or the registry's header). */
export function verifyManifestDigest(bytes: Uint8Array, expected: string | undefined, what: string): string {
  const actual = sha256Digest(bytes);
  if (expected?.startsWith('sha256:') && expected !== actual) {
    throw new IntegrityError(`${what}: the manifest's digest is ${actual}, expected ${expected}`);
  }
  return actual;
}

export function parseManifest(
  bytes: Uint8Array,
  contentType: string | undefined,
  what: string,
): ParsedManifest {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new ValidationError(`${what}: the manifest is not valid JSON`, { cause: err });
  }
  if (!body || typeof body !== 'object')
    throw new ValidationError(`${what}: the manifest is not a JSON object`);
  const header = contentType?.split(';')[0]?.trim();
  const declared = typeof body.mediaType === 'string' ? body.mediaType : undefined;
  if (body.schemaVersion === 1 || isSchema1Type(declared) || isSchema1Type(header)) throw schema1Error(what);
  const mediaType =
    declared ??
    (header && header !== 'application/json'
      ? header
      : Array.isArray(body.manifests)
        ? OCI_INDEX
        : OCI_MANIFEST);
  if (isIndexType(mediaType) || Array.isArray(body.manifests)) {
    if (!Array.isArray(body.manifests))
      throw new ValidationError(`${what}: the index has no manifests array`);
    return { kind: 'index', mediaType, index: body as unknown as ImageIndex };
  }
  const config = body.config as { digest?: unknown } | undefined;
  if (!config || typeof config.digest !== 'string') {
    throw new ValidationError(`${what}: the manifest (${mediaType}) has no config descriptor`);
  }
  if (body.layers !== undefined && !Array.isArray(body.layers)) {
    throw new ValidationError(`${what}: the manifest's layers are not an array`);
  }
  const manifest = {
    ...(body as unknown as ImageManifest),
    layers: (body.layers as ImageManifest['layers']) ?? [],
  };
  return {
    kind: 'image',
    mediaType: mediaType === 'application/json' ? DOCKER_MANIFEST : mediaType,
    manifest,
  };
}

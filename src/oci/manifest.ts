// Reading manifest bytes into typed manifests: the media type comes from the body when it says
// one, else from the Content-Type; schema 1 is refused (decisions §6).

import { createHash } from 'node:crypto';
import { checkAnswer, describeIssue, v } from '../api/answer.js';
import { HubctlError, IntegrityError, UnexpectedAnswerError, ValidationError } from '../errors.js';
import {
  DOCKER_MANIFEST,
  type ImageIndex,
  type ImageManifest,
  isIndexType,
  isSchema1Type,
  OCI_INDEX,
  OCI_MANIFEST,
} from './media-types.js';
import { ImageConfigAnswer, ImageIndexSchema, ImageManifestSchema } from './schemas.js';

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

/**
 * Parses manifest bytes through the schemas of answers.ts. `from` names the registry host when the
 * bytes came from one: a wrong document is then an unexpected answer (exit 7); bytes read from a
 * file or archive are invalid input (exit 2).
 */
export function parseManifest(
  bytes: Uint8Array,
  contentType: string | undefined,
  what: string,
  from?: string,
): ParsedManifest {
  const fail = (problem: string, cause?: unknown): HubctlError =>
    from
      ? new UnexpectedAnswerError(`${what}: unexpected answer from ${from}: ${problem}`, { cause })
      : new ValidationError(`${what}: ${problem}`, { cause });
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (err) {
    throw fail('the manifest is not valid JSON', err);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw fail('the manifest is not a JSON object');
  const doc = body as Record<string, unknown>;
  const header = contentType?.split(';')[0]?.trim();
  const declared = typeof doc.mediaType === 'string' ? doc.mediaType : undefined;
  if (doc.schemaVersion === 1 || isSchema1Type(declared) || isSchema1Type(header)) throw schema1Error(what);
  const mediaType =
    declared ??
    (header && header !== 'application/json'
      ? header
      : Array.isArray(doc.manifests)
        ? OCI_INDEX
        : OCI_MANIFEST);
  if (isIndexType(mediaType) || Array.isArray(doc.manifests)) {
    const index = v.safeParse(ImageIndexSchema, body);
    if (!index.success) throw fail(`the index (${mediaType}): ${describeIssue(index.issues[0])}`);
    return { kind: 'index', mediaType, index: index.output };
  }
  if (!doc.config || typeof doc.config !== 'object') {
    throw fail(`the manifest (${mediaType}) has no config descriptor`);
  }
  const manifest = v.safeParse(ImageManifestSchema, body);
  if (!manifest.success) throw fail(`the manifest (${mediaType}): ${describeIssue(manifest.issues[0])}`);
  return {
    kind: 'image',
    mediaType: mediaType === 'application/json' ? DOCKER_MANIFEST : mediaType,
    manifest: manifest.output,
  };
}

/** An image config blob a registry served, read through its schema (exit 7 when it is wrong). */
export function parseImageConfig(
  bytes: Uint8Array,
  what: string,
  from: string,
): v.InferOutput<typeof ImageConfigAnswer> {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (err) {
    throw new UnexpectedAnswerError(
      `${what}: unexpected answer from ${from}: the image config is not valid JSON`,
      {
        cause: err,
      },
    );
  }
  return checkAnswer(ImageConfigAnswer, body, { host: from, what: `${what}: the image config` });
}

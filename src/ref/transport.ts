// PURE: where an image lives, as `image copy SRC DST` and friends read it. The forms are those of
// skopeo and containers/image: a bare reference or `docker://REF` (a registry), `oci:DIR[:TAG]`,
// `oci-archive:FILE[:TAG]`, `docker-archive:FILE[:REF]` and `docker-daemon:REF` (the engine).
// image/places.ts maps each to its back end.

import { UsageError, ValidationError } from '../errors.js';
import { type ImageReference, parseReference, TAG_PATTERN } from './reference.js';

export type PlaceRef =
  | { readonly transport: 'registry'; readonly ref: ImageReference }
  | { readonly transport: 'oci'; readonly path: string; readonly tag?: string }
  | { readonly transport: 'oci-archive'; readonly path: string; readonly tag?: string }
  /** `ref` is a `name:tag` in the archive's RepoTags, or `@N` (the N-th image, from 0). */
  | { readonly transport: 'docker-archive'; readonly path: string; readonly ref?: string }
  | { readonly transport: 'docker-daemon'; readonly ref: string };

export type Transport = PlaceRef['transport'];

export const PLACE_FORMS =
  'REGISTRY/REPO:TAG, docker://REF, oci:DIR[:TAG], oci-archive:FILE[:TAG], docker-archive:FILE[:REF] or docker-daemon:REF';

const TAG_RE = new RegExp(`^${TAG_PATTERN}$`);
const INDEX_RE = /^@\d{1,6}$/;

/** `PATH[:TAG]`, split at the last colon when what follows looks like a tag (`oci:/tmp/x:v1`). */
function pathAndTag(input: string, rest: string, what: string): { path: string; tag?: string } {
  const colon = rest.lastIndexOf(':');
  if (colon > 0) {
    const tag = rest.slice(colon + 1);
    if (!TAG_RE.test(tag))
      throw new ValidationError(`invalid location "${input}": tag "${tag}" must match ${TAG_PATTERN}`);
    return { path: rest.slice(0, colon), tag };
  }
  if (rest === '' || colon === 0)
    throw new ValidationError(`invalid location "${input}": the ${what} is empty`);
  return { path: rest };
}

/** `FILE[:REF]`, split at the first colon as skopeo does (REF may hold colons: `app:1`). */
function fileAndRef(input: string, rest: string): { path: string; ref?: string } {
  const colon = rest.indexOf(':');
  const path = colon < 0 ? rest : rest.slice(0, colon);
  if (path === '') throw new ValidationError(`invalid location "${input}": the file name is empty`);
  if (colon < 0) return { path };
  const ref = rest.slice(colon + 1);
  if (!INDEX_RE.test(ref)) parseReference(ref); // a readable error for a malformed name:tag
  return { path, ref };
}

const OTHER_TRANSPORTS = ['dir', 'containers-storage', 'ostree', 'sif', 'tarball', 'docker', 'file'];

const PREFIXES = ['oci:', 'oci-archive:', 'docker-archive:', 'docker-daemon:', 'docker://'] as const;

export function isLocalPlace(input: string): boolean {
  return PREFIXES.some((p) => p !== 'docker://' && input.startsWith(p));
}

/**
 * Parses a place. A bare reference and `docker://REF` are a registry; `opts.defaultTag` as in
 * parseReference. Anything else with a `word:` prefix that is not a registry host names its forms.
 */
export function parsePlace(input: string, opts: { defaultTag?: boolean } = {}): PlaceRef {
  if (input.startsWith('docker://'))
    return Object.freeze({ transport: 'registry', ref: parseReference(input.slice(9), opts) });
  if (input.startsWith('oci-archive:'))
    return Object.freeze({ transport: 'oci-archive', ...pathAndTag(input, input.slice(12), 'file name') });
  if (input.startsWith('oci:'))
    return Object.freeze({ transport: 'oci', ...pathAndTag(input, input.slice(4), 'directory') });
  if (input.startsWith('docker-archive:'))
    return Object.freeze({ transport: 'docker-archive', ...fileAndRef(input, input.slice(15)) });
  if (input.startsWith('docker-daemon:')) {
    const ref = input.slice(14);
    if (ref === '') throw new ValidationError(`invalid location "${input}": the image is empty`);
    return Object.freeze({ transport: 'docker-daemon', ref });
  }
  // Other tools' transports (`dir:x`, `containers-storage:x`) would parse as a name:tag; a path
  // would fail with a complaint about a path component. Both are told the forms instead.
  const scheme = /^([a-z][a-z0-9-]*):(?!\d)/.exec(input)?.[1];
  if ((scheme && OTHER_TRANSPORTS.includes(scheme)) || /^(\.{0,2}\/|~)/.test(input))
    throw new UsageError(`"${input}" is not an image location hubctl reads: write ${PLACE_FORMS}`);
  return Object.freeze({ transport: 'registry', ref: parseReference(input, opts) });
}

/** The place as parsePlace reads it back (a registry in its canonical form). */
export function formatPlace(p: PlaceRef, formatRef: (r: ImageReference) => string): string {
  switch (p.transport) {
    case 'registry':
      return formatRef(p.ref);
    case 'oci':
    case 'oci-archive':
      return `${p.transport}:${p.path}${p.tag ? `:${p.tag}` : ''}`;
    case 'docker-archive':
      return `docker-archive:${p.path}${p.ref ? `:${p.ref}` : ''}`;
    case 'docker-daemon':
      return `docker-daemon:${p.ref}`;
  }
}

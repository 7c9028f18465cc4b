// PURE: local image locations for pull destinations and push sources.

import { UsageError, ValidationError } from '../errors.js';
import { TAG_PATTERN } from './reference.js';

export type ImageLocation =
  | { readonly transport: 'oci'; readonly path: string; readonly tag?: string }
  | { readonly transport: 'docker-archive'; readonly path: string };

const TAG_RE = new RegExp(`^${TAG_PATTERN}$`);
const FORMS = 'oci:DIR[:tag] or docker-archive:FILE';

/**
 * Parses `oci:DIR[:tag]` or `docker-archive:FILE`. In `oci:`, the part after the last colon is a
 * tag when it looks like one and the rest is not empty (`oci:/tmp/x:v1`).
 */
export function parseImageLocation(input: string): ImageLocation {
  if (input.startsWith('oci:')) {
    const rest = input.slice(4);
    const colon = rest.lastIndexOf(':');
    if (colon > 0) {
      const tag = rest.slice(colon + 1);
      const path = rest.slice(0, colon);
      if (!TAG_RE.test(tag)) {
        throw new ValidationError(`invalid location "${input}": tag "${tag}" must match ${TAG_PATTERN}`);
      }
      return Object.freeze({ transport: 'oci', path, tag });
    }
    if (rest === '' || colon === 0)
      throw new ValidationError(`invalid location "${input}": the directory is empty`);
    return Object.freeze({ transport: 'oci', path: rest });
  }
  if (input.startsWith('docker-archive:')) {
    const path = input.slice('docker-archive:'.length);
    if (path === '') throw new ValidationError(`invalid location "${input}": the file name is empty`);
    return Object.freeze({ transport: 'docker-archive', path });
  }
  throw new UsageError(`"${input}" is not a local image location: write ${FORMS}`);
}

export function isImageLocation(input: string): boolean {
  return input.startsWith('oci:') || input.startsWith('docker-archive:');
}

export function formatImageLocation(loc: ImageLocation): string {
  if (loc.transport === 'oci') return `oci:${loc.path}${loc.tag ? `:${loc.tag}` : ''}`;
  return `docker-archive:${loc.path}`;
}

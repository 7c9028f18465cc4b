// An image's config blob, and the platform it names. A single image (a manifest reached without an
// index) says its platform only there, so a platform asked for is checked against it.

import type { RegistryClient } from '../api/registry/client.js';
import { sha256Digest } from '../api/registry/manifest.js';
import { type Descriptor, DOCKER_CONFIG, OCI_CONFIG, REGISTRY_CONFIG } from '../api/registry/media-types.js';
import { IntegrityError, ValidationError } from '../errors.js';
import type { RepositoryName } from '../ref/reference.js';
import { formatPlatform, imageIsFor, type PlatformSpec, platformMatches } from './platform.js';

/** Configs are a few KiB; this bounds what is read into memory. */
const MAX_CONFIG = 4 * 1024 * 1024;

const IMAGE_CONFIG_TYPES = [OCI_CONFIG, DOCKER_CONFIG, REGISTRY_CONFIG];

/** Whether a config descriptor is an image config (an artifact's says nothing of platforms). */
function isImageConfig(d: Descriptor): boolean {
  return IMAGE_CONFIG_TYPES.includes(d.mediaType);
}

/** The config blob's bytes, checked against its digest. */
export async function fetchConfig(
  client: RegistryClient,
  repo: RepositoryName,
  d: Descriptor,
): Promise<Buffer> {
  if (d.size > MAX_CONFIG)
    throw new ValidationError(`the config blob ${d.digest} is too large to read (${d.size} bytes)`);
  // Capped at the size the manifest gives it: a registry cannot make this read grow the process.
  const bytes = await client.getBlobBytes(repo, d.digest, d.size);
  if (sha256Digest(bytes) !== d.digest)
    throw new IntegrityError(`the config blob ${d.digest} does not match its digest`);
  return bytes;
}

/** The platform a config names, or undefined when it names none. */
function configPlatform(config: Record<string, unknown>): PlatformSpec | undefined {
  const { os, architecture, variant } = config;
  if (typeof os !== 'string' || typeof architecture !== 'string' || !os || !architecture) return undefined;
  return typeof variant === 'string' && variant ? { os, architecture, variant } : { os, architecture };
}

/** The platform in a config's bytes; undefined when they name none (or are not JSON). */
export function platformInConfig(bytes: Buffer): PlatformSpec | undefined {
  try {
    const config = JSON.parse(bytes.toString('utf8')) as unknown;
    if (config && typeof config === 'object') return configPlatform(config as Record<string, unknown>);
  } catch {
    // A config hubctl cannot read does not stop a pull; the platform is then unknown.
  }
  return undefined;
}

/**
 * Checks a single image's platform against the one wanted. A platform the user named is refused
 * when the image has another (exit 5, as for an index without it); the default one is not, since
 * docker pulls such an image with a warning: the returned note says so.
 */
export function checkSingleImagePlatform(
  what: string,
  have: PlatformSpec | undefined,
  want: PlatformSpec,
  explicit: boolean,
): string | undefined {
  if (!have || platformMatches(have, want)) return undefined;
  if (explicit) throw imageIsFor(what, want, have);
  return `Note: ${what} is an image for ${formatPlatform(have)}, not ${formatPlatform(want)} (the default platform); taking it as it is.`;
}

export interface SingleImageCheck {
  client: RegistryClient;
  repo: RepositoryName;
  /** The reference as the user wrote it, for messages. */
  what: string;
  config: Descriptor;
  want: PlatformSpec;
  explicit: boolean;
  /** Where the note for a default platform goes (the user's stderr). */
  notice?: (line: string) => void;
  /** HEAD the blob before its GET, as a pull does for every blob. */
  headFirst?: boolean;
}

/**
 * Fetches a single image's config and checks its platform (see checkSingleImagePlatform). Returns
 * the bytes, so that the caller does not fetch them again; undefined for an artifact's config or
 * one over MAX_CONFIG (nothing fetched).
 */
export async function checkSingleImage(c: SingleImageCheck): Promise<Buffer | undefined> {
  // An outsized config is not read into memory to look for a platform: it stays unchecked, and a
  // pull streams it like any other blob (rather than failing on a valid image).
  if (!isImageConfig(c.config) || c.config.size > MAX_CONFIG) return undefined;
  if (c.headFirst) await c.client.headBlob(c.repo, c.config.digest);
  const bytes = await fetchConfig(c.client, c.repo, c.config);
  const line = checkSingleImagePlatform(c.what, platformInConfig(bytes), c.want, c.explicit);
  if (line) c.notice?.(line);
  return bytes;
}

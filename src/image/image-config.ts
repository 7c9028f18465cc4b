// An image's config blob, and the platform it names. A single image (a manifest reached without an
// index) says its platform only there, so a platform asked for is checked against it.

import { type Descriptor, DOCKER_CONFIG, OCI_CONFIG, REGISTRY_CONFIG } from '../oci/media-types.js';
import { formatPlatform, imageIsFor, type PlatformSpec, platformMatches } from './platform.js';

/** Configs are a few KiB; this bounds what is read into memory. */
export const MAX_CONFIG = 4 * 1024 * 1024;

const IMAGE_CONFIG_TYPES = [OCI_CONFIG, DOCKER_CONFIG, REGISTRY_CONFIG];

/** Whether a config descriptor is an image config (an artifact's says nothing of platforms). */
export function isImageConfig(d: Descriptor): boolean {
  return IMAGE_CONFIG_TYPES.includes(d.mediaType);
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

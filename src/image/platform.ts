// Platforms (`os/arch[/variant]`) and matching one entry of an index. Pure: the machine's
// own platform is passed in by the caller (the command reads it from the context).

import { NotFoundError, ValidationError } from '../errors.js';
import { listSome } from '../list-some.js';
import type { Descriptor, Platform } from '../oci/media-types.js';

export interface PlatformSpec {
  os: string;
  architecture: string;
  variant?: string;
}

const NODE_ARCH: Record<string, string> = {
  x64: 'amd64',
  arm64: 'arm64',
  arm: 'arm',
  ia32: '386',
  ppc64: 'ppc64le',
  s390x: 's390x',
  riscv64: 'riscv64',
  loong64: 'loong64',
  mips: 'mips',
  mipsel: 'mipsle',
};

/** The image platform of a Node `process.platform`/`process.arch` pair. */
export function platformOf(nodePlatform: string, nodeArch: string): PlatformSpec {
  const os = nodePlatform === 'win32' ? 'windows' : nodePlatform === 'darwin' ? 'linux' : nodePlatform;
  // Containers on macOS run in a Linux VM: the image platform is linux.
  return { os, architecture: NODE_ARCH[nodeArch] ?? nodeArch };
}

export function parsePlatform(input: string): PlatformSpec {
  const parts = input.split('/');
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => !/^[a-z0-9._-]+$/.test(p))) {
    throw new ValidationError(
      `invalid platform "${input}": write os/arch or os/arch/variant (linux/arm64/v8)`,
    );
  }
  const [os, architecture, variant] = parts as [string, string, string?];
  return variant ? { os, architecture, variant } : { os, architecture };
}

export function formatPlatform(p: PlatformSpec | Platform | undefined): string {
  if (!p) return 'unknown';
  return [p.os, p.architecture, p.variant].filter(Boolean).join('/');
}

function normalVariant(arch: string, variant: string | undefined): string | undefined {
  if (arch === 'arm64' && (variant === undefined || variant === 'v8')) return 'v8';
  if (arch === 'arm' && variant === undefined) return 'v7';
  return variant;
}

function sameVariant(have: PlatformSpec, want: PlatformSpec): boolean {
  return normalVariant(have.architecture, have.variant) === normalVariant(want.architecture, want.variant);
}

function sameArch(have: PlatformSpec, want: PlatformSpec): boolean {
  return have.os === want.os && have.architecture === want.architecture;
}

/**
 * Whether an image of platform `have` serves `want`, by the rule matchManifest applies to an
 * index: the same os and architecture, and the same variant unless `want` names none.
 */
export function platformMatches(have: PlatformSpec, want: PlatformSpec): boolean {
  return sameArch(have, want) && (want.variant === undefined || sameVariant(have, want));
}

/**
 * The index entry for a platform, or undefined; a variant left out matches the architecture's
 * default. Nested index trees are searched by findPlatform (manifest-tree.ts).
 */
export function matchManifest(manifests: readonly Descriptor[], want: PlatformSpec): Descriptor | undefined {
  const candidates = manifests.filter((d) => d.platform && sameArch(d.platform, want));
  const exact = candidates.find((d) => sameVariant(d.platform!, want));
  return exact ?? (want.variant === undefined ? candidates[0] : undefined);
}

/** "app:1 has no image for linux/s390x", naming the platforms there are. */
export function noImageFor(what: string, want: PlatformSpec, available: readonly string[]): NotFoundError {
  return new NotFoundError(`${what} has no image for ${formatPlatform(want)}`, {
    hint: available.length > 0 ? `Platforms available: ${listSome(available, 10)}.` : undefined,
  });
}

/**
 * A single image (no index) whose config names another platform than the one asked for: not
 * found, like an index without it (exit 5).
 */
export function imageIsFor(what: string, want: PlatformSpec, have: PlatformSpec): NotFoundError {
  return new NotFoundError(
    `${what} has no image for ${formatPlatform(want)}: it is a single image for ${formatPlatform(have)}`,
    { hint: 'Without --platform, hubctl takes it as it is.' },
  );
}

import { describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../src/errors.js';
import { findPlatform } from '../../src/image/manifest-tree.js';
import { formatPlatform, matchManifest, parsePlatform, platformOf } from '../../src/image/platform.js';
import type { Descriptor } from '../../src/oci/media-types.js';

const d = (platform: Descriptor['platform'], n: number): Descriptor => ({
  mediaType: 'application/vnd.oci.image.manifest.v1+json',
  digest: `sha256:${String(n).repeat(64).slice(0, 64)}`,
  size: 1,
  platform,
});

const index = [
  d({ os: 'linux', architecture: 'amd64' }, 1),
  d({ os: 'linux', architecture: 'arm64', variant: 'v8' }, 2),
  d({ os: 'linux', architecture: 'arm', variant: 'v6' }, 3),
  d({ os: 'linux', architecture: 'arm', variant: 'v7' }, 4),
  d({ os: 'windows', architecture: 'amd64', 'os.version': '10.0' }, 5),
];

describe('platforms', () => {
  it('maps Node platform and arch to image platforms', () => {
    expect(platformOf('linux', 'x64')).toEqual({ os: 'linux', architecture: 'amd64' });
    expect(platformOf('linux', 'arm64')).toEqual({ os: 'linux', architecture: 'arm64' });
    expect(platformOf('darwin', 'arm64')).toEqual({ os: 'linux', architecture: 'arm64' });
    expect(platformOf('linux', 'ia32')).toEqual({ os: 'linux', architecture: '386' });
    expect(platformOf('win32', 'x64')).toEqual({ os: 'windows', architecture: 'amd64' });
  });

  it('parses os/arch[/variant] and refuses other forms', () => {
    expect(parsePlatform('linux/arm64/v8')).toEqual({ os: 'linux', architecture: 'arm64', variant: 'v8' });
    expect(parsePlatform('linux/amd64')).toEqual({ os: 'linux', architecture: 'amd64' });
    for (const bad of ['linux', 'linux/', 'a/b/c/d', 'Linux/AMD64', '']) {
      expect(() => parsePlatform(bad)).toThrow(ValidationError);
    }
    expect(formatPlatform({ os: 'linux', architecture: 'arm', variant: 'v7' })).toBe('linux/arm/v7');
  });

  it('selects the entry for a platform, with default variants', () => {
    expect(matchManifest(index, { os: 'linux', architecture: 'amd64' })).toBe(index[0]);
    expect(matchManifest(index, { os: 'linux', architecture: 'arm64' })).toBe(index[1]);
    expect(matchManifest(index, { os: 'linux', architecture: 'arm64', variant: 'v8' })).toBe(index[1]);
    // arm without a variant means v7.
    expect(matchManifest(index, { os: 'linux', architecture: 'arm' })).toBe(index[3]);
    expect(matchManifest(index, { os: 'linux', architecture: 'arm', variant: 'v6' })).toBe(index[2]);
    expect(matchManifest(index, { os: 'windows', architecture: 'amd64' })).toBe(index[4]);
    expect(matchManifest(index, { os: 'linux', architecture: 'arm', variant: 'v5' })).toBeUndefined();
  });

  it('says which platforms exist when none matches', async () => {
    const top = {
      digest: `sha256:${'f'.repeat(64)}`,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      bytes: Buffer.from(''),
      parsed: {
        kind: 'index' as const,
        mediaType: 'application/vnd.oci.image.index.v1+json',
        index: { schemaVersion: 2, manifests: index },
      },
    };
    const fetch = (): never => {
      throw new Error('nothing matches, so nothing is fetched');
    };
    const err = await findPlatform(top, { os: 'linux', architecture: 's390x' }, fetch, 'host/app:1').catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toBe('host/app:1 has no image for linux/s390x');
    expect((err as NotFoundError).hint).toContain(
      'linux/amd64, linux/arm64/v8, linux/arm/v6, linux/arm/v7, windows/amd64',
    );
  });
});

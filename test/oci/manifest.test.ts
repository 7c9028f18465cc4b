import { describe, expect, it } from 'vitest';
import { IntegrityError, ValidationError } from '../../src/errors.js';
import { parseManifest, sha256Digest, verifyManifestDigest } from '../../src/oci/manifest.js';
import { MANIFEST_ACCEPT } from '../../src/oci/media-types.js';

const b = (v: unknown) => Buffer.from(JSON.stringify(v));
const config = { mediaType: 'x', digest: `sha256:${'c'.repeat(64)}`, size: 2 };

describe('manifests', () => {
  it('accepts every current type, neutral vnd.registry names included (decisions §0, §6)', () => {
    for (const t of [
      'application/vnd.oci.image.index.v1+json',
      'application/vnd.oci.image.manifest.v1+json',
      'application/vnd.docker.distribution.manifest.list.v2+json',
      'application/vnd.docker.distribution.manifest.v2+json',
      'application/vnd.registry.distribution.manifest.list.v2+json',
      'application/vnd.registry.distribution.manifest.v2+json',
    ]) {
      expect(MANIFEST_ACCEPT).toContain(t);
    }
    const list = parseManifest(
      b({
        schemaVersion: 2,
        mediaType: 'application/vnd.registry.distribution.manifest.list.v2+json',
        manifests: [],
      }),
      undefined,
      'x',
    );
    expect(list.kind).toBe('index');
    const image = parseManifest(
      b({ schemaVersion: 2, config, layers: [] }),
      'application/vnd.registry.distribution.manifest.v2+json; charset=utf-8',
      'x',
    );
    expect(image).toMatchObject({
      kind: 'image',
      mediaType: 'application/vnd.registry.distribution.manifest.v2+json',
    });
  });

  it('infers the type from the body when the server says application/json or nothing', () => {
    expect(parseManifest(b({ schemaVersion: 2, manifests: [] }), 'application/json', 'x').mediaType).toBe(
      'application/vnd.oci.image.index.v1+json',
    );
    expect(parseManifest(b({ schemaVersion: 2, config, layers: [] }), undefined, 'x').mediaType).toBe(
      'application/vnd.oci.image.manifest.v1+json',
    );
  });

  it('refuses schema 1 by body or by type, and malformed manifests', () => {
    expect(() => parseManifest(b({ schemaVersion: 1, fsLayers: [] }), 'application/json', 'h/a:1')).toThrow(
      /h\/a:1 is a schema 1 manifest .*ask the image's author to upgrade it/,
    );
    expect(() =>
      parseManifest(
        b({ schemaVersion: 2 }),
        'application/vnd.docker.distribution.manifest.v1+prettyjws',
        'x',
      ),
    ).toThrow(/schema 1/);
    expect(() => parseManifest(Buffer.from('{nope'), undefined, 'x')).toThrow(ValidationError);
    expect(() => parseManifest(b({ schemaVersion: 2, layers: [] }), undefined, 'x')).toThrow(
      /no config descriptor/,
    );
  });

  it('checks bytes against a digest', () => {
    const bytes = b({ a: 1 });
    expect(verifyManifestDigest(bytes, sha256Digest(bytes), 'x')).toBe(sha256Digest(bytes));
    expect(verifyManifestDigest(bytes, undefined, 'x')).toBe(sha256Digest(bytes));
    expect(() => verifyManifestDigest(bytes, `sha256:${'0'.repeat(64)}`, 'x')).toThrow(IntegrityError);
  });
});

// The pure parts of referrers (src/image/referrers.ts) and the attach flags: the fallback tag's
// name, the descriptor the distribution spec asks for, adding to a list without duplicates.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { annotationOption } from '../../src/commands/image/attach.js';
import { artifactTypeOption } from '../../src/commands/image/referrers.js';
import { UsageError } from '../../src/errors.js';
import { artifactManifest } from '../../src/image/attach.js';
import { fallbackTag, ofArtifactType, referrerDescriptor, withReferrer } from '../../src/image/referrers.js';
import { parseManifest, sha256Digest } from '../../src/oci/manifest.js';

const D = (n: number) => `sha256:${n.toString(16).padStart(64, '0')}`;

describe('fallbackTag', () => {
  it('is the algorithm, a dash and the hex (distribution spec, referrers tag schema)', () => {
    expect(fallbackTag(D(1))).toBe(`sha256-${'0'.repeat(63)}1`);
  });
  it('refuses anything but a sha256 digest', () => {
    for (const bad of ['sha256:xyz', 'sha512:' + 'a'.repeat(128), '', `sha256:${'A'.repeat(64)}`])
      expect(() => fallbackTag(bad)).toThrow(/is not a sha256 digest/);
  });
});

describe('referrerDescriptor', () => {
  const subject = { mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: D(7), size: 10 };
  const stored = (bytes: Buffer) => {
    const parsed = parseManifest(bytes, undefined, 't');
    return { digest: sha256Digest(bytes), mediaType: parsed.mediaType, bytes, parsed };
  };
  it('takes artifactType and every annotation from the manifest', () => {
    const bytes = artifactManifest(subject, 'application/spdx+json', [], { a: '1', b: '2' });
    expect(referrerDescriptor(stored(bytes))).toEqual({
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      digest: sha256Digest(bytes),
      size: bytes.length,
      artifactType: 'application/spdx+json',
      annotations: { a: '1', b: '2' },
    });
  });
  it("without artifactType, an image manifest's artifact type is its config's media type", () => {
    const bytes = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        config: { mediaType: 'application/vnd.dev.cosign.simplesigning.v1+json', digest: D(2), size: 2 },
        layers: [],
        subject,
      }),
    );
    expect(referrerDescriptor(stored(bytes)).artifactType).toBe(
      'application/vnd.dev.cosign.simplesigning.v1+json',
    );
  });
});

describe('withReferrer', () => {
  const desc = fc.record({
    mediaType: fc.constant('application/vnd.oci.image.manifest.v1+json'),
    digest: fc.integer({ min: 0, max: 50 }).map(D),
    size: fc.nat(),
    artifactType: fc.constantFrom('a/b', 'c/d'),
  });
  it('adds each digest once, keeps what was there in order, and answers undefined for a duplicate', () => {
    fc.assert(
      fc.property(fc.array(desc, { maxLength: 30 }), (adds) => {
        let index: ReturnType<typeof withReferrer>;
        const seen: string[] = [];
        for (const d of adds) {
          const next = withReferrer(index, d);
          if (seen.includes(d.digest)) expect(next).toBeUndefined();
          else {
            expect(next?.manifests.map((m) => m.digest)).toEqual([...seen, d.digest]);
            seen.push(d.digest);
            index = next;
          }
        }
        if (index) expect(index.mediaType).toBe('application/vnd.oci.image.index.v1+json');
      }),
    );
  });
  it('filters by artifact type, or not at all', () => {
    const list = [
      { mediaType: 'x', digest: D(1), size: 1, artifactType: 'a/b' },
      { mediaType: 'x', digest: D(2), size: 1 },
    ];
    expect(ofArtifactType(list, 'a/b').map((d) => d.digest)).toEqual([D(1)]);
    expect(ofArtifactType(list)).toHaveLength(2);
  });
});

describe('attach flags', () => {
  it('--annotation takes key=value, repeatable, each key once', () => {
    expect(annotationOption('a=1=2', annotationOption('b=', {}))).toEqual({ b: '', a: '1=2' });
    expect(() => annotationOption('=x')).toThrow(UsageError);
    expect(() => annotationOption('noequals')).toThrow(UsageError);
    expect(() => annotationOption('a=2', { a: '1' })).toThrow(/given twice/);
  });
  it('any string is a usage error or an annotation, never anything else (fuzz)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        try {
          const out = annotationOption(s);
          expect(Object.keys(out)).toHaveLength(1);
        } catch (err) {
          expect(err).toBeInstanceOf(UsageError);
        }
        try {
          expect(artifactTypeOption(s)).toBe(s);
          expect(s).toMatch(/^[^/\s]+\/[^/\s]+$/);
        } catch (err) {
          expect(err).toBeInstanceOf(UsageError);
        }
      }),
    );
  });
});

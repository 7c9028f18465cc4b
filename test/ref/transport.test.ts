import { describe, expect, it } from 'vitest';
import { UsageError, ValidationError } from '../../src/errors.js';
import { formatReference } from '../../src/ref/reference.js';
import {
  formatPlace,
  LOCAL_FORMS,
  LOCAL_PREFIXES,
  PLACE_FORMS,
  PLACES,
  parsePlace,
  placesHelp,
  tagOf,
} from '../../src/ref/transport.js';

describe('parsePlace', () => {
  it.each([
    [
      'alpine',
      { transport: 'registry', ref: { registry: 'docker.io', repository: 'library/alpine', tag: 'latest' } },
    ],
    [
      'alpine:3.20',
      { transport: 'registry', ref: { registry: 'docker.io', repository: 'library/alpine', tag: '3.20' } },
    ],
    [
      'localhost:5000/a/b:1',
      { transport: 'registry', ref: { registry: 'localhost:5000', repository: 'a/b', tag: '1' } },
    ],
    [
      'docker://localhost:5000/x:2',
      { transport: 'registry', ref: { registry: 'localhost:5000', repository: 'x', tag: '2' } },
    ],
    [
      'docker:5000/a',
      { transport: 'registry', ref: { registry: 'docker:5000', repository: 'a', tag: 'latest' } },
    ],
    ['oci:/tmp/x:v1', { transport: 'oci', path: '/tmp/x', tag: 'v1' }],
    ['oci:rel', { transport: 'oci', path: 'rel' }],
    ['oci-archive:o.tar:1', { transport: 'oci-archive', path: 'o.tar', tag: '1' }],
    ['oci-archive:o.tar', { transport: 'oci-archive', path: 'o.tar' }],
    ['docker-archive:app.tar:app:1', { transport: 'docker-archive', path: 'app.tar', ref: 'app:1' }],
    ['docker-archive:a.tar:@1', { transport: 'docker-archive', path: 'a.tar', ref: '@1' }],
    ['docker-archive:a.tar', { transport: 'docker-archive', path: 'a.tar' }],
    ['docker-daemon:app:1', { transport: 'docker-daemon', ref: 'app:1' }],
  ])('%s', (input, expected) => {
    expect(parsePlace(input)).toEqual(expected);
  });

  it('reads back what it formats', () => {
    for (const s of ['oci:/tmp/x:v1', 'oci-archive:o.tar', 'docker-archive:a.tar:app:1', 'docker-daemon:x'])
      expect(formatPlace(parsePlace(s), formatReference)).toBe(s);
    expect(formatPlace(parsePlace('docker://alpine'), formatReference)).toBe(
      'docker.io/library/alpine:latest',
    );
  });

  it.each([
    [
      'dir:foo',
      UsageError,
      /not an image location hubctl reads: write REGISTRY\/REPO:TAG, docker:\/\/REF, oci:DIR/,
    ],
    ['./build', UsageError, /oci-archive:FILE\[:TAG\]/],
    ['/abs/build', UsageError, /docker-archive:FILE\[:REF\]/],
    ['containers-storage:x', UsageError, /not an image location/],
    ['oci:', ValidationError, /the directory is empty/],
    ['oci-archive:', ValidationError, /the file name is empty/],
    ['docker-archive:', ValidationError, /the file name is empty/],
    ['docker-archive::x', ValidationError, /the file name is empty/],
    ['docker-archive:a.tar:Bad Name', ValidationError, /invalid reference/],
    ['docker-daemon:', ValidationError, /the image is empty/],
    ['oci:/x:-bad', ValidationError, /tag "-bad" must match/],
    ['docker://', ValidationError, /the reference is empty/],
  ])('refuses %s', (input, type, message) => {
    expect(() => parsePlace(input)).toThrow(type);
    expect(() => parsePlace(input)).toThrow(message);
  });
});

describe('the table of places (PLACES)', () => {
  const kinds = Object.entries(PLACES);

  it('holds the five kinds of skopeo this reads, each with a prefix, forms and words', () => {
    expect(kinds.map(([t, k]) => [t, k.prefix, k.local])).toEqual([
      ['registry', 'docker://', false],
      ['oci', 'oci:', true],
      ['oci-archive', 'oci-archive:', true],
      ['docker-archive', 'docker-archive:', true],
      ['docker-daemon', 'docker-daemon:', true],
    ]);
    for (const [, k] of kinds) {
      expect(k.forms.length).toBeGreaterThan(0);
      expect(k.about).not.toBe('');
    }
  });

  it.each(kinds)('%s: its example reads as that kind and writes back as it was', (transport, k) => {
    const place = parsePlace(k.example);
    expect(place.transport).toBe(transport);
    expect(formatPlace(place, formatReference)).toBe(k.example);
    // Written with its prefix (a registry may be written bare, as formatPlace writes it), the same.
    const prefixed = k.example.startsWith(k.prefix) ? k.example : `${k.prefix}${k.example}`;
    expect(parsePlace(prefixed)).toEqual(place);
  });

  it('every form is in the help strings, the local ones apart, in the order of the table', () => {
    expect(PLACE_FORMS).toBe(
      'REGISTRY/REPO:TAG, docker://REF, oci:DIR[:TAG], oci-archive:FILE[:TAG], docker-archive:FILE[:REF] or docker-daemon:REF',
    );
    expect(LOCAL_FORMS).toBe(
      'oci:DIR[:TAG], oci-archive:FILE[:TAG], docker-archive:FILE[:REF] or docker-daemon:REF',
    );
    expect(LOCAL_PREFIXES).toBe('oci:, oci-archive:, docker-archive:, docker-daemon:');
    for (const [, k] of kinds) {
      for (const form of k.forms) {
        expect(PLACE_FORMS).toContain(form);
        expect(placesHelp('all')).toContain(form);
        expect(LOCAL_FORMS.includes(form)).toBe(k.local);
        expect(placesHelp('local').includes(form)).toBe(k.local);
      }
      expect(placesHelp('all')).toContain(`  ${k.forms.join(', ')}  `);
      expect(placesHelp('all')).toContain(k.about);
    }
  });

  it('tagOf: the tag a destination without one takes (a registry or OCI place names one; archives and the engine do not)', () => {
    expect(tagOf(parsePlace('localhost:5000/a:7'))).toBe('7');
    expect(tagOf(parsePlace('localhost:5000/a@sha256:' + 'a'.repeat(64)))).toBeUndefined();
    expect(tagOf(parsePlace('oci:/x:v1'))).toBe('v1');
    expect(tagOf(parsePlace('oci:/x'))).toBeUndefined();
    expect(tagOf(parsePlace('oci-archive:x.tar:v2'))).toBe('v2');
    expect(tagOf(parsePlace('docker-archive:x.tar:app:1'))).toBeUndefined();
    expect(tagOf(parsePlace('docker-daemon:app:1'))).toBeUndefined();
  });
});

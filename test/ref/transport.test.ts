import { describe, expect, it } from 'vitest';
import { UsageError, ValidationError } from '../../src/errors.js';
import { formatReference } from '../../src/ref/reference.js';
import { formatPlace, parsePlace } from '../../src/ref/transport.js';

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

import { describe, expect, it } from 'vitest';
import { UsageError, ValidationError } from '../../src/errors.js';
import { formatImageLocation, parseImageLocation } from '../../src/ref/transport.js';

describe('parseImageLocation', () => {
  it.each([
    ['oci:/tmp/img', { transport: 'oci', path: '/tmp/img' }],
    ['oci:/tmp/img:v1', { transport: 'oci', path: '/tmp/img', tag: 'v1' }],
    ['oci:rel/dir:latest', { transport: 'oci', path: 'rel/dir', tag: 'latest' }],
    ['docker-archive:/tmp/a.tar', { transport: 'docker-archive', path: '/tmp/a.tar' }],
  ])('%s', (input, expected) => {
    expect(parseImageLocation(input)).toEqual(expected);
    expect(formatImageLocation(parseImageLocation(input))).toBe(input);
  });

  it('refuses other forms', () => {
    expect(() => parseImageLocation('/tmp/img')).toThrow(UsageError);
    expect(() => parseImageLocation('docker://x')).toThrow(/oci:DIR\[:tag\] or docker-archive:FILE/);
    expect(() => parseImageLocation('oci:')).toThrow(ValidationError);
    expect(() => parseImageLocation('docker-archive:')).toThrow(ValidationError);
    expect(() => parseImageLocation('oci:/tmp/x:-bad')).toThrow(/tag "-bad" must match/);
  });
});

import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import {
  formatReference,
  manifestReference,
  parseReference,
  parseRepository,
  plainHttpFor,
  registryBaseUrl,
  registryHost,
} from '../../src/ref/reference.js';

const D = `sha256:${'a'.repeat(64)}`;

describe('parseReference: good references', () => {
  const good: Array<[string, string, string, string | undefined, string | undefined]> = [
    // input, registry, repository, tag, digest
    ['alpine', 'docker.io', 'library/alpine', 'latest', undefined],
    ['alpine:3.19', 'docker.io', 'library/alpine', '3.19', undefined],
    ['library/alpine', 'docker.io', 'library/alpine', 'latest', undefined],
    ['docker.io/alpine', 'docker.io', 'library/alpine', 'latest', undefined],
    ['index.docker.io/library/alpine:edge', 'docker.io', 'library/alpine', 'edge', undefined],
    ['bitnami/redis:7.2', 'docker.io', 'bitnami/redis', '7.2', undefined],
    ['localhost/app', 'localhost', 'app', 'latest', undefined],
    ['localhost:5000/team/app:1', 'localhost:5000', 'team/app', '1', undefined],
    ['127.0.0.1:5055/a/b/c:v1.2-rc_3', '127.0.0.1:5055', 'a/b/c', 'v1.2-rc_3', undefined],
    ['[::1]:5000/app:x', '[::1]:5000', 'app', 'x', undefined],
    ['ghcr.io/owner/repo', 'ghcr.io', 'owner/repo', 'latest', undefined],
    [
      'my-registry.example.com:443/a.b/c_d/e-f',
      'my-registry.example.com:443',
      'a.b/c_d/e-f',
      'latest',
      undefined,
    ],
    [`alpine@${D}`, 'docker.io', 'library/alpine', undefined, D],
    [`alpine:3@${D}`, 'docker.io', 'library/alpine', '3', D],
    [`host:5000/app@${D}`, 'host:5000', 'app', undefined, D],
    ['Registry/app', 'Registry', 'app', 'latest', undefined],
    ['a:_tag', 'docker.io', 'library/a', '_tag', undefined],
    [`a:${'t'.repeat(128)}`, 'docker.io', 'library/a', 't'.repeat(128), undefined],
  ];
  it.each(good)('%s', (input, registry, repository, tag, digest) => {
    const ref = parseReference(input);
    expect(ref.registry).toBe(registry);
    expect(ref.repository).toBe(repository);
    expect(ref.tag).toBe(tag);
    expect(ref.digest).toBe(digest);
  });

  it('keeps no tag when asked not to default it', () => {
    expect(parseReference('alpine', { defaultTag: false }).tag).toBeUndefined();
  });

  it('formats the canonical name and the manifest reference', () => {
    expect(formatReference(parseReference('alpine'))).toBe('docker.io/library/alpine:latest');
    const withBoth = parseReference(`h:1/a:t@${D}`);
    expect(formatReference(withBoth)).toBe(`h:1/a:t@${D}`);
    expect(manifestReference(withBoth)).toBe(D);
    expect(manifestReference(parseReference('h:1/a:t'))).toBe('t');
  });
});

describe('parseReference: bad references name the rule', () => {
  const bad: Array<[string, RegExp]> = [
    ['', /empty/],
    ['Alpine', /must be lowercase/],
    ['docker.io/Library/alpine', /must be lowercase/],
    ['a//b', /empty path component/],
    ['a/b/', /empty path component/],
    ['a/-b', /path component "-b" must match/],
    ['a/b_', /path component "b_" must match/],
    ['a/b..c', /path component "b..c" must match/],
    ['a/b$c', /must match/],
    ['a:-tag', /tag "-tag" must match/],
    [`a:${'t'.repeat(129)}`, /tag ".*" must match/],
    ['a:', /tag "" must match/],
    ['a@sha256:abc', /digest "sha256:abc" must be/],
    [`a@sha512:${'a'.repeat(64)}`, /digest/],
    [`a@sha256:${'A'.repeat(64)}`, /digest/],
    ['host:99999/a', /port "99999"/],
    ['host:abc/a', /registry port "abc"|tag/],
    ['-bad.example.com/a', /not a valid host name/],
    ['https://host/a', /no scheme/],
    ['a b', /spaces/],
    [`r.io/${'a'.repeat(251)}`, /fewer than 256/],
  ];
  it.each(bad)('%j', (input, rule) => {
    let err: unknown;
    try {
      parseReference(input);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toMatch(rule);
  });

  it('accepts a name of exactly 255 characters', () => {
    const repo = 'a'.repeat(255 - 'r.io/'.length);
    expect(parseReference(`r.io/${repo}`).repository).toBe(repo);
  });
});

describe('parseRepository', () => {
  it('parses a repository and refuses a tag or digest', () => {
    expect(parseRepository('localhost:5000/team/app')).toEqual({
      registry: 'localhost:5000',
      repository: 'team/app',
    });
    expect(parseRepository('alpine')).toEqual({ registry: 'docker.io', repository: 'library/alpine' });
    expect(() => parseRepository('alpine:3')).toThrow(/without a tag or digest/);
  });
});

describe('registry host and plain HTTP (decisions §1)', () => {
  it('serves docker.io at registry-1.docker.io', () => {
    expect(registryHost('docker.io')).toBe('registry-1.docker.io');
    expect(registryBaseUrl('docker.io')).toBe('https://registry-1.docker.io');
    expect(registryBaseUrl('localhost:5000')).toBe('http://localhost:5000');
  });
  const cases: Array<[string, string[], boolean]> = [
    ['localhost', [], true],
    ['localhost:5000', [], true],
    ['LOCALHOST:5000', [], true],
    ['127.0.0.1:5055', [], true],
    ['127.255.3.4', [], true],
    ['[::1]:5000', [], true],
    ['::1', [], true],
    ['128.0.0.1', [], false],
    ['127.0.0.1.example.com', [], false],
    ['10.0.0.5:5000', [], false],
    ['10.0.0.5:5000', ['10.0.0.5'], true],
    ['10.0.0.5:5000', ['10.0.0.5:5000'], true],
    ['10.0.0.5:5000', ['10.0.0.5:6000'], false],
    ['registry.example.com', [], false],
    ['registry-1.docker.io', [], false],
  ];
  it.each(cases)('%s with %j → %s', (host, list, plain) => {
    expect(plainHttpFor(host, list)).toBe(plain);
  });
});

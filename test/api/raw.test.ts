// hubctl api's parsers of outside input: tables of good and bad input, and properties over
// arbitrary strings (fast-check): a path never leaves the service's origin or base path, a header
// is never a credential, and a Link or next never yields anything but a URL.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  nextPage,
  pageItems,
  parseField,
  parseHeader,
  parseService,
  registryScope,
  resolvePath,
} from '../../src/api/raw.js';
import { UnexpectedAnswerError, UsageError } from '../../src/errors.js';

const GOV = 'https://hub.example.com/v2';

describe('resolvePath', () => {
  it.each([
    ['/orgs/acme/governance/policies', 'https://hub.example.com/v2/orgs/acme/governance/policies'],
    ['orgs/acme?page_size=2', 'https://hub.example.com/v2/orgs/acme?page_size=2'],
    ['https://hub.example.com/v2/orgs', 'https://hub.example.com/v2/orgs'],
    ['/a/b#frag', 'https://hub.example.com/v2/a/b'],
  ])('%s → %s', (path, url) => {
    expect(resolvePath(GOV, path).toString()).toBe(url);
  });

  it.each([
    ['https://evil.example.com/v2/orgs', /refusing https:\/\/evil\.example\.com/],
    ['http://hub.example.com/v2/orgs', /refusing http:\/\/hub\.example\.com/],
    ['//evil.example.com/x', /refusing|not a URL/],
    ['/../access-tokens', /leaves the service's base path|segments/],
    ['/orgs/%2e%2e/%2e%2e/x', /leaves|segments/],
    ['/a%2fb', /encoded slashes/],
    ['https://user:pw@hub.example.com/v2/x', /user or password/],
    ['/a b', /space/],
    ['/a\\b', /backslash/],
    ['', /1 to 8192/],
  ])('%j is refused', (path, message) => {
    expect(() => resolvePath(GOV, path)).toThrow(message);
  });

  it('property: any string either is refused or stays on the origin, below the base path', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webPath(),
          fc.webUrl(),
          fc
            .array(fc.constantFrom('..', '.', '%2e', '%2E%2e', 'a', '', '%2f', '?', '#', '@', ':'), {
              maxLength: 8,
            })
            .map((p) => p.join('/')),
        ),
        (path) => {
          let url: URL;
          try {
            url = resolvePath(GOV, path);
          } catch (err) {
            expect(err).toBeInstanceOf(UsageError);
            return;
          }
          expect(url.origin).toBe('https://hub.example.com');
          expect(url.pathname === '/v2' || url.pathname.startsWith('/v2/')).toBe(true);
          expect(url.username + url.password).toBe('');
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('parseHeader, parseField, parseService', () => {
  it('a header as name and value; never a credential', () => {
    expect(parseHeader('Accept: application/json')).toEqual(['accept', 'application/json']);
    expect(parseHeader('X-A:b:c')).toEqual(['x-a', 'b:c']);
    for (const bad of [
      'Authorization: x',
      'authorization:Bearer y',
      'Proxy-Authorization: z',
      'Cookie: a',
      'Host: h',
      ': v',
      'a b: c',
      'X: a\nb',
    ])
      expect(() => parseHeader(bad)).toThrow(UsageError);
  });

  it('property: a parsed header has a token name that is no credential, and a value with no line break', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 64 }), (arg) => {
        let out: [string, string];
        try {
          out = parseHeader(arg);
        } catch (err) {
          expect(err).toBeInstanceOf(UsageError);
          return;
        }
        expect(out[0]).toMatch(/^[!#$%&'*+.^_`|~0-9a-z-]+$/);
        expect(['authorization', 'proxy-authorization', 'cookie']).not.toContain(out[0]);
        expect(out[1]).not.toMatch(/[\r\n]/);
      }),
    );
  });

  it('fields: -f strings, -F typed', () => {
    expect(parseField('a=1', false)).toEqual(['a', '1']);
    expect(parseField('a=b=c', false)).toEqual(['a', 'b=c']);
    expect(parseField('n=12', true)).toEqual(['n', 12]);
    expect(parseField('n=-1.5', true)).toEqual(['n', -1.5]);
    expect(parseField('t=true', true)).toEqual(['t', true]);
    expect(parseField('z=null', true)).toEqual(['z', null]);
    expect(parseField('s=1e400', true)).toEqual(['s', '1e400']);
    expect(parseField('s=012', true)).toEqual(['s', '012']);
    expect(() => parseField('=x', false)).toThrow(UsageError);
    expect(() => parseField('novalue', true)).toThrow(UsageError);
  });

  it('services', () => {
    expect(parseService('hub')).toEqual({ kind: 'hub' });
    expect(parseService('registry:LocalHost:5000')).toEqual({ kind: 'registry', host: 'localhost:5000' });
    expect(parseService('registry:[::1]:5000')).toEqual({ kind: 'registry', host: '[::1]:5000' });
    for (const bad of ['registry:', 'registry:a/b', 'registry:https://x', 'registry:u@h', 'Hub', 'audit2'])
      expect(() => parseService(bad)).toThrow(UsageError);
  });
});

describe('registry scopes, page items, next pages', () => {
  it.each([
    ['/v2/', 'GET', []],
    ['/v2/_catalog', 'GET', ['registry:catalog:*']],
    ['/v2/team/app/tags/list', 'GET', ['repository:team/app:pull']],
    ['/v2/a/b/c/manifests/v1', 'HEAD', ['repository:a/b/c:pull']],
    ['/v2/team/app/manifests/sha256:abc', 'DELETE', ['repository:team/app:delete']],
    ['/v2/team/app/blobs/uploads/', 'POST', ['repository:team/app:pull,push']],
  ])('%s %s → %j', (path, method, scopes) => {
    expect(registryScope(path, method).scopes).toEqual(scopes);
  });

  it('page items: an array, a known list field, or the only array field', () => {
    expect(pageItems([1])).toEqual([1]);
    expect(pageItems({ count: 2, results: [1, 2], next: null })).toEqual([1, 2]);
    expect(pageItems({ data: [3], next_page_token: 'x' })).toEqual([3]);
    expect(pageItems({ name: 'r', tags: ['a'] })).toEqual(['a']);
    expect(pageItems({ other: [4] })).toEqual([4]);
    expect(pageItems({ a: [1], b: [2] })).toBeUndefined();
    expect(pageItems('text')).toBeUndefined();
  });

  it('next page: next URL, next_page_token as page_token, Link rel="next"', () => {
    const page = new URL('https://h.example/v2/x?page_size=2&page_token=old');
    expect(nextPage({ next: 'https://h.example/v2/x?page=2' }, undefined, page)).toBe(
      'https://h.example/v2/x?page=2',
    );
    expect(nextPage({ next: null, next_page_token: 'abc' }, undefined, page)).toBe(
      'https://h.example/v2/x?page_size=2&page_token=abc',
    );
    expect(nextPage({}, '</v2/x?n=1&last=a>; rel="next"', page)).toBe('https://h.example/v2/x?n=1&last=a');
    expect(nextPage({}, '<https://h.example/a>; rel="prev"', page)).toBeUndefined();
    expect(nextPage({ next: '' }, undefined, page)).toBeUndefined();
  });

  it('property: a next page is undefined or a URL (any Link header, any body)', () => {
    fc.assert(
      fc.property(fc.string(), fc.jsonValue(), (link, body) => {
        let next: string | undefined;
        try {
          next = nextPage(body, link, new URL('https://h.example/v2/x'));
        } catch (err) {
          // A malformed link: an unexpected answer (exit 7), never a TypeError.
          expect(err).toBeInstanceOf(UnexpectedAnswerError);
          return;
        }
        if (next !== undefined) expect(() => new URL(next)).not.toThrow();
      }),
    );
  });
});

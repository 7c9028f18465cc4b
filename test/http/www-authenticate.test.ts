import { describe, expect, it } from 'vitest';
import { bearerChallenge, parseWwwAuthenticate } from '../../src/http/www-authenticate.js';

describe('WWW-Authenticate', () => {
  it('parses the registry bearer challenge with every parameter', () => {
    expect(
      parseWwwAuthenticate(
        'Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/alpine:pull",error="insufficient_scope"',
      ),
    ).toEqual([
      {
        scheme: 'Bearer',
        params: {
          realm: 'https://auth.docker.io/token',
          service: 'registry.docker.io',
          scope: 'repository:library/alpine:pull',
          error: 'insufficient_scope',
        },
      },
    ]);
  });

  it('reads several challenges, unquoted values, escapes, odd spacing and case', () => {
    expect(parseWwwAuthenticate('Basic realm="Registry Realm", bearer Realm=x , Service = "a\\"b"')).toEqual([
      { scheme: 'Basic', params: { realm: 'Registry Realm' } },
      { scheme: 'Bearer', params: { realm: 'x', service: 'a"b' } },
    ]);
    expect(
      parseWwwAuthenticate('Bearer realm="https://a/t",scope="repository:x:pull,push"')[0]?.params.scope,
    ).toBe('repository:x:pull,push');
  });

  it('answers nothing for a missing header, and finds the bearer challenge among others', () => {
    expect(parseWwwAuthenticate(undefined)).toEqual([]);
    expect(parseWwwAuthenticate('')).toEqual([]);
    expect(bearerChallenge('Basic realm="r"')).toBeUndefined();
    expect(bearerChallenge('Basic realm="r", Bearer realm="https://t",service="s"')).toEqual({
      realm: 'https://t',
      service: 's',
    });
  });
});

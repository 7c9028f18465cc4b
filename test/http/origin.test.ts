import { describe, expect, it } from 'vitest';
import { UnexpectedAnswerError, UsageError } from '../../src/errors.js';
import {
  assertSecureCredentialOrigin,
  credentialApplies,
  isLoopbackHost,
  isSecureOrigin,
  tokenRealmUrl,
} from '../../src/http/origin.js';

describe('origins', () => {
  it.each([
    ['http://127.0.0.1:5000/', true],
    ['http://127.255.0.9/', true],
    ['http://0x7f.1/', true], // the WHATWG parser reads it as 127.0.0.1
    ['http://localhost:8080/', true],
    ['http://[::1]:5000/', true],
    ['http://localhost.evil.test/', false],
    ['http://127.0.0.1.nip.io/', false],
    ['http://10.0.0.1/', false],
    ['http://[::ffff:a00:1]/', false],
  ])('%s is loopback: %s', (url, loopback) => {
    expect(isLoopbackHost(new URL(url).hostname)).toBe(loopback);
    expect(isSecureOrigin(new URL(url))).toBe(loopback);
  });

  it('https is secure anywhere; a credential applies to its exact origin only', () => {
    expect(isSecureOrigin(new URL('https://hub.docker.com/'))).toBe(true);
    const cred = { origin: 'https://hub.docker.com', authorization: 'Bearer x' };
    expect(credentialApplies(cred, new URL('https://hub.docker.com:443/v2/'))).toBe(true);
    for (const other of [
      'http://hub.docker.com/',
      'https://hub.docker.com:444/',
      'https://auth.docker.io/',
    ]) {
      expect(credentialApplies(cred, new URL(other))).toBe(false);
    }
  });
});

describe('a credential origin found secure (remembered across requests)', () => {
  it('is remembered for that origin only: the same host over plain HTTP, or another port or host, is judged afresh', () => {
    const auth = { authorization: 'Bearer hub_oat_x' };
    for (let i = 0; i < 3; i++)
      assertSecureCredentialOrigin({ origin: 'https://audit.example.com', ...auth });
    expect(() => assertSecureCredentialOrigin({ origin: 'http://audit.example.com', ...auth })).toThrow(
      UsageError,
    );
    expect(() => assertSecureCredentialOrigin({ origin: 'http://audit.example.com:443', ...auth })).toThrow(
      UsageError,
    );
    assertSecureCredentialOrigin({ origin: 'http://127.0.0.1:8080', ...auth });
    expect(() => assertSecureCredentialOrigin({ origin: 'http://127.0.0.1.example.com', ...auth })).toThrow(
      UsageError,
    );
    // many secure origins, then a plain one: still refused
    for (let i = 0; i < 100; i++)
      assertSecureCredentialOrigin({ origin: `https://h${i}.example.com`, ...auth });
    expect(() => assertSecureCredentialOrigin({ origin: 'http://h1.example.com', ...auth })).toThrow(
      UsageError,
    );
    // the credential stays at its origin on every request, whatever was remembered
    expect(
      credentialApplies(
        { origin: 'https://audit.example.com', ...auth },
        new URL('https://audit.example.com/v2'),
      ),
    ).toBe(true);
    expect(
      credentialApplies({ origin: 'https://audit.example.com', ...auth }, new URL('https://evil.example/v2')),
    ).toBe(false);
  });
});

describe('token realms', () => {
  const realm = (r: string, registry: string, withCredential = true) =>
    tokenRealmUrl(r, registry, { registry: new URL(registry).host, withCredential }).toString();

  it('https anywhere gets the credential, as the docker CLI sends it', () => {
    expect(realm('https://auth.docker.io/token', 'https://registry-1.docker.io')).toBe(
      'https://auth.docker.io/token',
    );
    expect(realm('https://auth.example/token', 'http://127.0.0.1:5000')).toBe('https://auth.example/token');
  });

  it('plain http only when realm and registry are both on loopback', () => {
    expect(realm('http://127.0.0.1:9/token', 'http://localhost:5000')).toBe('http://127.0.0.1:9/token');
    for (const [r, reg] of [
      ['http://auth.example/token', 'https://registry.example'],
      ['http://127.0.0.1:9/token', 'https://registry.example'],
      ['http://auth.example/token', 'http://127.0.0.1:5000'],
    ] as const) {
      expect(() => realm(r, reg)).toThrow(UnexpectedAnswerError);
      expect(() => realm(r, reg)).toThrow(/plain HTTP on another machine/);
      expect(realm(r, reg, false)).toBe(r); // an anonymous token may come from anywhere
    }
  });

  it.each([
    ['not a url', /is not a URL/],
    ['ftp://auth.example/token', /is not an http\(s\) URL \(ftp:\)/],
    ['https://user:pw@auth.example/token', /carries a user name or password/],
  ])('refuses %s', (r, message) => {
    expect(() => realm(r, 'https://registry.example', false)).toThrow(message);
  });
});

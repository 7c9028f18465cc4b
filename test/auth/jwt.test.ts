import { describe, expect, it } from 'vitest';
import { decodeJwt, jwtExpiry } from '../../src/auth/jwt.js';
import { fakeJwt } from './jwt-fixture.js';

describe('jwt', () => {
  it('reads claims and the expiry in ms', () => {
    const token = fakeJwt({ sub: 'alice', exp: 1_800_000_000 });
    expect(decodeJwt(token)).toEqual({ sub: 'alice', exp: 1_800_000_000 });
    expect(jwtExpiry(token)).toBe(1_800_000_000_000);
  });

  it('answers undefined for tokens that are not JWTs or carry no exp', () => {
    expect(decodeJwt('opaque-token')).toBeUndefined();
    expect(decodeJwt('a.b')).toBeUndefined();
    expect(decodeJwt('a.!!!.c')).toBeUndefined();
    expect(decodeJwt(`x.${Buffer.from('"str"').toString('base64url')}.y`)).toBeUndefined();
    expect(jwtExpiry(fakeJwt({ sub: 'a' }))).toBeUndefined();
    expect(jwtExpiry(fakeJwt({ exp: '1800000000' }))).toBeUndefined();
  });
});

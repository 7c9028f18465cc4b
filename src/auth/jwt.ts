// Reads a JWT's claims without verifying it: hubctl only needs `exp` and `sub` to cache and show it.

/** A hub token goes into an Authorization header and into the cache: printable ASCII, bounded. */
export const TOKEN_TEXT = /^[\x21-\x7e]{1,16384}$/;

export interface JwtClaims {
  sub?: string;
  exp?: number;
  iat?: number;
  [claim: string]: unknown;
}

export function decodeJwt(token: string): JwtClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as unknown;
    return claims && typeof claims === 'object' ? (claims as JwtClaims) : undefined;
  } catch {
    return undefined;
  }
}

/** When a JWT stops being usable, in ms since the epoch; undefined when it carries no `exp`. */
export function jwtExpiry(token: string): number | undefined {
  const exp = decodeJwt(token)?.exp;
  return typeof exp === 'number' ? exp * 1000 : undefined;
}

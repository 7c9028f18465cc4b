// Unsigned JWTs with chosen claims: hubctl only reads them.
export function fakeJwt(claims: Record<string, unknown>): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${part({ alg: 'ES256', typ: 'JWT' })}.${part(claims)}.${Buffer.from('signature-bytes').toString('base64url')}`;
}

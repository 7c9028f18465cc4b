import { verify, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { call } from './client.js';

let hub: HubEmulator;
beforeAll(async () => {
  hub = await startHubEmulator();
});
afterAll(async () => {
  await hub.close();
});
afterEach(() => hub.setRegistryTokenLifetime(300));

const basic = (u: string, p: string) => ({
  authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`,
});
function tokenUrl(...scopes: string[]): string {
  const q = new URLSearchParams({ service: hub.registryAuth.service });
  for (const s of scopes) q.append('scope', s);
  return `${hub.registryAuth.realm}?${q}`;
}

describe('GET /registry/token', () => {
  it('exposes the registry auth settings with a PEM certificate on disk', () => {
    expect(hub.registryAuth.realm).toBe(`${hub.url}/registry/token`);
    expect(readFileSync(hub.registryAuth.certPath, 'utf8')).toContain('BEGIN CERTIFICATE');
  });

  it('issues a JWT distribution accepts: x5c header, single-string aud, raw r||s ES256 signature', async () => {
    const r = await call(tokenUrl('repository:t/app:pull,push'), {
      headers: basic('alice', 'alice-password'),
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      token: expect.any(String),
      access_token: r.json.token,
      expires_in: 300,
      issued_at: expect.stringMatching(/Z$/),
    });
    const { header, claims } = decodeJwt(r.json.token);
    const cert = new X509Certificate(readFileSync(hub.registryAuth.certPath));
    expect(header).toEqual({ typ: 'JWT', alg: 'ES256', x5c: [cert.raw.toString('base64')] });
    expect((header.x5c as string[])[0]).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(claims).toEqual({
      iss: hub.registryAuth.issuer,
      sub: 'alice',
      aud: hub.registryAuth.service,
      exp: (claims.iat as number) + 300,
      nbf: expect.any(Number),
      iat: expect.any(Number),
      jti: expect.any(String),
      access: [{ type: 'repository', name: 't/app', actions: ['pull', 'push'] }],
    });
    const [h, c, s] = r.json.token.split('.');
    const sig = Buffer.from(s, 'base64url');
    expect(sig).toHaveLength(64);
    const ok = verify(
      'sha256',
      Buffer.from(`${h}.${c}`),
      { key: cert.publicKey, dsaEncoding: 'ieee-p1363' },
      sig,
    );
    expect(ok).toBe(true);
  });

  it('grants anonymous callers pull only, per scope', async () => {
    const r = await call(tokenUrl('repository:t/app:pull,push,delete', 'repository:other:push'));
    expect(r.status).toBe(200);
    expect(decodeJwt(r.json.token).claims).toMatchObject({
      sub: '',
      access: [
        { type: 'repository', name: 't/app', actions: ['pull'] },
        { type: 'repository', name: 'other', actions: [] },
      ],
    });
  });

  it('grants by PAT scope: repo:read pulls, repo:write pushes, repo:admin deletes', async () => {
    const cases = [
      ['repo:read', ['pull']],
      ['repo:write', ['pull', 'push']],
      ['repo:admin', ['pull', 'push', 'delete']],
    ] as const;
    for (const [scope, actions] of cases) {
      const pat = hub.createPat('alice', { scopes: [scope] });
      const r = await call(tokenUrl('repository:t/app:pull,push,delete'), { headers: basic('alice', pat) });
      expect(r.status).toBe(200);
      expect(decodeJwt(r.json.token).claims.access).toEqual([{ type: 'repository', name: 't/app', actions }]);
    }
  });

  it('answers 401 for wrong credentials and 400 for another service or a malformed scope', async () => {
    const bad = await call(tokenUrl('repository:t/app:pull'), { headers: basic('alice', 'wrong') });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect((await call(tokenUrl('repository:t/app:pull'), { headers: basic('mallory', 'x') })).status).toBe(
      401,
    );
    expect((await call(`${hub.registryAuth.realm}?service=elsewhere&scope=repository:a:pull`)).status).toBe(
      400,
    );
    expect((await call(tokenUrl('nonsense'))).status).toBe(400);
  });

  it('issues tokens with the lifetime set at run time, negative included', async () => {
    hub.setRegistryTokenLifetime(-61);
    const r = await call(tokenUrl('repository:t/app:pull'));
    expect(r.json.expires_in).toBe(-61);
    const { claims } = decodeJwt(r.json.token);
    expect(claims.exp).toBe((claims.iat as number) - 61);
  });

  it('refuses anonymous callers when configured so', async () => {
    const h2 = await startHubEmulator({
      registryAnonymous: 'none',
      registryService: 'svc',
      registryIssuer: 'iss',
    });
    try {
      const r = await call(`${h2.registryAuth.realm}?service=svc&scope=repository:a:pull`);
      expect(r.status).toBe(401);
      const ok = await call(`${h2.registryAuth.realm}?service=svc&scope=repository:a:pull`, {
        headers: basic('bob', 'bob-password'),
      });
      expect(decodeJwt(ok.json.token).claims).toMatchObject({ iss: 'iss', aud: 'svc', sub: 'bob' });
    } finally {
      await h2.close();
    }
  });
});

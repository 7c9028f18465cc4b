// bench/token-service.mjs — the registry token service the registry benches share: ES256 JWTs
// (distribution's token auth) for one user, signed by an EC key and certificate that openssl makes
// in `dir`. It runs in the bench's own process, so its CPU is no client's.
import { execFileSync } from 'node:child_process';
import { createPrivateKey, randomBytes, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const b64url = (x) => Buffer.from(x).toString('base64url');

/**
 * Starts the service on 127.0.0.1. `anonymous` answers a request without credentials with a token
 * that grants nothing (as Docker Hub's does); otherwise it gets 401. Returns the address, the
 * certificate's path (the registries' `rootcertbundle`) and `stop`.
 */
export async function startTokenService({ dir, user, password, service, issuer, anonymous = false }) {
  const keyPath = join(dir, 'token.key');
  const cert = join(dir, 'token.crt');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'].concat([
      '-keyout',
      keyPath,
      '-out',
      cert,
      '-days',
      '30',
      '-subj',
      '/CN=bench',
    ]),
    { stdio: 'ignore' },
  );
  const key = createPrivateKey(readFileSync(keyPath, 'utf8'));
  const der = readFileSync(cert, 'utf8')
    .replace(/-----[^-]+-----/g, '')
    .replace(/\s+/g, '');
  const basic = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const server = createServer((req, res) => {
    const given = req.headers.authorization;
    const granted = given === basic;
    if (!granted && !(anonymous && !given)) {
      res.writeHead(401);
      return res.end();
    }
    const url = new URL(req.url, 'http://x');
    const access = url.searchParams.getAll('scope').map((scope) => {
      const [type, name, actions] = scope.split(':');
      return { type, name, actions: granted ? actions.split(',') : [] };
    });
    const now = Math.floor(Date.now() / 1000);
    const header = b64url(JSON.stringify({ typ: 'JWT', alg: 'ES256', x5c: [der] }));
    const claims = b64url(
      JSON.stringify({
        iss: issuer,
        sub: user,
        aud: service,
        exp: now + 600,
        nbf: now - 10,
        iat: now,
        jti: randomBytes(8).toString('hex'),
        access,
      }),
    );
    const sig = sign('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' });
    const token = `${header}.${claims}.${b64url(sig)}`;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ token, access_token: token, expires_in: 600, issued_at: new Date().toISOString() }),
    );
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: `127.0.0.1:${server.address().port}`,
    cert,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

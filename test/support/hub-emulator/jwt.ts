// Key material and compact JWS (ES256) for the hub emulator. The key pair and a self-signed
// certificate are made with the openssl CLI, because the real registry (distribution 2.8) needs the
// certificate as its `rootcertbundle` and in every registry token's `x5c` header.
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  verify,
  X509Certificate,
} from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeEcCertificate } from '../certificate.js';
import { reapDirectory } from '../reaper.js';

export interface SigningMaterial {
  /** Temporary directory holding token.key and token.crt; removed by dispose(). */
  dir: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Absent when the openssl CLI is missing (hub JWTs still work; registry tokens do not). */
  cert?: {
    keyPath: string;
    certPath: string;
    /** The certificate's DER in standard base64 with padding (the form `x5c` needs). */
    derBase64: string;
  };
  /** Why there is no certificate. */
  certError?: string;
  dispose(): void;
}

/**
 * An EC P-256 key and a self-signed certificate for it, written by `openssl req -x509`. Without the
 * openssl CLI the key comes from node:crypto and there is no certificate.
 */
export function createSigningMaterial(commonName: string): SigningMaterial {
  const dir = mkdtempSync(join(tmpdir(), 'hub-emulator-'));
  const release = reapDirectory(dir); // removed at exit even when a test forgets close()
  const dispose = () => {
    rmSync(dir, { recursive: true, force: true });
    release();
  };
  const keyPath = join(dir, 'token.key');
  const certPath = join(dir, 'token.crt');
  try {
    makeEcCertificate(keyPath, certPath, { commonName, days: 3650 });
  } catch (err) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return {
      dir,
      privateKey,
      publicKey,
      certError: `the openssl CLI could not make a certificate (${String(err).split('\n')[0]})`,
      dispose,
    };
  }
  const privateKey = createPrivateKey(readFileSync(keyPath));
  const publicKey = createPublicKey(privateKey);
  const cert = new X509Certificate(readFileSync(certPath));
  return {
    dir,
    privateKey,
    publicKey,
    cert: { keyPath, certPath, derBase64: cert.raw.toString('base64') },
    dispose,
  };
}

const b64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

/** A compact JWS signed with ES256; the signature is raw r‖s as JOSE requires (not DER). */
export function signJwt(
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  key: KeyObject,
): string {
  const input = `${b64url(JSON.stringify({ ...header, alg: 'ES256' }))}.${b64url(JSON.stringify(claims))}`;
  const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${b64url(signature)}`;
}

/** The claims of a JWT signed by `key`, or undefined when it is malformed or the signature is wrong. */
export function verifyJwt(token: string, key: KeyObject): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [h, c, s] = parts as [string, string, string];
  try {
    const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as { alg?: unknown };
    if (header.alg !== 'ES256') return undefined;
    const ok = verify(
      'sha256',
      Buffer.from(`${h}.${c}`),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(s, 'base64url'),
    );
    if (!ok) return undefined;
    const claims = JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as unknown;
    return claims !== null && typeof claims === 'object' && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Decodes a JWT's header and claims without checking anything (for assertions in tests). */
export function decodeJwt(token: string): {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
} {
  const [h = '', c = ''] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>,
    claims: JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as Record<string, unknown>,
  };
}

export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex');

// A self-signed P-256 certificate and key from the openssl CLI, for test servers (HTTPS with
// --ca-file) and token signers (the x5c that distribution checks).
import { execFileSync } from 'node:child_process';

export interface CertificateOptions {
  commonName: string;
  days: number;
  /** An IP address for subjectAltName, so TLS clients accept the certificate for it. */
  ipAddress?: string;
}

/** Writes the key and certificate (PEM); throws when openssl is missing or fails. */
export function makeEcCertificate(keyPath: string, certPath: string, opts: CertificateOptions): void {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      String(opts.days),
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-subj',
      `/CN=${opts.commonName}`,
      ...(opts.ipAddress ? ['-addext', `subjectAltName=IP:${opts.ipAddress}`] : []),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
}

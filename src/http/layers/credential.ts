// Origin binding: a credential goes only to the origin it belongs to (../origin.ts), on every hop
// and every retry; to any other origin the request goes without it. A secret carried in the body
// (no `authorization`) goes to its origin or nowhere, and never follows a redirect.
import { assertSecureCredentialOrigin, type BoundCredential, credentialApplies } from '../origin.js';
import type { Layer } from './exchange.js';

/**
 * Checks a request's credential before anything is sent: its own origin must keep it secret (HTTPS,
 * or plain HTTP on loopback), and a secret in the body may only go to that origin.
 */
export function checkCredential(credential: BoundCredential | undefined, url: URL): void {
  if (!credential) return;
  assertSecureCredentialOrigin(credential);
  if (!credential.authorization && url.origin !== credential.origin) {
    throw new Error(`HttpClient.request: a secret for ${credential.origin} cannot be sent to ${url.origin}`);
  }
}

/** True when the body carries the secret: such a request must not be redirected anywhere. */
export function secretInBody(credential: BoundCredential | undefined): boolean {
  return credential !== undefined && !credential.authorization;
}

export function bindCredential(debug?: (line: string) => void): Layer {
  return (next) => (req) => {
    const cred = req.credential;
    if (!cred?.authorization) return next(req);
    if (!credentialApplies(cred, req.url)) {
      debug?.(`  credential for ${cred.origin} withheld from ${req.url.origin}`);
      return next(req);
    }
    return next({ ...req, headers: { ...req.headers, authorization: cred.authorization } });
  };
}

// The audit API's credential (audit-and-mcp.md §1): an organization access token, sent raw as the
// bearer, never exchanged. The first source with one wins: HUBCTL_AUDIT_TOKEN; the profile's
// stored audit token (`auth login --audit`); the hub credential chain when its secret is an OAT.
// A secret that is plainly not an OAT (a PAT, a JWT, a password) is refused before anything is sent.
import { AuthError } from '../errors.js';
import type { Credential } from './chain.js';

export interface AuditCredential {
  secret: string;
  /** Where it came from, for messages (never the secret). */
  source: string;
}

const OAT = /^(hub|dckr)_oat_[A-Za-z0-9_-]+$/;

export function isOrganizationToken(secret: string): boolean {
  return OAT.test(secret);
}

const NOT_OAT_HINT =
  'Create an organization access token with the "View audit logs" permission and set HUBCTL_AUDIT_TOKEN, or store it with `hubctl auth login --audit`.';

function refuse(source: string, secret: string): AuthError {
  const kind = /^(hub|dckr)_pat_/.test(secret)
    ? 'a personal access token'
    : /^[\w-]+\.[\w-]+\.[\w-]+$/.test(secret)
      ? 'a JWT'
      : 'not an organization access token';
  return new AuthError(
    `the audit log needs an organization access token with the "View audit logs" permission; the secret of ${source} is ${kind}`,
    { hint: NOT_OAT_HINT },
  );
}

export async function resolveAuditCredential(deps: {
  env: Record<string, string | undefined>;
  /** The profile's stored audit token, if any. */
  stored: () => Promise<AuditCredential | undefined>;
  /** The hub credential chain's first credential. */
  hub: () => Promise<Credential | undefined>;
}): Promise<AuditCredential> {
  const fromEnv = deps.env.HUBCTL_AUDIT_TOKEN;
  if (fromEnv) {
    const source = 'HUBCTL_AUDIT_TOKEN';
    if (!isOrganizationToken(fromEnv)) throw refuse(source, fromEnv);
    return { secret: fromEnv, source };
  }
  const stored = await deps.stored();
  if (stored) {
    if (!isOrganizationToken(stored.secret)) throw refuse(stored.source, stored.secret);
    return stored;
  }
  const hub = await deps.hub();
  if (hub) {
    if (!isOrganizationToken(hub.secret)) throw refuse(hub.source, hub.secret);
    return { secret: hub.secret, source: hub.source };
  }
  throw new AuthError('no organization access token for the audit log', { hint: NOT_OAT_HINT });
}

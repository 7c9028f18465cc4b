// Who may do what: the hub token exchange (password, PAT, organization token → JWT), the bearer
// check of every hub and governance route, and the credentials the registry token service takes.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { microsIso } from './access-tokens.js';
import type { Caller } from './governance.js';
import { hubError, isRecord, send } from './http.js';
import { randomHex, type SigningMaterial, signJwt, verifyJwt } from './jwt.js';
import type { RegistryAction } from './registry-token.js';
import type { AccessTokenRecord, EmulatorUser, HubState } from './state.js';

/** The claim that says how a hub JWT was obtained: `password`, `pat` or `oat`. */
export const TOKEN_SOURCE_CLAIM = 'token_source';
/** The claim that binds a JWT to the secret it was exchanged from (a hash, never the secret). */
const SECRET_CLAIM = 'secret_hash';

const secretHash = (secret: string): string => createHash('sha256').update(secret).digest('base64url');

export interface CredentialSettings {
  tokenField: 'access_token' | 'token';
  /** Seconds. */
  jwtLifetime: number;
  /** Bumped to invalidate every JWT issued before. */
  epoch: number;
}

export interface Credentials {
  /** `secret`, when given, binds the JWT to it: the JWT stops working when the secret does. */
  issueJwt(sub: string, source: Caller['source'], patUuid?: string, secret?: string): string;
  /** Who a bearer JWT belongs to, or undefined when it is missing, forged, expired or revoked. */
  bearerCaller(req: IncomingMessage): Caller | undefined;
  /** POST /v2/auth/token. */
  exchange(res: ServerResponse, json: unknown): undefined;
  registryCredentials(
    username: string,
    secret: string,
  ): { sub: string; actions: RegistryAction[] } | undefined;
}

export function createCredentials(deps: {
  state: HubState;
  material: SigningMaterial;
  clock: () => number;
  settings: CredentialSettings;
}): Credentials {
  const { state, material, clock, settings } = deps;

  const findUser = (name: string): EmulatorUser | undefined =>
    state.users.get(name) ?? state.users.get(name.toLowerCase());

  function usablePat(username: string, secret: string): AccessTokenRecord | undefined {
    const pat = state.accessTokens.find(
      (t) =>
        t.owner === username &&
        t.token === secret &&
        t.is_active &&
        (t.expires_at === null || Date.parse(t.expires_at) > clock()),
    );
    if (pat) pat.last_used = microsIso(clock());
    return pat;
  }

  function issueJwt(sub: string, source: Caller['source'], patUuid?: string, secret?: string): string {
    const now = Math.floor(clock() / 1000);
    return signJwt(
      { typ: 'JWT' },
      {
        iss: 'hub-emulator',
        sub,
        username: sub,
        iat: now,
        exp: now + settings.jwtLifetime,
        jti: randomHex(12),
        [TOKEN_SOURCE_CLAIM]: source,
        ...(patUuid ? { pat_uuid: patUuid } : {}),
        ...(secret === undefined ? {} : { [SECRET_CLAIM]: secretHash(secret) }),
        epoch: settings.epoch,
      },
      material.privateKey,
    );
  }

  /**
   * As a real hub revokes: a JWT exchanged from a password dies when the password changes, one from
   * an access token when the token is deleted or deactivated, one from an organization token when
   * the token is removed. (JWTs a test issues directly carry no binding and are not checked.)
   */
  function secretStillHolds(claims: Record<string, unknown>, source: Caller['source']): boolean {
    const bound = claims[SECRET_CLAIM];
    if (typeof claims.pat_uuid === 'string') {
      const pat = state.accessTokens.find((t) => t.uuid === claims.pat_uuid);
      if (!pat?.is_active) return false;
    }
    if (typeof bound !== 'string') return true;
    const sub = String(claims.sub);
    if (source === 'password') {
      const user = findUser(sub);
      return user !== undefined && secretHash(user.password) === bound;
    }
    if (source === 'pat') return true; // the pat_uuid check above
    const org = state.orgs.get(sub);
    return org?.oats.some((o) => secretHash(o) === bound) ?? false;
  }

  return {
    issueJwt,

    bearerCaller(req) {
      const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
      if (!m?.[1]) return undefined;
      const claims = verifyJwt(m[1], material.publicKey);
      if (!claims) return undefined;
      if (typeof claims.exp !== 'number' || claims.exp <= Math.floor(clock() / 1000)) return undefined;
      if (claims.epoch !== settings.epoch || typeof claims.sub !== 'string') return undefined;
      const source = claims[TOKEN_SOURCE_CLAIM];
      if (source !== 'password' && source !== 'pat' && source !== 'oat') return undefined;
      if (!secretStillHolds(claims, source)) return undefined;
      return { sub: claims.sub, source };
    },

    exchange(res, json) {
      if (!isRecord(json)) return hubError(res, 400, 'a JSON request body is required');
      const id = json.identifier ?? json.username;
      // decisions §2: the secret may come as `password`, as `secret`, or as both
      const secrets = [json.password, json.secret].filter(
        (s): s is string => typeof s === 'string' && s !== '',
      );
      if (typeof id !== 'string' || id === '' || secrets.length === 0) {
        return hubError(res, 400, 'identifier and password (or secret) are required');
      }
      const user = findUser(id);
      const org = state.orgs.get(id) ?? state.orgs.get(id.toLowerCase());
      for (const secret of secrets) {
        let jwt: string | undefined;
        if (user && secret === user.password) jwt = issueJwt(user.username, 'password', undefined, secret);
        const pat = !jwt && user ? usablePat(user.username, secret) : undefined;
        if (user && pat) jwt = issueJwt(user.username, 'pat', pat.uuid, secret);
        if (!jwt && org?.oats.includes(secret)) jwt = issueJwt(org.name, 'oat', undefined, secret);
        if (jwt) return send(res, 200, { [settings.tokenField]: jwt });
      }
      return hubError(res, 401, 'Incorrect authentication credentials');
    },

    registryCredentials(username, secret) {
      const user = findUser(username);
      if (user && secret === user.password)
        return { sub: user.username, actions: ['pull', 'push', 'delete'] };
      const pat = user ? usablePat(user.username, secret) : undefined;
      if (user && pat) {
        // a PAT grants what its scopes allow
        if (pat.scopes.includes('repo:admin'))
          return { sub: user.username, actions: ['pull', 'push', 'delete'] };
        if (pat.scopes.includes('repo:write')) return { sub: user.username, actions: ['pull', 'push'] };
        return { sub: user.username, actions: ['pull'] };
      }
      const org = state.orgs.get(username) ?? state.orgs.get(username.toLowerCase());
      if (org?.oats.includes(secret)) return { sub: org.name, actions: ['pull', 'push', 'delete'] };
      return undefined;
    },
  };
}

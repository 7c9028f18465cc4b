// The hub session: exchanges the secret for a short-lived JWT, caches it until 30 s before `exp`
// (the injected clock decides), and repeats a call once with a fresh JWT after a 401.
import { readAnswer } from '../api/answer.js';
import { TokenExchangeAnswer } from '../api/schemas.js';
import type { Clock } from '../clock.js';
import { ApiError, AuthError } from '../errors.js';
import type { HttpClient, HttpRequestOptions, HttpResponse } from '../http/client.js';
import type { Credential } from './chain.js';
import { jwtExpiry } from './jwt.js';
import type { JwtCache } from './jwt-cache.js';

export const EXPIRY_MARGIN_MS = 30_000;
/** Used when a JWT carries no `exp`: short, so a stale token is not kept for long. */
const DEFAULT_LIFETIME_MS = 5 * 60_000;

export interface HubSession {
  /** A valid JWT, exchanged now or taken from the cache. */
  jwt(): Promise<string>;
  /** The credential the session exchanges (throws AuthError when there is none). */
  credential(): Promise<Credential>;
  /** When the cached JWT expires (ms since epoch), if one is cached. */
  expiresAt(): number | undefined;
  /** Whether the JWT in use was read from the cache between runs rather than exchanged now. */
  fromCache(): boolean;
  /** A request with `Authorization: Bearer <jwt>`, repeated once with a new JWT after a 401. */
  request(options: HttpRequestOptions): Promise<HttpResponse>;
}

export interface HubSessionDeps {
  http: HttpClient;
  clock: Clock;
  baseUrl: string;
  /**
   * Other origins the user named for the same hub account (an explicit --governance-url): the JWT
   * goes to those and to the base URL's origin, nowhere else.
   */
  alsoTrusted?: readonly string[];
  credential: () => Promise<Credential | undefined>;
  /**
   * Keeps JWTs between runs, each found only by the secret it was exchanged from (a 401 drops the
   * stored one); absent, they live as long as the process.
   */
  cache?: JwtCache;
}

/** POST {base_url}/v2/auth/token; the secret goes as `password` and `secret` (decisions §2). */
export async function exchangeToken(
  http: HttpClient,
  baseUrl: string,
  credential: Credential,
): Promise<string> {
  let res: HttpResponse;
  try {
    res = await http.request({
      method: 'POST',
      url: `${baseUrl}/v2/auth/token`,
      json: { identifier: credential.username, password: credential.secret, secret: credential.secret },
      // The secret is in the body: it goes to the hub's own origin, over HTTPS (or loopback), or nowhere.
      credential: { origin: new URL(baseUrl).origin },
      what: `signing in as ${credential.username}`,
    });
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      throw new AuthError(`the hub refused the credential of ${credential.username} (${credential.source})`, {
        hint: 'Check the account name and the password or access token; `hubctl auth login` stores a new one.',
        cause: err,
      });
    }
    throw err;
  }
  return readAnswer(res, TokenExchangeAnswer, `signing in as ${credential.username}`);
}

export function createHubSession(deps: HubSessionDeps): HubSession {
  let cached: { jwt: string; expiresAt: number; account: string; fromCache: boolean } | undefined;
  let pending: Promise<string> | undefined;

  // Looked up once a run (a credential helper runs once), found or not; a failed lookup is not kept.
  let lookup: Promise<Credential | undefined> | undefined;
  const lookUp = () => {
    lookup ??= deps.credential();
    lookup.catch(() => {
      lookup = undefined;
    });
    return lookup;
  };

  async function credential(): Promise<Credential> {
    const cred = await lookUp();
    if (!cred) {
      throw new AuthError('you are not logged in', {
        hint: 'Run `hubctl auth login`, or set HUBCTL_USERNAME and HUBCTL_TOKEN.',
      });
    }
    return cred;
  }

  const usable = (expiresAt: number) => deps.clock.now() < expiresAt - EXPIRY_MARGIN_MS;

  async function stored(): Promise<string | undefined> {
    if (!deps.cache) return undefined;
    // The secret itself (a helper is asked for it): the cache finds a JWT by its keyed hash only,
    // so a changed secret is never answered with the old one's JWT.
    const who = await lookUp();
    if (!who) return undefined;
    const entry = await deps.cache.get(who);
    if (!entry || !usable(entry.expiresAt)) return undefined;
    cached = { jwt: entry.jwt, expiresAt: entry.expiresAt, account: who.username, fromCache: true };
    return entry.jwt;
  }

  async function exchange(): Promise<string> {
    const cred = await credential();
    const jwt = await exchangeToken(deps.http, deps.baseUrl, cred);
    const expiresAt = jwtExpiry(jwt) ?? deps.clock.now() + DEFAULT_LIFETIME_MS;
    cached = { jwt, expiresAt, account: cred.username, fromCache: false };
    await deps.cache?.put(cred, { jwt, expiresAt });
    return jwt;
  }

  const settle = (p: Promise<string>) =>
    p.finally(() => {
      pending = undefined;
    });

  async function jwt(): Promise<string> {
    if (cached && usable(cached.expiresAt)) return cached.jwt;
    pending ??= settle(stored().then((jwt) => jwt ?? exchange()));
    return pending;
  }

  const trusted = [new URL(deps.baseUrl).origin, ...(deps.alsoTrusted ?? [])];
  async function request(options: HttpRequestOptions): Promise<HttpResponse> {
    // Bound to the request's origin when the account belongs there, else to the hub's: the HTTP
    // layer then withholds it from any other origin.
    const target = new URL(String(options.url)).origin;
    const origin = trusted.includes(target) ? target : (trusted[0] as string);
    const send = async (token: string) =>
      deps.http.request({ ...options, credential: { origin, authorization: `Bearer ${token}` } });
    const first = await jwt();
    try {
      return await send(first);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
    }
    // The JWT was refused before its time: exchange once more and repeat the call once.
    if (cached?.jwt === first) {
      const refused = cached;
      cached = undefined;
      if (refused.fromCache) await deps.cache?.drop(refused.account);
      // An exchange must follow, not another read of the same stored JWT.
      pending = settle(exchange());
    }
    try {
      return await send(await jwt());
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        throw new AuthError(`${err.message} (the hub refused a freshly issued token)`, {
          hint: 'Run `hubctl auth login` again.',
          cause: err,
        });
      }
      throw err;
    }
  }

  return {
    jwt,
    credential,
    expiresAt: () => cached?.expiresAt,
    fromCache: () => cached?.fromCache ?? false,
    request,
  };
}

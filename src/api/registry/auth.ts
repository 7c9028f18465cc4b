// Registry authentication: the registry's challenge (ping /v2/) names the token service; tokens
// are fetched with scope=repository:<name>:<actions> (Basic credentials from the chain when it has
// some) and cached per registry and scope until expires_in, through the injected clock.

import type { Clock } from '../../clock.js';
import { AuthError, NetworkError, UsageError } from '../../errors.js';
import { MAX_ERROR_BYTES } from '../../http/body.js';
import type { HttpClient } from '../../http/client.js';
import { isSecureOrigin, tokenRealmUrl } from '../../http/origin.js';
import { parseWwwAuthenticate } from '../../http/www-authenticate.js';
import { readAnswer } from '../answer.js';
import { RegistryTokenAnswer } from './answers.js';

export interface RegistryCredential {
  username: string;
  secret: string;
  /** `secret` is an OAuth2 refresh token (a docker identity token): POSTed as a grant, never as a password. */
  identityToken?: boolean;
}

/** Looks a credential up for a registry as written in references (`docker.io`, `host:5000`). */
export type RegistryCredentialLookup = (registry: string) => Promise<RegistryCredential | undefined>;

export type RegistryChallenge =
  | { kind: 'none' }
  | { kind: 'basic' }
  | { kind: 'bearer'; realm: string; service?: string; scope?: string; error?: string };

interface CachedToken {
  token: string;
  expiresAt: number;
}

/** Default token lifetime when the token service does not say (the distribution spec's 60 s). */
const DEFAULT_EXPIRES_IN = 60;
/** Tokens are renewed this long before they expire, so a request never starts with a dying one. */
const EXPIRY_MARGIN_MS = 5_000;

export function readChallenge(header: string | undefined): RegistryChallenge | undefined {
  const challenges = parseWwwAuthenticate(header);
  const bearer = challenges.find((c) => c.scheme === 'Bearer');
  if (bearer?.params.realm) {
    return {
      kind: 'bearer',
      realm: bearer.params.realm,
      service: bearer.params.service,
      scope: bearer.params.scope,
      error: bearer.params.error,
    };
  }
  if (challenges.some((c) => c.scheme.toLowerCase() === 'basic')) return { kind: 'basic' };
  return undefined;
}

export function scopeFor(repository: string, actions: readonly string[]): string {
  return `repository:${repository}:${actions.join(',')}`;
}

export class RegistryAuth {
  private readonly challenges = new Map<string, RegistryChallenge>();
  private readonly tokens = new Map<string, CachedToken>();
  private readonly pending = new Map<string, Promise<string | undefined>>();
  private readonly pings = new Map<string, Promise<RegistryChallenge>>();
  /**
   * Each registry's credential, looked up once: a registry that asks for Basic is sent it with every
   * request, and the chain may read files or run a credential helper each time it is asked.
   */
  private readonly creds = new Map<string, Promise<RegistryCredential | undefined>>();

  constructor(
    private readonly http: HttpClient,
    private readonly clock: Clock,
    private readonly credentials: RegistryCredentialLookup,
    private readonly signal?: AbortSignal,
  ) {}

  /**
   * Pings `/v2/` once per registry to learn how it authenticates. Requests that start together
   * (the blobs of a transfer) share the one ping in flight.
   */
  async challengeFor(
    registry: string,
    baseUrl: string,
    /** null: not cancellable (requests sent while cleaning up after Ctrl-C). */
    signal: AbortSignal | null | undefined = this.signal,
  ): Promise<RegistryChallenge> {
    const known = this.challenges.get(registry);
    if (known) return known;
    // A clean-up request (signal null) never waits on a ping that Ctrl-C may cancel.
    const key = `${signal === null ? 'uncancellable ' : ''}${registry}`;
    let inflight = this.pings.get(key);
    if (!inflight) {
      inflight = this.ping(registry, baseUrl, signal).finally(() => this.pings.delete(key));
      this.pings.set(key, inflight);
    }
    return inflight;
  }

  private async ping(
    registry: string,
    baseUrl: string,
    signal: AbortSignal | null | undefined,
  ): Promise<RegistryChallenge> {
    const res = await this.http.request({
      url: `${baseUrl}/v2/`,
      okStatuses: 'any',
      signal: signal ?? undefined,
      what: `contacting the registry ${registry}`,
    });
    await res.dump().catch(() => undefined);
    let challenge: RegistryChallenge;
    if (res.status === 401) {
      challenge = readChallenge(res.headers['www-authenticate']) ?? { kind: 'basic' };
    } else if (res.status >= 200 && res.status < 300) {
      challenge = { kind: 'none' };
    } else if (res.status === 404) {
      throw new NetworkError(`${baseUrl} does not serve the registry API (GET /v2/ answered 404)`);
    } else {
      // Some registries refuse the ping but authenticate repository paths: learn from those.
      challenge = { kind: 'none' };
    }
    this.challenges.set(registry, challenge);
    return challenge;
  }

  /** Records a challenge seen on a 401; answers whether a retry may help. */
  learn(registry: string, header: string | undefined): RegistryChallenge | undefined {
    const challenge = readChallenge(header);
    if (challenge) this.challenges.set(registry, challenge);
    return challenge;
  }

  /** Forgets the cached tokens of these scopes (after a 401). */
  invalidate(registry: string, scopes: readonly string[]): void {
    this.tokens.delete(tokenKey(registry, scopes));
    this.creds.delete(registry);
  }

  /** The Authorization header value for these scopes, or undefined when the registry needs none. */
  async authorization(
    registry: string,
    baseUrl: string,
    scopes: readonly string[],
    signal: AbortSignal | null | undefined = this.signal,
  ): Promise<string | undefined> {
    const challenge = await this.challengeFor(registry, baseUrl, signal);
    if (challenge.kind === 'none') return undefined;
    if (!isSecureOrigin(new URL(baseUrl))) {
      throw new UsageError(
        `the registry ${registry} asks for credentials, and hubctl sends none over plain HTTP to another machine`,
        { hint: `Reach ${registry} over HTTPS (drop it from --plain-http).` },
      );
    }
    if (challenge.kind === 'basic') {
      const cred = await this.credential(registry);
      return cred ? basic(cred) : undefined;
    }
    const key = tokenKey(registry, scopes);
    const cached = this.tokens.get(key);
    if (cached && this.clock.now() < cached.expiresAt) return `Bearer ${cached.token}`;
    let inflight = this.pending.get(key);
    if (!inflight) {
      inflight = this.fetchToken(registry, baseUrl, challenge, scopes, signal).finally(() =>
        this.pending.delete(key),
      );
      this.pending.set(key, inflight);
    }
    const token = await inflight;
    return token ? `Bearer ${token}` : undefined;
  }

  private async fetchToken(
    registry: string,
    baseUrl: string,
    challenge: Extract<RegistryChallenge, { kind: 'bearer' }>,
    scopes: readonly string[],
    signal: AbortSignal | null | undefined,
  ): Promise<string | undefined> {
    const cred = await this.credential(registry);
    const url = tokenRealmUrl(challenge.realm, baseUrl, { registry, withCredential: cred !== undefined });
    if (cred?.identityToken) return this.refreshGrant(registry, url, challenge, scopes, cred, signal);
    if (challenge.service) url.searchParams.set('service', challenge.service);
    for (const scope of scopes) url.searchParams.append('scope', scope);
    if (cred) url.searchParams.set('account', cred.username);
    const res = await this.http.request({
      url,
      ...(cred ? { credential: { origin: url.origin, authorization: basic(cred) } } : {}),
      okStatuses: 'any',
      signal: signal ?? undefined,
      what: `getting a registry token for ${registry}`,
    });
    if (res.status === 401 || res.status === 403) {
      await res.dump().catch(() => undefined);
      throw new AuthError(
        cred
          ? `the token service of ${registry} refused the credentials of ${cred.username}`
          : `the token service of ${registry} requires credentials`,
        { hint: `Run "hubctl auth login ${registry}" to store credentials for this registry.` },
      );
    }
    if (res.status < 200 || res.status >= 300) {
      const text = await res.text(MAX_ERROR_BYTES).catch(() => '');
      throw new NetworkError(
        `getting a registry token for ${registry}: the token service answered ${res.status}${text ? ` (${text.slice(0, 200)})` : ''}`,
      );
    }
    const body = await readAnswer(res, RegistryTokenAnswer, `getting a registry token for ${registry}`);
    return this.keep(registry, scopes, (body.token || body.access_token) as string, body.expires_in);
  }

  /** The chain's credential for `registry`, asked once (a failed lookup is asked again next time). */
  private credential(registry: string): Promise<RegistryCredential | undefined> {
    let found = this.creds.get(registry);
    if (!found) {
      found = this.credentials(registry);
      this.creds.set(registry, found);
      found.catch(() => this.creds.delete(registry));
    }
    return found;
  }

  /** Caches a token for its scopes until shortly before it expires. */
  private keep(
    registry: string,
    scopes: readonly string[],
    token: string,
    expiresIn: number | null | undefined,
  ) {
    const lifetime = typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : DEFAULT_EXPIRES_IN;
    this.tokens.set(tokenKey(registry, scopes), {
      token,
      expiresAt: this.clock.now() + lifetime * 1000 - Math.min(EXPIRY_MARGIN_MS, (lifetime * 1000) / 2),
    });
    return token;
  }

  /**
   * OAuth2 refresh-token grant (the distribution token spec's POST form): a docker identity token is
   * exchanged for an access token at the realm; it travels in the body, never as Basic.
   */
  private async refreshGrant(
    registry: string,
    realm: URL,
    challenge: Extract<RegistryChallenge, { kind: 'bearer' }>,
    scopes: readonly string[],
    cred: RegistryCredential,
    signal: AbortSignal | null | undefined,
  ): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: 'hubctl',
      refresh_token: cred.secret,
    });
    if (challenge.service) form.set('service', challenge.service);
    if (scopes.length > 0) form.set('scope', scopes.join(' '));
    const what = `getting a registry token for ${registry}`;
    const res = await this.http.request({
      method: 'POST',
      url: realm,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      // The body carries the secret: it goes to the realm's origin or nowhere.
      credential: { origin: realm.origin },
      okStatuses: 'any',
      signal: signal ?? undefined,
      what,
    });
    if (res.status === 400 || res.status === 401 || res.status === 403) {
      await res.dump().catch(() => undefined);
      throw new AuthError(
        `the token service of ${registry} refused the identity token (it answered ${res.status})`,
        {
          hint: `Log in to ${registry} again with the docker CLI, or run "hubctl auth login ${registry}".`,
        },
      );
    }
    if (res.status < 200 || res.status >= 300) {
      await res.dump().catch(() => undefined);
      throw new NetworkError(`${what}: the token service answered ${res.status}`);
    }
    const body = await readAnswer(res, RegistryTokenAnswer, what);
    return this.keep(registry, scopes, (body.access_token || body.token) as string, body.expires_in);
  }
}

function tokenKey(registry: string, scopes: readonly string[]): string {
  return `${registry} ${[...scopes].sort().join(' ')}`;
}

function basic(cred: RegistryCredential): string {
  return `Basic ${Buffer.from(`${cred.username}:${cred.secret}`).toString('base64')}`;
}

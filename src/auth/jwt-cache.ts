// The hub JWT kept between runs, so a loop of commands makes one token exchange. Entries live in
// jwt-cache.json (mode 0600) beside the credentials, keyed by profile, account, the hub's full base
// URL (origin and base path: two hubs on one host and port are two hubs) and a keyed hash of the
// secret the JWT was exchanged from: another secret (a changed password, another HUBCTL_TOKEN)
// never finds it. The hash is an HMAC-SHA256 under a random key of its own (jwt-cache.key, 0600),
// so the cache file alone tells nothing about the secret. Each entry repeats its key, and its JWT's
// own subject must be the account: one that does not match, or cannot be read, is dropped. A cache
// file that others could read is not used: it is set back to 0600 and emptied.
// Reading is a plain JSON read (every network command does it); writing goes through the config
// store (atomic, under the file's lock) and only happens after an exchange.
import { createHmac } from 'node:crypto';
import type { CachedJwtEntry } from '../config/store.js';
import { decodeJwt, TOKEN_TEXT } from './jwt.js';

export type { CachedJwtEntry };

/** Who a cached JWT is for: the account, where its secret came from, and the secret (never stored). */
export interface JwtOwner {
  username: string;
  source: string;
  secret: string;
}

export interface JwtCache {
  /** A stored JWT exchanged from exactly this secret, or undefined. Unusable entries are dropped. */
  get(owner: JwtOwner): Promise<CachedJwtEntry | undefined>;
  put(owner: JwtOwner, jwt: { jwt: string; expiresAt: number }): Promise<void>;
  /** Drops every entry of this account at this hub (whatever secret it came from). */
  drop(account: string): Promise<void>;
}

/** What writing needs: the config store's cache methods. */
export interface JwtCacheWriter {
  setCachedJwt(key: string, entry: CachedJwtEntry): void;
  deleteCachedJwts(match: (key: string) => boolean): number;
  /** The HMAC key, made (0600) when there is none or the one there is readable by others. */
  jwtMacKey(): Buffer;
}

/** The cache file as read.ts reads it. */
export interface JwtCacheFile {
  value?: unknown;
  corrupt?: string;
  /** The file was readable by others (it has been set back to 0600): its JWTs are not used. */
  exposed?: boolean;
}

export interface JwtCacheDeps {
  profile: string;
  /** The hub's base URL (scheme, host, port and base path). */
  baseUrl: string;
  read: () => JwtCacheFile;
  /** The HMAC key as read.ts reads it: undefined when there is none (or it is not safe to use). */
  macKey: () => Buffer | undefined;
  writer: () => Promise<JwtCacheWriter>;
  debug: (line: string) => void;
}

/** The base URL as the cache files it: the origin and the path without a final slash. */
export function cacheBaseUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export function jwtCacheKey(profile: string, account: string, baseUrl: string, secretMac: string): string {
  return JSON.stringify([profile, account, baseUrl, secretMac]);
}

function keyParts(key: string): unknown[] | undefined {
  try {
    const parts: unknown = JSON.parse(key);
    return Array.isArray(parts) ? parts : undefined;
  } catch {
    return undefined;
  }
}

/** The profile a cache key belongs to (for `auth logout`), or undefined for a foreign key. */
export function jwtCacheKeyProfile(key: string): string | undefined {
  const parts = keyParts(key);
  return typeof parts?.[0] === 'string' ? parts[0] : undefined;
}

/** HMAC-SHA256 of the secret under the cache's own key, base64url. */
export function secretMac(key: Buffer, secret: string): string {
  return createHmac('sha256', key).update(secret, 'utf8').digest('base64url');
}

/**
 * Whether the JWT names this account as its subject: `sub`, `username`, or Docker Hub's
 * `https://hub.docker.com` claim's `username` (names compared without case, as the hub does).
 */
export function jwtIsFor(jwt: string, account: string): boolean {
  const claims = decodeJwt(jwt);
  if (!claims) return false;
  const hub = claims['https://hub.docker.com'];
  const names = [
    claims.sub,
    claims.username,
    hub && typeof hub === 'object' ? (hub as Record<string, unknown>).username : undefined,
  ];
  const want = account.toLowerCase();
  return names.some((n) => typeof n === 'string' && n.toLowerCase() === want);
}

export function createJwtCache(deps: JwtCacheDeps): JwtCache {
  const { profile } = deps;
  const baseUrl = cacheBaseUrl(deps.baseUrl);
  /** Every key of this account at this hub, this secret's or another's (and keys of older layouts). */
  const accountKeys = (account: string) => (key: string) => {
    const parts = keyParts(key);
    return parts?.[0] === profile && parts[1] === account && (parts[2] === baseUrl || parts.length !== 4);
  };

  async function write(what: string, change: (w: JwtCacheWriter) => void): Promise<void> {
    try {
      change(await deps.writer());
    } catch (err) {
      // The cache only saves an exchange; a run never fails for want of it.
      deps.debug(`the JWT cache could not ${what}: ${(err as Error).message}`);
    }
  }

  const drop = (account: string) => write('be changed', (w) => void w.deleteCachedJwts(accountKeys(account)));

  async function get(owner: JwtOwner): Promise<CachedJwtEntry | undefined> {
    const file = deps.read();
    if (file.exposed) {
      deps.debug('the JWT cache file was readable by others: it is set to 0600 and emptied, not used');
      await write('be emptied', (w) => void w.deleteCachedJwts(() => true));
      return undefined;
    }
    if (file.corrupt !== undefined) {
      // The next exchange writes the file afresh (the store reads an invalid one as empty).
      deps.debug(`the JWT cache file cannot be read (${file.corrupt}); exchanging afresh`);
      return undefined;
    }
    const entries = (file.value as { entries?: unknown } | undefined)?.entries;
    if (!entries || typeof entries !== 'object') return undefined;
    const macKey = deps.macKey();
    if (!macKey) return undefined;
    const mac = secretMac(macKey, owner.secret);
    // Another secret's entry is not found: the key holds this secret's hash.
    const key = jwtCacheKey(profile, owner.username, baseUrl, mac);
    if (!Object.hasOwn(entries, key)) return undefined;
    const entry = (entries as Record<string, unknown>)[key];
    const problem = entryProblem(entry, { profile, account: owner.username, baseUrl, secretMac: mac });
    if (problem) {
      deps.debug(`dropping the cached JWT of ${owner.username} at ${baseUrl}: ${problem}`);
      // The fresh exchange that follows writes over it anyway; dropping first keeps a failed one out.
      await drop(owner.username);
      return undefined;
    }
    const usable = entry as CachedJwtEntry;
    return usable.source === owner.source ? usable : undefined;
  }

  async function put(owner: JwtOwner, token: { jwt: string; expiresAt: number }): Promise<void> {
    if (!jwtIsFor(token.jwt, owner.username)) {
      deps.debug(`the JWT the hub issued does not name ${owner.username} as its subject: not cached`);
      return;
    }
    await write('be written', (w) => {
      const mac = secretMac(w.jwtMacKey(), owner.secret);
      // One entry per account and hub: the JWTs of its earlier secrets go.
      w.deleteCachedJwts(accountKeys(owner.username));
      w.setCachedJwt(jwtCacheKey(profile, owner.username, baseUrl, mac), {
        jwt: token.jwt,
        expiresAt: token.expiresAt,
        profile,
        account: owner.username,
        baseUrl,
        secretMac: mac,
        source: owner.source,
      });
    });
  }

  return { get, put, drop };
}

/** Why a stored entry cannot be used for this key, or undefined when it can. */
function entryProblem(
  entry: unknown,
  want: { profile: string; account: string; baseUrl: string; secretMac: string },
): string | undefined {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return 'the entry is not an object';
  const e = entry as Record<string, unknown>;
  if (typeof e.jwt !== 'string' || !TOKEN_TEXT.test(e.jwt)) return 'it holds no readable token';
  if (typeof e.expiresAt !== 'number' || !Number.isFinite(e.expiresAt)) return 'its expiry is not a number';
  if (typeof e.source !== 'string') return 'its source is not a string';
  // The key said so; the entry must say so too, or it was filed under the wrong key.
  if (
    e.profile !== want.profile ||
    e.account !== want.account ||
    e.baseUrl !== want.baseUrl ||
    e.secretMac !== want.secretMac
  ) {
    return 'it was issued for another profile, account, hub or secret';
  }
  // And the token itself must say so: a JWT of another user planted under this key is not used.
  if (!jwtIsFor(e.jwt, want.account)) return `its token's subject is not ${want.account}`;
  return undefined;
}

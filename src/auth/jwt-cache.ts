// The hub JWT kept between runs, so a loop of commands makes one token exchange. Entries live in
// jwt-cache.json (mode 0600) beside the credentials, keyed by profile, account and hub origin; each
// entry repeats its key, and one that does not match what is asked, or cannot be read, is dropped.
// Reading is a plain JSON read (every network command does it); writing goes through the config
// store (atomic, under the file's lock) and only happens after an exchange.
import type { CachedJwtEntry } from '../config/store.js';
import { TOKEN_TEXT } from './jwt.js';

export type { CachedJwtEntry };

export interface JwtCache {
  /** A stored JWT for this account (from this source), or undefined. Unusable entries are dropped. */
  get(account: string, source: string): CachedJwtEntry | undefined;
  put(entry: Omit<CachedJwtEntry, 'profile' | 'origin'>): Promise<void>;
  drop(account: string): Promise<void>;
}

/** What writing needs: the config store's two cache methods. */
export interface JwtCacheWriter {
  setCachedJwt(key: string, entry: CachedJwtEntry): void;
  deleteCachedJwts(match: (key: string) => boolean): number;
}

export interface JwtCacheDeps {
  profile: string;
  /** The hub's origin (scheme, host, port). */
  origin: string;
  /** The cache file as read.ts reads it. */
  read: () => { value?: unknown; corrupt?: string };
  writer: () => Promise<JwtCacheWriter>;
  debug: (line: string) => void;
}

export function jwtCacheKey(profile: string, account: string, origin: string): string {
  return JSON.stringify([profile, account, origin]);
}

/** The profile a cache key belongs to (for `auth logout`), or undefined for a foreign key. */
export function jwtCacheKeyProfile(key: string): string | undefined {
  try {
    const parts: unknown = JSON.parse(key);
    return Array.isArray(parts) && typeof parts[0] === 'string' ? parts[0] : undefined;
  } catch {
    return undefined;
  }
}

export function createJwtCache(deps: JwtCacheDeps): JwtCache {
  const { profile, origin } = deps;
  const keyOf = (account: string) => jwtCacheKey(profile, account, origin);

  async function drop(account: string): Promise<void> {
    const key = keyOf(account);
    try {
      (await deps.writer()).deleteCachedJwts((k) => k === key);
    } catch (err) {
      deps.debug(`the cached JWT could not be dropped: ${(err as Error).message}`);
    }
  }

  function get(account: string, source: string): CachedJwtEntry | undefined {
    const file = deps.read();
    if (file.corrupt !== undefined) {
      // The next exchange writes the file afresh (the store reads an invalid one as empty).
      deps.debug(`the JWT cache file cannot be read (${file.corrupt}); exchanging afresh`);
      return undefined;
    }
    const entries = (file.value as { entries?: unknown } | undefined)?.entries;
    if (!entries || typeof entries !== 'object') return undefined;
    const key = keyOf(account);
    if (!Object.hasOwn(entries, key)) return undefined;
    const entry = (entries as Record<string, unknown>)[key];
    const problem = entryProblem(entry, { profile, account, origin });
    if (problem) {
      deps.debug(`dropping the cached JWT of ${account} at ${origin}: ${problem}`);
      // The fresh exchange that follows writes over it anyway; dropping first keeps a failed one out.
      void drop(account);
      return undefined;
    }
    const usable = entry as CachedJwtEntry;
    return usable.source === source ? usable : undefined;
  }

  return {
    get,
    async put(entry) {
      try {
        (await deps.writer()).setCachedJwt(keyOf(entry.account), { ...entry, profile, origin });
      } catch (err) {
        // The cache only saves an exchange; a run never fails for want of it.
        deps.debug(`the JWT could not be cached: ${(err as Error).message}`);
      }
    },
    drop,
  };
}

/** Why a stored entry cannot be used for this key, or undefined when it can. */
function entryProblem(
  entry: unknown,
  want: { profile: string; account: string; origin: string },
): string | undefined {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return 'the entry is not an object';
  const e = entry as Record<string, unknown>;
  if (typeof e.jwt !== 'string' || !TOKEN_TEXT.test(e.jwt)) return 'it holds no readable token';
  if (typeof e.expiresAt !== 'number' || !Number.isFinite(e.expiresAt)) return 'its expiry is not a number';
  if (typeof e.source !== 'string') return 'its source is not a string';
  // The key said so; the entry must say so too, or it was filed under the wrong key.
  if (e.profile !== want.profile || e.account !== want.account || e.origin !== want.origin) {
    return 'it was issued for another profile, account or origin';
  }
  return undefined;
}

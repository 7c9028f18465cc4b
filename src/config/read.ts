// Reading the config directory: plain JSON files, read on every lookup (they are small), without a
// lock (writers replace them atomically, so a reader sees the old file or the new one).
// Writes go through store.ts, under a lock; these files are plain JSON.
import { chmodSync, closeSync, constants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import type { ProfileKey, StoredEntry } from './entries.js';

/** What reading settings and looking up credentials needs; the config store offers it too. */
export interface ConfigReader {
  getProfile(profile: string): Partial<Record<ProfileKey, string>>;
  hubCredential(profile: string): StoredEntry | undefined;
  registryCredential(host: string): StoredEntry | undefined;
  /** The registries with a stored credential (for `auth status`). */
  registryHosts?(): string[];
  /** The profile's organization access token for the audit API (`auth login --audit`), with its origin. */
  auditCredential?(profile: string): { username?: string; secret: string; origin?: string } | undefined;
}

/** A missing file reads as empty; a corrupt one is refused as the config store refuses it. */
export function readJson(dir: string, name: 'config' | 'credentials'): Record<string, unknown> {
  const path = join(dir, `${name}.json`);
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    // An older file may have been created with a wider mode; secrets are the owner's alone.
    if (name === 'credentials') chmodSync(path, 0o600);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`cannot read the ${name} file in ${dir}: ${(err as Error).message}`, { cause: err });
  }
}

function entry<T>(file: Record<string, unknown>, section: string, key: string): T | undefined {
  const table = file[section];
  if (!table || typeof table !== 'object' || !Object.hasOwn(table, key)) return undefined;
  return (table as Record<string, T>)[key];
}

/** Reads the files on each call (they are small), so a write earlier in the run is always seen. */
export function openConfigReader(dir: string): ConfigReader {
  return {
    getProfile: (profile) => ({ ...entry(readJson(dir, 'config'), 'profiles', profile) }),
    hubCredential: (profile) => entry(readJson(dir, 'credentials'), 'hub', profile),
    registryCredential: (host) => entry(readJson(dir, 'credentials'), 'registries', host),
    auditCredential: (profile) => entry(readJson(dir, 'credentials'), 'audit', profile),
    registryHosts: () => {
      const table = readJson(dir, 'credentials').registries;
      return table && typeof table === 'object' ? Object.keys(table).slice(0, 1000) : [];
    },
  };
}

/** The JWT cache is small; a bigger file is not read (it reads as corrupt and is written afresh). */
const MAX_JWT_CACHE_BYTES = 1024 * 1024;

/**
 * The JWT cache file as plain JSON (read on every network command, so no conf): undefined when
 * there is none, `{ corrupt }` when it cannot be parsed, `{ exposed }` when others could read it
 * (it is set back to 0600 here; its JWTs may have been read, so they are not used), never an
 * exception. Symbolic links are not followed.
 */
export function readJwtCacheFile(dir: string): { value?: unknown; corrupt?: string; exposed?: boolean } {
  const path = join(dir, 'jwt-cache.json');
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { corrupt: (err as Error).message };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { corrupt: 'it is not a regular file' };
    if ((stat.mode & 0o077) !== 0) {
      try {
        chmodSync(path, 0o600);
      } catch {
        // Emptying it (the caller) rewrites it with mode 0600 anyway.
      }
      return { exposed: true };
    }
    if (stat.size > MAX_JWT_CACHE_BYTES) return { corrupt: `it is larger than ${MAX_JWT_CACHE_BYTES} bytes` };
    return { value: JSON.parse(readFileSync(fd, 'utf8')) };
  } catch (err) {
    return { corrupt: (err as Error).message };
  } finally {
    closeSync(fd);
  }
}

export const JWT_MAC_KEY_FILE = 'jwt-cache.key';

/**
 * The JWT cache's HMAC key: 32 bytes written as 64 hex digits. Undefined when there is none, or the
 * file is not a regular file of the owner's alone (mode 0600), or holds anything else: a new key is
 * then made by the next write.
 */
export function readJwtMacKey(dir: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(join(dir, JWT_MAC_KEY_FILE), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || (stat.mode & 0o077) !== 0) return undefined;
    const buf = Buffer.alloc(80);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString('latin1');
    return /^[0-9a-f]{64}\n?$/.test(text) ? Buffer.from(text.slice(0, 64), 'hex') : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

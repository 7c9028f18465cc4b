// Reading the config directory: plain JSON files, read on every lookup (they are small), without a
// lock (writers replace them atomically, so a reader sees the old file or the new one).
// Writes go through store.ts, under a lock; these files are plain JSON.
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import type { ProfileKey, StoredEntry } from './store.js';

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

/**
 * The JWT cache file as plain JSON (read on every network command, so no conf): undefined when
 * there is none, `{ corrupt }` when it cannot be parsed, never an exception.
 */
export function readJwtCacheFile(dir: string): { value?: unknown; corrupt?: string } {
  try {
    return { value: JSON.parse(readFileSync(join(dir, 'jwt-cache.json'), 'utf8')) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { corrupt: (err as Error).message };
  }
}

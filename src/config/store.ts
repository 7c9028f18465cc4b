// Profiles and stored credentials, in the config directory ($HUBCTL_CONFIG_DIR, else the platform's
// config dir): config.json and credentials.json. Every change is a read-modify-write under the
// file's lock (files/lock.ts), written atomically (temp file, fsync, rename); credentials.json with
// mode 0600, the directory 0700 (tightened when it exists wider).
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { writeFileAtomicSync } from '../files/atomic.js';
import { withLockSync } from '../files/lock.js';
import { JWT_MAC_KEY_FILE, readJson, readJwtCacheFile, readJwtMacKey } from './read.js';
import { assertProfileName } from './values.js';

export {
  type HelperCredential,
  isProfileKey,
  PROFILE_KEYS,
  type ProfileKey,
  type StoredCredential,
  type StoredEntry,
} from './entries.js';

import type { ProfileKey, StoredCredential, StoredEntry } from './entries.js';

/** A hub JWT as kept between runs; the fields repeat the key so a misfiled entry is never used. */
export interface CachedJwtEntry {
  jwt: string;
  /** ms since the epoch. */
  expiresAt: number;
  profile: string;
  account: string;
  /** The hub's base URL: origin and base path. */
  baseUrl: string;
  /** HMAC-SHA256 of the secret it was exchanged from, under jwt-cache.key (src/auth/jwt-cache.ts). */
  secretMac: string;
  /** Where the exchanged secret came from (a JWT of another source is not reused). */
  source: string;
}

type FileName = 'config' | 'credentials' | 'jwt-cache';
/** A section of a file (`profiles`, `hub`, `registries`): names to values, without a prototype. */
type Table<T> = Record<string, T>;

export interface ConfigStore {
  readonly dir: string;
  readonly path: string;
  readonly credentialsPath: string;
  profiles(): string[];
  getProfile(profile: string): Partial<Record<ProfileKey, string>>;
  set(profile: string, key: ProfileKey, value: string): void;
  unset(profile: string, key: ProfileKey): boolean;
  hubCredential(profile: string): StoredEntry | undefined;
  setHubCredential(profile: string, credential: StoredEntry): void;
  deleteHubCredential(profile: string): boolean;
  registryCredential(host: string): StoredEntry | undefined;
  /** The registries with a stored credential (for `auth status`). */
  registryHosts(): string[];
  /** The profile's organization access token for the audit API (`auth login --audit`), bound to its origin. */
  auditCredential(profile: string): StoredCredential | undefined;
  setAuditCredential(profile: string, credential: StoredCredential): void;
  deleteAuditCredential(profile: string): boolean;
  setRegistryCredential(host: string, credential: StoredEntry): void;
  deleteRegistryCredential(host: string): boolean;
  /** Hub JWTs kept between runs (jwt-cache.json, mode 0600), by cache key (src/auth/jwt-cache.ts). */
  setCachedJwt(key: string, entry: CachedJwtEntry): void;
  /** Removes the entries whose key matches; returns how many went. */
  deleteCachedJwts(match: (key: string) => boolean): number;
  /** The JWT cache's HMAC key (jwt-cache.key, 0600): made, under its lock, when there is none fit to use. */
  jwtMacKey(): Buffer;
}

const MODES: Record<FileName, number> = { config: 0o644, credentials: 0o600, 'jwt-cache': 0o600 };
/** Every file holds its sections, empty ones too (the shape other tools and older versions read). */
const SECTIONS: Record<FileName, string[]> = {
  config: ['profiles'],
  credentials: ['hub', 'registries'],
  'jwt-cache': ['entries'],
};

/** The JWT cache is only an optimisation: a corrupt one reads as empty and is written afresh. */
function readFile(dir: string, name: FileName): Record<string, unknown> {
  if (name !== 'jwt-cache') return readJson(dir, name);
  const { value } = readJwtCacheFile(dir);
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export function openConfigStore(dir: string): ConfigStore {
  const pathOf = (name: FileName) => join(dir, `${name}.json`);
  // A corrupt config file is refused at once, naming the directory, before any command runs.
  readJson(dir, 'config');

  const table = <T>(name: FileName, section: string): Table<T> => {
    const value = readFile(dir, name)[section];
    // Null prototype: a key such as `__proto__` or `constructor` is data, never Object's own.
    const out: Table<T> = Object.create(null);
    if (value && typeof value === 'object' && !Array.isArray(value)) Object.assign(out, value);
    return out;
  };

  /** Changes one section of a file under its lock; `change` says whether anything changed. */
  const update = <T>(name: FileName, section: string, change: (t: Table<T>) => boolean): boolean => {
    prepareDir(dir);
    const path = pathOf(name);
    return withLockSync(path, () => {
      const file = readFile(dir, name);
      const current = table<T>(name, section);
      if (!change(current)) return false;
      const empty = Object.fromEntries(SECTIONS[name].map((s) => [s, {}]));
      const next = { ...empty, ...file, [section]: current };
      writeFileAtomicSync(path, `${JSON.stringify(next, null, '\t')}\n`, MODES[name]);
      return true;
    });
  };

  const setEntry = <T>(name: FileName, section: string, key: string, value: T) =>
    void update<T>(name, section, (t) => {
      t[key] = value;
      return true;
    });
  const deleteEntry = (name: FileName, section: string, key: string) =>
    update(name, section, (t) => Object.hasOwn(t, key) && delete t[key]);
  const entry = <T>(name: FileName, section: string, key: string): T | undefined => {
    const t = table<T>(name, section);
    return Object.hasOwn(t, key) ? t[key] : undefined;
  };
  const profilesTable = () => table<Partial<Record<ProfileKey, string>>>('config', 'profiles');

  return {
    dir,
    path: pathOf('config'),
    credentialsPath: pathOf('credentials'),
    profiles: () => Object.keys(profilesTable()).sort(),
    getProfile: (profile) => ({
      ...entry<Partial<Record<ProfileKey, string>>>('config', 'profiles', profile),
    }),
    set(profile, key, value) {
      assertProfileName(profile);
      update<Partial<Record<ProfileKey, string>>>('config', 'profiles', (t) => {
        t[profile] = { ...(Object.hasOwn(t, profile) ? t[profile] : {}), [key]: value };
        return true;
      });
    },
    unset(profile, key) {
      return update<Partial<Record<ProfileKey, string>>>('config', 'profiles', (t) => {
        const current = { ...(Object.hasOwn(t, profile) ? t[profile] : {}) };
        if (!Object.hasOwn(current, key)) return false;
        delete current[key];
        t[profile] = current;
        return true;
      });
    },
    hubCredential: (profile) => entry('credentials', 'hub', profile),
    setHubCredential(profile, credential) {
      assertProfileName(profile);
      setEntry('credentials', 'hub', profile, credential);
    },
    deleteHubCredential: (profile) => deleteEntry('credentials', 'hub', profile),
    registryCredential: (host) => entry('credentials', 'registries', host),
    registryHosts: () => Object.keys(table('credentials', 'registries')).slice(0, 1000),
    setRegistryCredential: (host, credential) => setEntry('credentials', 'registries', host, credential),
    auditCredential: (profile) => entry('credentials', 'audit', profile),
    setAuditCredential: (profile, credential) => setEntry('credentials', 'audit', profile, credential),
    deleteAuditCredential: (profile) => deleteEntry('credentials', 'audit', profile),
    deleteRegistryCredential: (host) => deleteEntry('credentials', 'registries', host),
    setCachedJwt: (key, value) => setEntry('jwt-cache', 'entries', key, value),
    deleteCachedJwts(match) {
      let gone = 0;
      update('jwt-cache', 'entries', (t) => {
        for (const key of Object.keys(t).filter(match)) {
          delete t[key];
          gone += 1;
        }
        return gone > 0;
      });
      return gone;
    },
    jwtMacKey() {
      prepareDir(dir);
      const path = join(dir, JWT_MAC_KEY_FILE);
      return withLockSync(path, () => {
        const existing = readJwtMacKey(dir);
        if (existing) return existing;
        // A new key (the old one missing, unreadable or readable by others): every entry hashed
        // under the old one simply stops being found.
        const key = randomBytes(32);
        writeFileAtomicSync(path, `${key.toString('hex')}\n`, 0o600);
        return key;
      });
    },
  };
}

/** Creates the directory 0700, or tightens it to 0700 when it exists wider. */
function prepareDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  } catch (err) {
    throw new UsageError(`cannot create the config directory ${dir}`, { cause: err });
  }
}

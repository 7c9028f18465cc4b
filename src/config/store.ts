// Profiles and stored credentials, in the config directory ($HUBCTL_CONFIG_DIR, else the platform's
// config dir). The only importer of conf. Both files are written atomically (temp file + rename);
// the credentials file with mode 0600.
import { chmodSync, mkdirSync } from 'node:fs';
import Conf from 'conf';
import { UsageError } from '../errors.js';

/** The keys a profile may hold, with what each means (shown by `config list --help`). */
export const PROFILE_KEYS = {
  'base-url': 'hub API base address (HUBCTL_BASE_URL)',
  'governance-url': 'governance API base address (HUBCTL_GOVERNANCE_URL)',
  org: 'organization name (HUBCTL_ORG)',
  username: 'account name used by `auth login` (HUBCTL_USERNAME)',
  'credential-store':
    'where `auth login` stores secrets: file, or a docker credential helper name such as pass (HUBCTL_CREDENTIAL_STORE)',
} as const;
export type ProfileKey = keyof typeof PROFILE_KEYS;

export function isProfileKey(key: string): key is ProfileKey {
  return Object.hasOwn(PROFILE_KEYS, key);
}

export interface StoredCredential {
  username: string;
  secret: string;
}

/** A secret kept by a docker credential helper: the file only says where it is. */
export interface HelperCredential {
  username: string;
  helper: string;
  serverUrl: string;
}

export type StoredEntry = StoredCredential | HelperCredential;

type Profiles = Record<string, Partial<Record<ProfileKey, string>>>;

interface CredentialFile {
  /** Hub credentials by profile name. */
  hub: Record<string, StoredEntry>;
  /** Registry credentials by registry host (`host[:port]`). */
  registries: Record<string, StoredEntry>;
}

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
  setRegistryCredential(host: string, credential: StoredEntry): void;
  deleteRegistryCredential(host: string): boolean;
  /** Hub JWTs kept between runs (jwt-cache.json, mode 0600), by cache key (src/auth/jwt-cache.ts). */
  setCachedJwt(key: string, entry: CachedJwtEntry): void;
  /** Removes the entries whose key matches; returns how many went. */
  deleteCachedJwts(match: (key: string) => boolean): number;
}

/** A hub JWT as kept between runs; the fields repeat the key so a misfiled entry is never used. */
export interface CachedJwtEntry {
  jwt: string;
  /** ms since the epoch. */
  expiresAt: number;
  profile: string;
  account: string;
  origin: string;
  /** Where the exchanged secret came from (a JWT of another source is not reused). */
  source: string;
}

export function openConfigStore(dir: string): ConfigStore {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new UsageError(`cannot create the config directory ${dir}`, { cause: err });
  }
  const common = {
    cwd: dir,
    projectName: 'hubctl',
    projectSuffix: '',
    accessPropertiesByDotNotation: false,
  } as const;
  let config: Conf<{ profiles: Profiles }>;
  let creds: Conf<CredentialFile> | undefined;
  try {
    config = new Conf<{ profiles: Profiles }>({
      ...common,
      configName: 'config',
      defaults: { profiles: {} },
    });
  } catch (err) {
    throw new UsageError(`cannot read the config file in ${dir}: ${(err as Error).message}`, { cause: err });
  }
  const credentials = (): Conf<CredentialFile> => {
    if (!creds) {
      try {
        creds = new Conf<CredentialFile>({
          ...common,
          configName: 'credentials',
          configFileMode: 0o600,
          defaults: { hub: {}, registries: {} },
        });
        // An older file may have been created with a wider mode; secrets are the owner's alone.
        chmodSync(creds.path, 0o600);
      } catch (err) {
        throw new UsageError(`cannot read the credentials file in ${dir}: ${(err as Error).message}`, {
          cause: err,
        });
      }
    }
    return creds;
  };
  let jwts: Conf<{ entries: Record<string, CachedJwtEntry> }> | undefined;
  // A corrupt cache is only a lost optimisation: conf starts it afresh instead of refusing it.
  const jwtCache = () =>
    (jwts ??= new Conf<{ entries: Record<string, CachedJwtEntry> }>({
      ...common,
      configName: 'jwt-cache',
      configFileMode: 0o600,
      clearInvalidConfig: true,
      defaults: { entries: {} },
    }));
  const profilesOf = (): Profiles => ({ ...config.get('profiles') });
  const credentialsPath = `${dir}/credentials.json`;

  return {
    dir,
    path: config.path,
    credentialsPath,
    profiles: () => Object.keys(profilesOf()).sort(),
    getProfile: (profile) => ({ ...profilesOf()[profile] }),
    set(profile, key, value) {
      const all = profilesOf();
      all[profile] = { ...all[profile], [key]: value };
      config.set('profiles', all);
    },
    unset(profile, key) {
      const all = profilesOf();
      const current = { ...all[profile] };
      if (!(key in current)) return false;
      delete current[key];
      all[profile] = current;
      config.set('profiles', all);
      return true;
    },
    hubCredential: (profile) => credentials().get('hub')[profile],
    setHubCredential(profile, credential) {
      credentials().set('hub', { ...credentials().get('hub'), [profile]: credential });
    },
    deleteHubCredential(profile) {
      const hub = { ...credentials().get('hub') };
      if (!(profile in hub)) return false;
      delete hub[profile];
      credentials().set('hub', hub);
      return true;
    },
    registryCredential: (host) => credentials().get('registries')[host],
    setRegistryCredential(host, credential) {
      credentials().set('registries', { ...credentials().get('registries'), [host]: credential });
    },
    deleteRegistryCredential(host) {
      const registries = { ...credentials().get('registries') };
      if (!(host in registries)) return false;
      delete registries[host];
      credentials().set('registries', registries);
      return true;
    },
    setCachedJwt(key, entry) {
      jwtCache().set('entries', { ...ownEntries(jwtCache().get('entries')), [key]: entry });
    },
    deleteCachedJwts(match) {
      const entries = ownEntries(jwtCache().get('entries'));
      const gone = Object.keys(entries).filter(match);
      if (gone.length === 0) return 0;
      for (const key of gone) delete entries[key];
      jwtCache().set('entries', entries);
      return gone.length;
    },
  };
}

/** An entries table as read back (a hand-edited file may hold anything there). */
function ownEntries<T>(value: unknown): Record<string, T> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? { ...(value as Record<string, T>) }
    : {};
}

// What a profile and a stored credential hold: the key table and the entry types, below the reader
// (read.ts) and the store (store.ts) that both speak of them.

/** The keys a profile may hold, with what each means (shown by `config list --help`). */
export const PROFILE_KEYS = {
  'base-url': 'hub API base address (HUBCTL_BASE_URL)',
  'governance-url': 'governance API base address (HUBCTL_GOVERNANCE_URL)',
  org: 'organization name (HUBCTL_ORG)',
  username: 'account name used by `auth login` (HUBCTL_USERNAME)',
  'credential-store':
    'where `auth login` stores secrets: file, or a docker credential helper name such as pass (HUBCTL_CREDENTIAL_STORE)',
  'audit-url': 'audit API base address (HUBCTL_AUDIT_URL; default https://api.docker.com)',
} as const;
export type ProfileKey = keyof typeof PROFILE_KEYS;

export function isProfileKey(key: string): key is ProfileKey {
  return Object.hasOwn(PROFILE_KEYS, key);
}

export interface StoredCredential {
  username: string;
  secret: string;
  /** The hub origin a hub credential was verified against at login; it is sent nowhere else. */
  origin?: string;
  /** The origin and base path it was verified against (`baseOf`); entries from before had only `origin`. */
  base?: string;
}

/** A secret kept by a docker credential helper: the file only says where it is. */
export interface HelperCredential {
  username: string;
  helper: string;
  serverUrl: string;
  /** As StoredCredential's. */
  origin?: string;
  /** As StoredCredential's. */
  base?: string;
}

export type StoredEntry = StoredCredential | HelperCredential;

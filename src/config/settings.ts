// Resolved settings with the precedence of decisions §1: flag > environment > profile > default.
import type { ProfileKey } from './store.js';

export const DEFAULT_BASE_URL = 'https://hub.docker.com';
export const DEFAULT_PROFILE = 'default';

export interface SettingFlags {
  profile?: string;
  baseUrl?: string;
  governanceUrl?: string;
  org?: string;
  username?: string;
}

export interface Settings {
  profile: string;
  baseUrl: string;
  governanceUrl: string;
  org?: string;
  username?: string;
  /** `file` or a docker credential helper's name; unset means file unless `auth login` is offered docker's. */
  credentialStore?: string;
  /** Where each value came from, for `config list` and `auth status`. */
  sources: Record<
    'baseUrl' | 'governanceUrl' | 'org' | 'username',
    'flag' | 'env' | 'profile' | 'default' | 'unset'
  >;
}

export function profileName(flags: SettingFlags, env: Record<string, string | undefined>): string {
  return flags.profile || env.HUBCTL_PROFILE || DEFAULT_PROFILE;
}

export function resolveSettings(
  flags: SettingFlags,
  env: Record<string, string | undefined>,
  profileValues: Partial<Record<ProfileKey, string>>,
): Settings {
  const pick = (flag: string | undefined, envName: string, key: ProfileKey) => {
    if (flag) return { value: flag, source: 'flag' as const };
    if (env[envName]) return { value: env[envName], source: 'env' as const };
    if (profileValues[key]) return { value: profileValues[key], source: 'profile' as const };
    return { value: undefined, source: 'unset' as const };
  };
  const base = pick(flags.baseUrl, 'HUBCTL_BASE_URL', 'base-url');
  const baseUrl = trimSlash(base.value ?? DEFAULT_BASE_URL);
  const gov = pick(flags.governanceUrl, 'HUBCTL_GOVERNANCE_URL', 'governance-url');
  const org = pick(flags.org, 'HUBCTL_ORG', 'org');
  const user = pick(flags.username, 'HUBCTL_USERNAME', 'username');
  const store = pick(undefined, 'HUBCTL_CREDENTIAL_STORE', 'credential-store');
  return {
    profile: profileName(flags, env),
    baseUrl,
    governanceUrl: trimSlash(gov.value ?? `${baseUrl}/v2`),
    org: org.value,
    username: user.value,
    credentialStore: store.value,
    sources: {
      baseUrl: base.value ? base.source : 'default',
      governanceUrl: gov.value ? gov.source : 'default',
      org: org.source,
      username: user.source,
    },
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

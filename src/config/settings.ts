// Resolved settings with the precedence of decisions §1: flag > environment > profile > default.
import type { ProfileKey } from './store.js';
import { assertProfileName, checkBaseUrl, checkOrg } from './values.js';

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
    'baseUrl' | 'governanceUrl' | 'org' | 'username' | 'credentialStore',
    'flag' | 'env' | 'profile' | 'default' | 'unset'
  >;
}

/** The profile in use; a name given by --profile or HUBCTL_PROFILE is checked here, at the edge. */
export function profileName(flags: SettingFlags, env: Record<string, string | undefined>): string {
  if (flags.profile !== undefined) return assertProfileName(flags.profile, '--profile');
  if (env.HUBCTL_PROFILE) return assertProfileName(env.HUBCTL_PROFILE, 'HUBCTL_PROFILE');
  return DEFAULT_PROFILE;
}

export function resolveSettings(
  flags: SettingFlags,
  env: Record<string, string | undefined>,
  profileValues: Partial<Record<ProfileKey, string>>,
): Settings {
  // Each value is checked here, naming where it came from; an empty flag is refused, an empty
  // environment variable counts as unset.
  const pick = (
    flag: string | undefined,
    envName: string,
    key: ProfileKey,
    check: (value: string, from: string) => string = (v) => v,
  ) => {
    if (flag !== undefined) return { value: check(flag, `--${key}`), source: 'flag' as const };
    if (env[envName]) return { value: check(env[envName], envName), source: 'env' as const };
    const stored = profileValues[key];
    if (stored) return { value: check(stored, `${key} of profile "${profile}"`), source: 'profile' as const };
    return { value: undefined, source: 'unset' as const };
  };
  const profile = profileName(flags, env);
  const base = pick(flags.baseUrl, 'HUBCTL_BASE_URL', 'base-url', checkBaseUrl);
  const baseUrl = trimSlash(base.value ?? DEFAULT_BASE_URL);
  const gov = pick(flags.governanceUrl, 'HUBCTL_GOVERNANCE_URL', 'governance-url', checkBaseUrl);
  const org = pick(flags.org, 'HUBCTL_ORG', 'org', checkOrg);
  const user = pick(flags.username, 'HUBCTL_USERNAME', 'username');
  const store = pick(undefined, 'HUBCTL_CREDENTIAL_STORE', 'credential-store');
  return {
    profile,
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
      credentialStore: store.source,
    },
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

import { checkRegistryValue, parseRegistryKey } from '../../config/registry-settings.js';
import { PROFILE_KEYS, type ProfileKey } from '../../config/store.js';
import { checkBaseUrl, checkOrg } from '../../config/values.js';
import { UsageError } from '../../errors.js';

export const KEY_NAMES = Object.keys(PROFILE_KEYS) as ProfileKey[];

export function profileKey(key: string): ProfileKey {
  // registry.HOST.SETTING: a registry's own settings (src/config/registry-settings.ts).
  const registry = parseRegistryKey(key);
  if (registry) return `registry.${registry.host}.${registry.setting}` as ProfileKey;
  if (!(KEY_NAMES as string[]).includes(key)) {
    throw new UsageError(
      `unknown setting "${key}"; the settings are ${KEY_NAMES.join(', ')}, and registry.HOST.(plain-http|ca-file|mirror|concurrency)`,
    );
  }
  return key as ProfileKey;
}

/** Checks a value before it is stored, so a typo fails now rather than at the next request. */
export function checkValue(key: ProfileKey, value: string): string {
  const registry = parseRegistryKey(key);
  if (registry) return checkRegistryValue(registry.setting, value, key);
  if (key === 'base-url' || key === 'governance-url' || key === 'audit-url') return checkBaseUrl(value, key);
  if (key === 'org') return checkOrg(value, key);
  if (value.trim() === '') throw new UsageError(`${key} cannot be empty`);
  if (key === 'credential-store' && value !== 'file' && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(value)) {
    throw new UsageError(
      `credential-store is file or a credential helper's name (pass, secretservice, osxkeychain, wincred…), not "${value}"`,
    );
  }
  return value;
}

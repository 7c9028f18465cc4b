// Per-registry settings kept in a profile: `registry.HOST.plain-http`, `.ca-file`, `.mirror` and
// `.concurrency` (`hubctl config set registry.localhost:5000.plain-http true`). Stored in the
// profile beside its other keys; flags override (`--plain-http HOST` adds a host, `--ca-file` adds
// a CA for every host, `--concurrency` wins over `concurrency`; HUBCTL_REGISTRY_MIRRORS=off turns
// mirrors off). Pure: parsing and checking, no IO.
import { UsageError } from '../errors.js';

export const REGISTRY_SETTINGS = {
  'plain-http': 'true: reach the registry over http:// (as --plain-http HOST)',
  'ca-file': 'a PEM file of CA certificates trusted for this registry only',
  mirror: 'a registry (host[:port] or http(s)://host[:port]) that pulls try first, then the registry itself',
  concurrency: 'blobs transferred at once to or from this registry when --concurrency is not given (1 to 32)',
} as const;
export type RegistrySettingName = keyof typeof REGISTRY_SETTINGS;

export interface RegistrySettings {
  plainHttp?: boolean;
  caFile?: string;
  /** The mirror's host[:port], and whether it is reached over http://. */
  mirror?: { host: string; plainHttp: boolean };
  concurrency?: number;
}

const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,62})(?:\.[a-z0-9](?:[a-z0-9-]{0,62}))*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** `registry.HOST.SETTING` → its parts; undefined for any other key. */
export function parseRegistryKey(key: string): { host: string; setting: RegistrySettingName } | undefined {
  if (!key.startsWith('registry.')) return undefined;
  const rest = key.slice('registry.'.length);
  const dot = rest.lastIndexOf('.');
  const host = rest.slice(0, dot).toLowerCase();
  const setting = rest.slice(dot + 1);
  if (dot < 1 || !Object.hasOwn(REGISTRY_SETTINGS, setting))
    throw new UsageError(
      `"${key.slice(0, 80)}": a registry setting is registry.HOST.SETTING, SETTING one of ${Object.keys(REGISTRY_SETTINGS).join(', ')}`,
    );
  if (!HOST.test(host))
    throw new UsageError(`"${host.slice(0, 80)}" in ${key.slice(0, 80)} is not a registry host[:port]`);
  return { host, setting: setting as RegistrySettingName };
}

/** Checks a value before it is stored or used; `from` names where it came from. */
export function checkRegistryValue(setting: RegistrySettingName, value: string, from: string): string {
  switch (setting) {
    case 'plain-http':
      if (value !== 'true' && value !== 'false')
        throw new UsageError(`${from} is true or false (got "${value.slice(0, 40)}")`);
      return value;
    case 'ca-file':
      if (value.trim() === '' || value.length > 4096) throw new UsageError(`${from} must be a file path`);
      return value;
    case 'concurrency':
      if (!/^\d{1,2}$/.test(value) || Number(value) < 1 || Number(value) > 32)
        throw new UsageError(`${from} must be a whole number from 1 to 32 (got "${value.slice(0, 40)}")`);
      return value;
    case 'mirror':
      parseMirror(value, from);
      return value;
  }
}

/** `host[:port]` or `http(s)://host[:port]` (no path, no credentials). */
export function parseMirror(value: string, from: string): { host: string; plainHttp: boolean } {
  const m = /^(?:(https?):\/\/)?([^/?#@\s]+)\/?$/.exec(value.trim());
  const host = m?.[2]?.toLowerCase();
  if (!m || !host || !HOST.test(host))
    throw new UsageError(
      `${from} must be a registry host[:port] or http(s)://host[:port] (got "${value.slice(0, 80)}")`,
    );
  return { host, plainHttp: m[1] === 'http' };
}

/** Every registry's settings in a profile's values (keys `registry.HOST.SETTING`). */
export function registrySettingsOf(
  values: Record<string, string | undefined>,
): Map<string, RegistrySettings> {
  const out = new Map<string, RegistrySettings>();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || !key.startsWith('registry.')) continue;
    const parsed = parseRegistryKey(key);
    if (!parsed) continue;
    const from = `${key} of the profile`;
    checkRegistryValue(parsed.setting, value, from);
    const s = out.get(parsed.host) ?? {};
    if (parsed.setting === 'plain-http') s.plainHttp = value === 'true';
    else if (parsed.setting === 'ca-file') s.caFile = value;
    else if (parsed.setting === 'mirror') s.mirror = parseMirror(value, from);
    else s.concurrency = Number(value);
    out.set(parsed.host, s);
  }
  return out;
}

/** The settings in force for one registry, as `config list` and `auth status` name them. */
export function describeRegistrySettings(
  host: string,
  s: RegistrySettings | undefined,
  flags: { plainHttp: readonly string[]; caFile?: string; mirrorsOff?: boolean },
): [string, string, 'flag' | 'env' | 'profile'][] {
  const rows: [string, string, 'flag' | 'env' | 'profile'][] = [];
  if (flags.plainHttp.map((h) => h.toLowerCase()).includes(host)) rows.push(['plain-http', 'true', 'flag']);
  else if (s?.plainHttp !== undefined) rows.push(['plain-http', String(s.plainHttp), 'profile']);
  if (s?.caFile) rows.push(['ca-file', s.caFile, 'profile']);
  if (flags.caFile) rows.push(['ca-file', `${flags.caFile} (every host)`, 'flag']);
  if (s?.mirror)
    rows.push([
      'mirror',
      `${s.mirror.plainHttp ? 'http://' : ''}${s.mirror.host}${flags.mirrorsOff ? ' (off)' : ''}`,
      flags.mirrorsOff ? 'env' : 'profile',
    ]);
  if (s?.concurrency !== undefined) rows.push(['concurrency', String(s.concurrency), 'profile']);
  return rows;
}

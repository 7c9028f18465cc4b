import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type CommandHost, examples } from '../host.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('list')
    .description('Show the effective settings of the profile and where each comes from')
    .action(() => host.run((ctx) => runner(ctx)));
  return examples(cmd, ['hubctl config list', 'hubctl --profile staging config list --json']);
}

export async function run(ctx: Context): Promise<void> {
  const s = await ctx.settings();
  const store = await ctx.config();
  const registryRows = await registrySettingRows(ctx);
  const rows = {
    profile: s.profile,
    'base-url': s.baseUrl,
    'governance-url': s.governanceUrl,
    org: s.org ?? null,
    username: s.username ?? null,
    'credential-store': s.credentialStore ?? null,
  };
  if (ctx.output.json) {
    ctx.output.printJson({
      ...rows,
      sources: {
        'base-url': s.sources.baseUrl,
        'governance-url': s.sources.governanceUrl,
        org: s.sources.org,
        username: s.sources.username,
        'credential-store': s.sources.credentialStore,
      },
      profiles: store.profiles(),
      configFile: store.path,
      // Only when a registry has settings, as config.json holds them.
      ...(registryRows.length > 0 ? { registries: registriesJson(registryRows) } : {}),
    });
    return;
  }
  await ctx.output.table(
    ['KEY', 'VALUE', 'SOURCE'],
    [
      ['profile', s.profile, ''],
      ['base-url', s.baseUrl, s.sources.baseUrl],
      ['governance-url', s.governanceUrl, s.sources.governanceUrl],
      ['org', s.org, s.sources.org],
      ['username', s.username, s.sources.username],
      ['credential-store', s.credentialStore, s.sources.credentialStore],
      ...registryRows.map((r) => [`registry.${r.host}.${r.setting}`, r.value, r.source]),
    ],
  );
}

/** The registry settings in force: the profile's, and the hosts named by --plain-http. */
async function registrySettingRows(ctx: Context) {
  const { describeRegistrySettings } = await import('../../config/registry-settings.js');
  const settings = await ctx.registrySettings();
  const hosts = [
    ...new Set([...settings.keys(), ...ctx.globals.plainHttp.map((h) => h.toLowerCase())]),
  ].sort();
  return hosts.flatMap((host) =>
    describeRegistrySettings(host, settings.get(host), {
      plainHttp: ctx.globals.plainHttp,
      mirrorsOff: ctx.env.HUBCTL_REGISTRY_MIRRORS === 'off',
    }).map(([setting, value, source]) => ({ host, setting, value, source })),
  );
}

function registriesJson(rows: { host: string; setting: string; value: string; source: string }[]) {
  return Object.fromEntries(
    [...new Set(rows.map((r) => r.host))].map((host) => [
      host,
      Object.fromEntries(
        rows.filter((r) => r.host === host).map((r) => [r.setting, { value: r.value, source: r.source }]),
      ),
    ]),
  );
}

import type { Command } from 'commander';
import { infoSchema } from '../../api/engine/schemas.js';
import type { Context } from '../../context.js';
import { type CommandHost, examples } from '../host.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('info')
    .description('Show the engine’s registry settings: mirrors, insecure registries, index configs')
    .action(() => host.run((ctx) => runner(ctx)));
  return examples(cmd, ['hubctl engine info', 'hubctl engine info --json | jq .insecureRegistryCIDRs']);
}

export interface RegistrySettings {
  mirrors: string[];
  insecureRegistryCIDRs: string[];
  indexConfigs: { name: string; mirrors: string[]; secure: boolean | null; official: boolean | null }[];
  /** Null at API 1.48 and below and absent from 1.49 on: both shown as an empty list. */
  allowNondistributableArtifactsCIDRs: string[];
  allowNondistributableArtifactsHostnames: string[];
}

export async function run(ctx: Context): Promise<void> {
  const engine = await ctx.engine();
  const info = await engine.getJson('/info', infoSchema, 'reading the engine information');
  const rc = info.RegistryConfig ?? {};
  const settings: RegistrySettings = {
    mirrors: rc.Mirrors ?? [],
    insecureRegistryCIDRs: rc.InsecureRegistryCIDRs ?? [],
    indexConfigs: Object.entries(rc.IndexConfigs ?? {})
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, c]) => ({
        name: c.Name ?? key,
        mirrors: c.Mirrors ?? [],
        secure: c.Secure ?? null,
        official: c.Official ?? null,
      })),
    allowNondistributableArtifactsCIDRs: rc.AllowNondistributableArtifactsCIDRs ?? [],
    allowNondistributableArtifactsHostnames: rc.AllowNondistributableArtifactsHostnames ?? [],
  };
  if (ctx.output.json) {
    ctx.output.printJson({
      address: engine.address.display,
      serverVersion: info.ServerVersion ?? null,
      ...settings,
    });
    return;
  }
  const list = (items: string[]) => (items.length ? items.join(', ') : 'none');
  await ctx.output.fields([
    ['Engine', engine.address.display],
    ['Server version', info.ServerVersion ?? 'not given'],
    ['Mirrors', list(settings.mirrors)],
    ['Insecure registries', list(settings.insecureRegistryCIDRs)],
    ['Non-distributable CIDRs', list(settings.allowNondistributableArtifactsCIDRs)],
    ['Non-distributable hosts', list(settings.allowNondistributableArtifactsHostnames)],
  ]);
  if (settings.indexConfigs.length === 0) return;
  ctx.output.line();
  await ctx.output.table(
    ['INDEX', 'SECURE', 'OFFICIAL', 'MIRRORS'],
    settings.indexConfigs.map((c) => [
      c.name,
      c.secure === null ? '' : c.secure ? 'yes' : 'no',
      c.official === null ? '' : c.official ? 'yes' : 'no',
      list(c.mirrors),
    ]),
  );
}

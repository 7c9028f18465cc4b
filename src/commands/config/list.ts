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
    ],
  );
}

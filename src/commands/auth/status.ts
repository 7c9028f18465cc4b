import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type CommandHost, examples } from '../host.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('status')
    .description('Show the account, where its credential comes from, and the JWT expiry')
    .action(() => host.run((ctx) => runner(ctx)));
  return examples(cmd, ['hubctl auth status', 'hubctl auth status --json']);
}

export async function run(ctx: Context): Promise<void> {
  const settings = await ctx.settings();
  const session = await ctx.hubSession();
  const credential = await session.credential();
  await session.jwt();
  const expiresAt = session.expiresAt();
  const status = {
    profile: settings.profile,
    baseUrl: settings.baseUrl,
    username: credential.username,
    source: credential.source,
    store: credential.store ?? 'docker config',
    jwtExpiresAt: expiresAt === undefined ? null : new Date(expiresAt).toISOString(),
    jwtFromCache: session.fromCache(),
  };
  if (ctx.output.json) {
    ctx.output.printJson(status);
    return;
  }
  await ctx.output.fields([
    ['Account', status.username],
    ['Credential', status.source],
    ['Store', status.store],
    ['Profile', status.profile],
    ['Hub', status.baseUrl],
    ['JWT expires', ctx.output.time(status.jwtExpiresAt)],
    ['JWT', status.jwtFromCache ? 'from the cache (no exchange this run)' : 'exchanged now'],
  ]);
}

import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { AuthError } from '../../errors.js';
import { type CommandHost, examples } from '../host.js';
import { parseRegistryHost } from './registry-host.js';
import { checkRegistry, listRegistryCredentials } from './registry-status.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('status')
    .description(
      'Show the hub account and every registry credential, where each comes from (never a secret); with a registry, check its credential',
    )
    .argument('[registry]', 'a registry host: check its credential with its token service')
    .action((registry: string | undefined) => {
      const parsed = registry === undefined ? undefined : parseRegistryHost(registry);
      return host.run((ctx) => runner(ctx, parsed));
    });
  return examples(cmd, [
    'hubctl auth status',
    'hubctl auth status --json',
    'hubctl auth status localhost:5000',
  ]);
}

export async function run(ctx: Context, registry?: string): Promise<void> {
  if (registry !== undefined) return checkRegistry(ctx, registry);
  const settings = await ctx.settings();
  const registries = await listRegistryCredentials(ctx);
  const session = await ctx.hubSession();
  let credential: Awaited<ReturnType<typeof session.credential>> | undefined;
  try {
    credential = await session.credential();
  } catch (err) {
    // Registry logins alone are a status too; with nothing at all, "not logged in" stands.
    if (!(err instanceof AuthError) || registries.length === 0) throw err;
  }
  if (credential) await session.jwt();
  const expiresAt = credential ? session.expiresAt() : undefined;
  const status = {
    profile: settings.profile,
    baseUrl: settings.baseUrl,
    username: credential?.username ?? null,
    source: credential?.source ?? null,
    store: credential ? (credential.store ?? 'docker config') : null,
    jwtExpiresAt: expiresAt === undefined ? null : new Date(expiresAt).toISOString(),
    jwtFromCache: session.fromCache(),
    registries,
  };
  if (ctx.output.json) {
    ctx.output.printJson(status);
    return;
  }
  await ctx.output.fields([
    ['Account', status.username ?? '(not logged in to the hub)'],
    ['Credential', status.source ?? ''],
    ['Store', status.store ?? ''],
    ['Profile', status.profile],
    ['Hub', status.baseUrl],
    ['JWT expires', ctx.output.time(status.jwtExpiresAt)],
    ['JWT', status.jwtFromCache ? 'from the cache (no exchange this run)' : 'exchanged now'],
  ]);
  if (registries.length === 0) return;
  if (ctx.output.isTTY) ctx.output.line();
  await ctx.output.table(
    ['REGISTRY', 'ACCOUNT', 'KIND', 'SOURCE'],
    registries.map((r) => [r.registry, r.username, r.kind, r.source]),
  );
}

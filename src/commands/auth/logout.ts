import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type CommandHost, examples } from '../host.js';
import { dropCachedJwts } from './cached-jwts.js';
import { parseRegistryHost } from './registry-host.js';
import { eraseSecret } from './secret-store.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('logout')
    .description('Remove the credential hubctl stored (the hub account of the profile, or a registry host)')
    .argument('[registry-host]', 'a registry (host[:port]) instead of the hub account')
    .action((registryHost: string | undefined) => {
      const registry = registryHost === undefined ? undefined : parseRegistryHost(registryHost);
      return host.run((ctx) => runner(ctx, registry));
    });
  return examples(cmd, ['hubctl auth logout', 'hubctl auth logout registry.example.com:5000']);
}

export async function run(ctx: Context, registry?: string): Promise<void> {
  const store = await ctx.config();
  const profile = (await ctx.settings()).profile;
  // A helper-kept secret is erased first: a helper that fails leaves the entry, so a retry can finish.
  const entry = registry ? store.registryCredential(registry) : store.hubCredential(profile);
  await eraseSecret(ctx, entry);
  const removed = registry ? store.deleteRegistryCredential(registry) : store.deleteHubCredential(profile);
  // The profile's cached JWTs go too: logging out ends the session, not only the next exchange.
  if (!registry) await dropCachedJwts(store, profile);
  // And the profile's audit log token (`auth login --audit`), kept in the same file.
  const auditRemoved = !registry && store.deleteAuditCredential(profile);
  const target = registry ?? `profile "${profile}"`;
  if (ctx.output.json) {
    const from = entry && 'helper' in entry ? `docker-credential-${entry.helper}` : 'file';
    ctx.output.printJson({
      removed,
      ...(registry ? { registry } : { profile }),
      ...(removed ? { from } : {}),
      ...(auditRemoved ? { auditRemoved } : {}),
    });
    return;
  }
  ctx.output.info(
    removed
      ? `Removed the stored credential of ${target}${entry && 'helper' in entry ? ` (erased from docker-credential-${entry.helper})` : ''}.`
      : `No credential was stored for ${target}.`,
  );
  if (auditRemoved) ctx.output.info(`Removed the audit log token of ${target}.`);
  // Credentials that hubctl did not store are not its to remove; say where they come from.
  if (!registry && ctx.env.HUBCTL_TOKEN) ctx.output.warn('HUBCTL_TOKEN is still set in the environment.');
}

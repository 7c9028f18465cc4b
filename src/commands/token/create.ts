import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type CommandHost, collectList, examples } from '../host.js';
import { checkLabel, checkScopes, parseExpiry, SCOPES } from './values.js';

export interface CreateOptions {
  label: string;
  scopes: string[];
  /** Duration or date as typed; turned into an instant with the context's clock. */
  expires?: string;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('create')
    .description('Create a personal access token; its secret is printed once, on stdout')
    .requiredOption('--label <label>', 'a name for the token (1-100 characters)')
    .option('--scope <scope>', `repeatable or comma-separated: ${SCOPES.join(', ')}`, collectList, [])
    .option('--expires <when>', 'a duration (30d, 12h, 2w) or a date (2027-01-31); default: never')
    .action((o: { label: string; scope: string[]; expires?: string }) => {
      const opts = { label: checkLabel(o.label), scopes: checkScopes(o.scope), expires: o.expires };
      if (opts.expires !== undefined) parseExpiry(opts.expires, Date.now());
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl token create --label ci-deploy --scope repo:read --scope repo:write --expires 90d',
    'TOKEN=$(hubctl token create --label nightly --scope repo:read -q)',
  ]);
}

export async function run(ctx: Context, opts: CreateOptions): Promise<void> {
  const expiresAt = opts.expires === undefined ? undefined : parseExpiry(opts.expires, ctx.clock.now());
  const client = await ctx.accessTokens();
  const token = await client.create({
    token_label: opts.label,
    scopes: opts.scopes,
    ...(expiresAt ? { expires_at: expiresAt } : {}),
  });
  if (ctx.output.json) {
    ctx.output.printJson(token);
    return;
  }
  // The secret alone on stdout, so `$(hubctl token create …)` captures exactly it.
  ctx.output.line(token.token ?? '');
  ctx.output.warn(
    `Created token "${token.token_label}" (${token.uuid}). This is the only time its secret is shown: store it now.`,
  );
}

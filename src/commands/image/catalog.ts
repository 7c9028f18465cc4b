import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseRegistryHost } from '../auth/registry-host.js';
import { type CommandHost, examples } from '../host.js';

export interface CatalogOptions {
  registry: string;
  limit: number;
}

/** Repositories listed at most: a registry of a million repositories is not read whole by mistake. */
export const MAX_CATALOG = 100_000;
// (MAX_CATALOG_ITEMS in the client is the same bound; commands do not import the client at run time.)

function limitOption(value: string): number {
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1 || Number(value) > MAX_CATALOG)
    throw new UsageError(`--limit must be a whole number from 1 to ${MAX_CATALOG} (got "${value}")`);
  return Number(value);
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('catalog')
    .description("List a registry's repositories (/v2/_catalog, page by page, up to --limit)")
    .argument('<registry>', 'registry host (host[:port])')
    .option('--limit <n>', `repositories listed at most (1 to ${MAX_CATALOG})`, limitOption, 1000)
    .action((registry: string, o: { limit: number }) => {
      const opts: CatalogOptions = { registry: parseRegistryHost(registry), limit: o.limit };
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl image catalog localhost:5000',
    'hubctl image catalog registry.example.com --limit 50 --json',
  ]);
}

export async function run(ctx: Context, opts: CatalogOptions): Promise<void> {
  const client = await ctx.registry();
  const repositories: string[] = [];
  let truncated = false;
  for await (const name of client.listRepositories(opts.registry)) {
    if (repositories.length === opts.limit) {
      truncated = true;
      break;
    }
    repositories.push(name);
  }
  if (ctx.output.json) ctx.output.printList(repositories);
  else for (const r of repositories) ctx.output.line(r);
  if (truncated) ctx.output.hint(`Stopped at ${opts.limit} repositories (--limit); there are more.`);
}

import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type CommandHost, examples } from '../host.js';
import { showPolicy } from './present.js';
import { fetchPolicy } from './resolve.js';

export interface GetOptions {
  /** An id (`pol_…`) or a name. */
  policy: string;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('get')
    .description('Show a policy and its rules')
    .argument('<policy>', 'policy id (pol_…) or name')
    .action((policy: string) => host.run((ctx) => runner(ctx, { policy })));
  return examples(cmd, ['hubctl policy get egress', 'hubctl policy get pol_3f2b8c1e --json > egress.json']);
}

export async function run(ctx: Context, opts: GetOptions): Promise<void> {
  const { policy } = await fetchPolicy(await ctx.governance(), opts.policy);
  if (ctx.output.json) {
    ctx.output.printJson(policy);
    return;
  }
  await showPolicy(ctx, policy);
}

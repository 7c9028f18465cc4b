import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { CancelledError } from '../../errors.js';
import { rulesOf } from '../../policy/index.js';
import { type CommandHost, examples } from '../host.js';
import { notePropagation } from './present.js';
import { confirmFirst, fetchPolicy } from './resolve.js';

export interface DeleteOptions {
  /** An id (`pol_…`) or a name. */
  policy: string;
  yes: boolean;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('delete')
    .description('Delete a policy and all its rules (asks first; --yes without a terminal)')
    .argument('<policy>', 'policy id (pol_…) or name')
    .option('-y, --yes', 'do not ask for confirmation')
    .action((policy: string, o: { yes?: boolean }) =>
      host.run((ctx) => runner(ctx, { policy, yes: Boolean(o.yes) })),
    );
  return examples(cmd, ['hubctl policy delete egress', 'hubctl policy delete pol_3f2b8c1e --yes --json']);
}

export async function run(ctx: Context, opts: DeleteOptions): Promise<void> {
  // Off a terminal without --yes this refuses before any request is sent.
  const confirm = await confirmFirst(ctx, opts.yes);
  const client = await ctx.governance();
  const { policy } = await fetchPolicy(client, opts.policy);
  const n = rulesOf(policy).length;
  const what = `policy "${policy.name}" (${policy.id}) of org ${client.org}${n > 0 ? ` and its ${n} rule${n === 1 ? '' : 's'}` : ''}`;
  if (!(await confirm(`Delete ${what}?`))) throw new CancelledError('nothing was deleted');
  const result = await client.deletePolicy(policy.id);
  if (ctx.output.json) {
    ctx.output.printJson(result);
    return;
  }
  ctx.output.info(`Deleted ${what}.`);
  notePropagation(ctx);
}

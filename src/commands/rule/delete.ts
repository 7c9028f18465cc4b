import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { CancelledError } from '../../errors.js';
import { type CommandHost, examples } from '../host.js';
import { notePropagation } from '../policy/present.js';
import { confirmFirst, fetchPolicy, requireAllowlist, resolveRule } from '../policy/resolve.js';

export interface DeleteOptions {
  /** An id (`pol_…`) or a name. */
  policy: string;
  /** An id (`rule_…`) or a rule name within the policy. */
  rule: string;
  yes: boolean;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('delete')
    .description('Remove a rule from a policy (asks first; --yes without a terminal)')
    .argument('<policy>', 'policy id (pol_…) or name')
    .argument('<rule>', 'rule id (rule_…) or name within the policy')
    .option('-y, --yes', 'do not ask for confirmation')
    .action((policy: string, rule: string, o: { yes?: boolean }) =>
      host.run((ctx) => runner(ctx, { policy, rule, yes: Boolean(o.yes) })),
    );
  return examples(cmd, [
    'hubctl rule delete egress github',
    'hubctl rule delete pol_3f2b8c1e rule_8a1f --yes',
  ]);
}

export async function run(ctx: Context, opts: DeleteOptions): Promise<void> {
  // Off a terminal without --yes this refuses before any request is sent.
  const confirm = await confirmFirst(ctx, opts.yes);
  const client = await ctx.governance();
  const { policy } = await fetchPolicy(client, opts.policy);
  requireAllowlist(policy);
  const rule = resolveRule(policy, opts.rule);
  const what = `rule "${rule.name}" (${rule.id}) of policy "${policy.name}" (${policy.id})`;
  if (!(await confirm(`Delete ${what}?`))) throw new CancelledError('nothing was deleted');
  const result = await client.deleteRule(policy.id, rule.id);
  if (ctx.output.json) {
    ctx.output.printJson(result);
    return;
  }
  ctx.output.info(`Deleted ${what}.`);
  notePropagation(ctx);
}

import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { rulesOf } from '../../policy/index.js';
import { type CommandHost, examples } from '../host.js';
import { showRulesTable } from '../policy/present.js';
import { fetchPolicy, requireAllowlist } from '../policy/resolve.js';

export interface ListOptions {
  /** An id (`pol_…`) or a name. */
  policy: string;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('list')
    .description('List the rules of a policy')
    .argument('<policy>', 'policy id (pol_…) or name')
    .action((policy: string) => host.run((ctx) => runner(ctx, { policy })));
  return examples(cmd, ['hubctl rule list egress', 'hubctl rule list pol_3f2b8c1e --json']);
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const { policy } = await fetchPolicy(await ctx.governance(), opts.policy);
  requireAllowlist(policy);
  const rules = rulesOf(policy);
  if (ctx.output.json) {
    // There is no list operation for rules: this is the policy's allowlist_v0.rules as returned.
    ctx.output.printList(rules);
    return;
  }
  if (rules.length === 0) {
    ctx.output.info(`Policy "${policy.name}" (${policy.id}) has no rules yet.`);
    return;
  }
  await showRulesTable(ctx, rules);
}

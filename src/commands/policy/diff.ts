// `hubctl policy diff -f FILE|DIR [--prune]`: what `policy apply` would change, as `+ ~ -` lines or
// a JSON plan. Exit 0 when the organization matches the files, 10 when it differs.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode } from '../../errors.js';
import { planChanges } from '../../policy/index.js';
import { type CommandHost, collectRepeat, examples } from '../host.js';
import { fetchLive, readAuthored, resolveScopes } from './as-code.js';
import { planJson, showPlan } from './plan-view.js';

export interface DiffOptions {
  files: string[];
  prune: boolean;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('diff')
    .description('Show what apply would change (exit 0: no change, 10: differs)')
    .option('-f, --file <path>', 'policy file or directory of them (repeatable)', collectRepeat)
    .option('--prune', 'also list policies that no file holds, for deletion')
    .action((o: { file?: string[]; prune?: boolean }) =>
      host.run((ctx) => runner(ctx, { files: o.file ?? [], prune: Boolean(o.prune) })),
    );
  return examples(cmd, ['hubctl policy diff -f policies/', 'hubctl policy diff -f policies/ --prune --json']);
}

export async function run(ctx: Context, opts: DiffOptions): Promise<number> {
  const files = await readAuthored(opts.files);
  const client = await ctx.governance();
  const authored = await resolveScopes(ctx, files);
  const plan = planChanges(authored, await fetchLive(client, 4), { prune: opts.prune });
  if (ctx.output.json) ctx.output.printJson(planJson(plan));
  else await showPlan(ctx, plan);
  return plan.differs ? ExitCode.DIFFERS : ExitCode.OK;
}

import type { Command } from 'commander';
import { MAX_POLICIES } from '../../api/limits.js';
import type { Context } from '../../context.js';
import { policyType } from '../../policy/index.js';
import { type CommandHost, examples } from '../host.js';
import { scopeDetail, teamNamesFor } from './present.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('list')
    .description('List the policies of the organization (all pages)')
    .action(() => host.run((ctx) => runner(ctx)));
  return examples(cmd, ['hubctl policy list', 'hubctl --org acme policy list --json']);
}

export async function run(ctx: Context): Promise<void> {
  const client = await ctx.governance();
  const summaries = await client.allPolicies();
  if (ctx.output.json) {
    ctx.output.printList(summaries);
    return;
  }
  if (summaries.length === 0) {
    ctx.output.info(`No policies in org ${client.org} yet: create one with \`hubctl policy create NAME\`.`);
    return;
  }
  const names = await teamNamesFor(
    ctx,
    summaries.map((p) => p.scope),
  );
  await ctx.output.table(
    ['ID', 'NAME', 'SCOPE', 'TYPE', 'UPDATED'],
    summaries.map((p) => [
      p.id,
      p.name,
      scopeDetail(p.scope, names),
      policyType(p),
      ctx.output.time(p.updated_at),
    ]),
  );
  if (summaries.length >= MAX_POLICIES) {
    ctx.output.warn(
      `Org ${client.org} has ${summaries.length} policies, the maximum: no policy can be created until one is deleted.`,
    );
  }
}

import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type CommandHost, collectList, examples } from '../host.js';
import { notePropagation, showPolicyFields } from './present.js';
import { checkPolicyName, checkTeams } from './resolve.js';

export interface CreateOptions {
  name: string;
  /** Team names or UUIDs; empty means org-wide. */
  teams: string[];
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('create')
    .description('Create a policy (org-wide, or for the teams given); add rules with `hubctl rule add`')
    .argument('<name>', 'policy name, unique in the organization')
    .option(
      '--team <team>',
      'apply only to this team, by name or UUID (repeatable, or comma-separated)',
      collectList,
      [],
    )
    .action((name: string, o: { team: string[] }) => {
      const opts = { name: checkPolicyName(name), teams: checkTeams(o.team) };
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl policy create egress',
    'hubctl policy create build-cache --team developers',
    'ID=$(hubctl policy create egress --json | jq -r .id)',
  ]);
}

export async function run(ctx: Context, opts: CreateOptions): Promise<void> {
  const client = await ctx.governance();
  const teams = opts.teams.length > 0 ? await (await ctx.teams()).resolve(opts.teams) : [];
  const policy = await client.createPolicy({
    name: opts.name,
    ...(teams.length > 0 ? { scope: { teams } } : {}),
  });
  if (ctx.output.json) {
    ctx.output.printJson(policy);
    return;
  }
  await showPolicyFields(ctx, policy);
  ctx.output.info(`Created policy "${policy.name}" (${policy.id}) in org ${client.org}.`);
  notePropagation(ctx);
}

import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type CommandHost, collectList, examples } from '../host.js';
import { notePropagation, showPolicyFields } from './present.js';
import { checkPolicyName, checkTeams } from './resolve.js';

export interface CreateOptions {
  name: string;
  /** Team UUIDs; empty means org-wide. */
  teams: string[];
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('create')
    .description('Create a policy (org-wide, or for the teams given); add rules with `hubctl rule add`')
    .argument('<name>', 'policy name, unique in the organization')
    .option('--team <uuid>', 'apply only to this team (repeatable, or comma-separated)', collectList, [])
    .action((name: string, o: { team: string[] }) => {
      const opts = { name: checkPolicyName(name), teams: checkTeams(o.team) };
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl policy create egress',
    'hubctl policy create build-cache --team 6f1c2a3e-8d4b-4e5f-9a0b-1c2d3e4f5a6b',
    'ID=$(hubctl policy create egress --json | jq -r .id)',
  ]);
}

export async function run(ctx: Context, opts: CreateOptions): Promise<void> {
  const client = await ctx.governance();
  const policy = await client.createPolicy({
    name: opts.name,
    ...(opts.teams.length > 0 ? { scope: { teams: opts.teams } } : {}),
  });
  if (ctx.output.json) {
    ctx.output.printJson(policy);
    return;
  }
  await showPolicyFields(ctx, policy);
  ctx.output.info(`Created policy "${policy.name}" (${policy.id}) in org ${client.org}.`);
  notePropagation(ctx);
}

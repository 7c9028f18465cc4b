import type { Command } from 'commander';
import type { UpdatePolicyBody } from '../../api/governance.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { type CommandHost, collectList, examples } from '../host.js';
import { notePropagation, scopeDetail, showPolicyFields, teamNamesFor } from './present.js';
import { checkPolicyName, checkTeams, resolvePolicy } from './resolve.js';

export interface UpdateOptions {
  /** An id (`pol_…`) or a name. */
  policy: string;
  /** New name. */
  name?: string;
  /** New team list (names or UUIDs); `[]` makes the policy org-wide. Absent: scope unchanged. */
  teams?: string[];
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('update')
    .description("Rename a policy or change its scope (only the fields given change; rules don't)")
    .argument('<policy>', 'policy id (pol_…) or name')
    .option('--name <name>', 'new name')
    .option(
      '--team <team>',
      'replace the team list, by name or UUID (repeatable, or comma-separated)',
      collectList,
    )
    .option('--org-wide', 'apply to the whole organization (clears the team list)')
    .action((policy: string, o: { name?: string; team?: string[]; orgWide?: boolean }) => {
      if (o.team !== undefined && o.orgWide) {
        throw new UsageError('--team and --org-wide cannot be used together');
      }
      if (o.name === undefined && o.team === undefined && !o.orgWide) {
        throw new UsageError('nothing to change: give --name, --team or --org-wide');
      }
      const opts: UpdateOptions = { policy };
      if (o.name !== undefined) opts.name = checkPolicyName(o.name, '--name');
      if (o.team !== undefined) {
        opts.teams = checkTeams(o.team);
        if (opts.teams.length === 0)
          throw new UsageError('--team needs a team name or UUID (or use --org-wide)');
      }
      if (o.orgWide) opts.teams = [];
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl policy update egress --name egress-prod',
    'hubctl policy update egress --team developers --team ops',
    'hubctl policy update pol_3f2b8c1e --org-wide --json',
  ]);
}

export async function run(ctx: Context, opts: UpdateOptions): Promise<void> {
  const client = await ctx.governance();
  // Names resolve before anything is written: an unknown team changes nothing.
  const teams = opts.teams?.length ? await (await ctx.teams()).resolve(opts.teams) : opts.teams;
  const { id } = await resolvePolicy(client, opts.policy);
  const body: UpdatePolicyBody = {};
  if (opts.name !== undefined) body.name = opts.name;
  if (teams !== undefined) body.scope = { teams };
  const result = await client.updatePolicy(id, body);
  if (ctx.output.json) {
    ctx.output.printJson(result);
    return;
  }
  await showPolicyFields(ctx, result.new);
  const changes: string[] = [];
  if (result.old.name !== result.new.name)
    changes.push(`renamed "${result.old.name}" to "${result.new.name}"`);
  const names = await teamNamesFor(ctx, [result.old.scope, result.new.scope]);
  const before = scopeDetail(result.old.scope, names);
  const after = scopeDetail(result.new.scope, names);
  if (opts.teams !== undefined)
    changes.push(before === after ? `scope ${after}` : `scope ${before} → ${after}`);
  ctx.output.info(
    `Updated policy "${result.new.name}" (${result.new.id})${changes.length ? `: ${changes.join('; ')}` : ''}.`,
  );
  notePropagation(ctx);
}

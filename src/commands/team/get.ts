// `hubctl team get NAME|UUID`: one team. A name is read directly; a UUID is found in the list.
import type { Command } from 'commander';
import { isTeamUuid, type Team } from '../../api/teams.js';
import type { Context } from '../../context.js';
import { NotFoundError, UsageError } from '../../errors.js';
import { type CommandHost, examples } from '../host.js';

export interface GetOptions {
  team: string;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('get')
    .description('Show a team: name, UUID, members')
    .argument('<team>', 'team name or UUID')
    .action((team: string) => {
      if (team.trim() === '') throw new UsageError('the team name must not be empty');
      return host.run((ctx) => runner(ctx, { team }));
    });
  return examples(cmd, ['hubctl team get developers', 'hubctl team get developers --json']);
}

export async function run(ctx: Context, opts: GetOptions): Promise<void> {
  const directory = await ctx.teams();
  let team: Team;
  if (isTeamUuid(opts.team)) {
    const wanted = opts.team.toLowerCase();
    const found = (await directory.teams()).find((t) => t.uuid.toLowerCase() === wanted);
    if (!found) {
      throw new NotFoundError(`no team with UUID ${wanted} in org ${directory.org}`, {
        hint: 'Run `hubctl team list` to see the teams.',
      });
    }
    team = found;
  } else team = await directory.byName(opts.team);
  if (ctx.output.json) {
    ctx.output.printJson(team);
    return;
  }
  await ctx.output.fields([
    ['Name', team.name],
    ['UUID', team.uuid],
    ['Members', team.member_count == null ? '' : String(team.member_count)],
    ['Role', team.role ?? ''],
    ['Description', team.description ?? ''],
  ]);
}

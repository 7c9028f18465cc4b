// `hubctl team list`: the organization's teams (the hub's groups), every page.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type CommandHost, examples } from '../host.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('list')
    .description('List the teams of the organization (all pages)')
    .action(() => host.run((ctx) => runner(ctx)));
  return examples(cmd, [
    'hubctl --org acme team list',
    'hubctl team list --json',
    'hubctl policy create build-cache --team developers',
  ]);
}

export async function run(ctx: Context): Promise<void> {
  const directory = await ctx.teams();
  const teams = [...(await directory.teams())].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  if (ctx.output.json) {
    ctx.output.printList(teams);
    return;
  }
  if (teams.length === 0) {
    ctx.output.info(`Org ${directory.org} has no teams.`);
    return;
  }
  await ctx.output.table(
    ['NAME', 'UUID', 'MEMBERS', 'DESCRIPTION'],
    teams.map((t) => [
      t.name,
      t.uuid,
      t.member_count == null ? '' : String(t.member_count),
      t.description ?? '',
    ]),
  );
}

import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { parseRepository, type RepositoryName } from '../../ref/reference.js';
import { type CommandHost, examples } from '../host.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('tags')
    .description('List the tags of a repository (follows pagination)')
    .argument('<repository>', 'repository (host/name, no tag)')
    .action((repository: string) => {
      const repo = parseRepository(repository);
      return host.run((ctx) => runner(ctx, repo));
    });
  return examples(cmd, ['hubctl image tags localhost:5000/team/app', 'hubctl image tags alpine --json']);
}

export async function run(ctx: Context, repo: RepositoryName): Promise<void> {
  const client = await ctx.registry();
  const tags: string[] = [];
  for await (const t of client.listTags(repo)) tags.push(t);
  if (ctx.output.json) {
    ctx.output.printList(tags);
    return;
  }
  for (const t of tags) ctx.output.line(t);
}

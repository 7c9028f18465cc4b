import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseRepository, type RepositoryName } from '../../ref/reference.js';
import { type CommandHost, collectRepeat, examples } from '../host.js';

export interface TagsOptions {
  include?: string[];
  exclude?: string[];
  semver?: string;
  sort?: 'semver' | 'name';
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('tags')
    .description('List the tags of a repository (follows pagination), filtered and sorted if asked')
    .argument('<repository>', 'repository (host/name, no tag)')
    .option(
      '--include <regex>',
      'only tags matching this regular expression (repeatable: any)',
      collectRepeat,
    )
    .option('--exclude <regex>', 'no tags matching this regular expression (repeatable)', collectRepeat)
    .option('--semver <range>', 'only tags that are versions in this npm-style range (>=20.0.0, ^1.2)')
    .option('--sort <order>', 'semver (oldest first, other tags after) or name; default: as listed')
    .action((repository: string, o: TagsOptions) => {
      const repo = parseRepository(repository);
      if (o.sort !== undefined && o.sort !== 'semver' && o.sort !== 'name')
        throw new UsageError(`--sort takes semver or name (got "${String(o.sort).slice(0, 40)}")`);
      for (const p of [...(o.include ?? []), ...(o.exclude ?? [])]) {
        try {
          new RegExp(p);
        } catch {
          throw new UsageError(`"${p.slice(0, 80)}" is not a valid regular expression`);
        }
      }
      const opts: TagsOptions = {};
      for (const k of ['include', 'exclude', 'semver', 'sort'] as const)
        if (o[k] !== undefined) Object.assign(opts, { [k]: o[k] });
      return host.run((ctx) => runner(ctx, repo, opts));
    });
  return examples(cmd, [
    'hubctl image tags localhost:5000/team/app',
    'hubctl image tags alpine --json',
    "hubctl image tags node --include '^\\d+\\.\\d+\\.\\d+$' --semver '>=20.0.0' --sort semver",
    'hubctl image tags localhost:5000/team/app --exclude -rc --sort name',
  ]);
}

export async function run(ctx: Context, repo: RepositoryName, opts: TagsOptions = {}): Promise<void> {
  const filtered = opts.include || opts.exclude || opts.semver || opts.sort;
  // The filter (and semver) load only when asked for; the range is checked before any request.
  const filter = filtered ? new (await import('../../image/tag-filter.js')).TagFilter(opts, '--') : undefined;
  const client = await ctx.registry();
  const tags: string[] = [];
  for await (const t of client.listTags(repo)) {
    if (filter) filter.add(t);
    else tags.push(t);
  }
  const out = filter ? filter.result() : tags;
  if (ctx.output.json) {
    ctx.output.printList(out);
    return;
  }
  for (const t of out) ctx.output.line(t);
}

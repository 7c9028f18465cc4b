import type { Command } from 'commander';
import type { AccessToken } from '../../api/access-tokens.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { collect } from '../../http/paginate.js';
import { type CommandHost, examples, positiveInt } from '../host.js';

export interface ListOptions {
  all: boolean;
  page: number;
  pageSize: number;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('list')
    .description('List access tokens (secrets masked): one page, or --all')
    .option('--page <n>', 'page number', positiveInt('--page'))
    .option('--page-size <n>', 'tokens per page (default 10)', positiveInt('--page-size'))
    .option('--all', "every page, following the server's links")
    .action((o: { page?: number; pageSize?: number; all?: boolean }) => {
      if (o.all && o.page !== undefined) throw new UsageError('--all and --page cannot be used together');
      return host.run((ctx) =>
        runner(ctx, { all: Boolean(o.all), page: o.page ?? 1, pageSize: o.pageSize ?? 10 }),
      );
    });
  return examples(cmd, [
    'hubctl token list',
    'hubctl token list --page 2 --page-size 50',
    'hubctl token list --all --json',
  ]);
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const client = await ctx.accessTokens();
  let tokens: AccessToken[];
  if (opts.all) {
    tokens = await collect(client.listAll(opts.pageSize === 10 ? 100 : opts.pageSize));
    if (ctx.output.json) return ctx.output.printJson(tokens);
  } else {
    const page = await client.listPage(opts.page, opts.pageSize);
    if (ctx.output.json) return ctx.output.printJson(page);
    tokens = page.results;
    if (page.next)
      ctx.output.info(
        `Page ${opts.page} of ${Math.ceil(page.count / opts.pageSize)}; --page ${opts.page + 1} for more, or --all.`,
      );
  }
  if (tokens.length === 0) {
    ctx.output.info(
      'No access tokens yet: create one with `hubctl token create --label NAME --scope repo:read`.',
    );
    return;
  }
  await ctx.output.table(
    ['UUID', 'LABEL', 'SCOPES', 'ACTIVE', 'CREATED', 'EXPIRES', 'LAST USED'],
    tokens.map((t) => [
      t.uuid,
      t.token_label,
      t.scopes.join(','),
      t.is_active ? 'yes' : 'no',
      ctx.output.time(t.created_at),
      t.expires_at ? ctx.output.time(t.expires_at) : 'never',
      t.last_used ? ctx.output.time(t.last_used) : 'never',
    ]),
  );
}

import type { Command } from 'commander';
import type { AccessToken } from '../../api/access-tokens.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { collect } from '../../http/paginate.js';
import { type CommandHost, examples, positiveInt } from '../host.js';
import { parseWindow } from './values.js';

export interface ListOptions {
  all: boolean;
  page: number;
  pageSize: number;
  /** Only tokens expiring within this many ms from now (every page read), soonest first. */
  expiringMs?: number;
}

/** A terminal table marks tokens expiring within this time. */
const SOON_MS = 7 * 86_400_000;

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('list')
    .description('List access tokens (secrets masked): one page, or --all')
    .option('--page <n>', 'page number', positiveInt('--page'))
    .option('--page-size <n>', 'tokens per page (default 10)', positiveInt('--page-size'))
    .option('--all', "every page, following the server's links")
    .option(
      '--expiring <within>',
      'only tokens expiring within this time (14d, 48h), soonest first; reads every page',
    )
    .action((o: { page?: number; pageSize?: number; all?: boolean; expiring?: string }) => {
      if (o.all && o.page !== undefined) throw new UsageError('--all and --page cannot be used together');
      if (o.expiring !== undefined && o.page !== undefined) {
        throw new UsageError('--expiring reads every page; it cannot be used with --page');
      }
      const expiring = o.expiring === undefined ? {} : { expiringMs: parseWindow(o.expiring, '--expiring') };
      return host.run((ctx) =>
        runner(ctx, { all: Boolean(o.all), page: o.page ?? 1, pageSize: o.pageSize ?? 10, ...expiring }),
      );
    });
  return examples(cmd, [
    'hubctl token list',
    'hubctl token list --page 2 --page-size 50',
    'hubctl token list --all --json',
    'hubctl token list --expiring 14d',
  ]);
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const client = await ctx.accessTokens();
  let tokens: AccessToken[];
  const now = ctx.clock.now();
  if (opts.expiringMs !== undefined) {
    tokens = expiringWithin(await collect(client.listAll(100)), now, opts.expiringMs);
    if (ctx.output.json) return ctx.output.printList(tokens);
    if (tokens.length === 0) {
      ctx.output.info('No access token expires within that time.');
      return;
    }
  } else if (opts.all) {
    tokens = await collect(client.listAll(opts.pageSize === 10 ? 100 : opts.pageSize));
    if (ctx.output.json) return ctx.output.printList(tokens);
  } else {
    const page = await client.listPage(opts.page, opts.pageSize);
    tokens = page.results;
    // One page is an array like every page: the paging is said on stderr.
    if (page.next)
      ctx.output.hint(
        `Page ${opts.page} of ${Math.ceil(page.count / opts.pageSize)}; --page ${opts.page + 1} for more, or --all.`,
      );
    if (ctx.output.json) return ctx.output.printList(tokens);
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
      expiryCell(ctx, t.expires_at, now),
      t.last_used ? ctx.output.time(t.last_used) : 'never',
    ]),
  );
}

/** Tokens whose expiry lies within (now, now + window], soonest first. */
export function expiringWithin(tokens: AccessToken[], now: number, windowMs: number): AccessToken[] {
  const at = (t: AccessToken) => (t.expires_at ? Date.parse(t.expires_at) : Number.NaN);
  return tokens.filter((t) => at(t) > now && at(t) <= now + windowMs).sort((a, b) => at(a) - at(b));
}

/** On a terminal, a token expiring within 7 days is marked: `! in 3d`, `! expired`. */
function expiryCell(ctx: Context, expiresAt: string | null | undefined, now: number): string {
  if (!expiresAt) return 'never';
  const text = ctx.output.time(expiresAt);
  const left = Date.parse(expiresAt) - now;
  if (!ctx.output.isTTY || !(left <= SOON_MS)) return text;
  const words =
    left <= 0
      ? 'expired'
      : `in ${left < 86_400_000 ? `${Math.ceil(left / 3_600_000)}h` : `${Math.floor(left / 86_400_000)}d`}`;
  return `${text} ! ${words}`;
}

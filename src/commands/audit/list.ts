import type { Command } from 'commander';
import type { AuditEventObject } from '../../api/audit.js';
import { buildQuery, type FilterInput } from '../../audit/query.js';
import { decisionName, readAuditRecord } from '../../audit/record.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { safeJson } from '../../output/escape.js';
import { type CommandHost, examples } from '../host.js';
import { addFilterOptions, type FilterFlags, filterInput, limitOption, statusLine } from './shared.js';
import { eventBatches } from './source.js';

export interface ListOptions {
  filters: FilterInput;
  /** 0: no limit. */
  limit: number;
  local?: string | boolean;
  auditUrl?: string;
}

export const COLUMNS = ['TIME', 'USER', 'AGENT', 'ACTION', 'RESOURCE', 'DECISION', 'MODE'];
/** A terminal table is drawn this many rows at a time (its widths need the rows in memory). */
const TABLE_CHUNK = 1000;
/** `list --local --limit 0` sorts in memory: at most this many records. */
const MAX_LOCAL_ALL = 1_000_000;

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('list')
    .description('List audit events, newest first: who, which agent, which resource, allowed or denied')
    .option('--limit <n>', 'at most this many events (default 100; 0 for no limit)', limitOption)
    .option('--local [dir]', "read the sandbox daemon's local audit files instead of the API");
  addFilterOptions(cmd).action((o: FilterFlags & { limit?: number }) =>
    host.run((ctx) =>
      runner(ctx, { filters: filterInput(o), limit: o.limit ?? 100, local: o.local, auditUrl: o.auditUrl }),
    ),
  );
  return examples(cmd, [
    'hubctl --org acme audit list --user carol --decision deny --since 12h',
    'hubctl --org acme audit list --resource github.com --from 2026-09-01T00:00:00Z --to 2026-11-30T00:00:00Z',
    'hubctl --org acme audit list --search denied --since 7d --limit 0 --json',
    'hubctl audit list --local --decision deny',
  ]);
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const query = buildQuery(opts.filters, ctx.clock.now());
  const status = statusLine(ctx);
  const local = opts.local !== undefined && opts.local !== false;
  const batches = eventBatches(ctx, query, {
    local: opts.local,
    auditUrl: opts.auditUrl,
    status,
    pageSize: opts.limit > 0 ? opts.limit : undefined,
  });
  // The API gives events newest first; local files are sorted here (the newest `limit` kept).
  const source = local ? newestFirst(batches, opts.limit) : limited(batches, opts.limit);
  const json = ctx.output.json;
  let count = 0;
  let rows: string[][] = [];
  if (json) ctx.io.stdout.write('[');
  for await (const batch of source) {
    for (const e of batch) {
      if (json) ctx.io.stdout.write(`${count === 0 ? '\n' : ',\n'}${safeJson(e)}`);
      else rows.push(row(ctx, e));
      count++;
    }
    if (!json && (rows.length >= TABLE_CHUNK || !ctx.output.isTTY)) {
      status.clear();
      await ctx.output.table(COLUMNS, rows);
      rows = [];
    }
  }
  if (json) {
    ctx.io.stdout.write(count === 0 ? ']\n' : '\n]\n');
    return;
  }
  status.clear();
  if (rows.length > 0) await ctx.output.table(COLUMNS, rows);
  if (count === 0) ctx.output.info('No audit events match.');
  else if (opts.limit > 0 && count === opts.limit)
    ctx.output.info(`Showing the newest ${count} events; --limit N for more, --limit 0 for all.`);
}

export function row(ctx: Context, e: AuditEventObject): string[] {
  const r = readAuditRecord(e);
  if ('invalid' in r) return ['', '', '', '', '', '', ''];
  return [
    ctx.output.time(r.time),
    r.user ?? '',
    r.agent ?? '',
    r.actionType ?? '',
    r.resource ?? '',
    r.decision ? decisionName(r.decision) : '',
    r.mode ?? '',
  ];
}

/** Stops after `limit` events (0: none), leaving the rest of the pages unread. */
async function* limited(
  batches: AsyncGenerator<AuditEventObject[]>,
  limit: number,
): AsyncGenerator<AuditEventObject[]> {
  if (limit === 0) {
    yield* batches;
    return;
  }
  let left = limit;
  for await (const batch of batches) {
    const part = batch.length > left ? batch.slice(0, left) : batch;
    left -= part.length;
    yield part;
    if (left === 0) {
      await batches.return(undefined);
      return;
    }
  }
}

/** Local records in any order, given back newest first; with a limit only that many are kept. */
async function* newestFirst(
  batches: AsyncGenerator<AuditEventObject[]>,
  limit: number,
): AsyncGenerator<AuditEventObject[]> {
  let kept: { ms: number; e: AuditEventObject }[] = [];
  const trim = () => {
    kept.sort((a, b) => b.ms - a.ms || 0);
    if (limit > 0 && kept.length > limit) kept = kept.slice(0, limit);
  };
  for await (const batch of batches) {
    for (const e of batch) {
      const r = readAuditRecord(e);
      const ms = 'invalid' in r || Number.isNaN(r.timeMs) ? Number.NEGATIVE_INFINITY : r.timeMs;
      kept.push({ ms, e });
    }
    if (limit > 0 && kept.length > 2 * limit + 10_000) trim();
    if (limit === 0 && kept.length > MAX_LOCAL_ALL)
      throw new UsageError(
        `more than ${MAX_LOCAL_ALL.toLocaleString('en-US')} local records match: narrow them with filters or --limit, or use \`audit export --local\``,
      );
  }
  trim();
  for (let i = 0; i < kept.length; i += TABLE_CHUNK) yield kept.slice(i, i + TABLE_CHUNK).map((k) => k.e);
}

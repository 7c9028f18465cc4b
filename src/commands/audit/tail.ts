import type { Command } from 'commander';
import type { AuditEventObject } from '../../api/audit.js';
import { buildQuery, type FilterInput, parseTime, type TimePoint } from '../../audit/query.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { safeJson } from '../../output/escape.js';
import { type CommandHost, examples } from '../host.js';
import { COLUMNS, row } from './list.js';
import { addFilterOptions, type FilterFlags, filterInput, openAuditClient, statusLine } from './shared.js';

export interface TailOptions {
  filters: FilterInput;
  intervalMs: number;
  auditUrl?: string;
}

/** Events one poll prints at most; a backlog past it is skipped forward, saying so. */
const MAX_POLL_EVENTS = 10_000;

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('tail')
    .description('Print new audit events as they arrive (polling, paced) until Ctrl-C')
    .option('--interval <duration>', 'time between polls (default 5s; at least 1s)', parseInterval)
    .option('--since <time>', 'start this long ago or at this time (RFC 3339) instead of now');
  addFilterOptions(cmd, { range: false }).action((o: FilterFlags & { interval?: number }) =>
    host.run((ctx) =>
      runner(ctx, { filters: filterInput(o), intervalMs: o.interval ?? 5000, auditUrl: o.auditUrl }),
    ),
  );
  return examples(cmd, [
    'hubctl --org acme audit tail --decision deny',
    'hubctl --org acme audit tail --user carol --interval 10s --json',
  ]);
}

function parseInterval(value: string): number {
  const m = /^(\d{1,5})(ms|s|m)?$/.exec(value.trim());
  const ms = m ? Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 'm' ? 60_000 : 1000) : Number.NaN;
  if (!(ms >= 1000 && ms <= 3_600_000))
    throw new UsageError(
      `--interval ${JSON.stringify(value.slice(0, 40))} must be a duration from 1s to 60m (5s, 30s, 2m)`,
    );
  return ms;
}

export async function run(ctx: Context, opts: TailOptions): Promise<number> {
  const { since, ...filters } = opts.filters;
  const query = buildQuery(filters, ctx.clock.now());
  const status = statusLine(ctx);
  const client = await openAuditClient(ctx, { auditUrl: opts.auditUrl, status });
  const now = ctx.clock.now();
  let cursor: TimePoint = since
    ? parseTime(since, '--since', now)
    : { text: new Date(now).toISOString(), ms: now };
  /** Ids printed at the cursor's instant: the next poll starts there (inclusive) and skips them. */
  let atCursor = new Set<string>();
  try {
    for (;;) {
      const t = Math.max(ctx.clock.now(), cursor.ms + 1);
      const range = { from: cursor, to: { text: new Date(t).toISOString(), ms: t } };
      const fresh: AuditEventObject[] = [];
      let skipped = false;
      for await (const batch of client.pages(query, range)) {
        for (const e of batch) {
          const id = typeof e.audit_event_id === 'string' ? e.audit_event_id : undefined;
          const ms = typeof e.created_at === 'string' ? Date.parse(e.created_at) : Number.NaN;
          if (id !== undefined && ms === cursor.ms && atCursor.has(id)) continue;
          if (fresh.length < MAX_POLL_EVENTS) fresh.push(e);
          else skipped = true;
        }
        if (skipped) break;
      }
      // Oldest first, as a log reads; printed in one write, so Ctrl-C never cuts a line.
      fresh.reverse();
      if (fresh.length > 0) {
        if (ctx.output.json) ctx.io.stdout.write(fresh.map((e) => `${safeJson(e)}\n`).join(''));
        else
          await ctx.output.table(
            COLUMNS,
            fresh.map((e) => row(ctx, e)),
          );
        const newest = fresh[fresh.length - 1]!;
        const text = typeof newest.created_at === 'string' ? newest.created_at : undefined;
        const ms = text === undefined ? Number.NaN : Date.parse(text);
        if (text !== undefined && !Number.isNaN(ms)) {
          if (ms !== cursor.ms) atCursor = new Set();
          cursor = { text, ms };
          for (const e of fresh)
            if (
              typeof e.created_at === 'string' &&
              Date.parse(e.created_at) === ms &&
              typeof e.audit_event_id === 'string'
            )
              atCursor.add(e.audit_event_id);
        }
      }
      if (skipped) {
        status.notice(`more than ${MAX_POLL_EVENTS} events arrived at once; skipping to now`);
        cursor = range.to;
        atCursor = new Set();
      }
      await ctx.clock.sleep(opts.intervalMs, ctx.signal);
    }
  } catch (err) {
    // Ctrl-C: a tail ends this way, and successfully.
    if (ctx.signal.aborted) return 0;
    throw err;
  }
}

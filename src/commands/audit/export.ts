import type { Command } from 'commander';
import type { AuditEventObject } from '../../api/audit.js';
import {
  type AuditQuery,
  apiRange,
  buildQuery,
  type FilterInput,
  type TimePoint,
  WINDOW_MS,
} from '../../audit/query.js';
import type { Context } from '../../context.js';
import { escapeJsonBytes, escapeJsonText } from '../../json-text.js';
import { type CommandHost, examples } from '../host.js';
import {
  addFilterOptions,
  type FilterFlags,
  filterInput,
  openAuditClient,
  type StatusLine,
  statusLine,
} from './shared.js';
import { eventBatches } from './source.js';

export interface ExportOptions {
  filters: FilterInput;
  /** The file; standard output when absent. */
  output?: string;
  local?: string | boolean;
  auditUrl?: string;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('export')
    .description('Write audit events as NDJSON, exactly as the API gives them; resumable with -o')
    .option('-o, --output <file>', 'write to this file (resumable: the same command again continues it)')
    .option('--local [dir]', "read the sandbox daemon's local audit files instead of the API");
  addFilterOptions(cmd).action((o: FilterFlags & { output?: string }) =>
    host.run((ctx) =>
      runner(ctx, { filters: filterInput(o), output: o.output, local: o.local, auditUrl: o.auditUrl }),
    ),
  );
  return examples(cmd, [
    'hubctl --org acme audit export --since 90d -o audit-q3.ndjson   # killed? run it again to continue',
    'hubctl --org acme audit export --decision deny --since 7d | jq -r .username',
    'hubctl audit export --local -o local-audit.ndjson',
  ]);
}

export async function run(ctx: Context, opts: ExportOptions): Promise<void> {
  const now = ctx.clock.now();
  const query = buildQuery(opts.filters, now);
  const status = statusLine(ctx);
  const progress = new Progress(ctx, status);
  const local = opts.local !== undefined && opts.local !== false;
  if (local) {
    const { openNewFile } = await import('../../audit/export-file.js');
    const file = opts.output ? openNewFile(opts.output) : undefined;
    try {
      for await (const batch of eventBatches(ctx, query, {
        local: opts.local,
        auditUrl: opts.auditUrl,
        status,
        onWindow: (w) => progress.window(w),
      })) {
        const text = lines(batch);
        if (file) file.write(text);
        else ctx.io.stdout.write(text);
        progress.add(batch.length);
      }
      file?.commit();
    } catch (err) {
      file?.abort();
      throw err;
    } finally {
      status.clear();
    }
    if (opts.output) ctx.output.info(`Exported ${progress.count} events to ${opts.output}.`);
    return;
  }

  const client = await openAuditClient(ctx, { auditUrl: opts.auditUrl, status });
  if (!opts.output) {
    try {
      for await (const batch of client.lines(query, apiRange(query, now), {
        onWindow: (w) => progress.window(w),
      })) {
        ctx.io.stdout.write(escapeJsonBytes(batch.lines).toString('utf8'));
        progress.add(batch.count);
      }
    } finally {
      status.clear();
    }
    return;
  }
  const { exportKey, openExport } = await import('../../audit/export-file.js');
  const key = exportKey({
    org: client.org,
    audit: new URL(client.baseUrl).origin,
    filters: query.filters,
    from: opts.filters.from ?? opts.filters.since ?? null,
    to: opts.filters.to ?? null,
  });
  const target = openExport(opts.output, key, exportRange(query, now));
  if (target.resumed) ctx.output.info(`Resuming the export to ${opts.output} from ${target.range.to.text}.`);
  try {
    for await (const batch of client.lines(query, target.range, {
      seed: target.seed,
      onWindow: (w) => progress.window(w),
    })) {
      target.write(escapeJsonBytes(batch.lines));
      progress.add(batch.count);
    }
    target.finish();
  } finally {
    target.close();
    status.clear();
  }
  ctx.output.info(
    `Exported ${progress.count} events to ${opts.output}${target.resumed ? ' (this run)' : ''}.`,
  );
}

/** An export always names its range: resumed later, "the last 30 days" must mean the same days. */
export function exportRange(query: AuditQuery, now: number): { from: TimePoint; to: TimePoint } {
  const r = apiRange(query, now);
  if (r.from && r.to) return { from: r.from, to: r.to };
  return {
    from: { text: new Date(now - WINDOW_MS).toISOString(), ms: now - WINDOW_MS },
    to: { text: new Date(now).toISOString(), ms: now },
  };
}

function lines(batch: AuditEventObject[]): string {
  // One pass for the terminal-unsafe characters over the page's text, not one per event.
  let text = '';
  for (const e of batch) text += `${JSON.stringify(e)}\n`;
  return escapeJsonText(text);
}

/** On a terminal: events so far, their rate, the window being read. */
class Progress {
  count = 0;
  private readonly started: number;
  private range = '';

  constructor(
    private readonly ctx: Context,
    private readonly status: StatusLine,
  ) {
    this.started = ctx.clock.now();
  }

  window(w: { from?: TimePoint; to?: TimePoint }): void {
    this.range = w.from && w.to ? `${w.from.text} … ${w.to.text}` : 'the last 30 days';
    this.show();
  }

  add(n: number): void {
    this.count += n;
    this.show();
  }

  private show(): void {
    this.status.progress(() => {
      const seconds = Math.max(0.001, (this.ctx.clock.now() - this.started) / 1000);
      const rate = Math.round(this.count / seconds);
      return `exporting: ${this.count.toLocaleString('en-US')} events, ${rate.toLocaleString('en-US')}/s, window ${this.range}`;
    });
  }
}

// Where audit events come from, behind one shape (batches of event objects, as given): the audit
// API (a range read as 30-day windows, newest first), the sandbox daemon's local files, or exported
// NDJSON files. The commands filter, count and print; they do not care which.
import type { AuditEventObject, ReadOptions } from '../../api/audit.js';
import { type AuditQuery, apiRange, type Window } from '../../audit/query.js';
import type { Context } from '../../context.js';
import { openAuditClient, type StatusLine } from './shared.js';

export interface SourceOptions {
  /** `--local`: true for the platform's directory, or a directory. */
  local?: string | boolean;
  auditUrl?: string;
  status: StatusLine;
  /** Page size hint (a small --limit asks for small pages). */
  pageSize?: number;
  onWindow?: (w: Window) => void;
}

/** Batches of events matching the query; from the API newest first. */
export async function* eventBatches(
  ctx: Context,
  query: AuditQuery,
  opts: SourceOptions,
): AsyncGenerator<AuditEventObject[]> {
  if (opts.local !== undefined && opts.local !== false) {
    const { localAuditDir, readLocalBatches } = await import('../../audit/local.js');
    const dir = typeof opts.local === 'string' ? opts.local : localAuditDir(ctx.env);
    yield* readLocalBatches(dir, query);
    return;
  }
  const client = await openAuditClient(ctx, { auditUrl: opts.auditUrl, status: opts.status });
  const range = apiRange(query, ctx.clock.now());
  const read: ReadOptions = { pageSize: opts.pageSize, onWindow: opts.onWindow };
  yield* client.pages(query, range, read);
}

// What an audit command asks for: filters and a time range, checked at the edge (one sentence naming
// the value, exit 2, before any request), the range split into the API's 30-day windows, the query
// parameters of a request, and the same filters applied to records read from files. PURE: no IO.
import { UsageError } from '../errors.js';
import { type AuditRecord, decisionValue, ENFORCEMENT_MODES } from './record.js';

export const DAY_MS = 86_400_000;
/** The API's longest range per request (audit-and-mcp.md §1). */
export const WINDOW_MS = 30 * DAY_MS;
const MAX_FILTER_BYTES = 256;

export interface AuditFilters {
  user?: string;
  /** The raw value, `AUDIT_DECISION_…`. */
  decision?: string;
  mode?: string;
  action?: string;
  /** A case-insensitive prefix of the resource id. */
  resource?: string;
  agent?: string;
  session?: string;
  /** The API's `query`: trimmed, 3–256 bytes. */
  search?: string;
}

/** One end of a range: the text sent (RFC 3339) and its milliseconds. */
export interface TimePoint {
  text: string;
  ms: number;
}

export interface AuditQuery {
  filters: AuditFilters;
  /** Both inclusive. Absent: the API's default (its last 30 days), or every record of a file. */
  from?: TimePoint;
  to?: TimePoint;
}

/** The filters as typed (`--decision deny`, not yet its raw value) and the range's words. */
export interface FilterInput extends AuditFilters {
  from?: string;
  to?: string;
  since?: string;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
const DURATION = /^(?:\d{1,6}(?:\.\d{1,3})?[wdhms])+$/;
const UNIT_MS: Record<string, number> = { w: 7 * DAY_MS, d: DAY_MS, h: 3_600_000, m: 60_000, s: 1000 };

function shown(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
}

/** RFC 3339 (`2026-11-01T00:00:00Z`), or a duration meaning "that long before now" (`7d`, `36h`, `1d12h`). */
export function parseTime(value: string, flag: string, now: number): TimePoint {
  const v = value.trim();
  if (RFC3339.test(v)) {
    const text = v.replace(' ', 'T').toUpperCase();
    const ms = Date.parse(text);
    // Date.parse rolls 2026-02-31 over to March; a day the calendar does not have is refused.
    const [y, mo, d] = [Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8, 10))];
    const probe = new Date(Date.UTC(y, mo - 1, d));
    const real = probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
    if (real && !Number.isNaN(ms)) return { text, ms };
  } else if (DURATION.test(v)) {
    let total = 0;
    for (const m of v.matchAll(/(\d+(?:\.\d+)?)([wdhms])/g)) total += Number(m[1]) * UNIT_MS[m[2]!]!;
    if (total <= 100 * 365 * DAY_MS) {
      const ms = Math.round(now - total);
      return { text: new Date(ms).toISOString(), ms };
    }
  }
  throw new UsageError(
    `${flag} ${shown(value)} is not a time: write RFC 3339 (2026-11-01T09:00:00Z) or a duration such as 7d or 36h`,
  );
}

/** Checks the filters and resolves the range; every problem is a UsageError naming the value. */
export function buildQuery(input: FilterInput, now: number): AuditQuery {
  const filters: AuditFilters = {};
  const limitBytes = (flag: string, value: string) => {
    if (Buffer.byteLength(value) > MAX_FILTER_BYTES)
      throw new UsageError(`${flag} ${shown(value)} is longer than ${MAX_FILTER_BYTES} bytes`);
    if (value === '') throw new UsageError(`${flag} cannot be empty`);
    return value;
  };
  if (input.user !== undefined) filters.user = limitBytes('--user', input.user);
  if (input.decision !== undefined) {
    const raw = decisionValue(input.decision);
    if (!raw)
      throw new UsageError(
        `--decision ${shown(input.decision)} is not a decision: use allow, deny, approval-required, approval-allow, approval-deny or an AUDIT_DECISION_… value`,
      );
    filters.decision = raw;
  }
  if (input.mode !== undefined) {
    if (!(ENFORCEMENT_MODES as readonly string[]).includes(input.mode))
      throw new UsageError(`--mode ${shown(input.mode)} is not a mode: use audit, warn or enforce`);
    filters.mode = input.mode;
  }
  if (input.action !== undefined) filters.action = limitBytes('--action', input.action);
  if (input.resource !== undefined) filters.resource = limitBytes('--resource', input.resource);
  if (input.agent !== undefined) filters.agent = limitBytes('--agent', input.agent);
  if (input.session !== undefined) filters.session = limitBytes('--session', input.session);
  if (input.search !== undefined) {
    const trimmed = input.search.trim();
    const n = Buffer.byteLength(trimmed);
    if (n < 3 || n > MAX_FILTER_BYTES)
      throw new UsageError(`--search ${shown(input.search)} must be 3 to 256 bytes (after trimming spaces)`);
    filters.search = trimmed;
  }
  if (input.since !== undefined && input.from !== undefined)
    throw new UsageError('--since is another name for --from: give one of them');
  const fromText = input.from ?? input.since;
  const fromFlag = input.from !== undefined ? '--from' : '--since';
  const from = fromText === undefined ? undefined : parseTime(fromText, fromFlag, now);
  const to = input.to === undefined ? undefined : parseTime(input.to, '--to', now);
  if (from && to && from.ms >= to.ms)
    throw new UsageError(
      `${fromFlag} ${shown(fromText as string)} is not before --to ${shown(input.to as string)}`,
    );
  return { filters, from, to };
}

/**
 * The range the API is asked for: as given; `to` now when only `from` is given; `from` 30 days
 * before `to` when only `to` is; both (the last 30 days) when `--search` needs them; neither
 * otherwise (the API's default).
 */
export function apiRange(q: AuditQuery, now: number): { from?: TimePoint; to?: TimePoint } {
  if (!q.from && !q.to && !q.filters.search) return {};
  const to = q.to ?? { text: new Date(now).toISOString(), ms: now };
  const from = q.from ?? { text: new Date(to.ms - WINDOW_MS).toISOString(), ms: to.ms - WINDOW_MS };
  if (from.ms >= to.ms)
    throw new UsageError(`--from ${JSON.stringify(from.text)} is not before now (${to.text})`);
  return { from, to };
}

export interface Window {
  from?: TimePoint;
  to?: TimePoint;
}

/**
 * Windows of at most 30 days, newest first. Each older window ends at the instant the newer one
 * starts (both bounds are inclusive): an event on that instant comes twice, and the reader drops
 * the second copy (EdgeDedupe), so none is lost however precise the server's times are.
 */
export function* windows(range: { from?: TimePoint; to?: TimePoint }): Generator<Window> {
  const { from, to } = range;
  if (!from || !to) {
    yield {};
    return;
  }
  let end = to;
  for (;;) {
    if (end.ms - from.ms <= WINDOW_MS) {
      yield { from, to: end };
      return;
    }
    const startMs = end.ms - WINDOW_MS;
    const start = { text: new Date(startMs).toISOString(), ms: startMs };
    yield { from: start, to: end };
    end = start;
  }
}

/** The API's query parameters for the filters (the range and paging are added by the client). */
export function filterParams(f: AuditFilters): Record<string, string> {
  const p: Record<string, string> = {};
  if (f.session !== undefined) p.audit_session_id = f.session;
  if (f.user !== undefined) p.username = f.user;
  if (f.decision !== undefined) p.decision = f.decision;
  if (f.mode !== undefined) p.enforcement_mode = f.mode;
  if (f.action !== undefined) p.action_type = f.action;
  if (f.agent !== undefined) p.agent = f.agent;
  if (f.resource !== undefined) p.resource_id = f.resource;
  if (f.search !== undefined) p.query = f.search;
  return p;
}

/**
 * Drops the second copy of an event met twice on a window's edge (or again after a resume): events
 * come newest first, so it keeps the ids seen at the oldest instant so far, and only those.
 */
export class EdgeDedupe {
  private ms = Number.NaN;
  /** The first id at that instant; a set only once a second one comes (most instants hold one). */
  private first: string | undefined;
  private ids: Set<string> | undefined;

  /** Seeds it with what was already written (a resumed export): the oldest instant and its ids. */
  seed(ms: number, ids: Iterable<string>): void {
    this.ms = ms;
    this.first = undefined;
    this.ids = new Set(ids);
  }

  /** Keeps a copy of its own of the id it remembers (it may be a slice of a page's whole text). */
  ownFirst(): void {
    if (this.first !== undefined) this.first = own(this.first);
  }

  /** True when the event was already given; records it otherwise. */
  seen(id: string | undefined, ms: number): boolean {
    if (id === undefined || Number.isNaN(ms)) return false;
    if (ms !== this.ms) {
      if (ms > this.ms) return false;
      this.ms = ms;
      this.first = id;
      this.ids = undefined;
      return false;
    }
    if (id === this.first) return true;
    if (this.ids === undefined) {
      this.ids = new Set();
      if (this.first !== undefined) this.ids.add(own(this.first));
    }
    if (this.ids.has(id)) return true;
    this.ids.add(own(id));
    return false;
  }
}

/**
 * A string of its own: an id read from a page may be a slice of the page's whole text
 * (page-scan.ts), which a burst of events at one instant, kept here across pages, would keep alive
 * page after page.
 */
function own(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}

/** The fields of a record the filters and range look at. */
export type MatchedFields = Pick<
  AuditRecord,
  'timeMs' | 'user' | 'decision' | 'mode' | 'actionType' | 'agent' | 'session' | 'resource' | 'eventType'
>;

/** The same filters and range, for records read from files (`--local`, `--input`). */
export function recordMatches(r: MatchedFields, q: AuditQuery): boolean {
  const f = q.filters;
  if (q.from && !(r.timeMs >= q.from.ms)) return false;
  if (q.to && !(r.timeMs <= q.to.ms)) return false;
  if (f.user !== undefined && r.user !== f.user) return false;
  if (f.decision !== undefined && r.decision !== f.decision) return false;
  if (f.mode !== undefined && r.mode !== f.mode) return false;
  if (f.action !== undefined && r.actionType !== f.action) return false;
  if (f.agent !== undefined && r.agent !== f.agent) return false;
  if (f.session !== undefined && r.session !== f.session) return false;
  if (f.resource !== undefined && !(r.resource ?? '').toLowerCase().startsWith(f.resource.toLowerCase()))
    return false;
  if (f.search !== undefined) {
    const needle = f.search.toLowerCase();
    const hay = [r.user, r.actionType, r.decision, r.eventType];
    if (!hay.some((h) => h?.toLowerCase().includes(needle))) return false;
  }
  return true;
}

/** Whether any filter or bound is set (a reader can skip the check when none is). */
export function hasConditions(q: AuditQuery): boolean {
  return Boolean(q.from || q.to || Object.keys(q.filters).length > 0);
}

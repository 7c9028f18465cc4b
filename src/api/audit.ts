// The Audit Logs API (audit-and-mcp.md §1): `GET {audit_url}/v2/auditlogs/governance/{org}` with the
// raw organization access token as the bearer (never exchanged), bound to the audit API's origin.
// Reads a range as 30-day windows, newest first, following each window's cursor until the empty
// string (the same filters on every page; from/to only on a window's first page, the cursor keeps
// them), dropping the copy of an event met twice on a window's edge. Its own retries, because the
// limits are the organization's: Retry-After or `retry_after_seconds` on a 429, exponential backoff
// with jitter on a gateway's bare 429, 502/503/504, 408 and dropped connections; a 400 never.
// Every request first passes the pacer (src/audit/pacer.ts).

import { isoMs } from '../audit/iso-time.js';
import type { Pacer } from '../audit/pacer.js';
import { scanAuditPage } from '../audit/page-scan.js';
import { type AuditQuery, EdgeDedupe, filterParams, type Window, windows } from '../audit/query.js';
import type { Clock } from '../clock.js';
import { AuthError, NetworkError, UnexpectedAnswerError } from '../errors.js';
import { MAX_ERROR_BYTES } from '../http/body.js';
import { type HttpClient, retryAfterMs } from '../http/client.js';
import { apiErrorFrom } from '../http/errors.js';

export type AuditEventObject = Record<string, unknown>;

export interface AuditPage {
  events: AuditEventObject[];
  next: string;
}

/** Events as NDJSON lines, each exactly as the API gave it (not yet escaped for a terminal). */
export interface AuditLines {
  /**
   * Whole lines, each ending in a newline. The buffer is reused: it holds this batch only until the
   * next one is asked for (a reader writes it at once), which keeps an export's memory flat.
   */
  lines: Buffer;
  count: number;
}

export interface AuditClientOptions {
  http: HttpClient;
  clock: Clock;
  /** `https://api.docker.com`, without a final slash. */
  baseUrl: string;
  org: string;
  /** The organization access token. */
  secret: string;
  pacer: Pacer;
  signal?: AbortSignal;
  /** A sentence for stderr when waiting (a rate limit, a server failing). */
  notice?: (text: string) => void;
  /** First backoff step (default 1 s); doubled each retry, with full jitter, at most a minute. */
  retryBaseMs?: number;
  random?: () => number;
}

export interface ReadOptions {
  /** Events a page is asked for (the server may give fewer); kept the same across a window's pages. */
  pageSize?: number;
  /** Told when a window starts being read (progress). */
  onWindow?: (w: Window) => void;
  /** Seeds the edge dedupe (a resumed export): the oldest written instant and its ids. */
  seed?: { ms: number; ids: string[] };
}

export interface AuditClient {
  readonly org: string;
  /** The audit API's base address. */
  readonly baseUrl: string;
  /** One page; `params` as sent (filters, range or page_token, page_size). */
  page(params: Record<string, string>): Promise<AuditPage>;
  /** The events of a range, newest first, a page at a time (edge copies dropped). */
  pages(
    query: AuditQuery,
    range: { from?: Window['from']; to?: Window['to'] },
    opts?: ReadOptions,
  ): AsyncGenerator<AuditEventObject[]>;
  /** The same events as `pages`, as NDJSON lines of their text as given (`audit export`). */
  lines(
    query: AuditQuery,
    range: { from?: Window['from']; to?: Window['to'] },
    opts?: ReadOptions,
  ): AsyncGenerator<AuditLines>;
}

export const AUDIT_HINT =
  'The audit log needs an organization access token with the "View audit logs" permission: set HUBCTL_AUDIT_TOKEN, or store one with `hubctl auth login --audit`.';

/** The page size asked for: the reference's larger cap; the server gives at most its own. */
export const MAX_PAGE_SIZE = 500;
const MAX_ATTEMPTS = 8;
const MAX_BACKOFF_MS = 60_000;
/** A Retry-After is honoured up to the hourly limit's window. */
const MAX_RETRY_AFTER_MS = 3_600_000;
const PAGE_BYTES = 64 * 1024 * 1024;
const MAX_PAGE_EVENTS = 10_000;
/** Pages of one window: 10 million events at the guide's 100 a page is far past any month. */
const MAX_WINDOW_PAGES = 100_000;
const BACKOFF_STATUSES = new Set([408, 429, 502, 503, 504]);

export function createAuditClient(o: AuditClientOptions): AuditClient {
  const base = `${o.baseUrl}/v2/auditlogs/governance/${encodeURIComponent(o.org)}`;
  const credential = { origin: new URL(o.baseUrl).origin, authorization: `Bearer ${o.secret}` };
  const what = `reading the audit log of ${o.org}`;
  const random = o.random ?? Math.random;
  const baseMs = o.retryBaseMs ?? 1000;
  const host = new URL(o.baseUrl).host;
  const unexpected = (why: string) =>
    new UnexpectedAnswerError(`${what}: unexpected answer from ${host}: ${why}`);

  const backoff = (attempt: number) => Math.round(random() * Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt));

  async function wait(ms: number, why: string): Promise<void> {
    o.notice?.(`${why}: waiting ${formatWait(ms)}`);
    await o.clock.sleep(ms, o.signal);
  }

  async function page(params: Record<string, string>): Promise<AuditPage> {
    return readPage(parseBody(await fetchPage(String(new URLSearchParams(params)))));
  }

  function parseBody(body: Buffer): unknown {
    try {
      return JSON.parse(body.toString('utf8'));
    } catch (err) {
      throw new UnexpectedAnswerError(`${what}: unexpected answer from ${host}: the body is not valid JSON`, {
        cause: err,
      });
    }
  }

  /** A page's body (a 200), after the pacer, with the retries the organization's limits call for. */
  async function fetchPage(query: string): Promise<Buffer> {
    const url = `${base}?${query}`;
    for (let attempt = 0; ; attempt++) {
      await o.pacer.take(o.signal);
      let res: Awaited<ReturnType<HttpClient['request']>>;
      try {
        res = await o.http.request({
          url,
          credential,
          retry: false,
          okStatuses: 'any',
          what,
          signal: o.signal,
          collect: true,
        });
      } catch (err) {
        if (o.signal?.aborted || err instanceof UnexpectedAnswerError || !(err instanceof NetworkError))
          throw err;
        if (attempt + 1 >= MAX_ATTEMPTS) throw err;
        await wait(backoff(attempt), 'the audit API could not be reached');
        continue;
      }
      if (res.status === 200) return res.bytes(PAGE_BYTES);
      const text = await res.text(MAX_ERROR_BYTES).catch(() => '');
      if (BACKOFF_STATUSES.has(res.status) && attempt + 1 < MAX_ATTEMPTS) {
        const told =
          res.status === 429 ? retryAfter(res.headers['retry-after'], text, o.clock.now()) : undefined;
        const ms = told === undefined ? backoff(attempt) : Math.min(told, MAX_RETRY_AFTER_MS);
        await wait(ms, waitReason(res.status, text, told !== undefined));
        continue;
      }
      const error = apiErrorFrom(res.status, text, { url: redacted(url), what });
      if (res.status === 401 || res.status === 403)
        throw new AuthError(error.message, { hint: AUDIT_HINT, cause: error });
      throw error;
    }
  }

  function readPage(body: unknown): AuditPage {
    if (!isObject(body) || !Array.isArray(body.events)) throw unexpected('the answer has no "events" list');
    if (typeof body.next_page_token !== 'string')
      throw unexpected('the answer has no "next_page_token" string');
    if (body.events.length > MAX_PAGE_EVENTS)
      throw unexpected(`a page holds more than ${MAX_PAGE_EVENTS} events`);
    for (const e of body.events) if (!isObject(e)) throw unexpected('an event is not a JSON object');
    return { events: body.events as AuditEventObject[], next: body.next_page_token };
  }

  /**
   * A page as NDJSON lines of the events' own text: read straight from the body when the scanner
   * vouches for it (src/audit/page-scan.ts), else parsed, checked and serialized again.
   */
  async function linesPage(query: string): Promise<Read<LinePage>> {
    const body = await fetchPage(query);
    const scanned = scanAuditPage(body, MAX_PAGE_EVENTS);
    if (scanned) return { page: { text: body, spans: scanned.spans }, ...scanned };
    const { events, next } = readPage(parseBody(body));
    const spans: number[] = [];
    const parts = events.map((e) => Buffer.from(JSON.stringify(e)));
    let size = 0;
    for (const part of parts) {
      spans.push(size, size + part.length);
      size += part.length;
    }
    return { page: { text: Buffer.concat(parts, size), spans }, ...fieldsOf(events), next };
  }

  async function pageRead(query: string): Promise<Read<AuditEventObject[]>> {
    const { events, next } = readPage(parseBody(await fetchPage(query)));
    return { page: events, ...fieldsOf(events), next };
  }

  async function* walk<P>(
    query: AuditQuery,
    range: { from?: Window['from']; to?: Window['to'] },
    opts: ReadOptions,
    read: (query: string) => Promise<Read<P>>,
  ): AsyncGenerator<{ page: P; fresh: number[] | undefined; count: number }> {
    const filters = filterParams(query.filters);
    const pageSize = String(Math.max(1, Math.min(opts.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE)));
    // The query of every page after a window's first: the same filters, then its cursor.
    const rest = String(new URLSearchParams({ ...filters, page_size: pageSize }));
    const dedupe = new EdgeDedupe();
    if (opts.seed) dedupe.seed(opts.seed.ms, opts.seed.ids);
    for (const w of windows(range)) {
      opts.onWindow?.(w);
      const first: Record<string, string> = { ...filters, page_size: pageSize };
      if (w.from) first.from = w.from.text;
      if (w.to) first.to = w.to.text;
      let token = '';
      const seen = new Set<string>();
      for (let n = 0; ; n++) {
        const { page, next, fresh, count } = await keptOf(
          read,
          token === '' ? String(new URLSearchParams(first)) : `${rest}&page_token=${formEncoded(token)}`,
          dedupe,
        );
        if (count > 0) yield { page, fresh, count };
        if (next === '') break;
        if (next === token || seen.has(next)) throw unexpected('a page points back to an earlier page');
        if (n + 1 >= MAX_WINDOW_PAGES) throw unexpected(`a window goes on past ${MAX_WINDOW_PAGES} pages`);
        // Only the last few tokens are kept: a loop longer than that is caught by the page cap.
        if (seen.size > 64) seen.clear();
        seen.add(next);
        token = next;
      }
    }
  }

  async function* pages(
    query: AuditQuery,
    range: { from?: Window['from']; to?: Window['to'] },
    opts: ReadOptions = {},
  ): AsyncGenerator<AuditEventObject[]> {
    for await (const { page: events, fresh } of walk(query, range, opts, pageRead))
      yield fresh ? fresh.map((i) => events[i] as AuditEventObject) : events;
  }

  async function* lines(
    query: AuditQuery,
    range: { from?: Window['from']; to?: Window['to'] },
    opts: ReadOptions = {},
  ): AsyncGenerator<AuditLines> {
    const scratch = { buffer: Buffer.alloc(0) };
    for await (const { page, fresh, count } of walk(query, range, opts, linesPage))
      yield { lines: joinLines(page, fresh, count, scratch), count };
  }

  return { org: o.org, baseUrl: o.baseUrl, page, pages, lines };
}

/** A page as read: its events (in some form), their ids and times, and the cursor. */
interface Read<P> {
  page: P;
  ids: (string | undefined)[];
  times: (string | undefined)[];
  next: string;
}

/** Event i is `text[spans[2i], spans[2i+1])`. */
interface LinePage {
  text: Buffer;
  spans: number[];
}

function fieldsOf(events: AuditEventObject[]): Pick<Read<unknown>, 'ids' | 'times'> {
  const ids: (string | undefined)[] = [];
  const times: (string | undefined)[] = [];
  for (const e of events) {
    ids.push(typeof e.audit_event_id === 'string' ? e.audit_event_id : undefined);
    times.push(typeof e.created_at === 'string' ? e.created_at : undefined);
  }
  return { ids, times };
}

/**
 * A page read, and the indexes of its events to keep (undefined: all), made only once one is
 * dropped (most pages drop none). The page's ids and times stay here: they may be slices of the
 * page's whole text (page-scan.ts), and none of them is kept past the page, so that text does not
 * outlive the page (kept into the next request, it was moved to the old generation: an export's
 * heap grew by ~30 MB).
 */
async function keptOf<P>(
  read: (query: string) => Promise<Read<P>>,
  query: string,
  dedupe: EdgeDedupe,
): Promise<{ page: P; next: string; fresh: number[] | undefined; count: number }> {
  const answer = await read(query);
  const { ids, times } = answer;
  let fresh: number[] | undefined;
  // The last event time read and its milliseconds (neighbouring events often share one).
  let lastTime: string | undefined;
  let lastMs = Number.NaN;
  for (let i = 0; i < ids.length; i++) {
    const time = times[i];
    if (time !== lastTime) {
      lastTime = time;
      // The canonical form (nearly every event) without Date.parse, which cost ~0.25 µs an event.
      lastMs = time === undefined ? Number.NaN : isoMs(time);
      if (Number.isNaN(lastMs) && time !== undefined) lastMs = Date.parse(time);
    }
    if (dedupe.seen(ids[i], lastMs)) {
      fresh ??= Array.from({ length: i }, (_, j) => j);
    } else fresh?.push(i);
  }
  dedupe.ownFirst();
  return { page: answer.page, next: answer.next, fresh, count: fresh ? fresh.length : ids.length };
}

/**
 * The kept events' text, one a line: in the page's own buffer when it allows (the page is this
 * reader's alone and read no more), else in `scratch` (grown when a page needs more).
 */
function joinLines(
  page: LinePage,
  fresh: number[] | undefined,
  count: number,
  scratch: { buffer: Buffer },
): Buffer {
  const { text, spans } = page;
  if (!fresh && count > 0 && spans.length === 2 * count) {
    // Every event kept, one separator byte between them and a byte after the last (the page
    // as the scanner found it: `{…},{…}]`): those bytes become the newlines, in the page's own
    // buffer, and the lines are written from it without a copy.
    const last = spans[2 * count - 1] as number;
    let oneByteGaps = last < text.length;
    for (let k = 1; k < count && oneByteGaps; k++)
      oneByteGaps = (spans[2 * k] as number) - (spans[2 * k - 1] as number) === 1;
    if (oneByteGaps) {
      for (let k = 0; k < count; k++) text[spans[2 * k + 1] as number] = 0x0a;
      return text.subarray(spans[0] as number, last + 1);
    }
  }
  let size = count;
  const at = (k: number) => (fresh ? (fresh[k] as number) : k);
  for (let k = 0; k < count; k++) size += (spans[2 * at(k) + 1] as number) - (spans[2 * at(k)] as number);
  if (scratch.buffer.length < size)
    scratch.buffer = Buffer.allocUnsafe(Math.max(size, 2 * scratch.buffer.length));
  const out = scratch.buffer.subarray(0, size);
  let off = 0;
  for (let k = 0; k < count; k++) {
    const i = at(k);
    off += text.copy(out, off, spans[2 * i] as number, spans[2 * i + 1] as number);
    out[off++] = 0x0a;
  }
  return out;
}

/**
 * A value as URLSearchParams writes it (application/x-www-form-urlencoded): a cursor is nearly
 * always of the characters it leaves as they are, and is then taken whole, without building a
 * URLSearchParams for each page.
 */
export function formEncoded(value: string): string {
  if (/^[\w.*-]*$/.test(value)) return value;
  return String(new URLSearchParams({ v: value })).slice(2);
}

/** Retry-After (seconds or a date), else the body's `retry_after_seconds`. */
function retryAfter(header: string | undefined, text: string, now: number): number | undefined {
  const fromHeader = retryAfterMs(header, now);
  if (fromHeader !== undefined) return fromHeader;
  try {
    const body: unknown = JSON.parse(text);
    if (isObject(body) && typeof body.retry_after_seconds === 'number' && body.retry_after_seconds >= 0)
      return Math.round(body.retry_after_seconds * 1000);
  } catch {
    // A gateway's page: no delay in it.
  }
  return undefined;
}

function waitReason(status: number, text: string, told: boolean): string {
  if (status !== 429) return `the audit API answered ${status}`;
  let scope = '';
  try {
    const body: unknown = JSON.parse(text);
    if (isObject(body) && typeof body.policy === 'string') scope = ` (${body.policy.slice(0, 40)})`;
  } catch {
    // No body to read.
  }
  return told
    ? `the organization's audit API rate limit is reached${scope}`
    : 'the audit API is rate limiting (no delay given, backing off)';
}

export function formatWait(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 120) return `${s} s`;
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** The URL for messages: the page token is the cursor, not a secret, but long; it is cut. */
function redacted(url: string): string {
  return url.replace(/page_token=[^&]{16,}/, (m) => `${m.slice(0, 27)}…`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

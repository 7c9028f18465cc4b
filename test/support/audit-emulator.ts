// The audit API emulator: one node:http server on 127.0.0.1 that answers
// `GET /v2/auditlogs/governance/{org}` as audit-and-mcp.md §1 describes it, strictly:
// - the raw organization access token as the bearer (a PAT, a JWT or an unknown token: 401; another
//   organization's token: 403);
// - `from`/`to` RFC 3339, both inclusive, `from` < `to`, at most 30 days; `to` defaults to now and
//   `from` to `to` − 30 days; `query` needs both and 3–256 bytes after trimming; `resource_id` and
//   `agent` at most 256 bytes; `enforcement_mode` one of audit/warn/enforce; a negative page_size is
//   refused, 0 is the default (25), more than the cap gives the cap;
// - a cursor bound to its range and filters: a later page may leave out from/to, but what it sends
//   must match, or 400; the last page's `next_page_token` is the empty string;
// - errors as `{"error": "…"}`; the application's 429 with `code: "rate_limit_exceeded"`,
//   `retry_after_seconds` and Retry-After (100 a minute and 1,000 an hour per organization, 600 a
//   minute per client address, each settable); a gateway's bare 429 through `fail()`.
// Every request is recorded.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FaultQueue, type FaultStep, type RecordedRequest, send, sleep } from './hub-emulator/http.js';

export type { FaultStep, RecordedRequest };

export const AUDIT_PATH = '/v2/auditlogs/governance/';
const DAY = 86_400_000;
const MAX_RANGE_MS = 30 * DAY;

export interface AuditEvent {
  audit_event_id: string;
  org_id: string;
  event_type: string;
  created_at: string;
  payload: Record<string, unknown>;
  [field: string]: unknown;
}

export interface AuditEmulatorOptions {
  /** Organizations and their OATs (default: `acme` with `hub_oat_acme-audit`, `other` with `hub_oat_other-audit`). */
  tokens?: Record<string, string>;
  /** Events per organization, any order (kept newest first). */
  events?: Record<string, AuditEvent[]>;
  /** "Now" for the default `to` (default: the real clock). */
  now?: () => number;
  /** The most events a page holds (default 100). */
  pageSizeCap?: number;
  /** Requests a minute per organization (default 100), per client address (600), an hour per organization (1,000). */
  perMinute?: number;
  perAddressMinute?: number;
  perHour?: number;
  /** Milliseconds added before every answer. */
  latencyMs?: number;
  /**
   * Text appended to every cursor (and required back, byte for byte): an opaque cursor with
   * characters a query must encode (`+`, `/`, `=`, `&`, `%`, spaces, non-ASCII).
   */
  cursorSuffix?: string;
}

export interface AuditEmulator {
  url: string;
  requests: RecordedRequest[];
  /** The page requests (those that reached the listing, not refused). */
  clearRequests(): void;
  /** Adds events to an organization (tail tests). */
  addEvents(org: string, events: AuditEvent[]): void;
  /** The next requests matching get these answers first (a gateway 429, a 503, a 408, a drop). */
  fail(steps: FaultStep[], times?: number): void;
  close(): Promise<void>;
}

export const DEFAULT_AUDIT_TOKENS: Record<string, string> = {
  'hub_oat_acme-audit-0001': 'acme',
  'hub_oat_other-audit-0002': 'other',
};

const FILTERS = [
  'audit_session_id',
  'username',
  'decision',
  'enforcement_mode',
  'action_type',
  'agent',
  'resource_id',
  'query',
] as const;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

interface Cursor {
  offset: number;
  key: string;
  from: string;
  to: string;
}

/** Time as comparable nanoseconds-ish: ms plus the sub-millisecond digits, so bounds are exact. */
function instant(text: string): bigint {
  const m = /\.(\d{1,9})/.exec(text);
  const frac = (m?.[1] ?? '').padEnd(9, '0');
  const ms = Date.parse(text.replace(/\.\d+/, ''));
  return BigInt(ms) * 1_000_000n + BigInt(frac);
}

function eventInstant(e: AuditEvent): bigint {
  return instant(e.created_at);
}

export async function startAuditEmulator(options: AuditEmulatorOptions = {}): Promise<AuditEmulator> {
  const tokens = options.tokens ?? DEFAULT_AUDIT_TOKENS;
  const now = options.now ?? Date.now;
  const cap = options.pageSizeCap ?? 100;
  const limits = {
    minute: options.perMinute ?? 100,
    address: options.perAddressMinute ?? 600,
    hour: options.perHour ?? 1000,
  };
  const byOrg = new Map<string, { list: AuditEvent[]; at: bigint[] }>();
  const addEvents = (org: string, events: AuditEvent[]) => {
    const prior = byOrg.get(org)?.list ?? [];
    const list = [...prior, ...events].sort((a, b) => {
      const d = eventInstant(b) - eventInstant(a);
      return d > 0n ? 1 : d < 0n ? -1 : a.audit_event_id < b.audit_event_id ? -1 : 1;
    });
    byOrg.set(org, { list, at: list.map(eventInstant) });
  };
  for (const [org, events] of Object.entries(options.events ?? {})) addEvents(org, events);

  const requests: RecordedRequest[] = [];
  const faults = new FaultQueue();
  const orgHits = new Map<string, number[]>();
  const addressHits = new Map<string, number[]>();

  const error = (res: ServerResponse, status: number, message: string, headers?: Record<string, string>) =>
    send(res, status, { error: message }, headers);

  function overLimit(res: ServerResponse, org: string, address: string): boolean {
    const t = Date.now();
    const orgAll = (orgHits.get(org) ?? []).filter((h) => h > t - 3_600_000);
    orgHits.set(org, orgAll);
    const addr = (addressHits.get(address) ?? []).filter((h) => h > t - 60_000);
    addressHits.set(address, addr);
    const checks: [string, string, number[], number, number][] = [
      ['org_minute', 'organization', orgAll.filter((h) => h > t - 60_000), limits.minute, 60],
      ['org_hour', 'organization', orgAll, limits.hour, 3600],
      ['address_minute', 'client', addr, limits.address, 60],
    ];
    for (const [policy, scope, hits, limit, windowSeconds] of checks) {
      if (hits.length >= limit) {
        const retry = Math.max(1, Math.ceil((hits[hits.length - limit]! + windowSeconds * 1000 - t) / 1000));
        send(
          res,
          429,
          {
            error: 'rate limit exceeded',
            code: 'rate_limit_exceeded',
            policy,
            scope,
            limit,
            window_seconds: windowSeconds,
            retry_after_seconds: retry,
          },
          { 'retry-after': String(retry) },
        );
        return true;
      }
    }
    return false;
  }

  function record(org: string, address: string) {
    const t = Date.now();
    orgHits.set(org, [...(orgHits.get(org) ?? []), t]);
    addressHits.set(address, [...(addressHits.get(address) ?? []), t]);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const entry: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: '',
    };
    requests.push(entry);
    if (options.latencyMs) await sleep(options.latencyMs);
    const fault = faults.take(entry.method, entry.path);
    if (fault) {
      entry.injected = true;
      if ('drop' in fault) {
        req.socket.destroy();
        return;
      }
      if (fault.delayMs) await sleep(fault.delayMs);
      if ('status' in fault) {
        send(res, fault.status, fault.body, fault.headers);
        return;
      }
    }
    if (entry.method !== 'GET' || !url.pathname.startsWith(AUDIT_PATH)) {
      return error(res, 404, 'not found');
    }
    const org = decodeURIComponent(url.pathname.slice(AUDIT_PATH.length));

    // Authentication: the raw OAT, nothing else.
    const auth = req.headers.authorization ?? '';
    const bearer = /^Bearer (\S+)$/.exec(auth)?.[1];
    if (!bearer) return error(res, 401, 'missing bearer token');
    if (/^(hub|dckr)_pat_/.test(bearer)) return error(res, 401, 'personal access tokens are not accepted');
    if (/^[\w-]+\.[\w-]+\.[\w-]+$/.test(bearer)) return error(res, 401, 'JWTs are not accepted');
    const tokenOrg = tokens[bearer];
    if (!tokenOrg || !/^(hub|dckr)_oat_/.test(bearer)) return error(res, 401, 'invalid or expired token');
    if (tokenOrg !== org) return error(res, 403, 'the token does not belong to this organization');

    const address = req.socket.remoteAddress ?? '';
    if (overLimit(res, org, address)) return;
    record(org, address);

    const q = url.searchParams;
    for (const [k] of q) {
      if (![...FILTERS, 'from', 'to', 'page_size', 'page_token'].includes(k))
        return error(res, 400, `unknown parameter ${k}`);
      if (q.getAll(k).length > 1) return error(res, 400, `parameter ${k} given more than once`);
    }
    const fromText = q.get('from');
    const toText = q.get('to');
    for (const [name, v] of [
      ['from', fromText],
      ['to', toText],
    ] as const) {
      if (v !== null && (!RFC3339.test(v) || Number.isNaN(Date.parse(v.replace(/\.\d+/, '')))))
        return error(res, 400, `invalid ${name}: must be RFC 3339`);
    }
    const pageSizeText = q.get('page_size');
    let pageSize = 25;
    if (pageSizeText !== null) {
      if (!/^-?\d+$/.test(pageSizeText)) return error(res, 400, 'invalid page_size');
      const n = Number(pageSizeText);
      if (n < 0) return error(res, 400, 'page_size must not be negative');
      pageSize = n === 0 ? 25 : Math.min(n, cap);
    }
    const filters: Record<string, string> = {};
    for (const f of FILTERS) {
      const v = q.get(f);
      if (v !== null) filters[f] = v;
    }
    for (const f of ['resource_id', 'agent'] as const) {
      if (filters[f] !== undefined && Buffer.byteLength(filters[f]!) > 256)
        return error(res, 400, `${f} is longer than 256 bytes`);
    }
    const mode = filters.enforcement_mode;
    if (mode !== undefined && !['audit', 'warn', 'enforce'].includes(mode))
      return error(res, 400, 'invalid enforcement_mode');
    if (filters.query !== undefined) {
      const n = Buffer.byteLength(filters.query.trim());
      if (n < 3 || n > 256) return error(res, 400, 'query must be 3 to 256 bytes');
    }

    const token = q.get('page_token');
    let cursor: Cursor | undefined;
    if (token !== null && token !== '') {
      const suffix = options.cursorSuffix ?? '';
      if (!token.endsWith(suffix)) return error(res, 400, 'invalid page_token');
      try {
        cursor = JSON.parse(
          Buffer.from(token.slice(0, token.length - suffix.length), 'base64url').toString('utf8'),
        ) as Cursor;
      } catch {
        return error(res, 400, 'invalid page_token');
      }
      if (typeof cursor?.offset !== 'number' || typeof cursor.key !== 'string')
        return error(res, 400, 'invalid page_token');
    }

    let from: string;
    let to: string;
    if (cursor) {
      if ((fromText !== null && fromText !== cursor.from) || (toText !== null && toText !== cursor.to))
        return error(res, 400, 'page_token does not match the time range');
      from = cursor.from;
      to = cursor.to;
    } else {
      if (filters.query !== undefined && (fromText === null || toText === null))
        return error(res, 400, 'query requires from and to');
      to = toText ?? new Date(now()).toISOString();
      from = fromText ?? new Date(Date.parse(to.replace(/\.\d+/, '')) - MAX_RANGE_MS).toISOString();
    }
    const lo = instant(from);
    const hi = instant(to);
    if (lo >= hi) return error(res, 400, 'from must be before to');
    if (hi - lo > BigInt(MAX_RANGE_MS) * 1_000_000n)
      return error(res, 400, 'the time range must not exceed 30 days');
    const key = createHash('sha256')
      .update(JSON.stringify([org, from, to, filters]))
      .digest('hex');
    if (cursor && cursor.key !== key) return error(res, 400, 'page_token does not match the filters');

    const store = byOrg.get(org) ?? { list: [], at: [] };
    const matches: AuditEvent[] = [];
    // The cursor holds where the previous page stopped in the ordered list (and the range and
    // filters it belongs to): a page costs its own events, not a scan from the start.
    let i = cursor?.offset ?? 0;
    let more = false;
    for (; i < store.list.length; i++) {
      const at = store.at[i]!;
      if (at > hi) continue;
      if (at < lo) break;
      const e = store.list[i]!;
      if (!matchesFilters(e, filters)) continue;
      if (matches.length === pageSize) {
        more = true;
        break;
      }
      matches.push(e);
    }
    const next = more
      ? Buffer.from(JSON.stringify({ offset: i, key, from, to })).toString('base64url') +
        (options.cursorSuffix ?? '')
      : '';
    send(res, 200, { events: matches, next_page_token: next });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) error(res, 500, String(err));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    clearRequests: () => {
      requests.length = 0;
    },
    addEvents,
    fail: (steps, times = 1) => {
      faults.add({ path: /^\/v2\/auditlogs\//, times }, steps);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The API's filters, as the reference describes them. */
export function matchesFilters(e: AuditEvent, f: Record<string, string>): boolean {
  const p = e.payload ?? {};
  if (f.audit_session_id !== undefined && e.audit_session_id !== f.audit_session_id) return false;
  if (f.username !== undefined && e.username !== f.username) return false;
  if (f.decision !== undefined && e.decision !== f.decision) return false;
  if (f.enforcement_mode !== undefined && e.enforcement_mode !== f.enforcement_mode) return false;
  if (f.action_type !== undefined && e.action_type !== f.action_type) return false;
  if (f.agent !== undefined && p.agent !== f.agent) return false;
  if (
    f.resource_id !== undefined &&
    !String(p.resource_id ?? '')
      .toLowerCase()
      .startsWith(f.resource_id.toLowerCase())
  )
    return false;
  if (f.query !== undefined) {
    const needle = f.query.trim().toLowerCase();
    const hay = [e.username, e.action_type, e.decision, e.event_type].map((v) =>
      typeof v === 'string' ? v.toLowerCase() : '',
    );
    if (!hay.some((h) => h.includes(needle))) return false;
  }
  return true;
}

// ---- Deterministic events ----

const USERS = ['alice', 'bob', 'carol', 'dave', 'mallory\u001b]0;pwned\u0007', 'erin'];
const AGENTS = ['claude', 'codex', 'gemini', 'cursor'];
const DECISIONS = [
  'AUDIT_DECISION_ALLOW',
  'AUDIT_DECISION_ALLOW',
  'AUDIT_DECISION_DENY',
  'AUDIT_DECISION_APPROVAL_REQUIRED',
  'AUDIT_DECISION_APPROVAL_ALLOW',
  'AUDIT_DECISION_APPROVAL_DENY',
];
const MODES = ['enforce', 'enforce', 'warn', 'audit'];
const ACTIONS = ['network_egress', 'http_request', 'filesystem_mount', 'tool_invocation', 'session'];
const RESOURCES = [
  'example.com:443',
  'api.github.com:443',
  'Registry.NPMjs.org:443',
  '/home/dev/project',
  'evil.test\u001b[2J:80',
  'pypi.org:443',
];

export const AUDIT_ORG_ID = '7f000001-0000-4000-8000-00000000a0a0';

function uuid(n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `0b9f3f0e-0000-4000-8000-${hex}`;
}

/** One event of the deterministic set: field values from its number. */
export function auditEvent(n: number, createdAt: string): AuditEvent {
  // A small mixing so neighbours differ in every field.
  const h = (n * 2654435761) >>> 0;
  const action = ACTIONS[h % ACTIONS.length]!;
  const resource = RESOURCES[(h >>> 3) % RESOURCES.length]!;
  const decision = DECISIONS[(h >>> 6) % DECISIONS.length]!;
  const payload: Record<string, unknown> = {
    resource_id: resource,
    agent: AGENTS[(h >>> 9) % AGENTS.length],
  };
  if (decision === 'AUDIT_DECISION_DENY') payload.deny_reason = ['no rule allows it'];
  if (action === 'network_egress') payload.network_egress = { protocol: 'tcp' };
  if (action === 'http_request')
    payload.http_request = { method: 'HTTP_METHOD_GET', host: 'example.com', port: '443', path: '/x' };
  return {
    audit_event_id: uuid(n),
    org_id: AUDIT_ORG_ID,
    event_type: action,
    category: 'AUDIT_CATEGORY_EVALUATION',
    decision,
    action_type: action,
    enforcement_mode: MODES[(h >>> 12) % MODES.length],
    audit_session_id: `sess-${(h >>> 15) % 7}`,
    username: USERS[(h >>> 18) % USERS.length],
    created_at: createdAt,
    ingested_at: createdAt,
    payload,
  };
}

export interface AuditFixture {
  /** The fixture's "now": the newest event is a little before it. */
  anchor: number;
  events: AuditEvent[];
  /** Window edges (anchor − k·30 days) that hold an event exactly, and the burst's instant. */
  edges: string[];
  burstAt: string;
  burstSize: number;
}

/**
 * `count` events spread evenly over `days` before `anchor`, plus, exactly on the edges of the
 * 30-day windows counted back from `anchor` (anchor − 30 d, anchor − 60 d…), one event each, and a
 * burst of `burstSize` events sharing the first edge's instant.
 */
export function auditFixture(anchor: number, count = 300, days = 75, burstSize = 7): AuditFixture {
  const events: AuditEvent[] = [];
  const step = Math.floor((days * DAY) / count);
  for (let i = 0; i < count; i++) {
    // Odd milliseconds and a little offset keep ordinary events off the edges.
    events.push(auditEvent(i + 1, new Date(anchor - 7_777 - i * step).toISOString()));
  }
  const edges: string[] = [];
  let n = count + 1;
  for (let k = 1; k * 30 <= days; k++) {
    const at = new Date(anchor - k * 30 * DAY).toISOString();
    edges.push(at);
    events.push(auditEvent(n++, at));
  }
  const burstAt = edges[0] ?? new Date(anchor - DAY).toISOString();
  for (let i = 0; i < burstSize; i++) events.push(auditEvent(n++, burstAt));
  return { anchor, events, edges, burstAt, burstSize };
}

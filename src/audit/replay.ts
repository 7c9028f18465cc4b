// `policy replay`: which recorded audit events a policy set can decide again, as which request, and
// what changes between two sets. PURE: no IO; the caller feeds lines and reads the report.
//
// Replayable (audit-and-mcp.md §1): `network_egress` → `connect:<protocol> <resource_id>`;
// `http_request` → `request:<method> https://host:port/path`. Everything else is counted under a
// fixed reason and never guessed: management and execution records, MCP and filesystem events
// (their payload fields are not documented), and events missing what a request needs.
import { isAscii } from 'node:buffer';
import { ValidationError } from '../errors.js';
import { type CompiledPolicySet, type EvalResult, Evaluator } from '../policy/index.js';
import { ByteKeys, MAX_KEY_BYTES } from './byte-keys.js';
import { EventFieldReader, type ReplayEvent, SPAN } from './event-fields.js';
import { isoMs, isoText } from './iso-time.js';
import { detached, readAuditRecord } from './record.js';

export const SKIP = {
  notJson: 'not JSON',
  notObject: 'not a JSON object',
  tooLong: 'line over the length cap',
  management: 'management record',
  execution: 'execution record (what happened after a decision)',
  mcp: 'MCP event (payload fields not documented)',
  filesystem: 'filesystem event (payload fields not documented)',
  other: 'event type not replayable',
  unknownType: 'unknown or missing action type',
  egressFields: 'network_egress without resource_id or protocol',
  egressProtocol: 'network_egress protocol neither tcp nor udp',
  httpFields: 'http_request without method, host, port or path',
  httpMethod: 'http_request method unknown',
  undecidable: 'request the evaluator refuses',
} as const;

const MCP_TYPES = new Set(['tool_invocation', 'resource_read', 'server_registration', 'prompt']);
const MANAGEMENT_TYPES = new Set(['session', 'policy_sync', 'policy_action']);
const OTHER_TYPES = new Set(['pii_detection', 'c_score_report']);
const METHODS = ['get', 'post', 'put', 'delete', 'patch', 'head', 'options', 'connect', 'trace'];
/** `HTTP_METHOD_GET` → `request:get`: one string each, not one per event. */
const ACTION_OF_METHOD = new Map(METHODS.map((m) => [`HTTP_METHOD_${m.toUpperCase()}`, `request:${m}`]));
const ACTION_OF_PROTOCOL = new Map([
  ['tcp', 'connect:tcp'],
  ['udp', 'connect:udp'],
]);

/** ACTION_OF_METHOD.get, the usual methods compared first (a string read from a line has no hash yet). */
function actionOfMethod(method: string): string | undefined {
  if (method === 'HTTP_METHOD_GET') return 'request:get';
  if (method === 'HTTP_METHOD_POST') return 'request:post';
  return ACTION_OF_METHOD.get(method);
}

export interface ReplayRequest {
  action: string;
  destination: string;
}

/** The request an audit record stands for, or the reason (a SKIP value) it is not replayed. */
export function requestOf(r: ReplayEvent): ReplayRequest | string {
  const action = actionOf(r);
  return ACTIONS.has(action) ? { action, destination: destinationOf(r, action) } : action;
}

/** Every action actionOf gives (and no SKIP value). */
const ACTIONS: ReadonlySet<string> = new Set([...ACTION_OF_PROTOCOL.values(), ...ACTION_OF_METHOD.values()]);

/**
 * The action of the request an audit record stands for, or the reason (a SKIP value) it is not
 * replayed: requestOf without the destination, which a request decided before does not need.
 */
function actionOf(r: ReplayEvent): string {
  const category = r.category;
  if (category === 'AUDIT_CATEGORY_MANAGEMENT') return SKIP.management;
  if (category === 'AUDIT_CATEGORY_EXECUTION') return SKIP.execution;
  const type = r.actionType ?? r.eventType;
  if (type === 'network_egress') {
    const protocol = r.networkEgress?.protocol;
    const resource = r.resource;
    if (protocol === undefined || resource === undefined || resource === '') return SKIP.egressFields;
    const action =
      protocol === 'tcp'
        ? 'connect:tcp'
        : (ACTION_OF_PROTOCOL.get(protocol) ?? ACTION_OF_PROTOCOL.get(protocol.toLowerCase()));
    return action ?? SKIP.egressProtocol;
  }
  if (type === 'http_request') {
    const h = r.httpRequest;
    if (!h?.method || !h.host || !h.port || h.path === undefined) return SKIP.httpFields;
    return actionOfMethod(h.method) ?? SKIP.httpMethod;
  }
  if (type === undefined) return SKIP.unknownType;
  if (type.endsWith('_execution')) return SKIP.execution;
  if (MCP_TYPES.has(type)) return SKIP.mcp;
  if (type === 'filesystem_mount') return SKIP.filesystem;
  if (MANAGEMENT_TYPES.has(type)) return SKIP.management;
  if (OTHER_TYPES.has(type)) return SKIP.other;
  return SKIP.unknownType;
}

/** The destination of a record actionOf gave an action: its resource, or its HTTP request's URL. */
function destinationOf(r: ReplayEvent, action: string): string {
  if (action.startsWith('connect:')) return r.resource!;
  const h = r.httpRequest!;
  // an IPv6 host is recorded without brackets
  const host = h.host!.includes(':') && !h.host!.startsWith('[') ? `[${h.host}]` : h.host!;
  const path = h.path!.startsWith('/') ? h.path! : `/${h.path}`;
  return `https://${host}:${h.port}${path}`;
}

/** `allow`/`deny` for a recorded AUDIT_DECISION_ALLOW/DENY; undefined for any other. */
function recordedDecision(value: string | undefined): 'allow' | 'deny' | undefined {
  return value === 'AUDIT_DECISION_ALLOW' ? 'allow' : value === 'AUDIT_DECISION_DENY' ? 'deny' : undefined;
}

export interface RuleRef {
  policy: string;
  rule: string;
}

/** Distinct names kept per group; past it the group says so (`users_capped`). */
export const MAX_NAMES = 1000;
/** Names held by every group together (a bound on memory whatever the input's size). */
export const MAX_HELD = 2_000_000;
/** Groups kept (changes and drift each); events of further groups are counted, not grouped. */
export const MAX_GROUPS = 100_000;
/**
 * Decisions cached (action and destination, or for HTTP action, host, port and path) → both results;
 * the cache is emptied when full.
 */
const MAX_CACHE = 200_000;
/** The bytes the decisions found by bytes may take (their keys: up to MAX_KEY_BYTES each) before it is emptied. */
const MAX_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * A name kept apart from the event line it was read from (a substring of a line keeps the whole line
 * alive): each distinct name is copied once.
 */
class Names {
  private readonly pool = new Map<string, string>();
  /** Names held by all groups together: past MAX_HELD, groups count events but add no name. */
  held = 0;
  keep(name: string): string {
    let kept = this.pool.get(name);
    if (kept === undefined) {
      kept = detached(name);
      if (this.pool.size < MAX_GROUPS) this.pool.set(kept, kept);
    }
    return kept;
  }
}

class Group {
  count = 0;
  users = new Set<string>();
  agents = new Set<string>();
  usersCapped = false;
  agentsCapped = false;
  // The first and last events' times: milliseconds, and the string as given unless it is canonical
  // (iso-time.ts: then made again from the milliseconds, in its length) — no copy of it to make.
  firstMs = Number.POSITIVE_INFINITY;
  private firstText: string | undefined;
  private firstLength = 0;
  lastMs = Number.NEGATIVE_INFINITY;
  private lastText: string | undefined;
  private lastLength = 0;
  constructor(
    readonly action: string,
    readonly resource: string,
    readonly before: EvalResult,
    readonly after: EvalResult,
    readonly recorded?: 'allow' | 'deny',
  ) {}

  add(r: ReplayEvent, names: Names): void {
    this.count++;
    const user = r.user;
    if (user !== undefined && !this.users.has(user)) {
      if (this.users.size < MAX_NAMES && names.held < MAX_HELD) {
        this.users.add(names.keep(user));
        names.held++;
      } else this.usersCapped = true;
    }
    const agent = r.agent;
    if (agent !== undefined && !this.agents.has(agent)) {
      if (this.agents.size < MAX_NAMES && names.held < MAX_HELD) {
        this.agents.add(names.keep(agent));
        names.held++;
      } else this.agentsCapped = true;
    }
    const time = r.time;
    if (time === undefined) return;
    // readAuditRecord's timeMs: NaN (never first or last) when unreadable
    let t = isoMs(time);
    const canonical = !Number.isNaN(t);
    if (!canonical) t = Date.parse(time);
    if (t < this.firstMs) {
      this.firstMs = t;
      this.firstText = canonical ? undefined : detached(time);
      this.firstLength = time.length;
    }
    if (t > this.lastMs) {
      this.lastMs = t;
      this.lastText = canonical ? undefined : detached(time);
      this.lastLength = time.length;
    }
  }

  get first(): string | undefined {
    if (this.firstMs === Number.POSITIVE_INFINITY) return undefined;
    return this.firstText ?? isoText(this.firstMs, this.firstLength === 24);
  }

  get last(): string | undefined {
    if (this.lastMs === Number.NEGATIVE_INFINITY) return undefined;
    return this.lastText ?? isoText(this.lastMs, this.lastLength === 24);
  }
}

const rulesOf = (r: EvalResult): RuleRef[] => r.matched.map((m) => ({ policy: m.policy, rule: m.rule }));

export interface ChangeJson {
  resource: string;
  action: string;
  before: string;
  after: string;
  count: number;
  users: string[];
  agents: string[];
  users_capped?: true;
  agents_capped?: true;
  first: string | null;
  last: string | null;
  rules: { before: RuleRef[]; after: RuleRef[] };
  reasons: { before: string; after: string };
}

export interface DriftJson {
  resource: string;
  action: string;
  recorded: string;
  baseline: string;
  count: number;
  users: string[];
  agents: string[];
  first: string | null;
  last: string | null;
  rules: RuleRef[];
}

export interface ReplayReport {
  read: number;
  replayed: number;
  skipped: Record<string, number>;
  changes: ChangeJson[];
  drift: { count: number; groups: DriftJson[] };
  /** Events in groups past MAX_GROUPS: counted in their totals, not listed. */
  ungrouped: { changes: number; drift: number };
  /** The first line not JSON (1-based, per input), for the message. */
  firstBadLine?: { input: string; line: number };
}

/** The map under `key` in `m`, made when missing (its key copied out of the line). */
function level<V>(m: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let inner = m.get(key);
  if (inner === undefined) {
    inner = new Map();
    m.set(detached(key), inner);
  }
  return inner;
}

/** A record's numbers (byte-keys.ts): its FLAGS, and its ENTRY's index. */
const FLAGS = 0;
const ENTRY = 1;
/** FLAGS: the baseline's decision (BEFORE: ALLOW, DENY, or 0 for another), CHANGED, UNDECIDED. */
const ALLOW = 1;
const DENY = 2;
const BEFORE = 3;
const CHANGED = 4;
const UNDECIDED = 8;

/** One request's decisions, and its groups once an event has needed them. */
interface Entry {
  before: EvalResult;
  after: EvalResult;
  /** undefined: not looked up yet; null: none (past MAX_GROUPS). */
  change: Group | null | undefined;
  drift: Group | null | undefined;
}

const byCount = <T extends { count: number; resource: string; action: string }>(a: T, b: T) =>
  b.count - a.count ||
  (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : a.action < b.action ? -1 : 1);

/** Decides recorded events under a baseline and a candidate set; feed lines, then `report()`. */
export class Replayer {
  /** action → destination → decisions (or why not decided); emptied when it holds MAX_CACHE. */
  private readonly cache = new Map<string, Map<string, Entry | string>>();
  /**
   * The same for HTTP requests, by action, then host, port and path as recorded: the URL they make
   * is a slow key (a string built of pieces, hashed whole at each lookup); emptied with `cache`.
   */
  private readonly http = new Map<string, Map<string, Map<string, Map<string, Entry | string>>>>();
  private cached = 0;
  /**
   * The same for the events read in place, by the bytes of their requests: each record holds FLAGS
   * and the index of its ENTRY in `entries`; both emptied when they hold MAX_CACHE.
   */
  private readonly keys = new ByteKeys();
  private readonly entries: (Entry | string)[] = [];
  private readonly changes = new Map<string, Group>();
  private readonly drift = new Map<string, Group>();
  private readonly skipped = new Map<string, number>();
  private readonly names = new Names();
  private readonly fields = new EventFieldReader();
  private read = 0;
  private replayed = 0;
  private driftCount = 0;
  private ungroupedChanges = 0;
  private ungroupedDrift = 0;
  private firstBad: { input: string; line: number } | undefined;

  /** An evaluator of each set: its own scratch space, so the two never share one. */
  private readonly before: Evaluator;
  private readonly after: Evaluator;

  /** `cacheBytes`: what the decisions found by bytes may take before they are emptied (smaller in tests). */
  constructor(
    baseline: CompiledPolicySet,
    candidate: CompiledPolicySet,
    private readonly cacheBytes = MAX_CACHE_BYTES,
  ) {
    this.before = new Evaluator(baseline);
    this.after = new Evaluator(candidate);
  }

  skip(reason: string): void {
    this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + 1);
  }

  /** A line over the cap (its text was not kept). */
  tooLong(): void {
    this.read++;
    this.skip(SKIP.tooLong);
  }

  /**
   * One NDJSON line, text[start, end) (a blank line is no event), with the text's bytes when they are
   * ASCII (LineSink.lineIn). Its fields are read in place when the line is in the simple form
   * EventFieldReader reads; any other line is parsed whole.
   */
  lineIn(
    text: string,
    start: number,
    end: number,
    input: string,
    lineNo: number,
    ascii: Uint8Array | null,
  ): void {
    if (start === end) return;
    const ev = this.fields.read(text, start, end, ascii);
    if (ev === undefined) {
      this.parse(text.slice(start, end), input, lineNo);
      return;
    }
    this.read++;
    const action = actionOf(ev);
    if (!ACTIONS.has(action)) {
      this.skip(action);
      return;
    }
    const record = this.recordRead(action, ev);
    if (record < 0) {
      this.counted(this.entryOf(action, ev), action, ev);
      return;
    }
    // most events neither change nor drift: their record's flags say so, without the entry
    const flags = this.keys.data(record, FLAGS);
    if ((flags & (CHANGED | UNDECIDED)) === 0) {
      const recorded = ev.decision;
      const code =
        recorded === 'AUDIT_DECISION_ALLOW' ? ALLOW : recorded === 'AUDIT_DECISION_DENY' ? DENY : 0;
      if (code === 0 || code === (flags & BEFORE)) {
        this.replayed++;
        return;
      }
    }
    this.counted(this.entries[this.keys.data(record, ENTRY)]!, action, ev);
  }

  /** One NDJSON line (a blank line is no event). */
  line(text: string, input: string, lineNo: number): void {
    // UTF-8 encodes a character that is not ASCII in bytes that are not either
    const bytes = Buffer.from(text, 'utf8');
    this.lineIn(text, 0, text.length, input, lineNo, isAscii(bytes) ? bytes : null);
  }

  /** A line read with JSON.parse and readAuditRecord. */
  private parse(text: string, input: string, lineNo: number): void {
    if (text.length === 0 || (text.length < 3 && text.trim() === '')) return;
    this.read++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (text.trim() === '') {
        this.read--;
        return;
      }
      this.firstBad ??= { input, line: lineNo };
      this.skip(SKIP.notJson);
      return;
    }
    const rec = readAuditRecord(value);
    if ('invalid' in rec) {
      this.skip(SKIP.notObject);
      return;
    }
    this.record(rec);
  }

  record(rec: ReplayEvent): void {
    const action = actionOf(rec);
    if (!ACTIONS.has(action)) {
      this.skip(action);
      return;
    }
    this.counted(this.entryOf(action, rec), action, rec);
  }

  /** An event of a replayable action, with its request's decisions (or why it has none). */
  private counted(entry: Entry | string, action: string, rec: ReplayEvent): void {
    if (typeof entry === 'string') {
      this.skip(entry);
      return;
    }
    this.replayed++;
    if (entry.before.decision !== entry.after.decision) {
      if (entry.change === undefined) entry.change = this.group(this.changes, entry, action, rec, undefined);
      if (entry.change === null) this.ungroupedChanges++;
      else entry.change.add(rec, this.names);
    }
    const recorded = recordedDecision(rec.decision);
    if (recorded !== undefined && recorded !== entry.before.decision) {
      this.driftCount++;
      if (entry.drift === undefined) entry.drift = this.group(this.drift, entry, action, rec, recorded);
      if (entry.drift === null) this.ungroupedDrift++;
      else entry.drift.add(rec, this.names);
    }
  }

  /** The decisions of a request, from the cache or decided now (and cached). */
  private entryOf(action: string, rec: ReplayEvent): Entry | string {
    if (this.cached >= MAX_CACHE) {
      this.cache.clear();
      this.http.clear();
      this.cached = 0;
    }
    let byKey: Map<string, Entry | string>;
    let key: string;
    if (action.startsWith('connect:')) {
      byKey = level(this.cache, action);
      key = rec.resource!;
    } else {
      // actionOf found every field of the HTTP request
      const h = rec.httpRequest!;
      byKey = level(level(level(this.http, action), h.host!), h.port!);
      key = h.path!;
    }
    let entry = byKey.get(key);
    if (entry === undefined) {
      entry = this.decide({ action, destination: destinationOf(rec, action) });
      byKey.set(detached(key), entry);
      this.cached++;
    }
    return entry;
  }

  /**
   * The record (byte-keys.ts) of the request of the event the reader has just read, found by the
   * bytes it is read from (the protocol and resource, or the HTTP request's method, host, port and
   * path), decided now when new; -1 for a key too long to keep so (or a range not read).
   */
  private recordRead(action: string, rec: ReplayEvent): number {
    const f = this.fields;
    // actionOf found every field the request needs
    let tag: number;
    let a: number;
    let b: number;
    let c = -1;
    let d = -1;
    if (action.startsWith('connect:')) {
      tag = 1;
      a = f.spanField(SPAN.protocol);
      b = f.spanField(SPAN.resource);
    } else {
      tag = 2;
      a = f.spanField(SPAN.method);
      b = f.spanField(SPAN.host);
      c = f.spanField(SPAN.port);
      d = f.spanField(SPAN.path);
    }
    // (actionOf found each of them: never so, but a range not read is no key)
    if (a < 0 || b < 0 || (tag === 2 && (c < 0 || d < 0))) return -1;
    const s0 = f.start(a);
    const e0 = f.end(a);
    const s1 = f.start(b);
    const e1 = f.end(b);
    const s2 = tag === 1 ? 0 : f.start(c);
    const e2 = tag === 1 ? 0 : f.end(c);
    const s3 = tag === 1 ? 0 : f.start(d);
    const e3 = tag === 1 ? 0 : f.end(d);
    if (e0 - s0 + (e1 - s1) + (e2 - s2) + (e3 - s3) > MAX_KEY_BYTES) return -1;
    const keys = this.keys;
    const bytes = f.bytes;
    let record = keys.find(tag, bytes, s0, e0, s1, e1, s2, e2, s3, e3);
    if (record >= 0) return record;
    if (keys.size >= MAX_CACHE || keys.bytesUsed >= this.cacheBytes) {
      keys.clear();
      this.entries.length = 0;
      keys.find(tag, bytes, s0, e0, s1, e1, s2, e2, s3, e3);
    }
    const entry = this.decide({ action, destination: destinationOf(rec, action) });
    record = keys.add(tag, bytes, s0, e0, s1, e1, s2, e2, s3, e3);
    keys.setData(record, ENTRY, this.entries.length);
    this.entries.push(entry);
    keys.setData(
      record,
      FLAGS,
      typeof entry === 'string'
        ? UNDECIDED
        : (entry.before.decision !== entry.after.decision ? CHANGED : 0) |
            (entry.before.decision === 'allow' ? ALLOW : entry.before.decision === 'deny' ? DENY : 0),
    );
    return record;
  }

  /** The group of a request (made on its first event), or null past MAX_GROUPS. */
  private group(
    groups: Map<string, Group>,
    e: Entry,
    action: string,
    rec: ReplayEvent,
    recorded: 'allow' | 'deny' | undefined,
  ): Group | null {
    const req = { action, destination: destinationOf(rec, action) };
    const key = `${req.action} ${req.destination}`;
    let g = groups.get(key);
    if (g === undefined) {
      if (groups.size >= MAX_GROUPS) return null;
      const destination = detached(req.destination);
      g =
        recorded === undefined
          ? new Group(req.action, destination, e.before, e.after)
          : new Group(req.action, destination, e.before, e.before, recorded);
      groups.set(detached(key), g);
    }
    return g;
  }

  private decide(req: ReplayRequest): Entry | string {
    try {
      // evaluate's MIXED results are made anew each time: both are kept as they are
      const before = this.before.evaluate(req.action, req.destination);
      const after = this.after.evaluate(req.action, req.destination);
      return {
        before,
        after,
        change: undefined,
        drift: undefined,
      };
    } catch (err) {
      if (err instanceof ValidationError) return SKIP.undecidable;
      throw err;
    }
  }

  report(): ReplayReport {
    const names = (s: Set<string>) => [...s].sort();
    const changes: ChangeJson[] = [...this.changes.values()].map((g) => {
      const c: ChangeJson = {
        resource: g.resource,
        action: g.action,
        before: g.before.decision,
        after: g.after.decision,
        count: g.count,
        users: names(g.users),
        agents: names(g.agents),
        first: g.first ?? null,
        last: g.last ?? null,
        rules: { before: rulesOf(g.before), after: rulesOf(g.after) },
        reasons: { before: g.before.reason, after: g.after.reason },
      };
      if (g.usersCapped) c.users_capped = true;
      if (g.agentsCapped) c.agents_capped = true;
      return c;
    });
    // newly denied first, then newly allowed; within each, most events first
    const denied = changes.filter((c) => c.after === 'deny').sort(byCount);
    const allowed = changes.filter((c) => c.after !== 'deny').sort(byCount);
    const drift: DriftJson[] = [...this.drift.values()]
      .map((g) => ({
        resource: g.resource,
        action: g.action,
        recorded: g.recorded!,
        baseline: g.before.decision,
        count: g.count,
        users: names(g.users),
        agents: names(g.agents),
        first: g.first ?? null,
        last: g.last ?? null,
        rules: rulesOf(g.before),
      }))
      .sort(byCount);
    const skipped: Record<string, number> = {};
    for (const [k, v] of [...this.skipped.entries()].sort((a, b) => b[1] - a[1])) skipped[k] = v;
    const out: ReplayReport = {
      read: this.read,
      replayed: this.replayed,
      skipped,
      changes: [...denied, ...allowed],
      drift: { count: this.driftCount, groups: drift },
      ungrouped: { changes: this.ungroupedChanges, drift: this.ungroupedDrift },
    };
    if (this.firstBad) out.firstBadLine = this.firstBad;
    return out;
  }
}

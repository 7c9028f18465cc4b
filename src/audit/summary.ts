// Counting audit events per group (`audit summary --by …`): the count, the allowed/denied split, and
// the time range the events cover. PURE: records in, groups out; bounded (past MAX_GROUPS distinct
// values, the rest are counted together).
import { decisionName, detached } from './record.js';

export const SUMMARY_KEYS = ['resource', 'user', 'agent', 'decision', 'action', 'session', 'mode'] as const;
export type SummaryKey = (typeof SUMMARY_KEYS)[number];

export const MAX_GROUPS = 100_000;
/** The value of the group holding what did not fit (and `(none)` for events without the field). */
export const OVERFLOW = '(other values)';

export interface SummaryGroup {
  /** The group's value; null for events without it. */
  value: string | null;
  count: number;
  /** AUDIT_DECISION_ALLOW and _APPROVAL_ALLOW. */
  allowed: number;
  /** AUDIT_DECISION_DENY and _APPROVAL_DENY. */
  denied: number;
  approvalRequired: number;
  /** Any other decision, or none. */
  other: number;
}

export interface Summary {
  groups: SummaryGroup[];
  events: number;
  /** The oldest and newest event times (RFC 3339 as given), when any had one. */
  oldest?: string;
  newest?: string;
  /** True when more than MAX_GROUPS values were met. */
  overflowed: boolean;
}

type Obj = Record<string, unknown>;

function field(e: Obj, key: string): unknown {
  const p = e.payload;
  if (typeof p === 'object' && p !== null && !Array.isArray(p)) {
    const v = (p as Obj)[key];
    if (v !== undefined) return v;
  }
  return e[key];
}

/** The group value of an event in either shape (the API's nested payload, the local flat record). */
export function groupValue(e: Obj, by: SummaryKey): string | undefined {
  let v: unknown;
  switch (by) {
    case 'resource':
      v = field(e, 'resource_id');
      break;
    case 'agent':
      v = field(e, 'agent');
      break;
    case 'user':
      v = typeof e.username === 'string' ? e.username : e.user_email;
      break;
    case 'decision':
      v = typeof e.decision === 'string' ? decisionName(e.decision) : undefined;
      break;
    case 'action':
      v = e.action_type;
      break;
    case 'session':
      v = e.audit_session_id;
      break;
    case 'mode':
      v = e.enforcement_mode;
      break;
  }
  return typeof v === 'string' ? v : undefined;
}

export class SummaryCounter {
  private readonly groups = new Map<string | null, SummaryGroup>();
  private events = 0;
  private oldest?: string;
  private newest?: string;
  private overflowed = false;

  constructor(private readonly by: SummaryKey) {}

  add(e: Obj): void {
    const t = typeof e.created_at === 'string' ? e.created_at : e.timestamp;
    this.count(groupValue(e, this.by), e.decision, typeof t === 'string' ? t : undefined);
  }

  /**
   * One event: its group's value (groupValue), its raw decision and its time. The value may be a
   * view of a larger string (a block of lines read in place): a new group keeps a copy of it alone.
   */
  count(groupOf: string | undefined, decision: unknown, time: string | undefined): void {
    this.events++;
    let value: string | null = groupOf ?? null;
    let g = this.groups.get(value);
    if (!g) {
      if (this.groups.size >= MAX_GROUPS) {
        this.overflowed = true;
        value = OVERFLOW;
        g = this.groups.get(value);
      }
      if (!g) {
        if (value !== null) value = detached(value);
        g = { value, count: 0, allowed: 0, denied: 0, approvalRequired: 0, other: 0 };
        this.groups.set(value, g);
      }
    }
    g.count++;
    switch (decision) {
      case 'AUDIT_DECISION_ALLOW':
      case 'AUDIT_DECISION_APPROVAL_ALLOW':
        g.allowed++;
        break;
      case 'AUDIT_DECISION_DENY':
      case 'AUDIT_DECISION_APPROVAL_DENY':
        g.denied++;
        break;
      case 'AUDIT_DECISION_APPROVAL_REQUIRED':
        g.approvalRequired++;
        break;
      default:
        g.other++;
    }
    if (time !== undefined) this.time(time);
  }

  private time(t: string): void {
    // Most times share one shape (UTC, the same precision): compared as text, no Date.parse.
    if (
      this.oldest !== undefined &&
      this.newest !== undefined &&
      utcLike(t, this.oldest) &&
      utcLike(t, this.newest)
    ) {
      if (t < this.oldest) this.oldest = t;
      else if (t > this.newest) this.newest = t;
      return;
    }
    const ms = Date.parse(t);
    if (Number.isNaN(ms)) return;
    if (this.oldest === undefined || ms < Date.parse(this.oldest)) this.oldest = t;
    if (this.newest === undefined || ms > Date.parse(this.newest)) this.newest = t;
  }

  result(): Summary {
    const groups = [...this.groups.values()].sort(
      (a, b) =>
        b.count - a.count ||
        (a.value === null ? 1 : 0) - (b.value === null ? 1 : 0) ||
        (a.value ?? '').localeCompare(b.value ?? ''),
    );
    return {
      groups,
      events: this.events,
      oldest: this.oldest,
      newest: this.newest,
      overflowed: this.overflowed,
    };
  }
}

/**
 * `a` and `b` are RFC 3339 UTC times of one shape (same length, `YYYY-MM-DDTHH:MM:SS…Z`), whose
 * text order is their time order.
 */
function utcLike(a: string, b: string): boolean {
  return (
    a.length === b.length &&
    a.charCodeAt(a.length - 1) === 90 &&
    b.charCodeAt(b.length - 1) === 90 &&
    a.charCodeAt(4) === 45 &&
    a.charCodeAt(10) === 84 &&
    a.charCodeAt(13) === 58
  );
}

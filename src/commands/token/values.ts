// Token values checked at the edge: scopes, labels, uuids and expiry (decisions §5).
import { UsageError } from '../../errors.js';

export const SCOPES = ['repo:admin', 'repo:write', 'repo:read', 'repo:public_read'] as const;

export function checkScopes(scopes: string[]): string[] {
  if (scopes.length === 0) throw new UsageError(`at least one --scope is required (${SCOPES.join(', ')})`);
  for (const scope of scopes) {
    if (!(SCOPES as readonly string[]).includes(scope)) {
      throw new UsageError(`unknown scope "${scope}"; the scopes are ${SCOPES.join(', ')}`);
    }
  }
  return [...new Set(scopes)];
}

export function checkLabel(label: string): string {
  if (label.length < 1 || label.length > 100) {
    throw new UsageError(`--label must be 1 to 100 characters (got ${label.length})`);
  }
  return label;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A token named by UUID (lower-cased) or by label (resolved against the server in resolve.ts). */
export function checkTokenRef(value: string): string {
  if (UUID.test(value)) return value.toLowerCase();
  if (value.length < 1 || value.length > 100) {
    throw new UsageError(`"${value}" is neither a token UUID nor a label (1 to 100 characters)`);
  }
  return value;
}

/** `--expiring 14d`: a window from now, in ms (at most ten years). */
export function parseWindow(value: string, flag: string): number {
  const m = /^(\d{1,6})\s*([mhdw])$/i.exec(value.trim());
  const ms = m ? Number(m[1]) * UNITS[m[2]!.toLowerCase()]! : Number.NaN;
  if (!(ms > 0) || ms > 3650 * UNITS.d!) {
    throw new UsageError(`${flag} takes a duration of up to ten years (14d, 12h, 2w), not "${value}"`);
  }
  return ms;
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
/** The furthest expiry accepted: 100 years (durations and dates alike; bounded, never 1e+23 days). */
const MAX_AHEAD_MS = 100 * 365 * 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/** `30d`, `12h`, `2w`, `45m`, or a date (`2027-01-31`) or date-time; must lie in the future. */
export function parseExpiry(value: string, now: number): string {
  const text = value.trim();
  const shown = text.length > 40 ? `${text.slice(0, 37)}...` : text;
  const duration = /^(\d{1,12})\s*([mhdw])$/i.exec(text);
  const date = DATE.exec(text);
  let at: number;
  if (duration) {
    at = now + Number(duration[1]) * UNITS[duration[2]!.toLowerCase()]!;
  } else if (date) {
    const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
    // Date.parse rolls 2027-02-30 over to March 2: a day the calendar does not have is refused.
    const probe = new Date(Date.UTC(year, month - 1, day));
    if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day)
      throw new UsageError(`--expires ${shown} is not a calendar date`);
    at = Date.parse(text.replace(' ', 'T'));
  } else if (/^\d+\s*[mhdw]$/i.test(text)) {
    at = Number.POSITIVE_INFINITY;
  } else {
    at = Number.NaN;
  }
  if (Number.isNaN(at)) {
    throw new UsageError(`--expires takes a duration (30d, 12h, 2w) or a date (2027-01-31), not "${shown}"`);
  }
  if (at <= now) throw new UsageError(`--expires must lie in the future (got ${shown})`);
  if (at - now > MAX_AHEAD_MS) throw new UsageError(`--expires ${shown} is too far away: at most 100 years`);
  return new Date(at).toISOString();
}

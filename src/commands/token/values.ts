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

/** `30d`, `12h`, `2w`, `45m`, or a date (`2027-01-31`) or date-time; must lie in the future. */
export function parseExpiry(value: string, now: number): string {
  const duration = /^(\d+)\s*([mhdw])$/i.exec(value.trim());
  let at: number;
  if (duration) {
    at = now + Number(duration[1]) * UNITS[duration[2]!.toLowerCase()]!;
  } else if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim())) {
    at = Date.parse(value.trim().replace(' ', 'T'));
  } else {
    at = Number.NaN;
  }
  if (Number.isNaN(at)) {
    throw new UsageError(`--expires takes a duration (30d, 12h, 2w) or a date (2027-01-31), not "${value}"`);
  }
  if (at <= now) throw new UsageError(`--expires must lie in the future (got ${value})`);
  return new Date(at).toISOString();
}

// One audit record, whichever shape it came in (audit-and-mcp.md §1 and §2). PURE: no IO.
//
// The Audit Logs API gives `{audit_event_id, created_at, username, payload: {resource_id, agent, …}}`;
// the sandbox daemon's local files give a flat record (`timestamp`, `user_email`, `resource_id` and
// `network_egress`/`http_request` at the top level). Readers (`audit list --local`, `audit summary`,
// `policy replay`) normalize both here and keep the original object for output "exactly as given".
// Unknown fields and unknown enum values are data, never errors.

export const AUDIT_DECISIONS = {
  allow: 'AUDIT_DECISION_ALLOW',
  deny: 'AUDIT_DECISION_DENY',
  'approval-required': 'AUDIT_DECISION_APPROVAL_REQUIRED',
  'approval-allow': 'AUDIT_DECISION_APPROVAL_ALLOW',
  'approval-deny': 'AUDIT_DECISION_APPROVAL_DENY',
} as const;
export type AuditDecisionName = keyof typeof AUDIT_DECISIONS;

export const ENFORCEMENT_MODES = ['audit', 'warn', 'enforce'] as const;

export const ACTION_TYPES = [
  'session',
  'network_egress',
  'http_request',
  'filesystem_mount',
  'tool_invocation',
  'resource_read',
  'server_registration',
  'prompt',
  'network_egress_execution',
  'filesystem_mount_execution',
  'tool_execution',
  'resource_read_execution',
  'prompt_execution',
  'policy_sync',
  'pii_detection',
  'c_score_report',
  'policy_action',
] as const;

/** `deny` → `AUDIT_DECISION_DENY`; a raw `AUDIT_DECISION_…` value is kept; anything else: undefined. */
export function decisionValue(input: string): string | undefined {
  if (Object.hasOwn(AUDIT_DECISIONS, input)) return AUDIT_DECISIONS[input as AuditDecisionName];
  const upper = input.toUpperCase();
  return (Object.values(AUDIT_DECISIONS) as string[]).includes(upper) ? upper : undefined;
}

/** `AUDIT_DECISION_APPROVAL_REQUIRED` → `approval-required`; an unknown value is returned as it is. */
export function decisionName(value: string): string {
  return DECISION_NAMES.get(value) ?? value;
}

/** Each raw decision's name (the raw values are distinct). */
const DECISION_NAMES = new Map<string, string>(
  Object.entries(AUDIT_DECISIONS).map(([name, raw]) => [raw, name]),
);

/**
 * A copy of a string that holds nothing else alive: a string read from a line may be a view of the
 * line, or of the block of lines decoded with it, which it would keep in memory. (V8 makes the
 * concatenation one new flat string to slice it: the slice holds that copy alone. JSON.parse of
 * JSON.stringify copies too, at four times the cost.)
 */
export const detached = (s: string): string => `${s} `.slice(0, -1);

export interface HttpRequestFields {
  /** `HTTP_METHOD_GET` on the wire; kept as given. */
  method?: string;
  host?: string;
  /** A string on the wire. */
  port?: string;
  path?: string;
}

export interface AuditRecord {
  /** `audit_event_id`, when the record has one (local records may not). */
  id?: string;
  /** `created_at` (API) or `timestamp` (local), as given. */
  time?: string;
  /** `time` in milliseconds since the epoch; NaN when missing or unreadable. */
  timeMs: number;
  eventType?: string;
  category?: string;
  /** The raw decision (`AUDIT_DECISION_…`). */
  decision?: string;
  actionType?: string;
  /** `enforcement_mode`. */
  mode?: string;
  session?: string;
  /** `username` (API), else `user_email` (local). */
  user?: string;
  resource?: string;
  agent?: string;
  denyReason?: string[];
  networkEgress?: { protocol?: string };
  httpRequest?: HttpRequestFields;
  /** Where the record came from: the API's nested shape or the local flat one. */
  shape: 'api' | 'local';
  /** The object as it was read, for output exactly as given. */
  raw: Record<string, unknown>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function textOrNumber(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function strings(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter((v): v is string => typeof v === 'string');
}

/**
 * Reads one audit record. Returns a reason (a short phrase) instead when the value is not a record at
 * all (not an object); every other oddity is kept as data.
 */
export function readAuditRecord(value: unknown): AuditRecord | { invalid: string } {
  if (!isObject(value)) return { invalid: 'not a JSON object' };
  const nested = isObject(value.payload);
  const payload: Record<string, unknown> = nested ? (value.payload as Record<string, unknown>) : value;
  const pick = (key: string): unknown => (payload[key] !== undefined ? payload[key] : value[key]);
  const time = text(value.created_at) ?? text(value.timestamp);
  const egress = pick('network_egress');
  const http = pick('http_request');
  return {
    id: text(value.audit_event_id),
    time,
    timeMs: time === undefined ? Number.NaN : Date.parse(time),
    eventType: text(value.event_type),
    category: text(value.category),
    decision: text(value.decision),
    actionType: text(value.action_type),
    mode: text(value.enforcement_mode),
    session: text(value.audit_session_id),
    user: text(value.username) ?? text(value.user_email),
    resource: text(pick('resource_id')),
    agent: text(pick('agent')),
    denyReason: strings(pick('deny_reason')),
    networkEgress: isObject(egress) ? { protocol: text(egress.protocol) } : undefined,
    httpRequest: isObject(http)
      ? {
          method: text(http.method),
          host: text(http.host),
          port: textOrNumber(http.port),
          path: text(http.path),
        }
      : undefined,
    shape: nested || value.created_at !== undefined ? 'api' : 'local',
    raw: value,
  };
}

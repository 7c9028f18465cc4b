// Schemas of the hub's JSON answers, as interface.md (and decisions.md where it speaks of the live
// service) documents them: the governance API, access tokens, the token exchange. Objects are
// loose: fields of newer API versions (`http_resources`, `cedar_v1`, `next_page_token`, …) pass
// through as they came, while every field hubctl reads is checked. Types say what hubctl relies on.
// The wire types live here, beside their schemas, and the clients re-export them: a client imports
// its schemas, so a schema file that imported the clients' types would close an import loop.
import type {
  Policy as GovPolicy,
  PolicySummary as GovPolicySummary,
  Rule as GovRule,
} from '../policy/index.js';
import { ID_TEXT, object, v } from './answer.js';

export interface AccessToken {
  uuid: string;
  client_id?: string;
  token_label: string;
  scopes: string[];
  token?: string;
  is_active: boolean;
  created_at: string;
  expires_at?: string | null;
  last_used?: string | null;
  generated_by?: string;
  creator_ip?: string;
  creator_ua?: string;
}

export interface AccessTokenPage {
  active_count?: number;
  count: number;
  next: string | null;
  previous: string | null;
  results: AccessToken[];
}

export interface Team {
  uuid: string;
  name: string;
  id?: number;
  description?: string | null;
  member_count?: number | null;
  role?: string | null;
}

const text = v.string();
/**
 * Ids go into URL paths and tables: letters, digits and `. _ ~ : -` (nothing a path or a terminal
 * reads otherwise: no `/`, `%`, `?`, `#`, `\`, space or control character), never `.` or `..`,
 * at most 256. An empty one is as wrong as a missing one.
 */
const id = v.pipe(
  v.string(),
  v.minLength(1, 'expected a non-empty string'),
  v.regex(
    ID_TEXT,
    'an id must be 1 to 256 letters, digits, ".", "_", "~", ":" or "-", and not "." or ".." (ids go into URL paths)',
  ),
);
const strings = v.array(v.string());

// ---- governance -------------------------------------------------------------------------------

const scope = object({ teams: v.optional(strings) });

/** A rule names `resources` (interface.md) or, in the HTTP rules of the current API, `http_resources`. */
const rule = v.pipe(
  object({
    id,
    name: text,
    actions: strings,
    decision: v.picklist(['allow', 'deny']),
    resources: v.optional(strings),
    // HTTP rules (issue 14): {host, port?, path}, checked again when a policy is parsed.
    http_resources: v.optional(v.array(object({ host: text, port: v.optional(v.number()), path: text }))),
  }),
  v.check(
    (r) => r.resources !== undefined || r.http_resources !== undefined,
    'a rule with neither resources nor http_resources',
  ),
);

const policyFields = {
  id,
  name: text,
  org: text,
  scope,
  created_at: text,
  updated_at: text,
};

/** Policy: `allowlist_v0` only when it has rules; other rule sets (`cedar_v1`) pass through. */
const policy = object({
  ...policyFields,
  allowlist_v0: v.nullish(
    object({ domain: v.optional(v.picklist(['network', 'filesystem'])), rules: v.array(rule) }),
  ),
  cedar_v1: v.nullish(object({ text, schema_url: v.nullish(v.string()) })),
});

/** PolicySummary: `type` names the rule-set format, `allowlist_v0` or another (`cedar_v1`). */
const policySummary = object({ ...policyFields, type: text });

// The wire types are src/policy/model.ts's: a rule has `resources` or `http_resources`.
export const PolicyAnswer = policy as unknown as v.GenericSchema<unknown, GovPolicy>;
export const RuleAnswer = rule as unknown as v.GenericSchema<unknown, GovRule>;
export const PolicyListAnswer = object({
  data: v.array(policySummary as unknown as v.GenericSchema<unknown, GovPolicySummary>),
  next_page_token: v.nullish(v.string()),
});
export const PolicyUpdateAnswer = object({ old: PolicyAnswer, new: PolicyAnswer });
export const PolicyDeleteAnswer = object({ deleted: PolicyAnswer });
export const RuleUpdateAnswer = object({ old: RuleAnswer, new: RuleAnswer });
export const RuleDeleteAnswer = object({ deleted: RuleAnswer });

// ---- access tokens ----------------------------------------------------------------------------

const optionalText = v.optional(v.string());
const tokenEntries = {
  uuid: id,
  client_id: optionalText,
  token_label: text,
  scopes: strings,
  token: optionalText,
  is_active: v.boolean(),
  created_at: text,
  expires_at: v.nullish(v.string()),
  last_used: v.nullish(v.string()),
  generated_by: optionalText,
  creator_ip: optionalText,
  creator_ua: optionalText,
};
const accessToken = object(tokenEntries);

export const AccessTokenAnswer = accessToken as v.GenericSchema<unknown, AccessToken>;
/** The creation answer is the one place the secret comes back: it must be there. */
export const CreatedAccessTokenAnswer = object({
  ...tokenEntries,
  token: v.pipe(v.string(), v.minLength(1, 'expected a non-empty string')),
}) as v.GenericSchema<unknown, AccessToken & { token: string }>;
export const AccessTokenPageAnswer = object({
  active_count: v.optional(v.number()),
  count: v.number(),
  next: v.nullish(v.string(), null),
  previous: v.nullish(v.string(), null),
  results: v.array(AccessTokenAnswer),
}) as v.GenericSchema<unknown, AccessTokenPage>;

// ---- token exchange ---------------------------------------------------------------------------

/** The JWT comes as `access_token` or `token` (decisions §2); one of them must be a non-empty string. */
export const TokenExchangeAnswer = v.pipe(
  object({ access_token: v.nullish(v.string()), token: v.nullish(v.string()) }),
  v.check((b) => Boolean(b.access_token || b.token), 'no token in access_token or token'),
  v.transform((b) => (b.access_token || b.token) as string),
);

// ---- teams (the hub's groups) -----------------------------------------------------------------

const team = object({
  uuid: v.pipe(v.string(), v.minLength(1, 'expected a non-empty string')),
  name: v.string(),
  id: v.optional(v.number()),
  description: v.nullish(v.string()),
  member_count: v.nullish(v.number()),
  role: v.nullish(v.string()),
});
export const TeamAnswer = team as v.GenericSchema<unknown, Team>;
export const TeamPageAnswer = object({
  count: v.optional(v.number()),
  next: v.nullish(v.string(), null),
  previous: v.nullish(v.string(), null),
  results: v.array(TeamAnswer),
}) as v.GenericSchema<unknown, { count?: number; next: string | null; results: Team[] }>;

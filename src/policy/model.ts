// Wire types of the governance API (interface.md "Resources and their fields") and the small
// helpers every policy consumer needs. Pure: no IO.

export type Domain = 'network' | 'filesystem';
export type Decision = 'allow' | 'deny';

export const DOMAINS: readonly Domain[] = ['network', 'filesystem'];
export const DECISIONS: readonly Decision[] = ['allow', 'deny'];

/** HTTP (L7) actions: network domain, matched against `http_resources` (issue 14). */
export const HTTP_ACTIONS: readonly string[] = [
  'request:get',
  'request:post',
  'request:put',
  'request:delete',
  'request:patch',
  'request:head',
  'request:options',
  'request:connect',
  'request:trace',
];

/** The actions hubctl knows, by domain (interface.md "Actions by domain", plus HTTP actions). */
export const KNOWN_ACTIONS: Readonly<Record<Domain, readonly string[]>> = {
  network: ['connect:tcp', 'connect:udp', ...HTTP_ACTIONS],
  filesystem: ['read', 'write'],
};

const HTTP_ACTION_SET: ReadonlySet<string> = new Set(HTTP_ACTIONS);

/** True for `request:get` … `request:trace`. */
export function isHttpAction(action: string): boolean {
  return HTTP_ACTION_SET.has(action);
}

/** Domain of a known action, or undefined for an action hubctl does not know. */
export function domainOfAction(action: string): Domain | undefined {
  if (action === 'connect:tcp' || action === 'connect:udp') return 'network';
  if (action === 'read' || action === 'write') return 'filesystem';
  if (HTTP_ACTION_SET.has(action)) return 'network';
  return undefined;
}

/**
 * One HTTP resource of an HTTP rule: a host without scheme or port (the network host forms), a
 * port 1–65535 (absent: every port), and a canonical path starting with `/` (`*` one segment,
 * `**` any depth).
 */
export interface HttpResource {
  host: string;
  port?: number;
  path: string;
}

/** The text of a policy in the Cedar language, with the URL of the schema it is written against. */
export interface CedarV1 {
  text: string;
  /** Absent when the policy names no schema. */
  schema_url?: string;
}

export interface Rule {
  id: string;
  name: string;
  actions: string[];
  decision: Decision;
  /** Network or filesystem resources; absent on an HTTP rule. */
  resources?: string[];
  /** HTTP resources of an HTTP rule (`request:*` actions), in place of `resources`. */
  http_resources?: HttpResource[];
  /** Fields of newer API versions are kept as they came. */
  [extra: string]: unknown;
}

/** True when the rule is an HTTP (L7) rule: it carries `http_resources`. */
export function isHttpRule(rule: { http_resources?: unknown; [k: string]: unknown }): boolean {
  return rule.http_resources !== undefined && rule.http_resources !== null;
}

/** `host[:port]path`, the one-line text of an HTTP resource (tables, plans, messages). */
export function httpResourceText(r: HttpResource): string {
  return `${r.host}${r.port === undefined ? '' : `:${r.port}`}${r.path}`;
}

/** The resources of any rule as text: its resources, or its HTTP resources as `host[:port]path`. */
export function resourceTexts(rule: { resources?: unknown; http_resources?: unknown }): string[] {
  if (Array.isArray(rule.http_resources)) {
    return rule.http_resources.map((r) =>
      r !== null && typeof r === 'object' ? httpResourceText(r as HttpResource) : String(r),
    );
  }
  return Array.isArray(rule.resources) ? rule.resources.map(String) : [];
}

export interface AllowlistV0 {
  domain?: Domain;
  rules: Rule[];
}

export interface Scope {
  teams?: string[];
}

/** What a policy and its summary in a list share. */
export interface PolicyHeader {
  id: string;
  name: string;
  org: string;
  scope: Scope;
  created_at: string;
  updated_at: string;
}

export interface Policy extends PolicyHeader {
  allowlist_v0?: AllowlistV0;
  /** A Cedar policy, in place of `allowlist_v0` (`type: cedar_v1` in summaries). */
  cedar_v1?: CedarV1;
  /** Other rule-set formats and fields of newer API versions, kept as they came. */
  [extra: string]: unknown;
}

export interface PolicySummary extends PolicyHeader {
  /** The rule-set format: `allowlist_v0` (interface.md), or another such as `cedar_v1`. */
  type: string;
  [extra: string]: unknown;
}

const RULE_SET_KEY = /^[a-z][a-z0-9]*_v\d+$/;

/**
 * The rule-set format of a policy or summary: `allowlist_v0`, or the name of another rule set it
 * carries (`cedar_v1`). A policy with no rule set at all is an allowlist with no rules
 * (decisions §3).
 */
export function policyType(p: { type?: unknown; [k: string]: unknown }): string {
  if (p.allowlist_v0 !== undefined && p.allowlist_v0 !== null) return 'allowlist_v0';
  for (const key of Object.keys(p)) {
    const v = p[key];
    if (RULE_SET_KEY.test(key) && v !== null && typeof v === 'object') return key;
  }
  if (typeof p.type === 'string' && p.type !== '') return p.type;
  return 'allowlist_v0';
}

/** The allowlist rules of a policy; empty when it has none or holds another rule-set type. */
export function rulesOf(p: { allowlist_v0?: AllowlistV0 | null; [k: string]: unknown }): Rule[] {
  const set = p.allowlist_v0;
  return set && Array.isArray(set.rules) ? set.rules : [];
}

/** Domain of a policy: its `allowlist_v0.domain`, else derived from its first rule with known actions. */
export function policyDomain(p: {
  allowlist_v0?: AllowlistV0 | null;
  [k: string]: unknown;
}): Domain | undefined {
  const set = p.allowlist_v0;
  if (set?.domain === 'network' || set?.domain === 'filesystem') return set.domain;
  for (const r of rulesOf(p)) {
    for (const a of Array.isArray(r.actions) ? r.actions : []) {
      const d = domainOfAction(a);
      if (d) return d;
    }
  }
  return undefined;
}

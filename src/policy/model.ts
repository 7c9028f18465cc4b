// Wire types of the governance API (interface.md "Resources and their fields") and the small
// helpers every policy consumer needs. Pure: no IO.

export type Domain = 'network' | 'filesystem';
export type Decision = 'allow' | 'deny';

export const DOMAINS: readonly Domain[] = ['network', 'filesystem'];
export const DECISIONS: readonly Decision[] = ['allow', 'deny'];

/** The actions hubctl knows, by domain (interface.md "Actions by domain"). */
export const KNOWN_ACTIONS: Readonly<Record<Domain, readonly string[]>> = {
  network: ['connect:tcp', 'connect:udp'],
  filesystem: ['read', 'write'],
};

/** Domain of a known action, or undefined for an action hubctl does not know (`request:get`). */
export function domainOfAction(action: string): Domain | undefined {
  if (action === 'connect:tcp' || action === 'connect:udp') return 'network';
  if (action === 'read' || action === 'write') return 'filesystem';
  return undefined;
}

export interface Rule {
  id: string;
  name: string;
  actions: string[];
  decision: Decision;
  resources: string[];
  /** Fields of newer API versions (`http_resources`, …) are kept as they came. */
  [extra: string]: unknown;
}

export interface AllowlistV0 {
  domain?: Domain;
  rules: Rule[];
}

export interface Scope {
  teams?: string[];
}

export interface Policy {
  id: string;
  name: string;
  org: string;
  scope: Scope;
  created_at: string;
  updated_at: string;
  allowlist_v0?: AllowlistV0;
  /** Other rule-set formats (`cedar_v1`, …) and fields of newer API versions, kept as they came. */
  [extra: string]: unknown;
}

export interface PolicySummary {
  id: string;
  name: string;
  org: string;
  scope: Scope;
  created_at: string;
  updated_at: string;
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

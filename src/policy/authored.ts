// The authoring form of a policy as governance-as-code reads and writes it: name, scope and rules
// without ids (or a Cedar text), in a stable order. `policy export` writes it, `policy diff/apply`
// compare it with the organization. Pure: no IO.
import { ValidationError } from '../errors.js';
import type { PolicyDoc } from './document.js';
import type { CedarV1, HttpResource, Scope } from './model.js';

export interface AuthoredRule {
  name: string;
  actions: string[];
  decision: string;
  /** Network or filesystem resources; absent on an HTTP rule. */
  resources?: string[];
  /** HTTP resources of an HTTP rule, in place of `resources`. */
  http_resources?: HttpResource[];
}

export interface AuthoredPolicy {
  name: string;
  scope: Scope;
  /** Allowlist rules, sorted by name; absent for a Cedar policy. */
  rules?: AuthoredRule[];
  cedar_v1?: CedarV1;
  /** Where it came from (a file, or `live`), for messages. */
  source: string;
}

/** A policy of the organization: the authoring form plus the ids to write to. */
export interface LivePolicy extends AuthoredPolicy {
  id: string;
  /** Rule ids, parallel to `rules`. */
  ruleIds: string[];
  type: string;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function authoredRule(r: PolicyDoc['rules'][number]): AuthoredRule {
  const out: AuthoredRule = { name: r.name, actions: [...r.actions], decision: r.decision };
  if (r.http_resources) out.http_resources = r.http_resources.map((h) => ({ ...h }));
  else out.resources = [...r.resources];
  return out;
}

function scopeOf(scope: Scope): Scope {
  const teams = [...(scope.teams ?? [])].sort();
  return teams.length === 0 ? {} : { teams };
}

/**
 * The authoring form of a parsed document. Refuses what cannot be written back as it is: a rule
 * set other than allowlist_v0 and cedar_v1, and two rules of one name (rules are matched by name).
 */
export function authoredFromDoc(doc: PolicyDoc): AuthoredPolicy {
  const base = { name: doc.name, scope: scopeOf(doc.scope), source: doc.source };
  if (doc.type === 'cedar_v1' && doc.cedar_v1) return { ...base, cedar_v1: { ...doc.cedar_v1 } };
  if (doc.type !== 'allowlist_v0') {
    throw new ValidationError(
      `${doc.source}: policy "${doc.name}" is a ${doc.type} policy; hubctl exports and applies allowlist_v0 and cedar_v1 policies only`,
    );
  }
  const rules = doc.rules.map(authoredRule).sort(byName);
  for (let i = 1; i < rules.length; i++) {
    if (rules[i]!.name === rules[i - 1]!.name) {
      throw new ValidationError(
        `${doc.source}: policy "${doc.name}" has two rules named "${rules[i]!.name}"; rules are matched by name, so each needs its own`,
      );
    }
  }
  return { ...base, rules };
}

/** A fetched policy (parsed with `policyDocFromApi`) with its ids, for planning. */
export function liveFromDoc(doc: PolicyDoc & { id?: string }): LivePolicy {
  // Two rules of one name stay: the plan keeps the one equal to the file's, and removes the others.
  const sorted = doc.rules.map((r, i) => ({ r, i })).sort((a, b) => byName(a.r, b.r));
  const base = {
    id: doc.id ?? '',
    type: doc.type,
    name: doc.name,
    scope: scopeOf(doc.scope),
    source: doc.source,
  };
  if (doc.type === 'cedar_v1' && doc.cedar_v1) return { ...base, cedar_v1: { ...doc.cedar_v1 }, ruleIds: [] };
  return {
    ...base,
    rules: sorted.map((x) => authoredRule(x.r)),
    ruleIds: sorted.map((x) => x.r.id ?? ''),
  };
}

/** The authoring form as a plain object in its written key order (export, JSON and YAML). */
export function authoredValue(p: AuthoredPolicy): Record<string, unknown> {
  const out: Record<string, unknown> = { name: p.name };
  if (p.scope.teams && p.scope.teams.length > 0) out.scope = { teams: [...p.scope.teams] };
  if (p.cedar_v1) {
    out.cedar_v1 = {
      text: p.cedar_v1.text,
      ...(p.cedar_v1.schema_url === undefined ? {} : { schema_url: p.cedar_v1.schema_url }),
    };
    return out;
  }
  out.rules = (p.rules ?? []).map((r) => {
    const rule: Record<string, unknown> = { name: r.name, actions: r.actions, decision: r.decision };
    if (r.http_resources) {
      rule.http_resources = r.http_resources.map((h) => ({
        host: h.host,
        ...(h.port === undefined ? {} : { port: h.port }),
        path: h.path,
      }));
    } else rule.resources = r.resources ?? [];
    return rule;
  });
  return out;
}

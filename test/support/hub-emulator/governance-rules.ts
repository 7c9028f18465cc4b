// The emulator's rule checks, as the governance service makes them today: connection and
// filesystem rules with `resources`, HTTP rules (`request:*` actions, network domain) with
// `http_resources` {host, port?, path}. Written apart from src/policy on purpose: the emulator is
// the other side of the wire, not a copy of hubctl's validation.
import { isRecord, isStringArray } from './http.js';
import type { StoredRule } from './state.js';

const HTTP_METHODS = ['get', 'post', 'put', 'delete', 'patch', 'head', 'options', 'connect', 'trace'];

export const ACTION_DOMAINS: Readonly<Record<string, 'network' | 'filesystem'>> = {
  'connect:tcp': 'network',
  'connect:udp': 'network',
  ...Object.fromEntries(HTTP_METHODS.map((m) => [`request:${m}`, 'network' as const])),
  read: 'filesystem',
  write: 'filesystem',
};

export const MAX_NAME = 100;

export function validName(v: unknown): v is string {
  return typeof v === 'string' && v.trim().length > 0 && v.length <= MAX_NAME;
}

const isHttp = (action: string) => action.startsWith('request:');

export type RuleCheck =
  | { ok: true; domain?: 'network' | 'filesystem'; http?: boolean }
  | { ok: false; message: string };

function checkHttpResources(v: unknown): string | undefined {
  if (!Array.isArray(v) || v.length === 0) return 'http_resources must be a non-empty array';
  for (const r of v) {
    if (!isRecord(r)) return 'each http_resource must be an object {host, port?, path}';
    const { host, port, path } = r;
    if (typeof host !== 'string' || host === '' || /[:/\s]/.test(host)) {
      return `invalid http_resource host ${JSON.stringify(host)}: no scheme, port or path`;
    }
    if (
      port !== undefined &&
      (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
    ) {
      return `invalid http_resource port ${JSON.stringify(port)}`;
    }
    if (typeof path !== 'string' || !path.startsWith('/') || /[?#%\s]/.test(path)) {
      return `invalid http_resource path ${JSON.stringify(path)}`;
    }
  }
  return undefined;
}

/** Checks the rule fields that are present; `required` makes name, actions, decision and one resource list mandatory. */
export function checkRuleFields(body: Record<string, unknown>, required: boolean): RuleCheck {
  for (const f of ['name', 'actions', 'decision']) {
    if (required && body[f] === undefined) return { ok: false, message: `${f} is required` };
  }
  if (body.name !== undefined && !validName(body.name)) {
    return { ok: false, message: `name must be a non-empty string of at most ${MAX_NAME} characters` };
  }
  if (body.decision !== undefined && body.decision !== 'allow' && body.decision !== 'deny') {
    return { ok: false, message: 'decision must be "allow" or "deny"' };
  }
  let domain: 'network' | 'filesystem' | undefined;
  let http: boolean | undefined;
  if (body.actions !== undefined) {
    if (!isStringArray(body.actions) || body.actions.length === 0) {
      return { ok: false, message: 'actions must be a non-empty array of strings' };
    }
    for (const a of body.actions) {
      const d = ACTION_DOMAINS[a];
      if (!d) return { ok: false, message: `unknown action "${a}"` };
      if (domain && d !== domain) {
        return { ok: false, message: 'all actions of a rule must belong to the same domain' };
      }
      if (http !== undefined && http !== isHttp(a)) {
        return { ok: false, message: 'request:* actions cannot be mixed with other actions' };
      }
      domain = d;
      http = isHttp(a);
    }
  }
  if (body.resources !== undefined && body.resources !== null) {
    if (!isStringArray(body.resources) || body.resources.length === 0) {
      return { ok: false, message: 'resources must be a non-empty array of strings' };
    }
    for (const r of body.resources) {
      if (r.length === 0 || /\s/.test(r)) return { ok: false, message: `invalid resource "${r}"` };
    }
  }
  if (body.http_resources !== undefined && body.http_resources !== null) {
    const bad = checkHttpResources(body.http_resources);
    if (bad) return { ok: false, message: bad };
  }
  return { ok: true, domain, http };
}

/** Filesystem resources must be paths; checked once the rule's domain is known. */
export function checkResourcesForDomain(resources: string[], domain: string | undefined): string | undefined {
  if (domain !== 'filesystem') return undefined;
  const bad = resources.find((r) => !r.startsWith('/') && !r.startsWith('~'));
  return bad === undefined
    ? undefined
    : `invalid filesystem resource "${bad}": a path must start with / or ~`;
}

/** Whether a rule as it would be stored is whole: HTTP actions with http_resources, others with resources. */
export function ruleShapeProblem(rule: StoredRule): string | undefined {
  const http = rule.actions.some(isHttp);
  const hasHttp = Array.isArray(rule.http_resources) && rule.http_resources.length > 0;
  const hasPlain = Array.isArray(rule.resources) && rule.resources.length > 0;
  if (http && !hasHttp) return 'a rule with request:* actions needs http_resources';
  if (http && hasPlain) return 'a rule with request:* actions has http_resources, not resources';
  if (!http && !hasPlain) return 'a rule needs resources';
  if (!http && hasHttp) return 'http_resources are only for request:* actions';
  return undefined;
}

/**
 * The real API's refusal of the other form's field, present at all (`null` included): an HTTP rule
 * (request:* actions, as the rule will be) must not supply `resources`, any other rule must not
 * supply `http_resources`. Rules of actions it does not know are not checked.
 */
export function otherFormProblem(
  body: Record<string, unknown>,
  actions: readonly string[],
): string | undefined {
  if (!actions.every((a) => ACTION_DOMAINS[a] !== undefined)) return undefined;
  const http = actions.some(isHttp);
  if (http && Object.hasOwn(body, 'resources')) return 'HTTP rules must not supply resources';
  if (!http && Object.hasOwn(body, 'http_resources')) return 'non-HTTP rules must not supply http_resources';
  return undefined;
}

/**
 * The rule after a PATCH body. The rule's actions decide its form: a switch between connection
 * and HTTP actions drops the old form's list, and the body supplies the new one.
 */
export function patchedRule(rule: StoredRule, body: Record<string, unknown>): StoredRule {
  const next: StoredRule = structuredClone(rule);
  if (typeof body.name === 'string') next.name = body.name;
  if (isStringArray(body.actions)) next.actions = [...body.actions];
  if (typeof body.decision === 'string') next.decision = body.decision;
  if (isStringArray(body.resources)) next.resources = [...body.resources];
  if (Array.isArray(body.http_resources)) {
    next.http_resources = structuredClone(body.http_resources) as StoredRule['http_resources'];
  }
  if (next.actions.every((a) => ACTION_DOMAINS[a] !== undefined)) {
    if (next.actions.some(isHttp)) delete next.resources;
    else delete next.http_resources;
  }
  return next;
}

/** A new rule from a checked POST body. */
export function newRule(id: string, body: Record<string, unknown>): StoredRule {
  const rule: StoredRule = {
    id,
    name: body.name as string,
    actions: [...(body.actions as string[])],
    decision: body.decision as string,
  };
  if (isStringArray(body.resources)) rule.resources = [...body.resources];
  if (Array.isArray(body.http_resources)) {
    rule.http_resources = structuredClone(body.http_resources) as StoredRule['http_resources'];
  }
  return rule;
}

/** A `cedar_v1` body field: `{text, schema_url?}`, or a problem. */
export function checkCedar(v: unknown): string | undefined {
  if (!isRecord(v) || typeof v.text !== 'string') return 'cedar_v1 must be an object {text, schema_url}';
  if (v.schema_url !== undefined && typeof v.schema_url !== 'string')
    return 'cedar_v1.schema_url must be a string';
  return undefined;
}

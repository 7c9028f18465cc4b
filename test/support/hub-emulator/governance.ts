// The eight governance operations of interface.md, on `/v2/orgs/{org}/governance/policies…`.
import type { ServerResponse } from 'node:http';
import {
  ACTION_DOMAINS,
  checkCedar,
  checkResourcesForDomain,
  checkRuleFields,
  MAX_NAME,
  newRule,
  otherFormProblem,
  patchedRule,
  ruleShapeProblem,
  validName,
} from './governance-rules.js';
import { govError, isRecord, isStringArray, send } from './http.js';
import type { HubState, StoredPolicy } from './state.js';

export { ACTION_DOMAINS };

export interface Caller {
  /** The JWT's subject: a username, or an organization name for an organization token. */
  sub: string;
  source: 'password' | 'pat' | 'oat';
}

export interface GovernanceContext {
  state: HubState;
  /** An ISO 8601 timestamp, strictly later than the previous one. */
  stamp(): string;
  newId(prefix: 'pol_' | 'rule_'): string;
  maxPolicies: number;
  maxRules: number;
  /** When set, the list answers in pages of this size with `next_page_token`. */
  policyPageSize: number | undefined;
}

/** The domain of a policy's rules, derived from their actions. */
export function policyDomain(p: StoredPolicy): string | undefined {
  if (p.rules.length === 0) return undefined;
  for (const r of p.rules) {
    for (const a of r.actions) {
      const d = ACTION_DOMAINS[a];
      if (d) return d;
    }
  }
  return p.domain;
}

/** Policy as the API shows it; `withRuleSet` for Get/Update/Delete, else the summary fields without `type`. */
export function policyView(p: StoredPolicy, withRuleSet: boolean): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: p.id,
    name: p.name,
    org: p.org,
    scope: { teams: [...p.scope.teams] },
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
  if (!withRuleSet) return view;
  if (p.type === 'allowlist_v0') {
    if (p.rules.length > 0) {
      const domain = policyDomain(p);
      view.allowlist_v0 = {
        ...(domain === undefined ? {} : { domain }),
        rules: p.rules.map((r) => structuredClone(r)),
      };
    }
  } else {
    view[p.type] = structuredClone(p.ruleSet ?? {});
  }
  return view;
}

export function summaryView(p: StoredPolicy): Record<string, unknown> {
  return { ...policyView(p, false), type: p.type };
}

function wrongType(res: ServerResponse, policy: StoredPolicy, type: string): undefined {
  return govError(
    res,
    400,
    'invalid_argument',
    `policy "${policy.id}" is of type ${policy.type}, not ${type}`,
  );
}

function checkScope(scope: unknown, teams: string[], org: string): string | undefined {
  if (!isRecord(scope)) return 'scope must be an object';
  if (scope.teams === undefined) return undefined;
  if (!isStringArray(scope.teams)) return 'scope.teams must be an array of team UUIDs';
  const bad = scope.teams.find((t) => !teams.includes(t));
  return bad === undefined ? undefined : `team "${bad}" is not a team of organization "${org}"`;
}

export function handleGovernance(
  ctx: GovernanceContext,
  res: ServerResponse,
  method: string,
  segments: string[],
  query: URLSearchParams,
  json: unknown,
  caller: Caller,
): undefined {
  // segments: orgs, {org}, governance, policies, [id, [rules, [rule_id]]]
  const orgName = segments[1] ?? '';
  const org = ctx.state.orgs.get(orgName);
  if (!org) return govError(res, 404, 'not_found', `organization "${orgName}" not found`);
  const allowed = caller.source === 'oat' ? caller.sub === org.name : org.members.includes(caller.sub);
  if (!allowed) {
    return govError(res, 403, 'permission_denied', `you lack permission for organization "${org.name}"`);
  }
  if (!org.entitled) {
    return govError(
      res,
      403,
      'permission_denied',
      `organization "${org.name}" is not entitled to governance`,
    );
  }
  const [, , , , policyId, rulesSeg, ruleId, ...rest] = segments;
  if (rest.length > 0 || (rulesSeg !== undefined && rulesSeg !== 'rules')) {
    return govError(res, 404, 'not_found', 'no such resource');
  }
  const hasBody = method === 'POST' || method === 'PATCH';
  if (hasBody && !isRecord(json))
    return govError(res, 400, 'invalid_argument', 'request body must be a JSON object');
  const body = isRecord(json) ? json : {};
  const policies = ctx.state.policies;
  const orgPolicies = () => policies.filter((p) => p.org === org.name);

  if (policyId === undefined) {
    if (method === 'GET') return listPolicies(ctx, res, orgPolicies(), query);
    if (method === 'POST') {
      if (body.name === undefined) return govError(res, 400, 'invalid_argument', 'name is required');
      if (!validName(body.name)) {
        return govError(
          res,
          400,
          'invalid_argument',
          `name must be a non-empty string of at most ${MAX_NAME} characters`,
        );
      }
      if (body.scope !== undefined) {
        const bad = checkScope(body.scope, org.teams, org.name);
        if (bad) return govError(res, 400, 'invalid_argument', bad);
      }
      if (body.cedar_v1 !== undefined) {
        const bad = checkCedar(body.cedar_v1);
        if (bad) return govError(res, 400, 'invalid_argument', bad);
      }
      const existing = orgPolicies();
      if (existing.length >= ctx.maxPolicies) {
        return govError(
          res,
          403,
          'limit_exceeded',
          `organization "${org.name}" already has ${ctx.maxPolicies} policies`,
        );
      }
      if (existing.some((p) => p.name === body.name)) {
        return govError(res, 409, 'conflict', `a policy named "${body.name}" already exists`);
      }
      const scopeTeams = isRecord(body.scope) && isStringArray(body.scope.teams) ? [...body.scope.teams] : [];
      const now = ctx.stamp();
      const p: StoredPolicy = {
        id: ctx.newId('pol_'),
        name: body.name,
        org: org.name,
        scope: { teams: scopeTeams },
        created_at: now,
        updated_at: now,
        type: body.cedar_v1 === undefined ? 'allowlist_v0' : 'cedar_v1',
        rules: [],
        ...(body.cedar_v1 === undefined ? {} : { ruleSet: structuredClone(body.cedar_v1) }),
      };
      policies.push(p);
      return send(res, 201, policyView(p, true));
    }
    return govError(res, 405, 'invalid_argument', `method ${method} not allowed`);
  }

  const policy = policies.find((p) => p.org === org.name && p.id === policyId);
  if (!policy) return govError(res, 404, 'not_found', `policy "${policyId}" not found`);

  if (rulesSeg === undefined) {
    if (method === 'GET') return send(res, 200, policyView(policy, true));
    if (method === 'DELETE') {
      const deleted = policyView(policy, true);
      policies.splice(policies.indexOf(policy), 1);
      return send(res, 200, { deleted });
    }
    if (method === 'PATCH') {
      if (body.name === undefined && body.scope === undefined && body.cedar_v1 === undefined) {
        return govError(res, 400, 'invalid_argument', 'at least one of name and scope must be present');
      }
      if (body.cedar_v1 !== undefined) {
        const bad = checkCedar(body.cedar_v1);
        if (bad) return govError(res, 400, 'invalid_argument', bad);
        if (policy.type !== 'cedar_v1') return wrongType(res, policy, 'cedar_v1');
      }
      if (body.name !== undefined && !validName(body.name)) {
        return govError(
          res,
          400,
          'invalid_argument',
          `name must be a non-empty string of at most ${MAX_NAME} characters`,
        );
      }
      if (body.scope !== undefined) {
        const bad = checkScope(body.scope, org.teams, org.name);
        if (bad) return govError(res, 400, 'invalid_argument', bad);
      }
      if (body.name !== undefined && orgPolicies().some((p) => p !== policy && p.name === body.name)) {
        return govError(res, 409, 'conflict', `a policy named "${body.name}" already exists`);
      }
      const old = policyView(policy, true);
      if (typeof body.name === 'string') policy.name = body.name;
      if (isRecord(body.scope) && isStringArray(body.scope.teams))
        policy.scope = { teams: [...body.scope.teams] };
      if (body.cedar_v1 !== undefined) policy.ruleSet = structuredClone(body.cedar_v1);
      policy.updated_at = ctx.stamp();
      return send(res, 200, { old, new: policyView(policy, true) });
    }
    return govError(res, 405, 'invalid_argument', `method ${method} not allowed`);
  }

  if (ruleId === undefined) {
    if (method !== 'POST') return govError(res, 405, 'invalid_argument', `method ${method} not allowed`);
    if (policy.type !== 'allowlist_v0') return wrongType(res, policy, 'allowlist_v0');
    const check = checkRuleFields(body, true);
    if (!check.ok) return govError(res, 400, 'invalid_argument', check.message);
    const otherForm = otherFormProblem(body, body.actions as string[]);
    if (otherForm) return govError(res, 400, 'invalid_argument', otherForm);
    const current = policyDomain(policy);
    if (current !== undefined && check.domain !== current) {
      return govError(
        res,
        400,
        'invalid_argument',
        `rule domain ${check.domain} differs from the policy's domain ${current}`,
      );
    }
    const badResource = checkResourcesForDomain((body.resources as string[] | undefined) ?? [], check.domain);
    if (badResource) return govError(res, 400, 'invalid_argument', badResource);
    const shape = ruleShapeProblem(newRule('', body));
    if (shape) return govError(res, 400, 'invalid_argument', shape);
    if (policy.rules.length >= ctx.maxRules) {
      return govError(res, 403, 'limit_exceeded', `policy "${policy.id}" already has ${ctx.maxRules} rules`);
    }
    const rule = newRule(ctx.newId('rule_'), body);
    policy.rules.push(rule);
    policy.updated_at = ctx.stamp();
    return send(res, 201, structuredClone(rule));
  }

  const rule = policy.rules.find((r) => r.id === ruleId);
  if (!rule) return govError(res, 404, 'not_found', `rule "${ruleId}" not found in policy "${policy.id}"`);
  if (method === 'DELETE') {
    policy.rules.splice(policy.rules.indexOf(rule), 1);
    policy.updated_at = ctx.stamp();
    return send(res, 200, { deleted: structuredClone(rule) });
  }
  if (method === 'PATCH') {
    const fields = ['name', 'actions', 'decision', 'resources', 'http_resources'].filter(
      (f) => body[f] !== undefined,
    );
    if (fields.length === 0) {
      return govError(
        res,
        400,
        'invalid_argument',
        'at least one of name, actions, decision, resources and http_resources must be present',
      );
    }
    const check = checkRuleFields(body, false);
    if (!check.ok) return govError(res, 400, 'invalid_argument', check.message);
    const oldDomain = rule.actions.map((a) => ACTION_DOMAINS[a]).find((d) => d !== undefined);
    if (check.domain !== undefined && oldDomain !== undefined && check.domain !== oldDomain) {
      return govError(
        res,
        400,
        'invalid_argument',
        `actions cannot change the rule's domain from ${oldDomain} to ${check.domain}`,
      );
    }
    const otherForm = otherFormProblem(body, isStringArray(body.actions) ? body.actions : rule.actions);
    if (otherForm) return govError(res, 400, 'invalid_argument', otherForm);
    const next = patchedRule(rule, body);
    const badResource = checkResourcesForDomain(next.resources ?? [], check.domain ?? oldDomain);
    if (badResource) return govError(res, 400, 'invalid_argument', badResource);
    // Rules seeded with unknown actions keep their shape; a rule hubctl knows must stay whole.
    const known = next.actions.every((a) => ACTION_DOMAINS[a] !== undefined);
    const shape = known ? ruleShapeProblem(next) : undefined;
    if (shape) return govError(res, 400, 'invalid_argument', shape);
    const old = structuredClone(rule);
    policy.rules[policy.rules.indexOf(rule)] = next;
    policy.updated_at = ctx.stamp();
    return send(res, 200, { old, new: structuredClone(next) });
  }
  return govError(res, 405, 'invalid_argument', `method ${method} not allowed`);
}

function listPolicies(
  ctx: GovernanceContext,
  res: ServerResponse,
  list: StoredPolicy[],
  query: URLSearchParams,
): undefined {
  // page_size asks for pages; the server's own page size (setPolicyPageSize) caps it.
  const asked = query.get('page_size');
  if (asked !== null && !/^[1-9][0-9]{0,3}$/.test(asked)) {
    return govError(res, 400, 'invalid_argument', 'page_size must be a number from 1 to 9999');
  }
  const size =
    asked === null ? ctx.policyPageSize : Math.min(Number(asked), ctx.policyPageSize ?? Number(asked));
  if (size === undefined) return send(res, 200, { data: list.map(summaryView) });
  const tokenParam = query.get('page_token');
  let offset = 0;
  if (tokenParam) {
    const m = /^off-(\d+)$/.exec(Buffer.from(tokenParam, 'base64url').toString('utf8'));
    if (!m) return govError(res, 400, 'invalid_argument', 'invalid page_token');
    offset = Number(m[1]);
  }
  const page = list.slice(offset, offset + size);
  const next = offset + size < list.length ? Buffer.from(`off-${offset + size}`).toString('base64url') : null;
  return send(res, 200, { data: page.map(summaryView), next_page_token: next });
}

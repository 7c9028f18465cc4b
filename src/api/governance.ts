// The governance API: the eight operations of interface.md, paths relative to the governance base
// (decisions §1: {base_url}/v2 by default). Wire types are the policy model's (src/policy/model.ts);
// this file adds URLs, paging, and errors that say what went wrong in
// the user's terms (decisions §3, §7): 403 permission_denied → AuthError, limit_exceeded and 409 →
// ConflictError, 404 → NotFoundError, 500 → NetworkError (reads retried by the HTTP layer).
import type { HubSession } from '../auth/hub-session.js';
import {
  ApiError,
  AuthError,
  ConflictError,
  NetworkError,
  NotFoundError,
  UnexpectedAnswerError,
} from '../errors.js';
import { collect, paginate } from '../http/paginate.js';
import type { CedarV1, HttpResource, Policy, PolicySummary, Rule } from '../policy/index.js';
import { pathSegment, readAnswer, type v } from './answer.js';
import { MAX_POLICIES, MAX_RULES } from './limits.js';
import {
  PolicyAnswer,
  PolicyDeleteAnswer,
  PolicyListAnswer,
  PolicyUpdateAnswer,
  RuleAnswer,
  RuleDeleteAnswer,
  RuleUpdateAnswer,
} from './schemas.js';

export type GovRule = Rule;
export type GovPolicy = Policy;
export type GovPolicySummary = PolicySummary;

export { MAX_POLICIES, MAX_RULES };
/**
 * `policy list` stops past these: an organization holds at most MAX_POLICIES policies, so ten times
 * that leaves room for a raised limit while an endless chain of page tokens still ends.
 */
export const MAX_POLICY_ITEMS = 10 * MAX_POLICIES;
export const MAX_POLICY_PAGES = 10 * MAX_POLICIES;

export interface CreatePolicyBody {
  name: string;
  scope?: { teams?: string[] };
  /** Makes a Cedar policy (`type: cedar_v1`) instead of an allowlist. */
  cedar_v1?: CedarV1;
}
export interface UpdatePolicyBody {
  name?: string;
  scope?: { teams?: string[] };
  /** A Cedar policy's new text (cedar_v1 policies only). */
  cedar_v1?: CedarV1;
}
export interface CreateRuleBody {
  name: string;
  actions: string[];
  decision: 'allow' | 'deny';
  /** Network or filesystem resources; or, for an HTTP rule, `http_resources` in their place. */
  resources?: string[];
  http_resources?: HttpResource[];
}
/**
 * Absent fields are unchanged. Switching a rule between `resources` and `http_resources` sends the
 * new list and `null` for the other.
 */
export interface UpdateRuleBody {
  name?: string;
  actions?: string[];
  decision?: 'allow' | 'deny';
  resources?: string[] | null;
  http_resources?: HttpResource[] | null;
}

export interface GovernanceClient {
  readonly org: string;
  /** Every summary, following `next_page_token` page by page. */
  listPolicies(): AsyncGenerator<GovPolicySummary>;
  /** All pages merged. */
  allPolicies(): Promise<GovPolicySummary[]>;
  getPolicy(policyId: string): Promise<GovPolicy>;
  createPolicy(body: CreatePolicyBody): Promise<GovPolicy>;
  updatePolicy(policyId: string, body: UpdatePolicyBody): Promise<{ old: GovPolicy; new: GovPolicy }>;
  deletePolicy(policyId: string): Promise<{ deleted: GovPolicy }>;
  createRule(policyId: string, body: CreateRuleBody): Promise<GovRule>;
  updateRule(policyId: string, ruleId: string, body: UpdateRuleBody): Promise<{ old: GovRule; new: GovRule }>;
  deleteRule(policyId: string, ruleId: string): Promise<{ deleted: GovRule }>;
}

/** What an operation is about, for the messages of its errors. */
interface Op {
  what: string;
  /** Says what was not found, for a 404. */
  notFound: string;
  /** Replaces the server's word for a 409. */
  conflict?: string;
  /** Says which limit, for a 403 limit_exceeded. */
  limit?: string;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export function createGovernanceClient(
  session: HubSession,
  governanceUrl: string,
  org: string,
): GovernanceClient {
  const policies = `${governanceUrl}/orgs/${encodeURIComponent(org)}/governance/policies`;
  const policyUrl = (id: string) => `${policies}/${pathSegment(id)}`;
  const ruleUrl = (id: string, ruleId?: string) =>
    `${policyUrl(id)}/rules${ruleId === undefined ? '' : `/${pathSegment(ruleId)}`}`;
  const orgNotFound = `org ${org}`;

  // Reads that meet a 500 are retried by the HTTP layer; writes are sent once. Every answer is
  // checked against its schema before anyone reads it (src/api/schemas.ts).
  const send = async <S extends v.GenericSchema>(
    op: Op,
    schema: S,
    method: Method,
    url: string | URL,
    json?: unknown,
  ): Promise<v.InferOutput<S>> => {
    try {
      const res = await session.request({ method, url, json, what: op.what });
      return await readAnswer(res, schema, op.what);
    } catch (err) {
      throw translate(err, op, method, org);
    }
  };

  const policyOp = (what: string, id: string): Op => ({
    what,
    notFound: `policy ${id} was not found in org ${org}`,
  });
  const ruleOp = (what: string, id: string, ruleId?: string): Op => ({
    what,
    notFound:
      ruleId === undefined
        ? `policy ${id} was not found in org ${org}`
        : `rule ${ruleId} was not found in policy ${id} of org ${org}`,
    limit: `policy ${id} already has the maximum number of rules (${MAX_RULES})`,
  });

  const client: GovernanceClient = {
    org,
    async *listPolicies() {
      // The list may come in pages (decisions §3): follow next_page_token until it is null.
      const what = `listing policies of org ${org}`;
      yield* paginate<GovPolicySummary>(
        async (cursor) => {
          const url = new URL(policies);
          if (cursor) url.searchParams.set('page_token', cursor);
          const page = await send(
            { what, notFound: `${orgNotFound} was not found` },
            PolicyListAnswer,
            'GET',
            url,
          );
          return { items: page.data, next: page.next_page_token ?? null };
        },
        { host: new URL(policies).host, what, maxPages: MAX_POLICY_PAGES, maxItems: MAX_POLICY_ITEMS },
      );
    },
    allPolicies: () => collect(client.listPolicies()),
    getPolicy: (id) =>
      send(policyOp(`reading policy ${id} of org ${org}`, id), PolicyAnswer, 'GET', policyUrl(id)),
    createPolicy: (body) =>
      send(
        {
          what: `creating policy "${body.name}" in org ${org}`,
          notFound: `${orgNotFound} was not found`,
          conflict: `a policy named "${body.name}" already exists in org ${org}`,
          limit: `org ${org} already has the maximum number of policies (${MAX_POLICIES})`,
        },
        PolicyAnswer,
        'POST',
        policies,
        body,
      ),
    updatePolicy: (id, body) =>
      send(
        {
          ...policyOp(`updating policy ${id} of org ${org}`, id),
          ...(body.name === undefined
            ? {}
            : { conflict: `a policy named "${body.name}" already exists in org ${org}` }),
        },
        PolicyUpdateAnswer,
        'PATCH',
        policyUrl(id),
        body,
      ),
    deletePolicy: (id) =>
      send(policyOp(`deleting policy ${id} of org ${org}`, id), PolicyDeleteAnswer, 'DELETE', policyUrl(id)),
    createRule: (id, body) =>
      send(ruleOp(`adding rule "${body.name}" to policy ${id}`, id), RuleAnswer, 'POST', ruleUrl(id), body),
    updateRule: (id, ruleId, body) =>
      send(
        ruleOp(`updating rule ${ruleId} of policy ${id}`, id, ruleId),
        RuleUpdateAnswer,
        'PATCH',
        ruleUrl(id, ruleId),
        body,
      ),
    deleteRule: (id, ruleId) =>
      send(
        ruleOp(`deleting rule ${ruleId} of policy ${id}`, id, ruleId),
        RuleDeleteAnswer,
        'DELETE',
        ruleUrl(id, ruleId),
      ),
  };
  return client;
}

const WRITE_MAY_HAVE_LANDED =
  'The server took the request before its answer went wrong: the change may have taken effect. Check with `hubctl policy get` before trying again.';

/** The server's own words ("code: message"), without the "what" prefix the HTTP layer added. */
function serverWords(err: ApiError, what: string): string {
  return err.message.startsWith(`${what}: `) ? err.message.slice(what.length + 2) : err.message;
}

function translate(err: unknown, op: Op, method: Method, org: string): unknown {
  if (err instanceof UnexpectedAnswerError && method !== 'GET') {
    return new UnexpectedAnswerError(err.message, { hint: WRITE_MAY_HAVE_LANDED, cause: err });
  }
  if (!(err instanceof ApiError)) return err;
  const words = serverWords(err, op.what);
  const code = err.apiCode?.toLowerCase();
  if (err.status === 403 && code === 'limit_exceeded') {
    return new ConflictError(`${op.what}: ${op.limit ?? 'a limit was reached'} (${words})`, {
      hint: 'Delete what is no longer needed first.',
      cause: err,
    });
  }
  if (err.status === 403) {
    return new AuthError(
      `${op.what}: you lack permission for org ${org} or it is not entitled to governance (${words})`,
      { hint: 'Check --org, and ask an owner of the organization for access to governance.', cause: err },
    );
  }
  if (err.status === 404) {
    return new NotFoundError(`${op.what}: ${op.notFound} (${words})`, { cause: err });
  }
  if (err.status === 409) {
    return new ConflictError(op.conflict ?? `${op.what}: ${words}`, {
      hint: op.conflict ? 'Choose another name, or change the existing policy.' : undefined,
      cause: err,
    });
  }
  if (err.status >= 500) {
    const tried = method === 'GET' ? ' after retries' : '';
    return new NetworkError(`${op.what}: the governance service failed${tried} (${words})`, {
      hint:
        method === 'GET'
          ? 'Try again later.'
          : 'The request was not repeated: it may or may not have taken effect. Check with `hubctl policy get` before trying again.',
      cause: err,
    });
  }
  return err;
}

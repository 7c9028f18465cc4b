// The governance API: the eight operations of interface.md, paths relative to the governance base
// (decisions §1: {base_url}/v2 by default). Wire types only; names and rules live in src/policy.
import type { HubSession } from '../auth/hub-session.js';
import { paginate } from '../http/paginate.js';

export interface GovRule {
  id: string;
  name: string;
  actions: string[];
  decision: 'allow' | 'deny';
  resources: string[];
  [extra: string]: unknown;
}

export interface GovPolicy {
  id: string;
  name: string;
  org: string;
  scope: { teams?: string[] };
  created_at: string;
  updated_at: string;
  allowlist_v0?: { domain?: 'network' | 'filesystem'; rules: GovRule[] };
  [extra: string]: unknown;
}

export interface GovPolicySummary extends Omit<GovPolicy, 'allowlist_v0'> {
  type: string;
}

export interface CreatePolicyBody {
  name: string;
  scope?: { teams?: string[] };
}
export interface UpdatePolicyBody {
  name?: string;
  scope?: { teams?: string[] };
}
export interface CreateRuleBody {
  name: string;
  actions: string[];
  decision: 'allow' | 'deny';
  resources: string[];
}
export type UpdateRuleBody = Partial<CreateRuleBody>;

export interface GovernanceClient {
  readonly org: string;
  listPolicies(): AsyncGenerator<GovPolicySummary>;
  getPolicy(policyId: string): Promise<GovPolicy>;
  createPolicy(body: CreatePolicyBody): Promise<GovPolicy>;
  updatePolicy(policyId: string, body: UpdatePolicyBody): Promise<{ old: GovPolicy; new: GovPolicy }>;
  deletePolicy(policyId: string): Promise<{ deleted: GovPolicy }>;
  createRule(policyId: string, body: CreateRuleBody): Promise<GovRule>;
  updateRule(policyId: string, ruleId: string, body: UpdateRuleBody): Promise<{ old: GovRule; new: GovRule }>;
  deleteRule(policyId: string, ruleId: string): Promise<{ deleted: GovRule }>;
}

export function createGovernanceClient(
  session: HubSession,
  governanceUrl: string,
  org: string,
): GovernanceClient {
  const policies = `${governanceUrl}/orgs/${encodeURIComponent(org)}/governance/policies`;
  const policyUrl = (id: string) => `${policies}/${encodeURIComponent(id)}`;
  const ruleUrl = (id: string, ruleId?: string) =>
    `${policyUrl(id)}/rules${ruleId === undefined ? '' : `/${encodeURIComponent(ruleId)}`}`;

  const send = async <T>(
    what: string,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string | URL,
    json?: unknown,
  ): Promise<T> => {
    const res = await session.request({ method, url, json, what });
    return res.json<T>();
  };

  return {
    org,
    async *listPolicies() {
      // The list may come in pages (decisions §3): follow next_page_token until it is null.
      yield* paginate<GovPolicySummary>(async (cursor) => {
        const url = new URL(policies);
        if (cursor) url.searchParams.set('page_token', cursor);
        const page = await send<{ data?: GovPolicySummary[]; next_page_token?: string | null }>(
          `listing policies of org ${org}`,
          'GET',
          url,
        );
        return { items: page.data ?? [], next: page.next_page_token ?? null };
      });
    },
    getPolicy: (id) => send(`reading policy ${id} of org ${org}`, 'GET', policyUrl(id)),
    createPolicy: (body) => send(`creating policy ${body.name} in org ${org}`, 'POST', policies, body),
    updatePolicy: (id, body) => send(`updating policy ${id} of org ${org}`, 'PATCH', policyUrl(id), body),
    deletePolicy: (id) => send(`deleting policy ${id} of org ${org}`, 'DELETE', policyUrl(id)),
    createRule: (id, body) => send(`adding rule ${body.name} to policy ${id}`, 'POST', ruleUrl(id), body),
    updateRule: (id, ruleId, body) =>
      send(`updating rule ${ruleId} of policy ${id}`, 'PATCH', ruleUrl(id, ruleId), body),
    deleteRule: (id, ruleId) =>
      send(`deleting rule ${ruleId} of policy ${id}`, 'DELETE', ruleUrl(id, ruleId)),
  };
}

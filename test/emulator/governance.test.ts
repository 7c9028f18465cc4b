import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACME_TEAMS, type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { call, login } from './client.js';

let hub: HubEmulator;
let jwt: string;
const policies = (org = 'acme') => `${hub.governanceUrl}/orgs/${org}/governance/policies`;
const req = (url: string, method = 'GET', body?: unknown, token = jwt) => call(url, { method, body, token });

beforeAll(async () => {
  hub = await startHubEmulator();
});
afterAll(async () => {
  await hub.close();
});
beforeEach(async () => {
  hub.state.policies.length = 0;
  hub.setPolicyPageSize(undefined);
  jwt = await login(hub);
});

const netRule = {
  name: 'github',
  actions: ['connect:tcp'],
  decision: 'allow',
  resources: ['github.com:443', '**.github.com'],
};
const fsRule = { name: 'data', actions: ['read', 'write'], decision: 'allow', resources: ['/data/**'] };

async function newPolicy(name = 'egress', scope?: unknown) {
  const r = await req(policies(), 'POST', { name, ...(scope === undefined ? {} : { scope }) });
  expect(r.status).toBe(201);
  return r.json;
}

describe('policies', () => {
  it('creates a policy without a rule set and lists it as a summary with type', async () => {
    const created = await newPolicy('egress', { teams: [ACME_TEAMS[0]] });
    expect(created).toEqual({
      id: expect.stringMatching(/^pol_[0-9a-f]+$/),
      name: 'egress',
      org: 'acme',
      scope: { teams: [ACME_TEAMS[0]] },
      created_at: expect.stringMatching(/Z$/),
      updated_at: created.created_at,
    });
    const list = await req(policies());
    expect(list.status).toBe(200);
    expect(list.json).toEqual({ data: [{ ...created, type: 'allowlist_v0' }] });
  });

  it('gets a policy: no allowlist_v0 without rules, domain and rules with them, omitted again after the last rule goes', async () => {
    const p = await newPolicy();
    const url = `${policies()}/${p.id}`;
    expect((await req(url)).json).toEqual(p);
    const rule = (await req(`${url}/rules`, 'POST', netRule)).json;
    const got = (await req(url)).json;
    expect(got.allowlist_v0).toEqual({ domain: 'network', rules: [rule] });
    expect(got.type).toBeUndefined();
    const del = await req(`${url}/rules/${rule.id}`, 'DELETE');
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ deleted: rule });
    const after = await req(url);
    expect(after.status).toBe(200);
    expect(after.json.allowlist_v0).toBeUndefined();
  });

  it('answers 400 invalid_argument for a missing or bad name, bad scope, unknown team, bad JSON', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 7 },
      { name: 'x'.repeat(101) },
      [],
      { name: 'a', scope: [] },
      { name: 'a', scope: { teams: 'x' } },
      { name: 'a', scope: { teams: ['not-a-team'] } },
    ]) {
      const r = await req(policies(), 'POST', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json).toEqual({ error: { code: 'invalid_argument', message: expect.any(String) } });
    }
    expect((await req(policies(), 'POST', '{')).status).toBe(400);
    expect(hub.state.policies).toHaveLength(0);
  });

  it('answers 409 conflict for a name in use, also on rename', async () => {
    await newPolicy('a');
    const b = await newPolicy('b');
    const r = await req(policies(), 'POST', { name: 'a' });
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('conflict');
    const rename = await req(`${policies()}/${b.id}`, 'PATCH', { name: 'a' });
    expect(rename.status).toBe(409);
    // the same name as itself is no conflict
    expect((await req(`${policies()}/${b.id}`, 'PATCH', { name: 'b' })).status).toBe(200);
  });

  it('stops at 100 policies per organization with 403 limit_exceeded', async () => {
    for (let i = 0; i < 100; i++) expect((await req(policies(), 'POST', { name: `p${i}` })).status).toBe(201);
    const r = await req(policies(), 'POST', { name: 'one-too-many' });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('limit_exceeded');
    expect((await req(policies())).json.data).toHaveLength(100);
  });

  it('patches with scope semantics: omitted unchanged, list replaces, empty list is org-wide; rules untouched', async () => {
    const p = await newPolicy('egress', { teams: [ACME_TEAMS[0]] });
    const url = `${policies()}/${p.id}`;
    const rule = (await req(`${url}/rules`, 'POST', netRule)).json;

    const rename = await req(url, 'PATCH', { name: 'egress-2' });
    expect(rename.status).toBe(200);
    expect(rename.json.old).toMatchObject({ name: 'egress', scope: { teams: [ACME_TEAMS[0]] } });
    expect(rename.json.new).toMatchObject({ name: 'egress-2', scope: { teams: [ACME_TEAMS[0]] } });
    expect(rename.json.old.allowlist_v0).toEqual({ domain: 'network', rules: [rule] });
    expect(rename.json.new.allowlist_v0).toEqual({ domain: 'network', rules: [rule] });
    expect(rename.json.new.updated_at > rename.json.old.updated_at).toBe(true);

    const replace = await req(url, 'PATCH', { scope: { teams: [ACME_TEAMS[1], ACME_TEAMS[0]] } });
    expect(replace.json.new.scope).toEqual({ teams: [ACME_TEAMS[1], ACME_TEAMS[0]] });
    expect(replace.json.new.name).toBe('egress-2');

    const keep = await req(url, 'PATCH', { scope: {} });
    expect(keep.json.new.scope).toEqual({ teams: [ACME_TEAMS[1], ACME_TEAMS[0]] });

    const orgWide = await req(url, 'PATCH', { scope: { teams: [] } });
    expect(orgWide.json.new.scope).toEqual({ teams: [] });
  });

  it('refuses a PATCH without fields, with a bad name or an unknown team (400), and of a missing policy (404)', async () => {
    const p = await newPolicy();
    const url = `${policies()}/${p.id}`;
    for (const body of [{}, { name: '' }, { scope: { teams: ['nope'] } }, { unrelated: 1 }]) {
      const r = await req(url, 'PATCH', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe('invalid_argument');
    }
    const missing = await req(`${policies()}/pol_missing`, 'PATCH', { name: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('not_found');
  });

  it('deletes a policy and its rules, answering {deleted} with updated_at unchanged by the delete', async () => {
    const p = await newPolicy();
    const url = `${policies()}/${p.id}`;
    await req(`${url}/rules`, 'POST', fsRule);
    const before = (await req(url)).json;
    const del = await req(url, 'DELETE');
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ deleted: before });
    expect((await req(url)).status).toBe(404);
    expect((await req(url, 'DELETE')).json).toEqual({
      error: { code: 'not_found', message: expect.any(String) },
    });
    expect((await req(policies())).json).toEqual({ data: [] });
  });
});

describe('rules', () => {
  it('creates rules (201), deriving the domain from the actions', async () => {
    const p = await newPolicy('files');
    const r = await req(`${policies()}/${p.id}/rules`, 'POST', fsRule);
    expect(r.status).toBe(201);
    expect(r.json).toEqual({ id: expect.stringMatching(/^rule_[0-9a-f]+$/), ...fsRule });
    const second = await req(`${policies()}/${p.id}/rules`, 'POST', {
      ...fsRule,
      name: 'data',
      decision: 'deny',
    });
    expect(second.status).toBe(201); // duplicate rule names are allowed
    expect(second.json.id).not.toBe(r.json.id);
    const got = (await req(`${policies()}/${p.id}`)).json;
    expect(got.allowlist_v0.domain).toBe('filesystem');
    expect(got.allowlist_v0.rules.map((x: { id: string }) => x.id)).toEqual([r.json.id, second.json.id]);
  });

  it.each([
    ['a missing name', { actions: ['read'], decision: 'allow', resources: ['/a'] }],
    ['missing actions', { name: 'n', decision: 'allow', resources: ['/a'] }],
    ['empty actions', { name: 'n', actions: [], decision: 'allow', resources: ['/a'] }],
    ['an unknown action', { name: 'n', actions: ['request:get'], decision: 'allow', resources: ['/a'] }],
    ['mixed domains', { name: 'n', actions: ['read', 'connect:tcp'], decision: 'allow', resources: ['/a'] }],
    ['a bad decision', { name: 'n', actions: ['read'], decision: 'maybe', resources: ['/a'] }],
    ['missing resources', { name: 'n', actions: ['read'], decision: 'allow' }],
    ['empty resources', { name: 'n', actions: ['read'], decision: 'allow', resources: [] }],
    [
      'a relative filesystem path',
      { name: 'n', actions: ['read'], decision: 'allow', resources: ['data/x'] },
    ],
  ])('refuses a rule with %s (400 invalid_argument)', async (_n, body) => {
    const p = await newPolicy();
    const r = await req(`${policies()}/${p.id}/rules`, 'POST', body);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('invalid_argument');
    expect(hub.state.policies[0]!.rules).toHaveLength(0);
  });

  it("refuses a rule whose domain differs from the policy's existing rules", async () => {
    const p = await newPolicy();
    await req(`${policies()}/${p.id}/rules`, 'POST', netRule);
    const r = await req(`${policies()}/${p.id}/rules`, 'POST', fsRule);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('invalid_argument');
    // once the network rule is gone, a filesystem rule is fine
    const id = hub.state.policies[0]!.rules[0]!.id;
    await req(`${policies()}/${p.id}/rules/${id}`, 'DELETE');
    expect((await req(`${policies()}/${p.id}/rules`, 'POST', fsRule)).status).toBe(201);
  });

  it('stops at 250 rules per policy with 403 limit_exceeded', async () => {
    const p = await newPolicy();
    for (let i = 0; i < 250; i++) {
      expect((await req(`${policies()}/${p.id}/rules`, 'POST', { ...netRule, name: `r${i}` })).status).toBe(
        201,
      );
    }
    const r = await req(`${policies()}/${p.id}/rules`, 'POST', netRule);
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('limit_exceeded');
  });

  it('updates a rule: absent fields unchanged, {old,new}, same-domain action change allowed, cross-domain refused', async () => {
    const p = await newPolicy();
    const rule = (await req(`${policies()}/${p.id}/rules`, 'POST', netRule)).json;
    const url = `${policies()}/${p.id}/rules/${rule.id}`;
    const r = await req(url, 'PATCH', { decision: 'deny', actions: ['connect:udp'] });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ old: rule, new: { ...rule, decision: 'deny', actions: ['connect:udp'] } });
    const cross = await req(url, 'PATCH', { actions: ['read'] });
    expect(cross.status).toBe(400);
    expect(cross.json.error.code).toBe('invalid_argument');
    for (const body of [
      {},
      { actions: ['connect:tcp', 'read'] },
      { actions: ['fly'] },
      { decision: 'perhaps' },
      { resources: [] },
    ]) {
      expect((await req(url, 'PATCH', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await req(`${policies()}/${p.id}/rules/rule_missing`, 'PATCH', { name: 'x' })).status).toBe(404);
    expect((await req(`${policies()}/pol_missing/rules/${rule.id}`, 'PATCH', { name: 'x' })).status).toBe(
      404,
    );
    expect((await req(`${policies()}/${p.id}/rules/rule_missing`, 'DELETE')).json.error.code).toBe(
      'not_found',
    );
    expect((await req(`${policies()}/pol_missing/rules`, 'POST', netRule)).status).toBe(404);
  });
});

describe('permissions', () => {
  it('answers 403 permission_denied to a non-member and for an organization not entitled', async () => {
    const bob = await login(hub, 'bob', 'bob-password');
    const r = await req(policies(), 'GET', undefined, bob);
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('permission_denied');
    const nogov = await req(policies('nogov'));
    expect(nogov.status).toBe(403);
    expect(nogov.json.error.code).toBe('permission_denied');
    expect((await req(policies('nogov'), 'POST', { name: 'x' })).status).toBe(403);
  });

  it('answers 404 for an unknown organization', async () => {
    const r = await req(policies('nowhere'));
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('not_found');
  });

  it("lets an organization token's JWT manage its own organization only", async () => {
    const oatJwt = await login(hub, 'acme', hub.createOat('acme'));
    expect((await req(policies(), 'POST', { name: 'by-oat' }, oatJwt)).status).toBe(201);
    expect((await req(policies('nogov'), 'GET', undefined, oatJwt)).status).toBe(403);
  });

  it('lets a PAT-derived JWT use governance', async () => {
    const patJwt = await login(hub, 'alice', hub.createPat('alice'));
    expect((await req(policies(), 'GET', undefined, patJwt)).status).toBe(200);
  });
});

describe('paging and seeded policies', () => {
  it('pages the list with next_page_token when a page size is set', async () => {
    for (let i = 0; i < 5; i++) await newPolicy(`p${i}`);
    expect((await req(policies())).json.next_page_token).toBeUndefined();
    hub.setPolicyPageSize(2);
    const names: string[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const r = await req(token ? `${policies()}?page_token=${encodeURIComponent(token)}` : policies());
      expect(r.status).toBe(200);
      expect(r.json.data.length).toBeLessThanOrEqual(2);
      names.push(...r.json.data.map((p: { name: string }) => p.name));
      token = r.json.next_page_token;
      expect(token === null || typeof token === 'string').toBe(true);
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(names).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
    expect((await req(`${policies()}?page_token=bogus`)).status).toBe(400);
  });

  it('pages by the constructor option too', async () => {
    const h2 = await startHubEmulator({ policyPageSize: 1, sequentialIds: true });
    try {
      const t = await login(h2);
      const url = `${h2.governanceUrl}/orgs/acme/governance/policies`;
      await call(url, { method: 'POST', token: t, body: { name: 'a' } });
      await call(url, { method: 'POST', token: t, body: { name: 'b' } });
      const first = await call(url, { token: t });
      expect(first.json.data).toEqual([expect.objectContaining({ id: 'pol_0001', name: 'a' })]);
      expect(typeof first.json.next_page_token).toBe('string');
      const second = await call(`${url}?page_token=${first.json.next_page_token}`, { token: t });
      expect(second.json).toEqual({
        data: [expect.objectContaining({ id: 'pol_0002' })],
        next_page_token: null,
      });
    } finally {
      await h2.close();
    }
  });

  it('serves a seeded cedar_v1 policy with its type and rule set, and refuses rules on it', async () => {
    const cedar = hub.seedPolicy('acme', {
      name: 'cedar',
      type: 'cedar_v1',
      ruleSet: { policies: 'permit(principal, action, resource);' },
    });
    const list = (await req(policies())).json.data;
    expect(list).toEqual([expect.objectContaining({ id: cedar.id, type: 'cedar_v1' })]);
    const got = (await req(`${policies()}/${cedar.id}`)).json;
    expect(got.cedar_v1).toEqual({ policies: 'permit(principal, action, resource);' });
    expect(got.allowlist_v0).toBeUndefined();
    const r = await req(`${policies()}/${cedar.id}/rules`, 'POST', netRule);
    expect(r.status).toBe(400);
  });

  it('serves seeded rules with unknown actions and extra fields as stored', async () => {
    const seeded = hub.seedPolicy('acme', {
      name: 'newer',
      domain: 'network',
      rules: [
        {
          name: 'get',
          actions: ['request:get'],
          decision: 'allow',
          resources: [],
          http_resources: ['https://api.example.com/v1/*'],
        },
      ],
    });
    const got = (await req(`${policies()}/${seeded.id}`)).json;
    expect(got.allowlist_v0).toEqual({
      domain: 'network',
      rules: [
        {
          id: expect.stringMatching(/^rule_/),
          name: 'get',
          actions: ['request:get'],
          decision: 'allow',
          resources: [],
          http_resources: ['https://api.example.com/v1/*'],
        },
      ],
    });
  });

  it('honours smaller limits given as options', async () => {
    const h2 = await startHubEmulator({ maxPolicies: 1, maxRules: 1 });
    try {
      const t = await login(h2);
      const url = `${h2.governanceUrl}/orgs/acme/governance/policies`;
      const p = (await call(url, { method: 'POST', token: t, body: { name: 'a' } })).json;
      expect((await call(url, { method: 'POST', token: t, body: { name: 'b' } })).json.error.code).toBe(
        'limit_exceeded',
      );
      expect((await call(`${url}/${p.id}/rules`, { method: 'POST', token: t, body: netRule })).status).toBe(
        201,
      );
      expect((await call(`${url}/${p.id}/rules`, { method: 'POST', token: t, body: netRule })).status).toBe(
        403,
      );
    } finally {
      await h2.close();
    }
  });
});

describe('the API as served today: page_size, HTTP rules, cedar_v1', () => {
  it('answers page_size pages with opaque tokens until null, capped by the server page size', async () => {
    for (const n of ['a', 'b', 'c', 'd', 'e']) await newPolicy(n);
    const names: string[] = [];
    let url = `${policies()}?page_size=2`;
    for (;;) {
      const r = await req(url);
      expect(r.json.data.length).toBeLessThanOrEqual(2);
      names.push(...r.json.data.map((p: { name: string }) => p.name));
      if (r.json.next_page_token === null) break;
      url = `${policies()}?page_size=2&page_token=${encodeURIComponent(r.json.next_page_token)}`;
    }
    expect(names).toEqual(['a', 'b', 'c', 'd', 'e']);
    hub.setPolicyPageSize(1);
    expect((await req(`${policies()}?page_size=3`)).json.data).toHaveLength(1);
    expect((await req(`${policies()}?page_size=0`)).status).toBe(400);
  });

  it('creates, switches and refuses HTTP rules', async () => {
    const p = await newPolicy();
    const http = { host: 'api.github.com', port: 443, path: '/repos/**' };
    const created = await req(`${policies()}/${p.id}/rules`, 'POST', {
      name: 'gh',
      actions: ['request:get'],
      decision: 'allow',
      http_resources: [http],
    });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      id: expect.any(String),
      name: 'gh',
      actions: ['request:get'],
      decision: 'allow',
      http_resources: [http],
    });
    // a network policy: connection rules may join it
    expect((await req(`${policies()}/${p.id}/rules`, 'POST', netRule)).status).toBe(201);
    const bad = [
      { name: 'x', actions: ['request:get'], decision: 'allow', resources: ['a.test'] },
      { name: 'x', actions: ['request:get', 'connect:tcp'], decision: 'allow', http_resources: [http] },
      {
        name: 'x',
        actions: ['request:get'],
        decision: 'allow',
        http_resources: [{ host: 'https://a', path: '/' }],
      },
      {
        name: 'x',
        actions: ['request:get'],
        decision: 'allow',
        http_resources: [{ host: 'a', port: 0, path: '/' }],
      },
      {
        name: 'x',
        actions: ['connect:tcp'],
        decision: 'allow',
        resources: ['a.test'],
        http_resources: [http],
      },
    ];
    for (const body of bad) expect((await req(`${policies()}/${p.id}/rules`, 'POST', body)).status).toBe(400);
    const ruleUrl = `${policies()}/${p.id}/rules/${created.json.id}`;
    // as the real API: the other form's field is refused even as null, both ways
    const refused = await req(ruleUrl, 'PATCH', {
      actions: ['connect:tcp'],
      resources: ['github.com'],
      http_resources: null,
    });
    expect([refused.status, refused.json.error.message]).toEqual([
      400,
      'non-HTTP rules must not supply http_resources',
    ]);
    const refusedToo = await req(ruleUrl, 'PATCH', { http_resources: [http], resources: null });
    expect([refusedToo.status, refusedToo.json.error.message]).toEqual([
      400,
      'HTTP rules must not supply resources',
    ]);
    const nullOnCreate = await req(`${policies()}/${p.id}/rules`, 'POST', {
      name: 'y',
      actions: ['request:get'],
      decision: 'allow',
      http_resources: [http],
      resources: null,
    });
    expect([nullOnCreate.status, nullOnCreate.json.error.message]).toEqual([
      400,
      'HTTP rules must not supply resources',
    ]);
    // the new form's field alone switches; the old list goes
    const switched = await req(ruleUrl, 'PATCH', { actions: ['connect:tcp'], resources: ['github.com'] });
    expect(switched.status).toBe(200);
    expect(switched.json.new).toEqual({
      id: created.json.id,
      name: 'gh',
      actions: ['connect:tcp'],
      decision: 'allow',
      resources: ['github.com'],
    });
    // half a switch is refused
    expect((await req(ruleUrl, 'PATCH', { actions: ['request:get'] })).status).toBe(400);
    const back = await req(ruleUrl, 'PATCH', { actions: ['request:get'], http_resources: [http] });
    expect(back.json.new).toEqual({ ...created.json, actions: ['request:get'] });
  });

  it('creates and updates cedar_v1 policies, typed as such in the list', async () => {
    const cedar = { text: 'permit(principal, action, resource);', schema_url: 'https://x.test/s.json' };
    const c = await req(policies(), 'POST', { name: 'cedar', cedar_v1: cedar });
    expect(c.status).toBe(201);
    expect(c.json.cedar_v1).toEqual(cedar);
    expect((await req(policies())).json.data[0].type).toBe('cedar_v1');
    const u = await req(`${policies()}/${c.json.id}`, 'PATCH', {
      cedar_v1: { ...cedar, text: 'forbid(principal, action, resource);' },
    });
    expect(u.json.new.cedar_v1.text).toBe('forbid(principal, action, resource);');
    const plain = await newPolicy('plain');
    expect((await req(`${policies()}/${plain.id}`, 'PATCH', { cedar_v1: cedar })).status).toBe(400);
    expect((await req(policies(), 'POST', { name: 'bad', cedar_v1: { text: 1 } })).status).toBe(400);
  });
});

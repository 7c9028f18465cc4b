import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/policy/get.js';
import { ACME_TEAMS } from '../../support/hub-emulator.js';
import {
  FS_RULE,
  type GovHarness,
  LATER_TIME,
  NET_RULE,
  parseWith,
  SEED_TIME,
  startGovHarness,
} from '../rule/gov-harness.js';

let h: GovHarness;
beforeEach(async () => {
  h = await startGovHarness();
});
afterEach(() => h.close());

const HTTP_RULE = {
  name: 'get-api',
  actions: ['request:get', 'request:head'],
  decision: 'allow',
  http_resources: [
    { host: 'api.example.com', path: '/v1/*' },
    { host: 'api.example.com', port: 8443, path: '/**' },
  ],
};

const NEWER_RULE = {
  name: 'stream',
  actions: ['stream:open'],
  decision: 'allow',
  resources: ['x.example.com'],
  stream_window: 30,
};

describe('policy get: parsing', () => {
  it('passes the policy argument as given', async () => {
    expect(await parseWith(register, ['get', 'egress'])).toEqual([[{ policy: 'egress' }]]);
    expect(await parseWith(register, ['get', 'pol_0001'])).toEqual([[{ policy: 'pol_0001' }]]);
    await expect(parseWith(register, ['get'])).rejects.toThrow(/missing required argument 'policy'/);
  });
});

describe('policy get', () => {
  it('prints the fields, a blank line and the rules as tab-separated lines when piped', async () => {
    h.seed({
      name: 'egress',
      teams: [ACME_TEAMS[0]],
      rules: [
        NET_RULE,
        { ...NET_RULE, name: 'dns', actions: ['connect:udp'], resources: ['10.0.0.53:53'], decision: 'deny' },
      ],
    });
    const r = await h.run(['policy', 'get', 'egress']);
    expect(r).toEqual({
      code: 0,
      stdout: [
        'ID\tpol_0001',
        'Name\tegress',
        'Org\tacme',
        'Scope\tteams developers',
        'Type\tallowlist_v0',
        'Domain\tnetwork',
        'Rules\t2',
        `Created\t${SEED_TIME}`,
        `Updated\t${LATER_TIME}`,
        '',
        'rule_0001\tgithub\tallow\tconnect:tcp\tgithub.com:443,**.github.com',
        'rule_0002\tdns\tdeny\tconnect:udp\t10.0.0.53:53',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('prints aligned fields and a rules table on a terminal', async () => {
    h.seed({ name: 'workspace', rules: [FS_RULE] });
    const r = await h.run(['policy', 'get', 'workspace'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        'ID:      pol_0001',
        'Name:    workspace',
        'Org:     acme',
        'Scope:   org-wide',
        'Type:    allowlist_v0',
        'Domain:  filesystem',
        'Rules:   1',
        'Created: 2026-11-01 09:30:00Z',
        'Updated: 2026-11-20 17:45:10Z',
        '',
        ' ID           NAME    DECISION    ACTIONS       RESOURCES ',
        ' rule_0001    data    allow       read,write    /data/**  ',
        '',
      ].join('\n'),
    );
  });

  it('reads a policy named by id with one GET, and by name through the list', async () => {
    h.seed({ name: 'egress' });
    expect((await h.run(['policy', 'get', 'pol_0001'])).code).toBe(0);
    expect(h.calls()).toEqual(['GET /p/pol_0001']);
    h.hub.clearRequests();
    expect((await h.run(['policy', 'get', 'egress'])).code).toBe(0);
    expect(h.calls()).toEqual(['GET /p', 'GET /p/pol_0001']);
  });

  it('a name that matches nothing is exit 5; several is exit 2 with the candidates', async () => {
    h.seed({ name: 'egress' });
    const none = await h.run(['policy', 'get', 'nope']);
    expect(none.code).toBe(5);
    expect(none.stderr).toMatch(/no policy named "nope" in org acme/);

    h.seed({ name: 'egress' });
    const many = await h.run(['policy', 'get', 'egress']);
    expect(many.code).toBe(2);
    expect(many.stderr).toContain(
      '2 policies of org acme match the name "egress": pol_0001 (egress), pol_0002 (egress)',
    );
    expect(h.calls().filter((c) => c.startsWith('GET /p/'))).toEqual([]);
  });

  it('falls back to a case-insensitive match when no name matches exactly', async () => {
    h.seed({ name: 'Egress' });
    const r = await h.run(['policy', 'get', 'egress', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).name).toBe('Egress');
  });

  it('--json prints the policy exactly as the API returned it', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    const r = await h.run(['policy', 'get', 'egress', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      id: 'pol_0001',
      name: 'egress',
      org: 'acme',
      scope: { teams: [] },
      created_at: SEED_TIME,
      updated_at: LATER_TIME,
      allowlist_v0: { domain: 'network', rules: [{ id: 'rule_0001', ...NET_RULE }] },
    });
  });

  it('shows a policy without rules, and says how to add one', async () => {
    h.seed({ name: 'empty' });
    const r = await h.run(['policy', 'get', 'empty']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Domain\tnone (no rules yet)\nRules\t0\n');
    expect(r.stderr).toMatch(/No rules yet: add one with `hubctl rule add empty/);
  });

  it('shows a cedar_v1 policy as such, and its rule set in --json', async () => {
    const ruleSet = { text: 'permit(principal, action, resource);', schema_url: 'https://x.test/s.json' };
    h.seed({ name: 'legacy', type: 'cedar_v1', ruleSet });
    const r = await h.run(['policy', 'get', 'legacy']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Type\tcedar_v1\n');
    expect(r.stdout).not.toContain('Domain');
    expect(r.stdout).toContain('Schema\thttps://x.test/s.json\n\npermit(principal, action, resource);\n');
    const json = JSON.parse((await h.run(['policy', 'get', 'legacy', '--json'])).stdout);
    expect(json.cedar_v1).toEqual(ruleSet);
    // control characters from the server reach the terminal escaped
    h.hub.state.policies[0]!.ruleSet = { text: 'permit(\u001b[31m);\nforbid(x);' };
    const esc = await h.run(['policy', 'get', 'legacy']);
    expect(esc.stderr).toBe('');
    expect(esc.stdout).toContain('\n\npermit(\\x1b[31m);\nforbid(x);\n');
  });

  it('shows HTTP rules, and rules with unknown actions instead of dropping them', async () => {
    h.seed({ name: 'newer', domain: 'network', rules: [NET_RULE, HTTP_RULE, NEWER_RULE] });
    const r = await h.run(['policy', 'get', 'newer']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'rule_0001\tgithub\tallow\tconnect:tcp\tgithub.com:443,**.github.com\t\n' +
        'rule_0002\tget-api\tallow\trequest:get,request:head\tapi.example.com/v1/*,api.example.com:8443/**\t\n' +
        'rule_0003\tstream\tallow\tstream:open\tx.example.com\tstream_window=30\n',
    );
    expect(r.stderr).toMatch(/action stream:open is not known to hubctl/);
    const json = JSON.parse((await h.run(['policy', 'get', 'newer', '--json'])).stdout);
    expect(json.allowlist_v0.rules[1]).toEqual({ id: 'rule_0002', ...HTTP_RULE });
    expect(json.allowlist_v0.rules[2]).toEqual({ id: 'rule_0003', ...NEWER_RULE });
  });

  it('warns when the policy is at the 250-rule limit', async () => {
    const rules = Array.from({ length: 250 }, (_, i) => ({ ...NET_RULE, name: `r${i}` }));
    h.seed({ name: 'full', rules });
    const r = await h.run(['policy', 'get', 'full']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/250 rules, the maximum/);
  });

  it('an unknown id is exit 5 naming the policy', async () => {
    const r = await h.run(['policy', 'get', 'pol_9999']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/policy pol_9999 was not found in org acme/);
  });

  it('retries a 500 on GET and exits 7 when it persists', async () => {
    h.seed({ name: 'egress' });
    h.hub.inject({ method: 'GET', path: '/v2/orgs/acme/governance/policies/pol_0001', times: 4 }, [
      { status: 500, body: { error: { code: 'internal', message: 'boom' } } },
    ]);
    const r = await h.run(['policy', 'get', 'pol_0001']);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(
      /reading policy pol_0001 of org acme: the governance service failed after retries \(internal: boom\)/,
    );
    expect(h.calls()).toEqual(['GET /p/pol_0001', 'GET /p/pol_0001', 'GET /p/pol_0001', 'GET /p/pol_0001']);
  });

  it('403 permission_denied is exit 4', async () => {
    const r = await h.run(['policy', 'get', 'pol_0001'], { env: { HUBCTL_ORG: 'nogov' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('you lack permission for org nogov or it is not entitled to governance');
  });
});

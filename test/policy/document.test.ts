import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { applicablePolicies, parsePolicyDocument, policyDocFromApi } from '../../src/policy/document.js';

const apiPolicy = {
  id: 'pol_1',
  name: 'net',
  org: 'acme',
  scope: { teams: ['t1'] },
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  allowlist_v0: {
    domain: 'network',
    rules: [
      { id: 'rule_1', name: 'gh', actions: ['connect:tcp'], decision: 'allow', resources: ['github.com'] },
    ],
  },
};

/** The message of a refusal without the line and column it names (the tables predate them). */
const unplaced = (err: Error) => err.message.replace(/^([^:]+):\d+(?::\d+)?: /, '$1: ');

describe('parsePolicyDocument', () => {
  it('reads the API Policy as JSON', async () => {
    expect(await parsePolicyDocument(JSON.stringify(apiPolicy), 'p.json')).toEqual([
      {
        id: 'pol_1',
        name: 'net',
        source: 'p.json',
        type: 'allowlist_v0',
        scope: { teams: ['t1'] },
        domain: 'network',
        rules: [
          {
            id: 'rule_1',
            name: 'gh',
            actions: ['connect:tcp'],
            decision: 'allow',
            resources: ['github.com'],
            domain: 'network',
          },
        ],
      },
    ]);
  });

  it('reads the authoring form as YAML, lists and several documents', async () => {
    const yaml = `
name: fs
rules:
  - name: src
    actions: [read, write]
    decision: allow
    resources: ["~/src/**"]
---
- name: a
  rules: []
- {name: b, rules: []}
`;
    const docs = await parsePolicyDocument(yaml, 'p.yaml');
    expect(docs.map((d) => [d.name, d.rules.length, d.domain])).toEqual([
      ['fs', 1, 'filesystem'],
      ['a', 0, undefined],
      ['b', 0, undefined],
    ]);
    // JSON content in a .yaml file is fine too
    expect((await parsePolicyDocument(JSON.stringify([apiPolicy, apiPolicy]), 'x.yml')).length).toBe(2);
  });

  it('carries cedar policies (marked not evaluated) and HTTP rules', async () => {
    const cedar = { text: 'permit(principal, action, resource);', schema_url: 'https://x.test/s.json' };
    const http = [
      { host: 'api.github.com', path: '/repos/**' },
      { host: '*.x.test', port: 8443, path: '/' },
    ];
    const docs = await parsePolicyDocument(
      JSON.stringify([
        { ...apiPolicy, allowlist_v0: undefined, cedar_v1: cedar },
        { name: 'authored', cedar_v1: { text: 'forbid(principal, action, resource);' } },
        {
          name: 'new',
          rules: [
            {
              name: 'http',
              actions: ['request:get', 'request:head'],
              decision: 'allow',
              http_resources: http,
            },
          ],
        },
      ]),
      'p.json',
    );
    expect(docs[0]).toMatchObject({
      type: 'cedar_v1',
      cedar_v1: cedar,
      notEvaluated: expect.stringContaining('cedar_v1'),
    });
    expect(docs[1]).toMatchObject({
      type: 'cedar_v1',
      cedar_v1: { text: 'forbid(principal, action, resource);' },
    });
    expect(docs[2]!.domain).toBe('network');
    expect(docs[2]!.rules[0]).toMatchObject({
      name: 'http',
      resources: [],
      http_resources: http,
      domain: 'network',
    });
    expect(docs[2]!.rules[0]!.notEvaluated).toBeUndefined();
  });

  it('keeps rules with unknown actions, marked not evaluated', async () => {
    const docs = await parsePolicyDocument(
      '{"name": "n", "rules": [{"name": "q", "actions": ["request:fetch"], "decision": "allow", "http_resources": [{"host": "x", "path": "/"}]}]}',
      'p.json',
    );
    expect(docs[0]!.rules[0]).toMatchObject({
      name: 'q',
      notEvaluated: 'its action request:fetch is not known to hubctl',
    });
  });

  it.each([
    [
      { actions: ['request:get'], http_resources: [] },
      'rules[0].http_resources: an HTTP rule needs at least one HTTP resource',
    ],
    [
      { actions: ['request:get'] },
      'rules[0].http_resources: an HTTP rule (request:* actions) needs "http_resources"',
    ],
    [
      { actions: ['request:get'], resources: ['x.test'], http_resources: [{ host: 'x.test', path: '/' }] },
      'rules[0].resources: an HTTP rule',
    ],
    [
      { actions: ['request:get', 'connect:tcp'], http_resources: [{ host: 'x.test', path: '/' }] },
      'rules[0].actions: actions "request:get" and "connect:tcp" mix HTTP and connection actions',
    ],
    [
      { actions: ['connect:tcp'], resources: ['x.test'], http_resources: [{ host: 'x.test', path: '/' }] },
      'rules[0].http_resources: http_resources are for HTTP rules',
    ],
    [
      { actions: ['request:get'], http_resources: [{ host: 'https://x.test', path: '/' }] },
      'rules[0].http_resources[0]: invalid HTTP resource',
    ],
    [
      { actions: ['request:get'], http_resources: [{ host: 'x.test', path: '/a/' }] },
      'a path has no trailing "/"',
    ],
    [
      { actions: ['request:get'], http_resources: [{ host: 'x.test', port: 0, path: '/' }] },
      '"port" must be a number from 1 to 65535',
    ],
  ])('refuses a bad HTTP rule %j', async (fields, message) => {
    const text = JSON.stringify({ name: 'p', rules: [{ name: 'r', decision: 'allow', ...fields }] });
    await expect(parsePolicyDocument(text, 'p.json').catch(unplaced)).resolves.toContain(message);
  });

  it.each([
    [{ name: 'c', cedar_v1: { text: 1 } }, 'p.json: cedar_v1.text: the Cedar text must be a string'],
    [{ name: 'c', cedar_v1: 'permit' }, 'cedar_v1 must be an object {text, schema_url}'],
    [
      { name: 'c', rules: [], cedar_v1: { text: '' } },
      'p.json: a policy holds one of rules, cedar_v1, allowlist_v0, not rules and cedar_v1; did you mean two policies?',
    ],
  ])('refuses a bad cedar policy %j', async (value, message) => {
    await expect(parsePolicyDocument(JSON.stringify(value), 'p.json').catch(unplaced)).resolves.toContain(
      message,
    );
  });

  it.each([
    [
      '{"name": "x", "rules": [',
      'p.json',
      'p.json: not valid JSON: expected a value, found the end of the text',
    ],
    ['name: [unclosed', 'p.yaml', 'p.yaml: not valid YAML: '],
    ['', 'p.yaml', 'p.yaml: holds no policy'],
    ['42', 'p.yaml', 'p.yaml: a policy must be an object'],
    ['{"rules": []}', 'p.json', 'p.json: name: a policy needs a non-empty name'],
    ['{"name":"x","rules":{}}', 'p.json', 'p.json: rules: rules must be a list'],
    [
      '{"name":"x","rules":[{"name":"r","actions":["read"],"decision":"allow"}]}',
      'p.json',
      'p.json: rules[0].resources: a rule needs "resources"',
    ],
    [
      '{"name":"x","rules":[{"name":"r","actions":["read","connect:tcp"],"decision":"allow","resources":["/a"]}]}',
      'p.json',
      'p.json: rules[0].actions: actions "read" (filesystem) and "connect:tcp" (network) mix domains',
    ],
    [
      '{"name":"x","rules":[{"name":"r","actions":["read"],"decision":"permit","resources":["/a"]}]}',
      'p.json',
      'p.json: rules[0].decision: decision "permit" is not allowed',
    ],
    [
      '{"name":"x","rules":[{"name":"r","actions":["read"],"decision":"allow","resources":["/a","rel"]}]}',
      'p.json',
      'p.json: rules[0].resources[1]: invalid filesystem resource "rel"',
    ],
    [
      '{"name":"x","rules":[{"name":"","actions":["read"],"decision":"allow","resources":["/a"]}]}',
      'p.json',
      'p.json: rules[0].name: a rule needs a non-empty name',
    ],
    [
      '{"name":"x","rules":[{"name":"a","actions":["read"],"decision":"allow","resources":["/a"]},{"name":"b","actions":["connect:tcp"],"decision":"allow","resources":["x.com"]}]}',
      'p.json',
      'p.json: rules[1].actions: rule "b" is network but rule "a" is filesystem',
    ],
    [
      '[{"name":"ok","rules":[]},{"name":"x","scope":{"teams":"t"},"rules":[]}]',
      'p.json',
      'p.json: [1].scope.teams: teams must be a list',
    ],
    [
      '{"name":"x","allowlist_v0":{"domain":"filesystem","rules":[{"name":"r","actions":["connect:tcp"],"decision":"allow","resources":["x.com"]}]}}',
      'p.json',
      'p.json: allowlist_v0.domain: says filesystem but the rules are network',
    ],
  ])('refuses %j with the file and field', async (text, name, message) => {
    const p = parsePolicyDocument(text, name);
    await expect(p).rejects.toBeInstanceOf(ValidationError);
    await expect(parsePolicyDocument(text, name).catch(unplaced)).resolves.toContain(message);
  });

  it('says where YAML breaks in one sentence, without the code frame or its colon', async () => {
    const err = await parsePolicyDocument('rules: [\n', 'b.yaml').catch((e: Error) => e);
    expect((err as Error).message).toMatch(/^b\.yaml:2:1: not valid YAML: [^\n]*[^:\n]$/);
  });

  it('names the document of a multi-document YAML file', async () => {
    await expect(
      parsePolicyDocument('name: a\nrules: []\n---\nname: ""\nrules: []\n', 'm.yaml'),
    ).rejects.toThrow('m.yaml:4:1: document 2.name: a policy needs a non-empty name');
  });

  it('places a field error on the line of its field, in YAML and JSON alike', async () => {
    const yaml =
      'name: x\nrules:\n  - name: a\n    actions: [read]\n    decision: maybe\n    resources: [/a]\n';
    await expect(parsePolicyDocument(yaml, 'p.yaml')).rejects.toThrow(
      /^p\.yaml:5:5: rules\[0\]\.decision: decision "maybe" is not allowed/,
    );
    const json = JSON.stringify(
      { name: 'x', rules: [{ name: 'a', actions: ['read'], decision: 'maybe', resources: ['/a'] }] },
      null,
      2,
    );
    await expect(parsePolicyDocument(json, 'p.json')).rejects.toThrow(/^p\.json:9:7: rules\[0\]\.decision: /);
    // a rule that is not an object: the line of the list's key
    await expect(parsePolicyDocument('name: x\nrules:\n  - 42\n', 'p.yaml')).rejects.toThrow(
      /^p\.yaml:2:1: rules\[0\]: /,
    );
  });
});

describe('policyDocFromApi and applicablePolicies', () => {
  it('converts a fetched policy', () => {
    expect(policyDocFromApi(apiPolicy as never)).toMatchObject({
      id: 'pol_1',
      source: 'live',
      rules: [{ name: 'gh' }],
    });
    expect(() => policyDocFromApi({ ...apiPolicy, name: '' } as never)).toThrow(ValidationError);
  });
  it('keeps org-wide policies and those of the given teams', () => {
    const ps = [
      { name: 'org', scope: {} },
      { name: 'org2', scope: { teams: [] } },
      { name: 't1', scope: { teams: ['t1', 't9'] } },
      { name: 't2', scope: { teams: ['t2'] } },
    ];
    expect(applicablePolicies(ps, ['t1']).map((p) => p.name)).toEqual(['org', 'org2', 't1']);
    expect(applicablePolicies(ps).map((p) => p.name)).toEqual(['org', 'org2']);
  });
});

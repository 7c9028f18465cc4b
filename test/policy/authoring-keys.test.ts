// The one key table: the strict reader and `policy schema` agree on it, the suggestions are the
// slips people make, and both YAML readers (the subset and the full one) place a key on its line.
import { describe, expect, it } from 'vitest';
import { AUTHORED_SHAPES, closestKey, editDistance } from '../../src/policy/authoring-keys.js';
import { AUTHORING_SCHEMA } from '../../src/policy/authoring-schema.js';
import { parsePolicyDocument } from '../../src/policy/document.js';
import { DECLINED, readYamlSubset } from '../../src/policy/yaml-subset.js';

type Obj = { properties?: Record<string, Obj>; items?: Obj; oneOf?: Obj[]; additionalProperties?: boolean };
const keys = (o: Obj) => Object.keys(o.properties ?? {}).sort();
const union = (...os: Obj[]) => [...new Set(os.flatMap(keys))].sort();
const table = (shape: keyof typeof AUTHORED_SHAPES) => Object.keys(AUTHORED_SHAPES[shape].keys).sort();

describe('the key table and the JSON Schema', () => {
  it('describe the same keys, every object closed', () => {
    const policy = AUTHORING_SCHEMA.$defs.policy as unknown as Obj;
    const [withRules, withCedar] = policy.oneOf!;
    expect(union(withRules!, withCedar!)).toEqual(table('policy'));
    const scope = withRules!.properties!.scope!;
    expect(keys(scope)).toEqual(table('scope'));
    const [plainRule, httpRule] = withRules!.properties!.rules!.items!.oneOf!;
    expect(union(plainRule!, httpRule!)).toEqual(table('rule'));
    expect(keys(httpRule!.properties!.http_resources!.items!)).toEqual(table('http_resource'));
    expect(keys(withCedar!.properties!.cedar_v1!)).toEqual(table('cedar_v1'));
    for (const o of [withRules, withCedar, scope, plainRule, httpRule, withCedar!.properties!.cedar_v1]) {
      expect(o!.additionalProperties).toBe(false);
    }
  });

  it('accepts cedar_v1 with text and schema_url', async () => {
    const docs = await parsePolicyDocument(
      'name: c\ncedar_v1:\n  text: "permit(principal, action, resource);"\n  schema_url: https://x.test/s.json\n',
      'c.yaml',
    );
    expect(docs[0]!.cedar_v1).toEqual({
      text: 'permit(principal, action, resource);',
      schema_url: 'https://x.test/s.json',
    });
  });
});

describe('did you mean', () => {
  it.each([
    ['rulez', 'rules'],
    ['Rules', 'rules'],
    ['teems', 'teams'],
    ['resource', 'resources'],
    ['http_resource', 'http_resources'],
    ['nmae', 'name'],
    ['decison', 'decision'],
    ['schema-url', 'schema_url'],
    ['cedar', 'cedar_v1'],
    ['l', undefined],
    ['colour', undefined],
  ])('%s → %s', (key, want) => {
    const known = [...new Set(Object.values(AUTHORED_SHAPES).flatMap((s) => Object.keys(s.keys)))];
    expect(closestKey(key, known)).toBe(want);
  });

  it('counts a swap of neighbours as one edit', () => {
    expect([editDistance('nmae', 'name'), editDistance('rules', 'rulez'), editDistance('', 'abc')]).toEqual([
      1, 1, 3,
    ]);
  });
});

describe('refusals, placed on their line by either YAML reader', () => {
  const cases: [string, string][] = [
    ['name: p\nscope:\nteams: [t1]\nrules: []\n', 'p.yaml:2:1: "scope" of a policy is empty'],
    [
      'name: p\nrules: []\nteams: [t1]\n',
      'p.yaml:3:1: unknown key "teams" in a policy; did you mean "scope.teams" (indented under "scope")?',
    ],
    [
      'name: p\n',
      'p.yaml:1:1: policy "p" has no "rules"; did you mean "rules: []" for a policy without rules?',
    ],
    [
      'name: p\nrules: []\nallowlist_v0: {rules: []}\n',
      'p.yaml:3:1: a policy holds one of rules, cedar_v1, allowlist_v0, not rules and allowlist_v0',
    ],
    [
      'name: p\nrules:\n  - name: a\n    actions: [read]\n    decision: allow\n    resources: [/a]\n    colour: red\n',
      'p.yaml:7:5: unknown key "colour" in a rule; did you mean one of name, actions, decision, resources, http_resources?',
    ],
    ['name: p\nrules: []\n1: x\n', 'p.yaml:3:1: unknown key "1" in a policy'],
    ['name: p\nrules: []\n? [a]\n: x\n', 'p.yaml:3:3: a key must be a plain name'],
    ['name: !!str p\nrules: []\n', 'p.yaml:1:7: "!!str" is a YAML tag'],
  ];
  it.each(cases)('%j', async (text, message) => {
    await expect(parsePolicyDocument(text, 'p.yaml')).rejects.toThrow(message);
    // the same text, forced through the full reader by a comment the subset reader declines
    const full = `${text}#\t\n`;
    expect(readYamlSubset(full)).toBe(DECLINED);
    await expect(parsePolicyDocument(full, 'p.yaml')).rejects.toThrow(message);
  });
});

// Fuzz and property tests of the authored policy file reader (issue 20): generated malformed,
// mutated and oversized YAML and JSON, as text and as bytes. Whatever comes in, the reader either
// returns policies or throws one HubctlError of exit code 2 whose message is one bounded sentence
// (one line once the error printer has escaped it), in bounded time; never another exception.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { HubctlError } from '../../src/errors.js';
import { escapeControl } from '../../src/output/escape.js';
import { parsePolicyDocument } from '../../src/policy/document.js';
import { decodePolicyText } from '../../src/policy/source-text.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
/** A message names a file, a line, a key or two and a value cut short: never a page. */
const MAX_MESSAGE = 600;
/** Generous: the machine may be busy; a hang or a blow-up takes far longer. */
const MAX_MS = 5000;

/** Reads `input` as `policy eval -f` and `apply -f` do, and checks how it ends. */
async function readsCleanly(input: string | Uint8Array, name: string): Promise<void> {
  const started = performance.now();
  try {
    const text = typeof input === 'string' ? input : decodePolicyText(input, name);
    const docs = await parsePolicyDocument(text, name);
    expect(docs.length).toBeGreaterThan(0);
  } catch (err) {
    if (!(err instanceof HubctlError)) throw new Error(`not a HubctlError: ${String(err)}`.slice(0, 2000));
    expect(err.exitCode, err.message).toBe(2);
    const printed = escapeControl(err.message);
    expect(printed.includes('\n'), printed).toBe(false);
    expect(printed.length, printed.slice(0, 2000)).toBeLessThanOrEqual(MAX_MESSAGE);
    expect(printed.startsWith(name), printed).toBe(true);
  }
  expect(performance.now() - started, name).toBeLessThan(MAX_MS);
}

const KEYS = [
  'name',
  'scope',
  'teams',
  'rules',
  'rulez',
  'actions',
  'decision',
  'resources',
  'http_resources',
  'host',
  'port',
  'path',
  'cedar_v1',
  'text',
  'schema_url',
  'id',
  'allowlist_v0',
  '__proto__',
  'x',
];
const leaf = fc.oneof(
  fc.constantFrom(
    'allow',
    'deny',
    'connect:tcp',
    'request:get',
    'read',
    'a.test',
    '/data/**',
    '',
    'x'.repeat(300),
  ),
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('list'), tie('obj')),
  list: fc.array(tie('node'), { maxLength: 4 }),
  obj: fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 12 })), tie('node'), {
    maxKeys: 5,
  }),
})).node;
const rule = fc.record({
  name: fc.constantFrom('a', 'b', 'c'),
  actions: fc.constantFrom(['connect:tcp'], ['read'], ['request:get']),
  decision: fc.constantFrom('allow', 'deny'),
  resources: fc.constantFrom(['a.test'], ['/a/**']),
});
const policy = fc.record({ name: fc.constantFrom('p', 'q'), rules: fc.array(rule, { maxLength: 3 }) });

/** Text edits that typical slips and attacks make. */
const edit = fc.oneof(
  fc.tuple(
    fc.nat(),
    fc.constantFrom(
      '!foo ',
      '&a ',
      '*a',
      '<<: ',
      '- ',
      ': ',
      '"',
      "'",
      '{',
      '[',
      '\n',
      '\t',
      '\u0000',
      '\ufeff',
      '#',
      '%YAML 1.1\n---\n',
      '---\n',
      'rules: []\n',
      '\\u0041',
      '\ud800',
    ),
  ),
  fc.tuple(fc.nat(), fc.string({ maxLength: 6 })),
);
function applyEdits(text: string, edits: [number, string][]): string {
  let t = text;
  for (const [at, s] of edits) {
    const i = t.length === 0 ? 0 : at % (t.length + 1);
    t = at % 7 === 0 ? t.slice(0, i) + t.slice(i + s.length) : t.slice(0, i) + s + t.slice(i);
  }
  return t;
}

describe('the authored policy file reader, fuzzed', () => {
  it('mutated policy files, as YAML and JSON', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(policy, fc.array(policy, { maxLength: 2 }), value),
        fc.boolean(),
        fc.array(edit, { maxLength: 4 }),
        async (v, asJson, edits) => {
          const text = asJson ? JSON.stringify(v, null, 1) : stringify(v);
          await readsCleanly(applyEdits(text, edits), asJson ? 'p.json' : 'p.yaml');
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('arbitrary text and bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 })),
        fc.constantFrom('p.yaml', 'p.json', 'p'),
        async (text, name) => {
          await readsCleanly(text, name);
        },
      ),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 200 }),
        fc.constantFrom('p.yaml', 'p.json'),
        async (bytes, name) => {
          await readsCleanly(bytes, name);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('oversized and pathological inputs', async () => {
    const big = 'x'.repeat(1024 * 1024);
    const cases: [string, string][] = [
      ['['.repeat(100_000), 'deep.json'],
      ['['.repeat(100_000), 'deep.yaml'],
      ['{"a":'.repeat(50_000), 'deep.json'],
      [`${'- '.repeat(20_000)}x\n`, 'deep.yaml'],
      [Array.from({ length: 5000 }, (_, i) => `${' '.repeat(i)}a${i}:\n`).join(''), 'stairs.yaml'],
      [`{"name": "p", "rules": [], "${big}": 1}`, 'longkey.json'],
      [`name: p\nrules: []\n${big}: 1\n`, 'longkey.yaml'],
      [`name: "${big}"\nrules: []\nrules: []\n`, 'longname.yaml'],
      [
        `{"name": "${big}", "rules": [{"name": "${big}", "actions": ["read"], "decision": "allow", "resources": [{"${big}": 1}]}]}`,
        'longvalue.json',
      ],
      [
        `{"name": "${big}\\n", "rules": [{"name": "a", "actions": ["read", "connect:tcp"], "decision": "allow", "resources": ["/a"]}]}`,
        'longname.json',
      ],
      [
        `name: p\nrules:\n${'  - {name: a, actions: [read], decision: allow, resources: [/a]}\n'.repeat(2_000)}`,
        'many.yaml',
      ],
      [
        `name: p\nrules: []\n${Array.from({ length: 50_000 }, (_, i) => `k${i}: 1`).join('\n')}\n`,
        'keys.yaml',
      ],
      [
        `a: &a [${'x, '.repeat(1000)}x]\n${Array.from({ length: 100 }, (_, i) => `b${i}: *a`).join('\n')}\n`,
        'aliases.yaml',
      ],
      [
        `a: &a ["lol"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n`,
        'lol.yaml',
      ],
      [`${'x'.repeat(17 * 1024 * 1024)}`, 'huge.yaml'],
      ['"\\ud800"', 'surrogate.json'],
    ];
    for (const [text, name] of cases) await readsCleanly(text, name);
  }, 60_000);
});

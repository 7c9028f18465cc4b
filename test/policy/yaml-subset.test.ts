// The subset reader must read every document it accepts exactly as the `yaml` library does, and
// decline the rest. The library is the oracle: generated and mutated documents are given to both.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { DECLINED, readYamlSubset } from '../../src/policy/yaml-subset.js';

const EXAMPLES = join(import.meta.dirname, '../../examples');

/** What `yaml` makes of a text: its single document's value, or 'error'. */
function oracle(text: string): unknown {
  const docs = parseAllDocuments(text);
  const list = Array.isArray(docs) ? docs : [docs];
  if (list.length !== 1) return 'several documents';
  const doc = list[0];
  if (!doc || doc.errors.length > 0) return 'error';
  return doc.toJS();
}

/** Fails with the text when the reader accepts something the library reads otherwise. */
function agrees(text: string): boolean {
  const mine = readYamlSubset(text);
  if (mine === DECLINED) return true;
  expect({ text, value: mine }).toEqual({ text, value: oracle(text) });
  return true;
}

describe('readYamlSubset', () => {
  it('reads the bundled examples itself (else policy eval loads the yaml library)', () => {
    const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const f of files) {
      const text = readFileSync(join(EXAMPLES, f), 'utf8');
      const value = readYamlSubset(text);
      expect(value, f).not.toBe(DECLINED);
      expect(value, f).toEqual(oracle(text));
    }
  });

  it.each([
    ['name: a\nrules: []\n', { name: 'a', rules: [] }],
    ['rules:\n- name: x\n  actions: [read, write]\n', { rules: [{ name: 'x', actions: ['read', 'write'] }] }],
    ["a:\n  - \"q # not a comment\"\n  - 'it''s'\n", { a: ['q # not a comment', "it's"] }],
    ['a: ~/src/** # home\nb: x#y\nc:\nd: ~\n', { a: '~/src/**', b: 'x#y', c: null, d: null }],
    ['x: [connect:tcp, "1.1.1.1:53", ]\n', { x: ['connect:tcp', '1.1.1.1:53'] }],
    ['- - a\n  - b\n-\n  k: true\n', [['a', 'b'], { k: true }]],
    ['t: True\nf: FALSE\ns: yes\n', { t: true, f: false, s: 'yes' }],
    ['  indented: doc\n  more: here\n', { indented: 'doc', more: 'here' }],
  ])('reads %j', (text, expected) => {
    expect(readYamlSubset(text)).toEqual(expected);
    expect(oracle(text)).toEqual(expected);
  });

  it.each([
    ['anchors and aliases', 'a: &x 1\nb: *x\n'],
    ['tags', 'a: !!str 1\n'],
    ['block scalars', 'a: |\n  text\n'],
    ['folded scalars', 'a: >\n  text\n'],
    ['multi-line plain scalars', 'a: one\n  two\n'],
    ['multi-line flow sequences', 'a: [x,\n  y]\n'],
    ['flow mappings', 'a: {b: c}\n'],
    ['numbers', 'a: 443\n'],
    ['floats', 'a: 1.5\n'],
    ['escapes', 'a: "\\u00e9"\n'],
    ['duplicate keys', 'a: 1\na: 2\n'],
    ['tabs', 'a:\n\t- b\n'],
    ['CRLF line ends', 'a: b\r\n'],
    ['document markers', '---\na: b\n'],
    ['several documents', 'a: b\n---\nc: d\n'],
    ['quoted keys', '"a": b\n'],
    ['compact nested mappings', 'a: b: c\n'],
    ['empty text', '# only a comment\n'],
    ['a key that is not a string', 'true: x\n'],
    ['__proto__', '__proto__: x\n'],
  ])('declines %s', (_what, text) => {
    expect(readYamlSubset(text)).toBe(DECLINED);
  });

  // Scalars chosen to sit on the subset's edges: indicators, comments, colons, core-schema words.
  const TOKENS = [
    'a',
    'name',
    'github.com',
    '*.github.com',
    '**.x',
    '~',
    '~/src/**',
    'null',
    'Null',
    'true',
    'False',
    'yes',
    '1',
    '-1',
    '0x1f',
    '0o7',
    '1.5',
    '.5',
    '1e3',
    '.inf',
    '.NaN',
    '1.1.1.1:53',
    '10.0.0.0/8',
    '[::1]:443',
    'connect:tcp',
    'a: b',
    'a:',
    ':a',
    'a #b',
    'a#b',
    '#a',
    '-a',
    '- a',
    '-',
    '?',
    '? a',
    '[a]',
    'a]',
    '{a}',
    'a,b',
    '&a',
    '*a',
    '!a',
    '|',
    '>',
    '%a',
    '@a',
    '`a',
    "'",
    '"',
    "it's",
    'a\\b',
    '',
    ' ',
    'a  b',
    'é',
    'a\u00a0',
    '\u00a0',
    '__proto__',
    'a b: c',
  ];
  const token = fc.constantFrom(...TOKENS);
  const scalar = fc.oneof(
    token,
    token.map((s) => `'${s.replaceAll("'", "''")}'`),
    token.map((s) => `"${s}"`),
  );
  const comment = fc.constantFrom('', '', ' # note', '#x', '  #');
  const key = fc.constantFrom('name', 'rules', 'actions', 'a_b', 'a-b', 'x1', 'true', 'null', 'on', '_');

  type Node = { text: string; block: boolean };
  const inline: fc.Arbitrary<Node> = fc.oneof(
    fc.tuple(scalar, comment).map(([s, c]) => ({ text: s + c, block: false })),
    fc
      .tuple(fc.array(scalar, { maxLength: 4 }), fc.constantFrom(', ', ',', ' , '), fc.boolean(), comment)
      .map(([items, sep, trailing, c]) => ({
        text: `[${items.join(sep)}${trailing && items.length > 0 ? ',' : ''}]${c}`,
        block: false,
      })),
  );
  const indentOf = fc.integer({ min: 1, max: 3 });

  function render(node: fc.Arbitrary<Node>): fc.Arbitrary<Node> {
    const seq = fc.tuple(fc.array(node, { minLength: 1, maxLength: 3 }), indentOf).map(([items, n]) => ({
      block: true,
      text: items
        .map((it) => (it.block ? `-\n${indent(it.text, n + 1)}` : `-${' '.repeat(n)}${it.text}`))
        .join('\n'),
    }));
    const map = fc
      .tuple(fc.array(fc.tuple(key, node), { minLength: 1, maxLength: 3 }), indentOf, comment)
      .map(([entries, n, c]) => ({
        block: true,
        text: entries
          .map(([k, v]) => (v.block ? `${k}:${c}\n${indent(v.text, n)}` : `${k}: ${v.text}`))
          .join('\n'),
      }));
    return fc.oneof(inline, seq, map);
  }
  function indent(text: string, n: number): string {
    return text
      .split('\n')
      .map((l) => ' '.repeat(n) + l)
      .join('\n');
  }
  const doc = render(render(render(inline)));

  it('agrees with the yaml library on generated documents', () => {
    let accepted = 0;
    fc.assert(
      fc.property(doc, (d) => {
        if (readYamlSubset(d.text) !== DECLINED) accepted++;
        return agrees(`${d.text}\n`);
      }),
      { numRuns: 20_000 },
    );
    // Not vacuous: a good share of the documents must take the reader's own path.
    expect(accepted).toBeGreaterThan(2_000);
  });

  it('agrees with the yaml library on mutated examples', () => {
    const texts = readdirSync(EXAMPLES)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => readFileSync(join(EXAMPLES, f), 'utf8'));
    const edit = fc.tuple(
      fc.nat(),
      fc.constantFrom('insert', 'delete', 'duplicate-line'),
      fc.constantFrom(...' -:#[]{},\'"\n&*!|>~0.x\\?'.split('')),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...texts),
        fc.array(edit, { minLength: 1, maxLength: 4 }),
        (text, edits) => {
          let t = text;
          for (const [at, op, ch] of edits) {
            const i = at % (t.length + 1);
            if (op === 'insert') t = t.slice(0, i) + ch + t.slice(i);
            else if (op === 'delete') t = t.slice(0, i) + t.slice(i + 1);
            else {
              const start = t.lastIndexOf('\n', i - 1) + 1;
              const end = t.indexOf('\n', i);
              const line = t.slice(start, end < 0 ? t.length : end);
              t = `${t.slice(0, start)}${line}\n${t.slice(start)}`;
            }
          }
          return agrees(t);
        },
      ),
      { numRuns: 5_000 },
    );
  });
});

// The strict JSON reader of policy files reads what JSON.parse reads, to the same value (JSON.parse
// is the oracle on generated documents), and refuses what JSON.parse lets through silently: a key
// given twice in one object. Every refusal is a JsonProblem at an offset, never another exception.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonProblem, MAX_JSON_DEPTH, readJsonStrict } from '../../src/policy/json-strict.js';
import type { KeyOffsets } from '../../src/policy/source-text.js';

describe('readJsonStrict', () => {
  it('reads generated JSON as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(undefined, 0, 1, 2, '\t'), (v, indent) => {
        const text = JSON.stringify(v, null, indent);
        expect(readJsonStrict(text)).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses exactly what JSON.parse refuses, on mutated text (duplicate keys apart)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.nat(), fc.string({ maxLength: 3 }), (v, at, insert) => {
        const base = JSON.stringify(v) ?? 'null';
        const i = at % (base.length + 1);
        const text = base.slice(0, i) + insert + base.slice(i);
        let oracle: unknown;
        let oracleFails = false;
        try {
          oracle = JSON.parse(text);
        } catch {
          oracleFails = true;
        }
        try {
          expect(readJsonStrict(text)).toStrictEqual(oracle);
          expect(oracleFails).toBe(false);
        } catch (err) {
          if (!(err instanceof JsonProblem)) throw err;
          if (err.syntax) expect(oracleFails, `${text}: ${err.message}`).toBe(true);
          else expect(err.message).toMatch(/given twice|nested deeper/);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses a key given twice, naming the first, and records where keys start', () => {
    const text = '{\n  "name": "p",\n  "rules": [1],\n  "rules": []\n}';
    const err = (() => {
      try {
        readJsonStrict(text);
      } catch (e) {
        return e as JsonProblem;
      }
    })();
    expect(err).toBeInstanceOf(JsonProblem);
    expect([err!.offset, err!.message, err!.syntax]).toEqual([
      text.lastIndexOf('"rules"'),
      'key "rules" is given twice in one object (first at line 3); did you mean to merge the two into one?',
      false,
    ]);
    const offsets: KeyOffsets = new WeakMap();
    const v = readJsonStrict('{"a": {"b": 1}, "__proto__": 2}', offsets) as Record<
      string,
      Record<string, number>
    >;
    expect([...offsets.get(v)!]).toEqual([
      ['a', 1],
      ['__proto__', 16],
    ]);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.hasOwn(v, '__proto__')).toBe(true);
    expect([...offsets.get(v.a!)!]).toEqual([['b', 7]]);
  });

  it('bounds nesting and takes a byte order mark', () => {
    expect(() => readJsonStrict('['.repeat(MAX_JSON_DEPTH + 2))).toThrow(
      `nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
    expect(readJsonStrict(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).toBeDefined();
    expect(readJsonStrict('\ufeff{"a": 1}')).toEqual({ a: 1 });
  });
});

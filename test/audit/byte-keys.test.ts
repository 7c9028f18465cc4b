// The table replay finds a request's decisions in by the bytes the request is read from: it answers as
// a Map keyed by the same tag and strings would, whatever the bytes around the ranges.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteKeys, DATA } from '../../src/audit/byte-keys.js';

/**
 * A key: a tag and up to four strings, often of one small set (repeated keys, keys of one length
 * that differ in their first four bytes or in their last one to three, a string cut elsewhere).
 */
const part = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom('', 'a', 'b', 'ab', 'ba', 'abcde', 'abcdf', 'xbcde', 'abcdefghi', 'abcdefghj'),
  },
  fc.stringMatching(/^[ab"\\\u0000~]{0,9}$/),
);
const key = fc.tuple(fc.constantFrom(1, 2), fc.array(part, { minLength: 1, maxLength: 4, size: 'max' }));

/** The key's ranges in a line of bytes with other bytes before, between and after them. */
function laidOut(tag: number, parts: string[], pad: number) {
  let text = 'x'.repeat(pad);
  const ranges: number[] = [];
  for (const p of parts) {
    text += '"';
    ranges.push(text.length, text.length + p.length);
    text += `${p}"`;
  }
  while (ranges.length < 8) ranges.push(0, 0);
  return { tag, bytes: Buffer.from(`${text}yz`, 'latin1'), ranges };
}

describe('ByteKeys', () => {
  it('finds what was added under equal bytes only, as a Map of the same keys (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, fc.nat(7)), { maxLength: 200, size: 'max' }),
        fc.boolean(),
        (ops, weak) => {
          // no hash at all: keys share it, and are told apart by their bytes alone
          const table = new ByteKeys(weak ? 0 : 32);
          const model = new Map<string, number>();
          for (const [[tag, parts], pad] of ops) {
            const { bytes, ranges: r } = laidOut(tag, parts, pad);
            const name = JSON.stringify([tag, ...parts, ...Array(4 - parts.length).fill('')]);
            const found = table.find(tag, bytes, r[0]!, r[1]!, r[2]!, r[3]!, r[4]!, r[5]!, r[6]!, r[7]!);
            const known = model.get(name);
            if (known === undefined) {
              expect(found).toBe(-1);
              const rec = table.add(tag, bytes, r[0]!, r[1]!, r[2]!, r[3]!, r[4]!, r[5]!, r[6]!, r[7]!);
              expect(table.data(rec, 0)).toBe(0);
              table.setData(rec, 0, model.size + 1);
              table.setData(rec, DATA - 1, -(model.size + 1));
              model.set(name, model.size + 1);
            } else {
              expect(found).toBeGreaterThanOrEqual(0);
              expect(table.data(found, 0)).toBe(known);
              expect(table.data(found, DATA - 1)).toBe(-known);
            }
            expect(table.size).toBe(model.size);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('grows past its first slots and arena, and is empty once cleared', () => {
    const table = new ByteKeys();
    const at = (i: number) => {
      const b = Buffer.from(`"${'k'.repeat(i % 50)}${i}"`, 'latin1');
      return [b, 1, b.length - 1] as const;
    };
    for (let i = 0; i < 20_000; i++) {
      const [b, s, e] = at(i);
      expect(table.find(1, b, s, e, 0, 0, 0, 0, 0, 0)).toBe(-1);
      table.setData(table.add(1, b, s, e, 0, 0, 0, 0, 0, 0), 0, i);
    }
    for (let i = 0; i < 20_000; i++) {
      const [b, s, e] = at(i);
      expect(table.data(table.find(1, b, s, e, 0, 0, 0, 0, 0, 0), 0)).toBe(i);
    }
    expect(table.bytesUsed).toBeGreaterThan(20_000 * 30);
    table.clear();
    expect(table.size).toBe(0);
    expect(table.bytesUsed).toBe(0);
    const [b, s, e] = at(7);
    expect(table.find(1, b, s, e, 0, 0, 0, 0, 0, 0)).toBe(-1);
  });
});

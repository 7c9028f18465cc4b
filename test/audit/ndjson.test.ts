import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter, readNdjson } from '../../src/audit/ndjson.js';
import { readAuditRecord } from '../../src/audit/record.js';
import { HubctlError } from '../../src/errors.js';

/** Cuts bytes into chunks at the given points. */
function chunks(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let at = 0;
  for (const p of points) {
    out.push(bytes.subarray(at, p));
    at = p;
  }
  out.push(bytes.subarray(at));
  return out;
}

const record = fc.dictionary(
  fc.string({ maxLength: 8 }),
  fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean()),
  {
    maxKeys: 6,
  },
);

describe('NDJSON reader', () => {
  it('gives back every object, whatever the chunking, line endings and blank lines', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(record, { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.boolean(),
        fc.boolean(),
        async (objects, cuts, crlf, trailing) => {
          const eol = crlf ? '\r\n' : '\n';
          const text =
            objects.map((o) => JSON.stringify(o)).join(`${eol}${eol.repeat(cuts.length % 2)}`) +
            (trailing ? eol : '');
          const got: unknown[] = [];
          for await (const batch of readNdjson(chunks(Buffer.from(text), cuts), 'x')) got.push(...batch);
          expect(got).toEqual(objects);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps multi-byte characters whole when a chunk splits them', async () => {
    const o = { u: 'käse 🧀 \u202e' };
    const bytes = Buffer.from(`${JSON.stringify(o)}\n`);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const got: unknown[] = [];
      for await (const b of readNdjson(chunks(bytes, [cut]), 'x')) got.push(...b);
      expect(got).toEqual([o]);
    }
  });

  it('never throws anything but a plain HubctlError on arbitrary bytes, and refuses long lines early', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        async (bytes, cuts) => {
          try {
            for await (const batch of readNdjson(chunks(Buffer.from(bytes), cuts), 'x', 64)) {
              for (const value of batch) expect('invalid' in readAuditRecord(value)).toBe(false);
            }
          } catch (err) {
            expect(err).toBeInstanceOf(HubctlError);
            expect((err as Error).message).toMatch(/^x line \d+ /);
          }
        },
      ),
      { numRuns: 500 },
    );
    const s = new LineSplitter('big', 10);
    expect(() => s.push(Buffer.from('a'.repeat(11)))).toThrow(/big line 1 is longer/);
  });

  it('reads any JSON object as an audit record without throwing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const r = readAuditRecord(value);
        if (typeof value !== 'object' || value === null || Array.isArray(value))
          expect(r).toHaveProperty('invalid');
        else expect(r).toHaveProperty('raw', value);
      }),
    );
  });
});

describe('escapeJsonText (export lines)', () => {
  it('writes raw DEL, C1 and bidi characters as \\u escapes, the same JSON value, and leaves plain text alone', async () => {
    const { escapeJsonText, safeJson } = await import('../../src/json-text.js');
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.string(), fc.string({ unit: 'binary' }), { maxKeys: 3 }), { maxLength: 5 }),
        (objects) => {
          const text = objects.map((o) => `${JSON.stringify(o)}\n`).join('');
          const escaped = escapeJsonText(text);
          expect(escaped).toBe(objects.map((o) => `${safeJson(o)}\n`).join(''));
          expect(escaped).not.toMatch(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
          expect(
            escaped.trim() === ''
              ? []
              : escaped
                  .trim()
                  .split('\n')
                  .map((l) => JSON.parse(l)),
          ).toEqual(objects);
        },
      ),
    );
    expect(escapeJsonText('{"a":"plain"}\n')).toBe('{"a":"plain"}\n');
  });
});

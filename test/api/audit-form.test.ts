// The cursor of each page is written into its query without a URLSearchParams of its own
// (src/api/audit.ts, formEncoded): it must be written exactly as URLSearchParams writes it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formEncoded } from '../../src/api/audit.js';

const asURLSearchParams = (v: string) => String(new URLSearchParams({ v })).slice(2);

describe('formEncoded', () => {
  it('writes a value as URLSearchParams does, whatever its characters', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.base64String()), (v) => {
        expect(formEncoded(v)).toBe(asURLSearchParams(v));
      }),
      { numRuns: 2000 },
    );
    for (const v of ['', 'a b', 'a+b', 'x/y=z&w', "!'()~*-._", 'é', '\u{1F600}', 'eyJ0IjoiMjAyNi0xMS0yMCJ9'])
      expect(formEncoded(v)).toBe(asURLSearchParams(v));
  });

  it('reads back to the value', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (v) => {
        expect(new URLSearchParams(`t=${formEncoded(v)}`).get('t')).toBe(
          (v as string & { toWellFormed(): string }).toWellFormed(),
        );
      }),
    );
  });
});

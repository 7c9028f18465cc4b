// Canonical audit times read without Date.parse: the same number, and the same string back.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoMs, isoText } from '../../src/audit/iso-time.js';

const pad = (n: number, w: number) => String(n).padStart(w, '0');

describe('isoMs and isoText', () => {
  it('read a canonical time as Date.parse does and write it back as given (property)', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0000-01-01T00:00:00.000Z'),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        }),
        fc.boolean(),
        (d, withMs) => {
          const full = d.toISOString();
          if (full.length !== 24) return;
          const s = withMs ? full : `${full.slice(0, 19)}Z`;
          expect(isoMs(s)).toBe(Date.parse(s));
          expect(isoText(isoMs(s), s.length === 24)).toBe(s);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('is NaN for anything else, never a number Date.parse would not give (property)', () => {
    const field = (max: number, w: number) => fc.integer({ min: 0, max }).map((n) => pad(n, w));
    const near = fc
      .tuple(
        field(9999, 4),
        field(13, 2),
        field(32, 2),
        field(25, 2),
        field(61, 2),
        field(61, 2),
        fc.constantFrom('', '.000', '.1', '.12', '.123', '.1234', '.12a'),
        fc.constantFrom('Z', 'z', '+00:00', ''),
        fc.constantFrom('T', 't', ' '),
      )
      .map(([y, mo, d, h, mi, s, f, z, t]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${f}${z}`);
    fc.assert(
      fc.property(fc.oneof(near, fc.string({ maxLength: 26 })), (s) => {
        const ms = isoMs(s);
        if (Number.isNaN(ms)) return;
        expect(ms).toBe(Date.parse(s));
        expect(isoText(ms, s.length === 24)).toBe(s);
      }),
      { numRuns: 5000 },
    );
    for (const s of [
      '2026-02-30T00:00:00Z',
      '2026-11-01T24:00:00Z',
      '2026-11-01T00:00:60Z',
      '2026-11-01T00:00:00.1Z',
      '2026-11-01T00:00:00+00:00',
      '2025-02-29T00:00:00Z',
    ])
      expect(isoMs(s)).toBeNaN();
    expect(isoMs('2024-02-29T23:59:59.999Z')).toBe(Date.parse('2024-02-29T23:59:59.999Z'));
    expect(isoMs('0000-01-01T00:00:00Z')).toBe(Date.parse('0000-01-01T00:00:00Z'));
  });
});

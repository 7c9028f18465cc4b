import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  apiRange,
  buildQuery,
  EdgeDedupe,
  parseTime,
  recordMatches,
  WINDOW_MS,
  windows,
} from '../../src/audit/query.js';
import { readAuditRecord } from '../../src/audit/record.js';

const NOW = Date.parse('2026-11-20T12:00:00.000Z');

describe('parseTime', () => {
  it.each([
    ['2026-11-01T09:00:00Z', Date.parse('2026-11-01T09:00:00Z')],
    ['2026-11-01T09:00:00.123456+02:00', Date.parse('2026-11-01T07:00:00.123Z')],
    ['7d', NOW - 7 * 86_400_000],
    ['36h', NOW - 36 * 3_600_000],
    ['1d12h', NOW - 36 * 3_600_000],
    ['90m', NOW - 90 * 60_000],
  ])('reads %s', (text, ms) => {
    expect(parseTime(text, '--from', NOW).ms).toBe(ms);
  });
  it('keeps an RFC 3339 text as given (its precision)', () => {
    expect(parseTime('2026-11-01T09:00:00.123456789Z', '--to', NOW).text).toBe(
      '2026-11-01T09:00:00.123456789Z',
    );
  });
  it.each(['', 'now', '7', '7y', '2026-13-01T00:00:00Z', '2026-02-29T00:00:00Z', '2026-11-01', '1e9d'])(
    'refuses %j naming the flag',
    (text) => {
      expect(() => parseTime(text, '--from', NOW)).toThrow(/--from ".*" is not a time/);
    },
  );
});

describe('ranges and windows', () => {
  it('leaves the range to the API unless asked, and sends both for --search', () => {
    expect(apiRange(buildQuery({}, NOW), NOW)).toEqual({});
    const s = apiRange(buildQuery({ search: 'carol' }, NOW), NOW);
    expect(s.to?.ms).toBe(NOW);
    expect(s.from?.ms).toBe(NOW - WINDOW_MS);
    const onlyTo = apiRange(buildQuery({ to: '2026-11-01T00:00:00Z' }, NOW), NOW);
    expect(onlyTo.from?.ms).toBe(Date.parse('2026-11-01T00:00:00Z') - WINDOW_MS);
  });
  it('splits into windows of at most 30 days, newest first, each older one ending where the newer starts', () => {
    const q = buildQuery({ from: '2026-06-01T00:00:00Z', to: '2026-11-20T00:00:00Z' }, NOW);
    const ws = [...windows(apiRange(q, NOW))];
    expect(ws[0]!.to!.text).toBe('2026-11-20T00:00:00Z');
    expect(ws.at(-1)!.from!.text).toBe('2026-06-01T00:00:00Z');
    for (let i = 0; i < ws.length; i++) {
      expect(ws[i]!.to!.ms - ws[i]!.from!.ms).toBeLessThanOrEqual(WINDOW_MS);
      expect(ws[i]!.to!.ms).toBeGreaterThan(ws[i]!.from!.ms);
      if (i > 0) expect(ws[i]!.to!.text).toBe(ws[i - 1]!.from!.text);
    }
    expect(ws).toHaveLength(6);
  });
});

describe('EdgeDedupe', () => {
  it('drops an event met again at the oldest instant, and nothing else', () => {
    const d = new EdgeDedupe();
    expect(d.seen('a', 10)).toBe(false);
    expect(d.seen('b', 5)).toBe(false);
    expect(d.seen('c', 5)).toBe(false);
    expect(d.seen('b', 5)).toBe(true);
    expect(d.seen('c', 5)).toBe(true);
    expect(d.seen('d', 4)).toBe(false);
    expect(d.seen(undefined, 4)).toBe(false);
  });

  it('answers as a set of every id kept at the oldest instant would, seeded or not', () => {
    const step = fc.record({
      id: fc.option(fc.constantFrom('a', 'b', 'c', 'd'), { nil: undefined }),
      ms: fc.constantFrom(1, 2, 3, Number.NaN),
    });
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 40 }),
        fc.option(fc.array(fc.constantFrom('a', 'b'))),
        (steps, seed) => {
          const d = new EdgeDedupe();
          // The model: every id seen at the oldest instant so far.
          let ms = Number.NaN;
          let ids = new Set<string>();
          if (seed) {
            d.seed(2, seed);
            ms = 2;
            ids = new Set(seed);
          }
          for (const s of steps) {
            let want = false;
            if (s.id !== undefined && !Number.isNaN(s.ms) && !(s.ms > ms)) {
              if (s.ms !== ms) {
                ms = s.ms;
                ids = new Set();
              }
              want = ids.has(s.id);
              ids.add(s.id);
            }
            expect(d.seen(s.id, s.ms)).toBe(want);
          }
        },
      ),
    );
  });
});

describe('recordMatches', () => {
  it('applies every filter as the API does', () => {
    const r = readAuditRecord({
      timestamp: '2026-11-19T00:00:00Z',
      user_email: 'carol@example.com',
      decision: 'AUDIT_DECISION_DENY',
      enforcement_mode: 'enforce',
      action_type: 'network_egress',
      audit_session_id: 's1',
      event_type: 'network_egress',
      resource_id: 'Example.com:443',
      agent: 'claude',
    });
    if ('invalid' in r) throw new Error('invalid');
    const q = (input: Parameters<typeof buildQuery>[0]) => recordMatches(r, buildQuery(input, NOW));
    expect(q({ resource: 'example.COM' })).toBe(true);
    expect(q({ resource: 'xample' })).toBe(false);
    expect(
      q({
        user: 'carol@example.com',
        decision: 'deny',
        mode: 'enforce',
        action: 'network_egress',
        agent: 'claude',
        session: 's1',
      }),
    ).toBe(true);
    expect(q({ agent: 'Claude' })).toBe(false);
    expect(q({ search: 'EGRESS' })).toBe(true);
    expect(q({ search: 'allow' })).toBe(false);
    expect(q({ from: '2026-11-19T00:00:00Z', to: '2026-11-19T00:00:00.001Z' })).toBe(true);
    expect(q({ from: '2026-11-19T00:00:00.001Z' })).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { SummaryCounter } from '../../src/audit/summary.js';

describe('SummaryCounter', () => {
  it('counts per group with the split, most first, and the time range over mixed time shapes', () => {
    const c = new SummaryCounter('resource');
    const add = (resource: string | undefined, decision: string, at: string, local = false) =>
      c.add(
        local
          ? { resource_id: resource, decision, timestamp: at }
          : { decision, created_at: at, payload: { resource_id: resource } },
      );
    add('a', 'AUDIT_DECISION_ALLOW', '2026-11-01T00:00:00.000Z');
    add('a', 'AUDIT_DECISION_APPROVAL_DENY', '2026-11-03T00:00:00.000Z');
    add('b', 'AUDIT_DECISION_APPROVAL_REQUIRED', '2026-11-02T00:00:00+02:00', true);
    add(undefined, 'SOMETHING_NEW', '2026-10-31T23:30:00Z');
    add('a', 'AUDIT_DECISION_APPROVAL_ALLOW', 'not a time');
    const r = c.result();
    expect(r.groups).toEqual([
      { value: 'a', count: 3, allowed: 2, denied: 1, approvalRequired: 0, other: 0 },
      { value: 'b', count: 1, allowed: 0, denied: 0, approvalRequired: 1, other: 0 },
      { value: null, count: 1, allowed: 0, denied: 0, approvalRequired: 0, other: 1 },
    ]);
    expect(r.oldest).toBe('2026-10-31T23:30:00Z');
    expect(r.newest).toBe('2026-11-03T00:00:00.000Z');
    expect(r.events).toBe(5);
  });
});

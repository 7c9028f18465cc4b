import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decisionName, decisionValue, readAuditRecord } from '../../src/audit/record.js';

describe('readAuditRecord', () => {
  it('reads the API shape, payload fields from the payload', () => {
    const r = readAuditRecord({
      audit_event_id: '0b9f3f0e-0000-4000-8000-000000000001',
      org_id: '0b9f3f0e-0000-4000-8000-000000000002',
      event_type: 'network_egress',
      decision: 'AUDIT_DECISION_DENY',
      action_type: 'network_egress',
      enforcement_mode: 'enforce',
      username: 'carol',
      created_at: '2026-11-20T10:00:00Z',
      payload: {
        resource_id: 'example.com:443',
        agent: 'claude',
        network_egress: { protocol: 'tcp' },
        extra: 1,
      },
    });
    expect(r).toMatchObject({
      shape: 'api',
      user: 'carol',
      resource: 'example.com:443',
      agent: 'claude',
      decision: 'AUDIT_DECISION_DENY',
      mode: 'enforce',
      networkEgress: { protocol: 'tcp' },
      timeMs: Date.UTC(2026, 10, 20, 10),
    });
  });

  it('reads the flat local shape: timestamp, user_email, top-level resource and http_request', () => {
    const r = readAuditRecord({
      timestamp: '2026-11-20T10:00:00.5Z',
      schema_version: '1',
      user_email: 'carol@example.com',
      resource_id: 'api.example.com:443',
      http_request: { method: 'HTTP_METHOD_GET', host: 'api.example.com', port: 443, path: '/v1' },
      decision: 'AUDIT_DECISION_ALLOW',
    });
    expect(r).toMatchObject({
      shape: 'local',
      user: 'carol@example.com',
      resource: 'api.example.com:443',
      httpRequest: { method: 'HTTP_METHOD_GET', host: 'api.example.com', port: '443', path: '/v1' },
      timeMs: Date.UTC(2026, 10, 20, 10, 0, 0, 500),
    });
  });

  it('refuses what is not an object, and never throws on any JSON value', () => {
    expect(readAuditRecord([1])).toEqual({ invalid: 'not a JSON object' });
    expect(readAuditRecord(null)).toEqual({ invalid: 'not a JSON object' });
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const r = readAuditRecord(v);
        expect(typeof r).toBe('object');
      }),
    );
  });
});

describe('decision names', () => {
  it('maps short names and raw values both ways', () => {
    expect(decisionValue('approval-required')).toBe('AUDIT_DECISION_APPROVAL_REQUIRED');
    expect(decisionValue('AUDIT_DECISION_DENY')).toBe('AUDIT_DECISION_DENY');
    expect(decisionValue('maybe')).toBeUndefined();
    expect(decisionName('AUDIT_DECISION_APPROVAL_DENY')).toBe('approval-deny');
    expect(decisionName('AUDIT_DECISION_NEW')).toBe('AUDIT_DECISION_NEW');
  });
});

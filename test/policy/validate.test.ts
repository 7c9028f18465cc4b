import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { policyDomain, policyType, rulesOf } from '../../src/policy/model.js';
import { domainOfActions, validateRule } from '../../src/policy/validate.js';

describe('domainOfActions', () => {
  it('derives the domain', () => {
    expect(domainOfActions(['connect:tcp'])).toBe('network');
    expect(domainOfActions(['connect:tcp', 'connect:udp'])).toBe('network');
    expect(domainOfActions(['read', 'write'])).toBe('filesystem');
  });
  it('refuses unknown actions, naming them and the allowed ones', () => {
    expect(() => domainOfActions(['request:get'])).toThrow(
      'unknown action "request:get"; allowed actions are network: connect:tcp, connect:udp; filesystem: read, write',
    );
  });
  it('refuses mixed domains', () => {
    expect(() => domainOfActions(['connect:tcp', 'read'])).toThrow(
      /"connect:tcp" \(network\) and "read" \(filesystem\) mix domains/,
    );
  });
  it('refuses no action', () => {
    expect(() => domainOfActions([])).toThrow(ValidationError);
  });
});

describe('validateRule', () => {
  const good = {
    name: 'gh',
    actions: ['connect:tcp'],
    decision: 'allow',
    resources: ['github.com', '*.github.com'],
  };
  it('returns the rule with its domain', () => {
    expect(validateRule(good)).toEqual({ ...good, domain: 'network' });
    expect(validateRule({ ...good, actions: ['connect:tcp', 'connect:tcp'] }).actions).toEqual([
      'connect:tcp',
    ]);
  });
  it.each([
    [{ ...good, name: '' }, 'non-empty name'],
    [{ ...good, name: 3 }, 'non-empty name'],
    [{ ...good, decision: 'maybe' }, 'decision "maybe" is not allowed; a decision is "allow" or "deny"'],
    [{ ...good, decision: undefined }, 'decision undefined'],
    [{ ...good, actions: [] }, 'at least one action'],
    [{ ...good, actions: 'connect:tcp' }, '"actions" must be a list'],
    [{ ...good, resources: [] }, 'at least one network resource'],
    [{ ...good, resources: [1] }, '"resources" must be a list of strings'],
    [{ ...good, resources: ['github.com', 'https://x.com'] }, 'invalid network resource "https://x.com"'],
    [{ ...good, actions: ['read'] }, 'invalid filesystem resource "github.com"'],
  ])('refuses %j', (input, fragment) => {
    expect(() => validateRule(input)).toThrow(ValidationError);
    expect(() => validateRule(input)).toThrow(fragment);
  });
  it('checks the policy domain', () => {
    expect(() => validateRule(good, { policyDomain: 'filesystem' })).toThrow(
      /network actions but the policy's rules are filesystem/,
    );
    expect(validateRule(good, { policyDomain: 'network' }).domain).toBe('network');
  });
});

describe('model helpers', () => {
  const base = { id: 'pol_1', name: 'p', org: 'o', scope: {}, created_at: '', updated_at: '' };
  it('policyType', () => {
    expect(policyType(base)).toBe('allowlist_v0');
    expect(policyType({ ...base, allowlist_v0: { rules: [] } })).toBe('allowlist_v0');
    expect(policyType({ ...base, cedar_v1: { text: 'permit' } })).toBe('cedar_v1');
    expect(policyType({ ...base, type: 'cedar_v1' })).toBe('cedar_v1');
  });
  it('rulesOf and policyDomain', () => {
    const rule = {
      id: 'rule_1',
      name: 'r',
      actions: ['read'],
      decision: 'allow' as const,
      resources: ['/x'],
    };
    const p = { ...base, allowlist_v0: { rules: [rule] } };
    expect(rulesOf(p)).toEqual([rule]);
    expect(rulesOf(base)).toEqual([]);
    expect(policyDomain(p)).toBe('filesystem');
    expect(policyDomain({ ...base, allowlist_v0: { domain: 'network' as const, rules: [] } })).toBe(
      'network',
    );
    expect(policyDomain(base)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import {
  domainOfAction,
  HTTP_ACTIONS,
  isHttpAction,
  policyDomain,
  policyType,
  rulesOf,
} from '../../src/policy/model.js';
import {
  domainOfActions,
  httpPathProblem,
  validateHttpResource,
  validateRule,
} from '../../src/policy/validate.js';

describe('domainOfActions', () => {
  it('derives the domain', () => {
    expect(domainOfActions(['connect:tcp'])).toBe('network');
    expect(domainOfActions(['connect:tcp', 'connect:udp'])).toBe('network');
    expect(domainOfActions(['read', 'write'])).toBe('filesystem');
  });
  it('refuses unknown actions, naming them and the allowed ones', () => {
    expect(() => domainOfActions(['request:fetch'])).toThrow(
      'unknown action "request:fetch"; allowed actions are network: connect:tcp, connect:udp, request:get, request:post, request:put, request:delete, request:patch, request:head, request:options, request:connect, request:trace; filesystem: read, write',
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

describe('HTTP rules', () => {
  const http = {
    name: 'gh-read',
    actions: ['request:get', 'request:head'],
    decision: 'allow',
    http_resources: [{ host: 'api.github.com', path: '/repos/*/**' }],
  };
  it('every request:* action is a network action', () => {
    for (const a of HTTP_ACTIONS) {
      expect(domainOfAction(a)).toBe('network');
      expect(isHttpAction(a)).toBe(true);
    }
    expect(HTTP_ACTIONS).toHaveLength(9);
    expect(isHttpAction('connect:tcp')).toBe(false);
  });
  it('returns the rule with http_resources in place of resources', () => {
    expect(validateRule(http)).toEqual({ ...http, domain: 'network' });
    const withPort = { ...http, http_resources: [{ host: '*.x.test', port: 8443, path: '/' }] };
    expect(validateRule(withPort).http_resources).toEqual([{ host: '*.x.test', port: 8443, path: '/' }]);
    // an HTTP rule shares the network domain with connection rules
    expect(validateRule(http, { policyDomain: 'network' }).domain).toBe('network');
    expect(() => validateRule(http, { policyDomain: 'filesystem' })).toThrow(/policy's rules are filesystem/);
  });
  it('accepts canonical paths with whole-segment wildcards', () => {
    for (const path of ['/', '/a', '/a/b', '/*', '/**', '/a/*/c', '/a/**', '/v1.2/x-y_z~', '/a:b@c']) {
      expect(validateHttpResource({ host: 'x.test', path })).toEqual({ host: 'x.test', path });
    }
  });
  it.each([
    [{ host: 'x.test', path: 'a' }, 'a path starts with "/"'],
    [{ host: 'x.test', path: '/a?b=1' }, 'no query'],
    [{ host: 'x.test', path: '/a#top' }, 'no fragment'],
    [{ host: 'x.test', path: '/a%20b' }, 'without percent-encoding'],
    [{ host: 'x.test', path: '/a//b' }, 'no repeated "/"'],
    [{ host: 'x.test', path: '/a/' }, 'no trailing "/"'],
    [{ host: 'x.test', path: '/a/./b' }, 'no "." segment'],
    [{ host: 'x.test', path: '/a/..' }, 'no ".." segment'],
    [{ host: 'x.test', path: '/a b' }, 'no whitespace'],
    [{ host: 'x.test', path: '/a*' }, '"a*": a wildcard is a whole segment'],
    [{ host: 'x.test', path: '/***' }, 'a wildcard is a whole segment'],
    [{ host: 'x.test' }, '"path" must be a string'],
    [{ host: 'https://x.test', path: '/' }, 'the host has no scheme'],
    [{ host: 'x.test:443', path: '/' }, 'the host has no port (put it in "port")'],
    [{ host: 'x.test/a', path: '/' }, 'the host has no path'],
    [{ host: '', path: '/' }, 'the host is empty'],
    [{ host: 'a.*.test', path: '/' }, 'wildcard is allowed only as the whole first label'],
    [{ host: 3, path: '/' }, '"host" must be a string'],
    [{ host: 'x.test', port: 0, path: '/' }, '"port" must be a number from 1 to 65535'],
    [{ host: 'x.test', port: 65536, path: '/' }, '"port" must be a number from 1 to 65535'],
    [{ host: 'x.test', port: '443', path: '/' }, '"port" must be a number'],
    [{ host: 'x.test', port: 1.5, path: '/' }, '"port" must be a number'],
    [{ host: 'x.test', path: '/', url: 'x' }, 'unknown field "url"'],
    ['x.test/', 'it is not an object'],
  ])('refuses the HTTP resource %j', (value, fragment) => {
    expect(() => validateHttpResource(value)).toThrow(ValidationError);
    expect(() => validateHttpResource(value)).toThrow(fragment);
  });
  it('httpPathProblem without wildcards treats * as a character', () => {
    expect(httpPathProblem('/a*', false)).toBeNull();
    expect(httpPathProblem('/a/', false)).toBe('a path has no trailing "/"');
  });
  it.each([
    [{ ...http, http_resources: [] }, 'at least one HTTP resource'],
    [{ ...http, http_resources: undefined }, 'needs http_resources'],
    [{ ...http, resources: ['api.github.com'] }, 'has http_resources in place of resources'],
    [{ ...http, actions: ['request:get', 'connect:tcp'] }, 'mix HTTP and connection actions'],
    [
      { name: 'n', actions: ['connect:tcp'], decision: 'allow', resources: ['x.test'], http_resources: [] },
      'http_resources are for HTTP rules (request:* actions); connect:tcp takes resources',
    ],
  ])('refuses the HTTP rule %j', (input, fragment) => {
    expect(() => validateRule(input)).toThrow(ValidationError);
    expect(() => validateRule(input)).toThrow(fragment);
  });
});

import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { BatchProcessor } from '../../src/policy/batch.js';
import { type PolicyDoc, parsePolicyDocument } from '../../src/policy/document.js';
import { compilePolicies, evaluate } from '../../src/policy/engine.js';
import { naiveEvaluate } from '../support/naive-evaluator.js';

type R = [name: string, actions: string[], decision: 'allow' | 'deny', resources: string[]];

async function docs(...policies: { name: string; rules: R[] }[]): Promise<PolicyDoc[]> {
  const body = policies.map((p) => ({
    name: p.name,
    rules: p.rules.map(([name, actions, decision, resources]) => ({ name, actions, decision, resources })),
  }));
  return parsePolicyDocument(JSON.stringify(body), 'test.json');
}

async function decide(rules: R[], action: string, destination: string): Promise<string> {
  const d = await docs({ name: 'p', rules });
  const set = compilePolicies(d);
  const got = evaluate(set, action, destination);
  // every table case is also a check of the naive reference evaluator
  expect(naiveEvaluate(d, action, destination).decision).toBe(got.decision);
  return got.decision;
}

const TCP = ['connect:tcp'];
const allow = (...resources: string[]): R[] => [['r', TCP, 'allow', resources]];

describe('network semantics (decisions §4)', () => {
  it.each<[string, string[], string, string]>([
    // example.com: that host on any port, no subdomain
    ['host on default port', ['example.com'], 'example.com', 'allow'],
    ['host on another port', ['example.com'], 'example.com:22', 'allow'],
    ['host: not a subdomain', ['example.com'], 'api.example.com', 'deny'],
    ['host: not a longer name', ['example.com'], 'notexample.com', 'deny'],
    ['host: not a parent', ['api.example.com'], 'example.com', 'deny'],
    // example.com:443: that port only
    ['host:port on that port', ['example.com:443'], 'example.com:443', 'allow'],
    ['host:port, no port means 443', ['example.com:443'], 'example.com', 'allow'],
    ['host:port, other port', ['example.com:443'], 'example.com:80', 'deny'],
    ['host:port, URL default port 80', ['example.com:443'], 'http://example.com/x', 'deny'],
    ['host:port, URL default port 443', ['example.com:443'], 'https://example.com/x', 'allow'],
    ['host:80 and http URL', ['example.com:80'], 'http://example.com/x', 'allow'],
    // *.example.com: exactly one more label, any port, never the apex
    ['*. one label', ['*.example.com'], 'api.example.com', 'allow'],
    ['*. any port', ['*.example.com'], 'api.example.com:8443', 'allow'],
    ['*. not the apex', ['*.example.com'], 'example.com', 'deny'],
    ['*. not two labels', ['*.example.com'], 'a.b.example.com', 'deny'],
    ['*. not a lookalike', ['*.example.com'], 'apiexample.com', 'deny'],
    ['*.:port', ['*.example.com:443'], 'api.example.com:22', 'deny'],
    // **.example.com: one or more labels, never the apex
    ['**. one label', ['**.example.com'], 'a.example.com', 'allow'],
    ['**. two labels', ['**.example.com'], 'b.a.example.com', 'allow'],
    ['**. not the apex', ['**.example.com'], 'example.com', 'deny'],
    ['**. not a lookalike', ['**.example.com'], 'badexample.com', 'deny'],
    // ** alone: every host
    ['** hostname', ['**'], 'anything.test', 'allow'],
    ['** single label', ['**'], 'localhost', 'allow'],
    ['** IP literal', ['**'], '10.1.2.3:22', 'allow'],
    ['**:443 other port', ['**:443'], 'x.test:22', 'deny'],
    // CIDRs: IP literals inside the range; hostnames never
    ['CIDR v4 inside', ['10.0.0.0/8'], '10.1.2.3', 'allow'],
    ['CIDR v4 outside', ['10.0.0.0/8'], '11.1.2.3', 'deny'],
    ['CIDR v4 edge', ['10.0.0.0/8'], '10.255.255.255:22', 'allow'],
    ['CIDR v6 inside', ['2001:db8::/32'], '[2001:db8:1::5]:443', 'allow'],
    ['CIDR v6 outside', ['2001:db8::/32'], '2001:db9::1', 'deny'],
    ['CIDR: hostname never matches', ['0.0.0.0/0'], 'example.com', 'deny'],
    ['CIDR: hostname that looks numeric-ish', ['10.0.0.0/8'], '10.example.com', 'deny'],
    ['CIDR v4 does not match v6', ['0.0.0.0/0'], '2001:db8::1', 'deny'],
    ['IPv4-mapped IPv6 is its IPv4', ['10.0.0.0/8'], '::ffff:10.1.2.3', 'allow'],
    ['IPv4-mapped IPv6 in brackets', ['10.1.2.3:22'], '[::ffff:10.1.2.3]:22', 'allow'],
    ['IPv4-mapped IPv6 not in ::/0', ['::/0'], '::ffff:10.1.2.3', 'deny'],
    ['mapped rule matches plain v4', ['::ffff:10.0.0.0/104'], '10.9.9.9', 'allow'],
    // IPv4-compatible (::/96) and NAT64 (64:ff9b::/96) addresses are their IPv4 too (issue 20)
    ['IPv4-compatible is its IPv4', ['169.254.169.254/32'], '[::169.254.169.254]:80', 'allow'],
    ['IPv4-compatible in hex', ['169.254.0.0/16'], '::a9fe:a9fe', 'allow'],
    ['NAT64 is its IPv4', ['169.254.169.254/32'], '[64:ff9b::a9fe:a9fe]:80', 'allow'],
    ['NAT64 dotted', ['169.254.169.254:80'], '[64:ff9b::169.254.169.254]:80', 'allow'],
    ['NAT64 not in ::/0', ['::/0'], '64:ff9b::a9fe:a9fe', 'deny'],
    ['NAT64 rule matches plain v4', ['64:ff9b::a9fe:0/112'], '169.254.1.2', 'allow'],
    ['compatible rule matches plain v4', ['::10.0.0.0/104'], '10.9.9.9', 'allow'],
    ['compatible host rule matches plain v4', ['[::169.254.169.254]:80'], '169.254.169.254:80', 'allow'],
    ['NAT64 host rule matches compatible', ['64:ff9b::a9fe:a9fe'], '[::a9fe:a9fe]:22', 'allow'],
    ['::1 stays IPv6 loopback', ['0.0.0.1'], '[::1]:80', 'deny'],
    ['::1 matches ::1/128', ['::1/128'], '[::1]:80', 'allow'],
    [':: stays IPv6', ['::/128'], '[::]:80', 'allow'],
    ['::/96 stays IPv6 (holds :: and ::1)', ['::/96'], '[::1]:80', 'allow'],
    ['other prefixes are IPv6', ['169.254.169.254/32'], '[64:ff9c::a9fe:a9fe]:80', 'deny'],
    ['6to4 is not decided as IPv4', ['169.254.169.254/32'], '[2002:a9fe:a9fe::]:80', 'deny'],
    ['ip:port', ['10.1.2.3:22'], '10.1.2.3:22', 'allow'],
    ['ip:port other port', ['10.1.2.3:22'], '10.1.2.3', 'deny'],
    ['plain IP any port', ['10.1.2.3'], '10.1.2.3:5432', 'allow'],
    ['IPv6 literal differently written', ['2001:db8::1'], '[2001:0db8:0:0:0:0:0:1]:443', 'allow'],
    ['hostname rule vs IP destination', ['example.com'], '93.184.216.34', 'deny'],
    ['*. vs IP-like destination', ['*.example.com'], '10.0.0.1', 'deny'],
    // case and trailing dots
    ['destination upper case', ['api.example.com'], 'API.Example.COM', 'allow'],
    ['rule upper case', ['API.EXAMPLE.com'], 'api.example.com', 'allow'],
    ['destination trailing dot', ['api.example.com'], 'api.example.com.', 'allow'],
    ['destination trailing dot with port', ['api.example.com:443'], 'api.example.com.:443', 'allow'],
    ['rule trailing dot', ['api.example.com.'], 'api.example.com', 'allow'],
    ['*. with trailing dot', ['*.example.com.'], 'API.example.com.', 'allow'],
    ['URL with userinfo', ['example.com:22'], 'ssh://git@example.com/repo.git', 'allow'],
  ])('%s', async (_title, resources, destination, expected) => {
    expect(await decide(allow(...resources), 'connect:tcp', destination)).toBe(expected);
  });

  it('deny wins over allow, in any order and across policies', async () => {
    const d = await docs(
      { name: 'allow-all', rules: [['everything', TCP, 'allow', ['**']]] },
      { name: 'metadata', rules: [['no-metadata', TCP, 'deny', ['169.254.169.254/32']]] },
    );
    const set = compilePolicies(d);
    expect(evaluate(set, 'connect:tcp', '169.254.169.254:80')).toMatchObject({
      decision: 'deny',
      reason: 'denied by rule "no-metadata" of policy "metadata"',
      matched: [
        { policy: 'metadata', rule: 'no-metadata', resource: '169.254.169.254/32', decision: 'deny' },
      ],
    });
    expect(evaluate(set, 'connect:tcp', '169.254.169.253:80').decision).toBe('allow');
  });

  it('tells apart labels whose trie hashes collide', async () => {
    // "x2q8" and "xib4c", "y07abx" and "y0b406" have the same 30-bit FNV-1a hash: the trie must
    // compare the labels (by length, then character by character)
    const d = await docs({
      name: 'p',
      rules: [
        ['a', TCP, 'allow', ['x2q8.example.com', '*.x2q8.test']],
        ['b', TCP, 'deny', ['xib4c.example.com', '*.xib4c.test']],
        ['c', TCP, 'allow', ['y07abx.example.com']],
        ['d', TCP, 'deny', ['y0b406.example.com']],
      ],
    });
    const set = compilePolicies(d);
    expect(evaluate(set, 'connect:tcp', 'x2q8.example.com').matched.map((m) => m.rule)).toEqual(['a']);
    expect(evaluate(set, 'connect:tcp', 'xib4c.example.com').matched.map((m) => m.rule)).toEqual(['b']);
    expect(evaluate(set, 'connect:tcp', 'api.x2q8.test').decision).toBe('allow');
    expect(evaluate(set, 'connect:tcp', 'api.xib4c.test').decision).toBe('deny');
    expect(evaluate(set, 'connect:tcp', 'xib4d.example.com').decision).toBe('deny');
    expect(evaluate(set, 'connect:tcp', 'y07abx.example.com').matched.map((m) => m.rule)).toEqual(['c']);
    expect(evaluate(set, 'connect:tcp', 'y0b406.example.com').matched.map((m) => m.rule)).toEqual(['d']);
  });

  it('a rule matches only for its own actions', async () => {
    const rules: R[] = [['udp-dns', ['connect:udp'], 'allow', ['8.8.8.8:53']]];
    expect(await decide(rules, 'connect:udp', '8.8.8.8:53')).toBe('allow');
    expect(await decide(rules, 'connect:tcp', '8.8.8.8:53')).toBe('deny');
  });

  it('no match is a deny by default', async () => {
    const set = compilePolicies(await docs({ name: 'p', rules: allow('example.com') }));
    expect(evaluate(set, 'connect:tcp', 'other.com')).toEqual({
      decision: 'deny',
      reason: 'no rule matched: denied by default',
      matched: [],
      notEvaluated: [],
    });
    expect(evaluate(compilePolicies([]), 'read', '/x').reason).toBe('no rule matched: denied by default');
  });

  it('explains every matching resource and why', async () => {
    const d = await docs({
      name: 'net',
      rules: [
        ['gh', TCP, 'allow', ['github.com', '*.github.com', '**.github.com:443']],
        ['block', TCP, 'deny', ['**.github.com:22']],
      ],
    });
    const set = compilePolicies(d);
    const r = evaluate(set, 'connect:tcp', 'api.github.com', { explain: true });
    expect(r.decision).toBe('allow');
    expect(r.matched).toEqual([
      {
        policy: 'net',
        rule: 'gh',
        resource: '*.github.com',
        decision: 'allow',
        why: '"*.github.com" matches one label ("api") below github.com; any port (443)',
      },
      {
        policy: 'net',
        rule: 'gh',
        resource: '**.github.com:443',
        decision: 'allow',
        why: '"**.github.com" matches 1 label ("api") below github.com; port 443',
      },
    ]);
    const plain = evaluate(set, 'connect:tcp', 'api.github.com');
    expect(plain.matched).toEqual([
      { policy: 'net', rule: 'gh', resource: '*.github.com', decision: 'allow' },
    ]);
    const denied = evaluate(set, 'connect:tcp', 'a.b.github.com:22', { explain: true });
    expect(denied.decision).toBe('deny');
    expect(denied.matched.map((m) => m.why)).toEqual([
      '"**.github.com" matches 2 labels ("a.b") below github.com; port 22',
    ]);
    const cidr = compilePolicies(await docs({ name: 'c', rules: allow('10.0.0.0/8', '10.1.2.3') }));
    expect(evaluate(cidr, 'connect:tcp', '10.1.2.3', { explain: true }).matched.map((m) => m.why)).toEqual([
      '10.0.0.0/8 contains 10.1.2.3; any port (443)',
      "address 10.1.2.3 is exactly the rule's address; any port (443)",
    ]);
  });

  it('reason counts several deciding rules', async () => {
    const d = await docs({
      name: 'p',
      rules: [
        ['a', TCP, 'deny', ['x.test']],
        ['b', TCP, 'deny', ['*.test']],
        ['c', TCP, 'deny', ['**']],
      ],
    });
    expect(evaluate(compilePolicies(d), 'connect:tcp', 'x.test').reason).toBe(
      'denied by rule "a" of policy "p" and 2 more rules',
    );
  });

  it('refuses unknown actions and malformed destinations', async () => {
    const set = compilePolicies(await docs({ name: 'p', rules: allow('example.com') }));
    expect(() => evaluate(set, 'request:fetch', 'example.com')).toThrow(ValidationError);
    expect(() => evaluate(set, 'request:fetch', 'example.com')).toThrow(/unknown action "request:fetch"/);
    expect(() => evaluate(set, 'request:get', 'example.com/')).toThrow(
      'invalid HTTP request "example.com/": it is not an http:// or https:// URL',
    );
    expect(() => evaluate(set, 'connect:tcp', 'example.com:0')).toThrow(/outside 1–65535/);
    expect(() => evaluate(set, 'read', 'relative/path')).toThrow(/relative/);
  });
});

const RW = ['read'];
describe('filesystem semantics (decisions §4)', () => {
  it.each<[string, string[], string, string]>([
    ['exact path', ['/data'], '/data', 'allow'],
    ['exact path, not a child', ['/data'], '/data/a', 'deny'],
    ['exact path, not a sibling prefix', ['/data'], '/database', 'deny'],
    ['* within a segment', ['/data/*'], '/data/a', 'allow'],
    ['* not across segments', ['/data/*'], '/data/a/b', 'deny'],
    ['* needs a segment', ['/data/*'], '/data', 'deny'],
    ['*.log', ['/var/log/*.log'], '/var/log/app.log', 'allow'],
    ['*.log not .txt', ['/var/log/*.log'], '/var/log/app.txt', 'deny'],
    ['a*b*c', ['/a*b*c'], '/aXXbYYc', 'allow'],
    ['a*b*c needs order', ['/a*b*c'], '/acb', 'deny'],
    ['** zero segments', ['/data/**'], '/data', 'allow'],
    ['** one segment', ['/data/**'], '/data/a', 'allow'],
    ['** many segments', ['/data/**'], '/data/a/b/c', 'allow'],
    ['** not a sibling', ['/data/**'], '/database/a', 'deny'],
    ['** in the middle', ['/data/**/secret'], '/data/x/y/secret', 'allow'],
    ['** in the middle, zero', ['/data/**/secret'], '/data/secret', 'allow'],
    ['** in the middle, wrong leaf', ['/data/**/secret'], '/data/x/secrets', 'deny'],
    ['**/*.key', ['/data/**/*.key'], '/data/a/b/id.key', 'allow'],
    ['/** everything absolute', ['/**'], '/', 'allow'],
    ['/ only root', ['/'], '/', 'allow'],
    ['/ not a child', ['/'], '/etc', 'deny'],
    // normalization of requests
    ['.. resolved out of the tree', ['/data/**'], '/data/../etc/passwd', 'deny'],
    ['.. resolved into the tree', ['/data/**'], '/tmp/../data/x', 'allow'],
    ['. and // removed', ['/data/a/b'], '//data/./a//b/', 'allow'],
    ['/.. at root stays at root', ['/etc/passwd'], '/../../etc/passwd', 'allow'],
    // ~ the home directory
    ['~ paths', ['~/src/**'], '~/src/app/main.go', 'allow'],
    ['~ exact', ['~'], '~', 'allow'],
    ['~ vs absolute rule', ['/home/**'], '~/src', 'deny'],
    ['absolute vs ~ rule', ['~/src/**'], '/src/x', 'deny'],
    ['~ with ..', ['~/src/**'], '~/src/../.ssh/id_rsa', 'deny'],
    ['~/.ssh', ['~/.ssh/**'], '~/src/../.ssh/id_rsa', 'allow'],
    ['* matches dotfiles', ['~/*'], '~/.bashrc', 'allow'],
    ['literal ? and [', ['/a?[b]'], '/a?[b]', 'allow'],
    ['literal ? is not a wildcard', ['/a?'], '/ab', 'deny'],
  ])('%s', async (_title, resources, destination, expected) => {
    expect(await decide([['r', RW, 'allow', resources]], 'read', destination)).toBe(expected);
  });

  it('write and read are separate actions; deny wins', async () => {
    const d = await docs({
      name: 'fs',
      rules: [
        ['src', ['read', 'write'], 'allow', ['~/src/**']],
        ['ro', ['write'], 'deny', ['~/src/vendor/**']],
      ],
    });
    const set = compilePolicies(d);
    expect(evaluate(set, 'read', '~/src/vendor/x').decision).toBe('allow');
    expect(evaluate(set, 'write', '~/src/vendor/x').decision).toBe('deny');
    expect(evaluate(set, 'write', '~/src/app/x').decision).toBe('allow');
    expect(evaluate(set, 'read', '~/src/vendor/x', { explain: true }).matched[0]?.why).toBe(
      'pattern ~/src/** matches ~/src/vendor/x: "**" took "vendor/x"',
    );
  });
});

describe('not evaluated', () => {
  it('lists cedar policies and rules it cannot read, and refuses to decide while they are there', async () => {
    const text = JSON.stringify([
      {
        id: 'pol_1',
        name: 'cedar',
        org: 'o',
        scope: {},
        created_at: '',
        updated_at: '',
        cedar_v1: { text: 'permit' },
      },
      {
        name: 'mixed',
        rules: [
          { name: 'http', actions: ['request:fetch'], decision: 'allow', resources: ['**'] },
          {
            name: 'h2',
            actions: ['request:get'],
            decision: 'allow',
            http_resources: [{ host: 'x.test', path: '/**' }],
          },
          { name: 'ok', actions: ['connect:tcp'], decision: 'allow', resources: ['ok.test'] },
        ],
      },
    ]);
    const set = compilePolicies(await parsePolicyDocument(text, 'p.json'));
    expect(set.notEvaluated).toEqual([
      { policy: 'cedar', reason: 'it is a cedar_v1 policy; hubctl evaluates allowlist_v0 only' },
      { policy: 'mixed', rule: 'http', reason: 'its action request:fetch is not known to hubctl' },
    ]);
    expect(set.ruleCount).toBe(2);
    const refusal =
      'cannot decide: policy "cedar" cannot be evaluated: it is a cedar_v1 policy; hubctl evaluates allowlist_v0 only (and 1 more: `hubctl policy lint` lists them)';
    for (const d of ['x.test', 'ok.test']) {
      expect(() => evaluate(set, 'connect:tcp', d)).toThrow(refusal);
    }
    expect(() => new BatchProcessor(set)).toThrow(ValidationError);
  });
});

describe('explaining path matches', () => {
  it.each([
    ['/data/**', '/data', 'pattern /data/** matches /data: "**" took nothing'],
    [
      '/data/**/secret',
      '/data/a/b/secret',
      'pattern /data/**/secret matches /data/a/b/secret: "**" took "a/b"',
    ],
    ['/**/x/**', '/a/x/b/x/c', 'pattern /**/x/** matches /a/x/b/x/c: "**" took "a", "**" took "b/x/c"'],
    [
      '/var/*/log/*.log',
      '/var/app/log/x.log',
      'pattern /var/*/log/*.log matches /var/app/log/x.log: "*" took "app", "*.log" took "x.log"',
    ],
  ])('%s vs %s', async (resource, path, why) => {
    const set = compilePolicies(await docs({ name: 'p', rules: [['r', ['read'], 'allow', [resource]]] }));
    expect(evaluate(set, 'read', path, { explain: true }).matched[0]?.why).toBe(why);
  });
});

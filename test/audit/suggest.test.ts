// policy suggest's core: what is never proposed, when a wildcard is, and never one broader than a
// registrable domain.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWithinRegistrable, suffixLabels } from '../../src/audit/public-suffix.js';
import { excluded, NOT_PROPOSED, Suggester, suggestionYaml } from '../../src/audit/suggest.js';
import {
  lintPolicies,
  parseNetworkDestination,
  parseNetworkResource,
  parsePolicyDocument,
} from '../../src/policy/index.js';

const denial = (resource: string, user = 'ann', protocol = 'tcp') =>
  JSON.stringify({
    action_type: 'network_egress',
    decision: 'AUDIT_DECISION_DENY',
    username: user,
    created_at: '2026-11-20T10:00:00Z',
    payload: { resource_id: resource, network_egress: { protocol } },
  });

function suggest(resources: string[], minCount = 1) {
  const s = new Suggester();
  for (const r of resources) s.line(denial(r));
  return s.suggest(minCount);
}

describe('excluded', () => {
  it.each([
    ['127.0.0.1:80', NOT_PROPOSED.loopback],
    ['[::1]:80', NOT_PROPOSED.loopback],
    ['localhost:3000', NOT_PROPOSED.loopback],
    ['api.localhost', NOT_PROPOSED.loopback],
    ['10.1.2.3:22', NOT_PROPOSED.private],
    ['172.20.0.1', NOT_PROPOSED.private],
    ['192.168.1.1', NOT_PROPOSED.private],
    ['100.64.0.1', NOT_PROPOSED.private],
    ['[fd12::1]:443', NOT_PROPOSED.private],
    ['169.254.1.1', NOT_PROPOSED.linkLocal],
    ['[fe80::1]:443', NOT_PROPOSED.linkLocal],
    ['169.254.169.254:80', NOT_PROPOSED.metadata],
    ['0xa9fea9fe', NOT_PROPOSED.metadata],
    ['[::ffff:169.254.169.254]:80', NOT_PROPOSED.metadata],
    ['[fd00:ec2::254]:80', NOT_PROPOSED.metadata],
    ['100.100.100.200', NOT_PROPOSED.metadata],
    ['metadata.google.internal', NOT_PROPOSED.metadata],
    ['db.internal', NOT_PROPOSED.localName],
    ['printer.local', NOT_PROPOSED.localName],
    ['intranet', NOT_PROPOSED.localName],
    ['0.0.0.0', NOT_PROPOSED.special],
    ['224.0.0.1', NOT_PROPOSED.special],
    ['255.255.255.255', NOT_PROPOSED.special],
    ['[ff02::1]:443', NOT_PROPOSED.special],
  ])('never proposes %s', (d, reason) => {
    expect(excluded(parseNetworkDestination(d))).toBe(reason);
  });
  it.each(['api.github.com:443', '1.1.1.1:53', '[2606:4700::1111]:443', '8.8.8.8'])('may propose %s', (d) => {
    expect(excluded(parseNetworkDestination(d))).toBeUndefined();
  });
});

describe('public suffixes', () => {
  it.each([
    ['example.com', 1, true],
    ['com', 1, false],
    ['example.co.uk', 2, true],
    ['co.uk', 2, false],
    ['gob.mx', 2, false],
    ['github.io', 2, false],
    ['me.github.io', 2, true],
    ['s3.amazonaws.com', 3, false],
    ['bucket.s3.amazonaws.com', 3, true],
  ])('%s: suffix of %i labels, within a registrable domain: %s', (name, labels, within) => {
    expect(suffixLabels(name)).toBe(labels);
    expect(isWithinRegistrable(name)).toBe(within);
  });
});

describe('Suggester', () => {
  it('proposes one rule per destination, each with its events and users', () => {
    const s = new Suggester();
    s.line(denial('api.example.com:443', 'ann'));
    s.line(denial('api.example.com:443', 'bob'));
    s.line(denial('api.example.com:443', 'ann'));
    s.line(denial('pypi.org:443', 'cy'));
    s.line(denial('8.8.8.8:53', 'cy', 'udp'));
    s.line(
      JSON.stringify({
        action_type: 'network_egress',
        decision: 'AUDIT_DECISION_ALLOW',
        payload: { resource_id: 'ok.com:443', network_egress: { protocol: 'tcp' } },
      }),
    );
    const out = s.suggest();
    expect(out.rules.map((r) => [r.action, r.resources, r.count, r.users])).toEqual([
      ['connect:tcp', ['api.example.com:443'], 3, ['ann', 'bob']],
      ['connect:udp', ['8.8.8.8:53'], 1, ['cy']],
      ['connect:tcp', ['pypi.org:443'], 1, ['cy']],
    ]);
    expect(out.skipped).toEqual({ 'not a denial': 1 });
    expect(out.denials).toBe(5);
  });

  it('proposes *.parent with the parent when several subdomains of it are denied on one port', () => {
    const out = suggest([
      'a.cdn.example.com:443',
      'b.cdn.example.com:443',
      'cdn.example.com:443',
      'c.cdn.example.com:80',
    ]);
    expect(out.rules.map((r) => r.resources)).toEqual([
      ['*.cdn.example.com:443', 'cdn.example.com:443'],
      ['c.cdn.example.com:80'],
    ]);
    expect(out.rules[0]!.count).toBe(3);
  });

  it('never proposes a wildcard over a public suffix', () => {
    const out = suggest([
      'a.co.uk:443',
      'b.co.uk:443',
      'me.github.io:443',
      'you.github.io:443',
      'a.example:443',
      'b.example:443',
    ]);
    expect(out.rules.every((r) => r.resources.length === 1 && !r.resources[0]!.startsWith('*'))).toBe(true);
    expect(out.rules).toHaveLength(6);
  });

  it('nests wildcards without overlap: the inner parent is covered by the outer wildcard', () => {
    const out = suggest([
      'a.b.example.com:443',
      'c.b.example.com:443',
      'd.example.com:443',
      'e.example.com:443',
    ]);
    expect(out.rules.map((r) => r.resources).sort()).toEqual([
      ['*.b.example.com:443'],
      ['*.example.com:443', 'example.com:443'],
    ]);
    // a single subdomain stays a rule of its own, with no wildcard
    expect(
      suggest(['a.b.example.com:443', 'c.b.example.com:443', 'd.example.com:443'])
        .rules.map((r) => r.resources)
        .sort(),
    ).toEqual([['*.b.example.com:443', 'b.example.com:443'], ['d.example.com:443']]);
  });

  it('leaves out rules under --min-count, and counts them', () => {
    const out = suggest(['a.com:443', 'a.com:443', 'b.com:443'], 2);
    expect(out.rules.map((r) => r.resources)).toEqual([['a.com:443']]);
    expect(out.notProposed).toEqual({ [NOT_PROPOSED.minCount]: 1 });
  });

  it('proposes only valid resources, no wildcard broader than one registrable domain (property)', () => {
    const label = fc.constantFrom('a', 'b', 'api', 'cdn', 'example', 'co', 'uk', 'com', 'github', 'io', 'x');
    const host = fc.array(label, { minLength: 1, maxLength: 4 }).map((l) => l.join('.'));
    fc.assert(
      fc.property(fc.array(fc.tuple(host, fc.constantFrom(443, 80)), { maxLength: 30 }), (list) => {
        const out = suggest(list.map(([h, p]) => `${h}:${p}`));
        for (const r of out.rules) {
          for (const res of r.resources) {
            expect(() => parseNetworkResource(res)).not.toThrow();
            if (res.startsWith('*.'))
              expect(isWithinRegistrable(res.slice(2).replace(/:\d+$/, ''))).toBe(true);
          }
        }
        expect(new Set(out.rules.map((r) => r.name)).size).toBe(out.rules.length);
      }),
    );
  });

  it('writes a policy that policy lint finds nothing in (property)', async () => {
    const label = fc.constantFrom('a', 'b', 'api', 'cdn', 'example', 'co', 'uk', 'com', 'io');
    const host = fc.array(label, { minLength: 2, maxLength: 4 }).map((l) => l.join('.'));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(host, fc.constantFrom(443, 80)), { maxLength: 30 }),
        async (list) => {
          const out = suggest(list.map(([h, p]) => `${h}:${p}`));
          const docs = await parsePolicyDocument(suggestionYaml(out, 'p'), 'p.yaml');
          expect(lintPolicies(docs)).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});

// The plain matcher (src/policy/matches.ts) says what decisions §4 says, and the fast tables, the
// plain matcher and the naive reference evaluator agree on random patterns and destinations.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PolicyDoc } from '../../src/policy/document.js';
import { compilePolicies, evaluate } from '../../src/policy/engine.js';
import { isBelow, isOneBelow, matchesNetwork } from '../../src/policy/matches.js';
import { parseNetworkResource } from '../../src/policy/network.js';
import { parseNetworkDestination } from '../../src/policy/network-destination.js';
import { naiveEvaluate } from '../support/naive-evaluator.js';

const m = (pattern: string, destination: string) =>
  matchesNetwork(parseNetworkResource(pattern), parseNetworkDestination(destination));

describe('matchesNetwork: decisions §4, case by case', () => {
  it.each([
    // a host matches itself on any port, and no subdomain
    ['example.com', 'example.com:22', true],
    ['example.com', 'api.example.com', false],
    ['example.com:443', 'example.com', true], // no port: 443
    ['example.com:443', 'example.com:80', false],
    // *. one label, never the apex; **. one or more, never the apex
    ['*.example.com', 'api.example.com', true],
    ['*.example.com', 'a.api.example.com', false],
    ['*.example.com', 'example.com', false],
    ['**.example.com', 'b.a.example.com', true],
    ['**.example.com', 'example.com', false],
    ['**.example.com', 'badexample.com', false],
    ['**', '10.1.2.3:22', true],
    // CIDRs match IP literals only; an IPv4-mapped IPv6 destination is its IPv4 address
    ['10.0.0.0/8', '10.1.2.3', true],
    ['10.0.0.0/8', '11.1.2.3', false],
    ['10.0.0.0/8', '[::ffff:10.1.2.3]:443', true],
    ['2001:db8::/32', '[2001:db8::1]:443', true],
    ['2001:db8::/32', '[2001:db9::1]:443', false],
    ['10.1.2.3:22', '10.1.2.3:22', true],
    ['10.1.2.3:22', '10.1.2.3:23', false],
    // a hostname never matches an address pattern, nor an address a hostname pattern
    ['10.0.0.0/8', 'ten.example.com', false],
    ['*.example.com', '10.1.2.3', false],
    // case and one trailing dot do not matter
    ['EXAMPLE.com.', 'example.COM', true],
  ])('%s vs %s → %s', (pattern, destination, want) => {
    expect(m(pattern, destination)).toBe(want);
  });

  it('isBelow and isOneBelow never take the apex or a look-alike', () => {
    expect(isBelow('a.b.c', 'b.c')).toBe(true);
    expect(isBelow('b.c', 'b.c')).toBe(false);
    expect(isBelow('ab.c', 'b.c')).toBe(false);
    expect(isOneBelow('a.b.c', 'b.c')).toBe(true);
    expect(isOneBelow('x.a.b.c', 'b.c')).toBe(false);
  });
});

const label = fc.constantFrom('a', 'api', 'example', 'com', 'x-1');
const hostname = fc.array(label, { minLength: 1, maxLength: 4 }).map((ls) => ls.join('.'));
const port = fc.option(fc.constantFrom(22, 443, 8080), { nil: undefined });
const withPort = (h: string, p: number | undefined) => (p === undefined ? h : `${h}:${p}`);
const octet = fc.constantFrom(0, 1, 10, 128, 255);
const ipv4 = fc.tuple(fc.constantFrom(10, 169, 192), octet, octet, octet).map((o) => o.join('.'));
const v6 = fc
  .array(fc.constantFrom('0', '1', 'db8', '2001', 'ffff'), { minLength: 8, maxLength: 8 })
  .map((g) => g.join(':'));

const pattern = fc.oneof(
  fc.tuple(hostname, port).map(([h, p]) => withPort(h, p)),
  fc.tuple(hostname, port).map(([h, p]) => withPort(`*.${h}`, p)),
  fc.tuple(hostname, port).map(([h, p]) => withPort(`**.${h}`, p)),
  port.map((p) => withPort('**', p)),
  fc.tuple(ipv4, fc.integer({ min: 0, max: 32 })).map(([ip, b]) => {
    const n = ip.split('.').reduce((a, o) => a * 256 + Number(o), 0);
    const masked = b === 0 ? 0 : (n & (0xffffffff << (32 - b))) >>> 0;
    return `${[24, 16, 8, 0].map((s) => (masked >>> s) & 255).join('.')}/${b}`;
  }),
  fc.tuple(ipv4, port).map(([ip, p]) => withPort(ip, p)),
  fc.tuple(v6, port).map(([ip, p]) => (p === undefined ? ip : `[${ip}]:${p}`)),
);
const destination = fc.oneof(
  fc.tuple(hostname, port).map(([h, p]) => withPort(h, p)),
  fc.tuple(ipv4, port).map(([ip, p]) => withPort(ip, p)),
  fc.tuple(v6, port).map(([ip, p]) => (p === undefined ? ip : `[${ip}]:${p}`)),
  fc.tuple(ipv4, port).map(([ip, p]) => (p === undefined ? `::ffff:${ip}` : `[::ffff:${ip}]:${p}`)),
);

describe('the fast tables and the naive evaluator agree with the plain matcher', () => {
  it('one allow rule: allowed exactly when the pattern matches', () => {
    fc.assert(
      fc.property(
        fc.array(pattern, { minLength: 1, maxLength: 4 }),
        fc.array(destination, { maxLength: 20 }),
        (ps, ds) => {
          const policies: PolicyDoc[] = [
            {
              name: 'p',
              source: 'gen',
              type: 'allowlist_v0',
              scope: {},
              rules: ps.map((r, i) => ({
                name: `r${i}`,
                actions: ['connect:tcp'],
                decision: 'allow',
                resources: [r],
              })),
            },
          ];
          const set = compilePolicies(policies);
          const parsed = ps.map(parseNetworkResource);
          for (const d of ds) {
            const plain = parsed.some((p) => matchesNetwork(p, parseNetworkDestination(d)));
            const fast = evaluate(set, 'connect:tcp', d).decision === 'allow';
            const naive = naiveEvaluate(policies, 'connect:tcp', d).decision === 'allow';
            if (fast !== plain || naive !== plain)
              expect({ ps, d, fast, naive }).toEqual({ ps, d, fast: plain, naive: plain });
          }
        },
      ),
      { numRuns: 1500 },
    );
  });
});

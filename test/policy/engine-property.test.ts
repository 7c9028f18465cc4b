// The compiled engine agrees with the naive reference evaluator (written from decisions §4) on
// random rule sets and destinations: 2,000 rule sets × 50 destinations per domain kind.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchProcessor } from '../../src/policy/batch.js';
import type { PolicyDoc, RuleDoc } from '../../src/policy/document.js';
import { compilePolicies, evaluate } from '../../src/policy/engine.js';
import { naiveEvaluate } from '../support/naive-evaluator.js';

const LABELS = ['a', 'b', 'api', 'example', 'com', 'x-1', 'github'];
const label = fc.constantFrom(...LABELS);
const hostname = fc.array(label, { minLength: 1, maxLength: 4 }).map((ls) => ls.join('.'));
const port = fc.constantFrom(22, 80, 443, 8080);
const maybePort = fc.option(port, { nil: undefined, freq: 2 });
const withPort = (h: string, p: number | undefined) => (p === undefined ? h : `${h}:${p}`);

const octet = fc.constantFrom(0, 1, 2, 10, 128, 255);
const ipv4 = fc.tuple(fc.constantFrom(10, 192, 169), octet, octet, octet).map((o) => o.join('.'));
const v6group = fc.constantFrom('0', '1', 'db8', '2001', 'ffff', '8000');
const ipv6 = fc.array(v6group, { minLength: 8, maxLength: 8 }).map((g) => g.join(':'));

function maskV4(ip: string, bits: number): string {
  const n = ip.split('.').reduce((a, o) => a * 256 + Number(o), 0);
  const m = bits === 0 ? 0 : (n & (0xffffffff << (32 - bits))) >>> 0;
  return [24, 16, 8, 0].map((s) => (m >>> s) & 255).join('.');
}
function maskV6(ip: string, bits: number): string {
  return ip
    .split(':')
    .map((g, k) => {
      const keep = Math.max(0, Math.min(16, bits - k * 16));
      return (keep === 0 ? 0 : Number.parseInt(g, 16) & ((0xffff << (16 - keep)) & 0xffff)).toString(16);
    })
    .join(':');
}

const networkResource = fc.oneof(
  fc.tuple(hostname, maybePort).map(([h, p]) => withPort(h, p)),
  fc.tuple(hostname, maybePort).map(([h, p]) => withPort(`*.${h}`, p)),
  fc.tuple(hostname, maybePort).map(([h, p]) => withPort(`**.${h}`, p)),
  fc
    .tuple(hostname, maybePort, fc.boolean())
    .map(([h, p, up]) => withPort(up ? `${h.toUpperCase()}.` : h, p)),
  maybePort.map((p) => withPort('**', p)),
  fc.tuple(ipv4, fc.integer({ min: 0, max: 32 })).map(([ip, b]) => `${maskV4(ip, b)}/${b}`),
  fc.tuple(ipv4, maybePort).map(([ip, p]) => withPort(ip, p)),
  fc.tuple(ipv6, fc.integer({ min: 0, max: 128 })).map(([ip, b]) => `${maskV6(ip, b)}/${b}`),
  fc.tuple(ipv6, maybePort).map(([ip, p]) => (p === undefined ? ip : `[${ip}]:${p}`)),
  fc.tuple(ipv4, fc.integer({ min: 0, max: 32 })).map(([ip, b]) => `::ffff:${maskV4(ip, b)}/${b + 96}`),
  // IPv4-compatible and NAT64 forms (issue 20): ranges, and single addresses with a port
  fc
    .tuple(fc.constantFrom('::', '64:ff9b::'), ipv4, fc.integer({ min: 0, max: 32 }))
    .map(([pre, ip, b]) => `${pre}${maskV4(ip, b)}/${b + 96}`),
  fc
    .tuple(fc.constantFrom('::', '64:ff9b::'), ipv4, maybePort)
    .map(([pre, ip, p]) => (p === undefined ? `${pre}${ip}` : `[${pre}${ip}]:${p}`)),
  fc.constantFrom('::1/128', '::/96', '::/127', '::1', '[::1]:80', '::0.0.0.2/127'),
);

/** An IPv4 address in the numeric forms resolvers and URL parsers also read (issue 11). */
function numericForm(ip: string, form: number): string {
  const o = ip.split('.').map(Number);
  const n = o.reduce((a, x) => a * 256 + x, 0);
  switch (form) {
    case 0:
      return `0x${n.toString(16)}`; // hex
    case 1:
      return String(n); // integer
    case 2:
      return o.map((x) => `0${x.toString(8)}`).join('.'); // octal
    case 3:
      return o.map((x) => `0x${x.toString(16)}`).join('.'); // mixed hex
    case 4:
      return `${o[0]}.${o[1]}.${o[2]! * 256 + o[3]!}`; // a.b.c16
    case 5:
      return `${o[0]}.${(n & 0xffffff) >>> 0}`; // a.b24
    case 6:
      return `${ip}.`; // trailing dot
    default:
      return `0X${n.toString(16).toUpperCase()}`;
  }
}

const numericV4 = fc.tuple(ipv4, fc.integer({ min: 0, max: 7 })).map(([ip, f]) => numericForm(ip, f));

const networkDestination = fc.oneof(
  fc.tuple(numericV4, maybePort).map(([h, p]) => withPort(h, p)),
  fc.tuple(ipv4, maybePort).map(([ip, p]) => {
    const g = ip.split('.').map(Number);
    const h = `::ffff:${(g[0]! * 256 + g[1]!).toString(16)}:${(g[2]! * 256 + g[3]!).toString(16)}`;
    return p === undefined ? h : `[${h}]:${p}`;
  }),
  fc
    .tuple(
      fc.constantFrom('http', 'https', 'ssh'),
      fc.constantFrom('', 'u@', 'u:p@', 'a@b@'),
      numericV4,
      maybePort,
    )
    .map(([s, user, h, p]) => `${s}://${user}${withPort(h, p)}/x`),
  fc
    .tuple(hostname, fc.constantFrom('\\@evil.com', '.0x1', '.1', '.09'), maybePort)
    .map(([h, tail, p]) => withPort(`${h}${tail}`, p)),
  fc.tuple(hostname, fc.constantFrom('https://', 'http://u@')).map(([h, s]) => `${s}${h}\\@evil.com/`),
  fc.tuple(hostname, maybePort).map(([h, p]) => withPort(h, p)),
  fc.tuple(hostname, maybePort).map(([h, p]) => withPort(`${h.toUpperCase()}.`, p)),
  fc
    .tuple(fc.constantFrom('http', 'https', 'ssh'), hostname, maybePort)
    .map(([s, h, p]) => `${s}://${withPort(h, p)}/path`),
  fc.tuple(ipv4, maybePort).map(([ip, p]) => withPort(ip, p)),
  fc.tuple(ipv4, maybePort).map(([ip, p]) => (p === undefined ? `::ffff:${ip}` : `[::ffff:${ip}]:${p}`)),
  fc.tuple(ipv6, maybePort).map(([ip, p]) => (p === undefined ? ip : `[${ip}]:${p}`)),
  // IPv4-compatible and NAT64 destinations, dotted or in hex (issue 20), and :: and ::1
  fc.tuple(fc.constantFrom('::', '64:ff9b::'), ipv4, fc.boolean(), maybePort).map(([pre, ip, hex, p]) => {
    const g = ip.split('.').map(Number);
    const tail = hex ? `${(g[0]! * 256 + g[1]!).toString(16)}:${(g[2]! * 256 + g[3]!).toString(16)}` : ip;
    return p === undefined ? `${pre}${tail}` : `[${pre}${tail}]:${p}`;
  }),
  fc
    .tuple(fc.constantFrom('::', '::1', '::2', '0:0:0:0:0:0:0:1'), maybePort)
    .map(([h, p]) => (p === undefined ? h : `[${h}]:${p}`)),
);

const SEGS = ['data', 'a', 'b', 'x.log', '.ssh', 'src'];
const seg = fc.constantFrom(...SEGS);
const patternSeg = fc.oneof(
  { weight: 4, arbitrary: seg },
  { weight: 1, arbitrary: fc.constantFrom('*', '*.log', 'a*', '*a*', '**') },
);
const root = fc.constantFrom('/', '~/');
const fsResource = fc
  .tuple(root, fc.array(patternSeg, { minLength: 0, maxLength: 4 }))
  .map(([r, s]) => (s.length === 0 ? (r === '/' ? '/' : '~') : r + s.join('/')));
const fsDestination = fc
  .tuple(
    root,
    fc.array(
      fc.oneof({ weight: 5, arbitrary: seg }, { weight: 1, arbitrary: fc.constantFrom('.', '..', '') }),
      { maxLength: 5 },
    ),
  )
  .map(([r, s]) => r + s.join('/'))
  // ".." above ~ is refused by both; keep the generator to valid requests
  .filter((p) => {
    if (!p.startsWith('~')) return true;
    let depth = 0;
    for (const x of p.slice(2).split('/')) {
      if (x === '..') depth--;
      else if (x !== '' && x !== '.') depth++;
      if (depth < 0) return false;
    }
    return true;
  });

/** One to three policies of generated rules, named p0… and r0…. */
function policiesOf(policy: fc.Arbitrary<Omit<RuleDoc, 'name'>[]>): fc.Arbitrary<PolicyDoc[]> {
  return fc.array(policy, { minLength: 1, maxLength: 3 }).map((ps) =>
    ps.map(
      (rules, pi): PolicyDoc => ({
        name: `p${pi}`,
        source: 'gen',
        type: 'allowlist_v0',
        scope: {},
        rules: rules.map((r, ri): RuleDoc => ({ name: `r${ri}`, ...r })),
      }),
    ),
  );
}

function ruleSet(resource: fc.Arbitrary<string>, actions: string[]): fc.Arbitrary<PolicyDoc[]> {
  const rule = fc.record({
    actions: fc.subarray(actions, { minLength: 1 }),
    decision: fc.constantFrom<'allow' | 'deny'>('allow', 'allow', 'deny'),
    resources: fc.array(resource, { minLength: 1, maxLength: 3 }),
  });
  const policy = fc.array(rule, { minLength: 0, maxLength: 6 });
  return policiesOf(policy);
}

/** The result, or `refused` when the evaluator throws (a destination it will not decide). */
function attempt<T>(f: () => T): T | 'refused' {
  try {
    return f();
  } catch {
    return 'refused';
  }
}

function check(policies: PolicyDoc[], requests: [string, string][], explain: boolean): void {
  const set = compilePolicies(policies);
  if (!explain) checkBatch(policies, set, requests);
  for (const [action, destination] of requests) {
    const got = attempt(() => evaluate(set, action, destination, { explain }));
    const want = attempt(() => naiveEvaluate(policies, action, destination, { explain }));
    // with --explain, each match's sentence (and its layer, for a request) is compared word for word
    const gotCore =
      got === 'refused' ? got : { decision: got.decision, reason: got.reason, matched: got.matched };
    if (JSON.stringify(gotCore) !== JSON.stringify(want)) {
      expect({ policies: policies.map((p) => p.rules), action, destination, got: gotCore }).toEqual({
        policies: policies.map((p) => p.rules),
        action,
        destination,
        got: want,
      });
    }
  }
}

/**
 * The same requests through `policy eval --batch`'s byte reader, which decides plain hostnames and
 * paths in normal form from the input bytes, and any other destination as a string; a refused
 * destination is an error record.
 */
function checkBatch(
  policies: PolicyDoc[],
  set: ReturnType<typeof compilePolicies>,
  requests: [string, string][],
): void {
  const p = new BatchProcessor(set);
  const input = requests.map(([action, destination]) => `${JSON.stringify({ action, destination })}\n`);
  const out = Buffer.from(p.pushBytes(Buffer.from(input.join(''))) ?? []).toString('utf8');
  const lines = out.split('\n').slice(0, -1);
  expect(lines).toHaveLength(requests.length);
  requests.forEach(([action, destination], i) => {
    const line = JSON.parse(lines[i]!);
    const got = line.error
      ? 'refused'
      : { decision: line.decision, reason: line.reason, matched: line.matched };
    const want = attempt(() => naiveEvaluate(policies, action, destination));
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      expect({ policies: policies.map((q) => q.rules), action, destination, batch: got }).toEqual({
        policies: policies.map((q) => q.rules),
        action,
        destination,
        batch: want,
      });
    }
  });
}

// HTTP rules beside network rules (issue 14): requests of HTTP methods on URLs, and connections
const METHODS = ['request:get', 'request:post', 'request:delete'];
const HTTP_SEGS = ['repos', 'x', 'a', 'b'];
const httpPath = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...HTTP_SEGS) },
      { weight: 2, arbitrary: fc.constantFrom('*', '**') },
    ),
    {
      maxLength: 4,
    },
  )
  .map((s) => `/${s.join('/')}`);
const httpHost = fc.oneof(
  { weight: 3, arbitrary: hostname },
  { weight: 1, arbitrary: hostname.map((h) => `*.${h}`) },
  { weight: 1, arbitrary: hostname.map((h) => `**.${h}`) },
  { weight: 1, arbitrary: fc.constantFrom('**') },
  { weight: 1, arbitrary: ipv4 },
);
const httpResource = fc
  .tuple(httpHost, maybePort, httpPath)
  .map(([host, port, path]) => (port === undefined ? { host, path } : { host, port, path }));

function mixedRuleSet(): fc.Arbitrary<PolicyDoc[]> {
  const netRule = fc.record({
    actions: fc.subarray(['connect:tcp', 'connect:udp'], { minLength: 1 }),
    decision: fc.constantFrom<'allow' | 'deny'>('allow', 'allow', 'deny'),
    resources: fc.array(networkResource, { minLength: 1, maxLength: 2 }),
  });
  const httpRule = fc
    .record({
      actions: fc.subarray(METHODS, { minLength: 1 }),
      decision: fc.constantFrom<'allow' | 'deny'>('allow', 'deny'),
      http_resources: fc.array(httpResource, { minLength: 1, maxLength: 3 }),
    })
    .map((r) => ({ ...r, resources: [] as string[] }));
  const policy = fc.array(fc.oneof(netRule, httpRule), { minLength: 0, maxLength: 6 });
  return policiesOf(policy);
}

const requestPath = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.array(fc.constantFrom(...HTTP_SEGS), { maxLength: 4 }).map((s) => `/${s.join('/')}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '/a/', '//a', '/a/./b', '/a/../b', '/a?q=1', '/a#f', '/%61', '/a/é'),
  },
);
const httpRequest = fc
  .tuple(
    fc.constantFrom(...METHODS),
    fc.constantFrom('http', 'https'),
    fc.oneof(hostname, ipv4, numericV4),
    maybePort,
    requestPath,
  )
  .map(([m, scheme, host, port, path]): [string, string] => [
    m,
    `${scheme}://${withPort(host, port)}${path}`,
  ]);
const connection = fc.tuple(fc.constantFrom('connect:tcp', 'connect:udp'), networkDestination);

const RUNS = 1000; // per domain: 1,000 sets × 50 destinations × 2 domains = 100,000 cases
// about 15 s alone; other helpers' test runs share the 2 cores
const TIMEOUT = 180_000;

/** Rule sets × 50 requests, each through the engine, --batch and the naive evaluator. */
function agrees(rules: fc.Arbitrary<PolicyDoc[]>, request: fc.Arbitrary<[string, string]>, numRuns: number) {
  fc.assert(
    fc.property(
      rules,
      fc.array(request, { minLength: 50, maxLength: 50 }),
      fc.boolean(),
      (policies, requests, explain) => check(policies, requests, explain),
    ),
    { numRuns },
  );
}

describe('compiled engine == naive evaluator', () => {
  it(
    'network',
    () =>
      agrees(
        ruleSet(networkResource, ['connect:tcp', 'connect:udp']),
        fc.tuple(fc.constantFrom('connect:tcp', 'connect:udp'), networkDestination),
        RUNS,
      ),
    TIMEOUT,
  );
  it(
    'HTTP rules beside network rules, and connections that never match them',
    () =>
      agrees(
        mixedRuleSet(),
        fc.oneof({ weight: 4, arbitrary: httpRequest }, { weight: 1, arbitrary: connection }),
        RUNS / 2,
      ),
    TIMEOUT,
  );
  it(
    'filesystem',
    () =>
      agrees(
        ruleSet(fsResource, ['read', 'write']),
        fc.tuple(fc.constantFrom('read', 'write'), fsDestination),
        RUNS,
      ),
    TIMEOUT,
  );
});

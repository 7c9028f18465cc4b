// Issue 11: `policy eval` never fails open. A destination any common parser reads as an IP is
// decided as that address, a URL is split by the WHATWG rules (or refused), and a rule hubctl cannot
// evaluate makes it refuse rather than drop the rule.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { BatchProcessor } from '../../src/policy/batch.js';
import { parsePolicyDocument } from '../../src/policy/document.js';
import { compilePolicies, evaluate } from '../../src/policy/engine.js';
import { endsInNumber, parseLooseIPv4 } from '../../src/policy/ip.js';
import { lintPolicies } from '../../src/policy/lint.js';
import { parseNetworkResource } from '../../src/policy/network.js';

const META = await parsePolicyDocument(
  JSON.stringify({
    name: 'meta',
    rules: [
      { name: 'all', actions: ['connect:tcp'], decision: 'allow', resources: ['**'] },
      { name: 'no-metadata', actions: ['connect:tcp'], decision: 'deny', resources: ['169.254.169.254/32'] },
    ],
  }),
  'meta.json',
);
const set = compilePolicies(META);

/** 169.254.169.254 as resolvers (inet_aton) and URL parsers also read it. */
const METADATA = [
  '0xa9fea9fe',
  '0XA9FEA9FE',
  '0xa9fea9fe:80',
  '0251.0376.0251.0376',
  '169.254.43518',
  '169.16689662',
  '2852039166',
  '2852039166:8080',
  '0xa9.0xfe.0xa9.0xfe',
  '0xa9.254.0251.0xfe',
  '169.254.169.254.',
  '::ffff:a9fe:a9fe',
  '::ffff:169.254.169.254',
  '[::ffff:a9fe:a9fe]:80',
  'http://0xa9fea9fe/latest/meta-data',
  'https://user:pw@0251.0376.0251.0376/',
  'https://%31%36%39.254.169.254/',
  'http://[::ffff:a9fe:a9fe]/',
  // IPv4-compatible and NAT64 (64:ff9b::/96) forms embed the address too (issue 20 item 15)
  '[::169.254.169.254]:80',
  '[::a9fe:a9fe]:80',
  '::a9fe:a9fe',
  '[64:ff9b::a9fe:a9fe]:80',
  '[64:ff9b::169.254.169.254]:443',
  '64:ff9b:0:0:0:0:a9fe:a9fe',
  'http://[64:ff9b::a9fe:a9fe]/latest',
  'http://[::a9fe:a9fe]/',
  'ssh://2852039166/',
  'redis://0xa9fea9fe',
];

/** Decided by the byte path (compact JSON lines) and the text path (`action destination`). */
function batch(destinations: string[]): { decision?: string; error?: { message: string } }[] {
  const p = new BatchProcessor(set);
  const input = destinations.flatMap((d) => [
    JSON.stringify({ action: 'connect:tcp', destination: d }),
    `connect:tcp ${d}`,
  ]);
  const out = Buffer.from(p.pushBytes(Buffer.from(`${input.join('\n')}\n`)) ?? []).toString('utf8');
  return out
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('numeric destinations', () => {
  it.each(METADATA)('decides %s as 169.254.169.254', (d) => {
    const r = evaluate(set, 'connect:tcp', d, { explain: true });
    expect(r.decision).toBe('deny');
    expect(r.reason).toBe('denied by rule "no-metadata" of policy "meta"');
    expect(r.matched.find((m) => m.rule === 'no-metadata')?.why).toMatch(
      /^address 169\.254\.169\.254 is exactly the rule's address;/,
    );
  });

  it('decides them the same in --batch, by the byte path and the text path', () => {
    const lines = batch(METADATA);
    expect(lines).toHaveLength(METADATA.length * 2);
    for (const l of lines) expect(l.decision).toBe('deny');
    // hostnames still take the fast path and are allowed
    expect(batch(['example.com', 'a1.example.com', 'x.1a']).map((l) => l.decision)).toEqual(
      Array(6).fill('allow'),
    );
  });

  it.each([
    ['foo.0x1', 'is not a valid IPv4 address (it ends in a number, so URL parsers read it as one)'],
    ['1.2.3.4.5', 'is not a valid IPv4 address (it ends in a number, so URL parsers read it as one)'],
    ['256.1.1.1', 'is not a valid IPv4 address (it ends in a number, so URL parsers read it as one)'],
    ['09.1.1.1', 'is not a valid IPv4 address (it ends in a number, so URL parsers read it as one)'],
    ['4294967296', 'is not a valid IPv4 address (it ends in a number, so URL parsers read it as one)'],
    ['https://corp.example.com\\@evil.com/', 'a backslash in a URL is read as "/" by some URL parsers'],
    ['corp.example.com\\@evil.com', 'a backslash is not allowed'],
    ['https://ex%ample.com/', 'it is not a valid URL'],
    ['ssh://ex%41mple.com/', 'a percent-encoded host is not allowed'],
    ['https://a\tb.com/', 'whitespace or a control character'],
    ['https://a\u0000b.com/', 'whitespace or a control character'],
    ['ssh://bücher.example/', 'a percent-encoded host is not allowed'],
  ])('refuses %j (%s), in eval and as a batch error record', (d, problem) => {
    expect(() => evaluate(set, 'connect:tcp', d)).toThrow(ValidationError);
    expect(() => evaluate(set, 'connect:tcp', d)).toThrow(problem);
    // (the text path reads a tab as the end of the destination: an error record all the same)
    for (const l of batch([d])) expect(l.error?.message).toBeDefined();
    expect(batch([d])[0]!.error?.message).toContain(problem);
  });

  it('reads a URL by the WHATWG rules: user info ignored, IDNs in punycode, default ports', () => {
    const allowed = compilePolicies([
      {
        name: 'p',
        source: 't',
        type: 'allowlist_v0',
        scope: {},
        rules: [
          {
            name: 'r',
            actions: ['connect:tcp'],
            decision: 'allow',
            resources: ['xn--bcher-kva.example', 'good.example:80', 'git.example:22'],
          },
        ],
      },
    ]);
    for (const d of [
      'https://bücher.example/',
      'http://evil.example@good.example/',
      'http://a@b@good.example/x',
      'ssh://git@git.example/repo',
      'HTTP://GOOD.EXAMPLE:80/',
    ]) {
      expect(evaluate(allowed, 'connect:tcp', d).decision, d).toBe('allow');
    }
    expect(evaluate(allowed, 'connect:tcp', 'https://good.example@evil.example/').decision).toBe('deny');
  });
});

describe('numeric forms in rules', () => {
  it('refuses a rule resource in a numeric form, naming the address to write', () => {
    for (const r of ['0xa9fea9fe', '0xa9.0xfe.0xa9.0xfe', '2852039166', '127.1']) {
      expect(() => parseNetworkResource(r)).toThrow(/is not a valid IPv4 address as written: .* write \d/);
    }
    expect(() => parseNetworkResource('0xa9fea9fe:80')).toThrow('write 169.254.169.254');
    expect(() => parseNetworkResource('0xa9fe0000/16')).toThrow('write 169.254.0.0');
    expect(() => parseNetworkResource('*.0x1')).toThrow('names a domain, not an IP address');
    expect(parseNetworkResource('169.254.169.254.').canonical).toBe('169.254.169.254');
  });

  it('WHATWG numbers: what ends in a number, and what it reads as', () => {
    expect(['1', 'a.1', '0x', 'a.0x1f', 'a.1.', '09'].map(endsInNumber)).toEqual(Array(6).fill(true));
    expect(['a', '1a', 'a.0x1g', 'a.', '.'].map(endsInNumber)).toEqual(Array(5).fill(false));
    expect(parseLooseIPv4('0x')).toBe(0);
    expect(parseLooseIPv4('127.1')).toBe(0x7f000001);
    expect(parseLooseIPv4('1.2.3.4.5')).toBe(-1);
    expect(parseLooseIPv4('1..2')).toBe(-1);
    expect(parseLooseIPv4('1.256.1')).toBe(-1);
    expect(parseLooseIPv4('1.2.65536')).toBe(-1);
    expect(parseLooseIPv4(`1${'0'.repeat(400)}`)).toBe(-1);
  });
});

describe('rules hubctl cannot evaluate', () => {
  const text = JSON.stringify([
    {
      name: 'egress',
      rules: [
        { name: 'all', actions: ['connect:tcp'], decision: 'allow', resources: ['**'] },
        {
          name: 'block',
          actions: ['connect:tcp', 'connect:icmp'],
          decision: 'deny',
          resources: ['evil.test'],
        },
      ],
    },
  ]);

  it('refuses to decide rather than drop a deny it cannot read', async () => {
    const s = compilePolicies(await parsePolicyDocument(text, 'p.json'));
    expect(() => evaluate(s, 'connect:tcp', 'evil.test')).toThrow(
      'cannot decide: rule "block" of policy "egress" cannot be evaluated: its action connect:icmp is not known to hubctl',
    );
    expect(() => new BatchProcessor(s)).toThrow(ValidationError);
  });

  it('is a lint warning', async () => {
    const w = lintPolicies(await parsePolicyDocument(text, 'p.json'));
    expect(w.filter((x) => x.code === 'NOT_EVALUATED')).toEqual([
      {
        code: 'NOT_EVALUATED',
        policy: 'egress',
        rule: 'block',
        resource: '',
        message:
          'rule "block" of policy "egress" cannot be evaluated: its action connect:icmp is not known to hubctl; `policy eval` refuses to decide while it is there',
      },
    ]);
  });
});

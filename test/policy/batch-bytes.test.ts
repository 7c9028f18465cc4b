import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchProcessor } from '../../src/policy/batch.js';
import { parsePolicyDocument } from '../../src/policy/document.js';
import {
  type CompiledPolicySet,
  compilePolicies,
  decide,
  decideHostChars,
  type EvaluateOptions,
  Evaluator,
  evaluate,
  evaluatorOf,
  mixedResult,
  NO_MATCH_REASON,
  NOT_PLAIN,
} from '../../src/policy/engine.js';
import { loadHostChars } from '../../src/policy/network-destination.js';

// The byte path (pushBytes/endBytes) must write exactly what the text path (push/end on decoded
// text) writes, for any input and any chunking: its fast scanner only shortcuts the common lines.
const set: CompiledPolicySet = compilePolicies(
  await parsePolicyDocument(
    JSON.stringify([
      {
        name: 'p',
        rules: [
          {
            name: 'gh',
            actions: ['connect:tcp'],
            decision: 'allow',
            resources: ['github.com', '**.github.com'],
          },
          { name: 'deny-ssh', actions: ['connect:tcp'], decision: 'deny', resources: ['*.github.com:22'] },
          { name: 'also', actions: ['connect:tcp'], decision: 'allow', resources: ['api.github.com'] },
          { name: 'udp', actions: ['connect:udp'], decision: 'allow', resources: ['10.0.0.0/8'] },
        ],
      },
      {
        name: 'fs',
        rules: [
          { name: 'src', actions: ['read', 'write'], decision: 'allow', resources: ['/src/**', '/ü/**'] },
        ],
      },
    ]),
    'p.json',
  ),
);

const lines = [
  '{"action":"connect:tcp","destination":"github.com"}',
  '{"action":"connect:tcp","destination":"api.github.com"}', // three matching resources: not shared
  '{"action":"connect:tcp","destination":"x.github.com:22"}', // allow and deny: a pair
  '{"action":"connect:udp","destination":"10.1.2.3:53"}',
  '{"action":"read","destination":"/src/a/b.go"}',
  '{"action":"write","destination":"/etc/passwd"}',
  '{"action":"connect:tcp","destination":"other.org"}\r', // CRLF
  '{"action":"read","destination":"/\\u00fc/x"}', // escape → JSON.parse
  '{"action":"read","destination":"/ü/x"}', // UTF-8 in the field
  '{"action":"read","destination":"/src/😀"}', // astral plane
  '{"action":"read","destination":"/a\\"b"}', // escaped quote
  '{"action":"connect:tcp","destination":"a b"}', // whitespace inside: error record
  '{"action":"connect:tcp","destination":""}', // empty: error record
  '{"action":"connect:tcp","destination":"https://"}', // no host: error record
  '{"action":"request:get","destination":"x.com"}', // unknown action: error record
  '{"action":"connect:tcp","destination":"x.com"', // truncated JSON
  '{"action":"connect:tcp","destination":"x.com"}}', // trailing brace
  '{"action":"connect:tcp","destination":"x.com"} ', // trailing space
  '  {"action":"connect:tcp","destination":"github.com"}', // leading space
  '{"action": "connect:tcp", "destination": "github.com"}', // spaced JSON
  '{"destination":"github.com","action":"connect:tcp"}', // other key order
  '{"action":"connect:tcp","destination":"github.com","x":1}', // extra key
  '{"action":"connect:tcp","destination":"\u0001"}', // raw control character
  '{"action":"connect:tcp","destination":"GitHub.COM."}', // case and trailing dot
  '',
  '\r',
  '# a comment',
  'connect:tcp github.com:22',
  'read\t/src/x',
  'bad',
  '\ufeff{"action":"read","destination":"/src/bom-in-the-middle"}',
  '{"action":"connect:tcp","destination":"\xff"}', // (as text: ÿ, two bytes in UTF-8)
  // hostnames of 253 characters (the most there is), with a trailing dot, one too long, then
  // destinations longer than the engine's char buffer
  `{"action":"connect:tcp","destination":"${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com"}`,
  `{"action":"connect:tcp","destination":"${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com."}`,
  `{"action":"connect:tcp","destination":"${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com"}`,
  `{"action":"connect:tcp","destination":"${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com.:22"}`,
  `{"action":"connect:tcp","destination":"${'x.'.repeat(140)}github.com"}`,
  `{"action":"connect:tcp","destination":"${'x.'.repeat(200)}github.com"}`,
  // paths: in normal form they are read in place; any other spelling goes to the parser
  '{"action":"read","destination":"/src/../etc/passwd"}',
  '{"action":"read","destination":"/etc/../src/a"}',
  '{"action":"read","destination":"/src/./a"}',
  '{"action":"write","destination":"//src//a"}',
  '{"action":"read","destination":"/src/a/"}',
  '{"action":"read","destination":"/src"}',
  '{"action":"read","destination":"/"}',
  '{"action":"read","destination":"/.."}',
  '{"action":"read","destination":"/src/.hidden/..x/...y"}',
  '{"action":"read","destination":"~"}',
  '{"action":"read","destination":"~/src/a"}',
  '{"action":"read","destination":"~/../x"}', // leaves home: error record
  '{"action":"read","destination":"~user/x"}', // error record
  '{"action":"read","destination":"src/a"}', // relative: error record
  '{"action":"read","destination":"/src/\\u002e\\u002e/x"}', // escaped dots → JSON.parse
  '{"action":"read","destination":"/src\\/a"}', // escaped slash
  '{"action":"read","destination":"/ü/../src/x"}',
  `{"action":"read","destination":"/src/${'d/'.repeat(200)}f"}`,
];

function viaText(input: Uint8Array, opts?: EvaluateOptions, on = set): { out: string; counts: unknown } {
  const p = new BatchProcessor(on, opts);
  const decoder = new TextDecoder();
  const out = p.push(decoder.decode(input, { stream: true })) + p.push(decoder.decode()) + p.end();
  return { out, counts: { ...p.counts } };
}

function viaBytes(
  input: Uint8Array,
  size: number,
  opts?: EvaluateOptions,
  on = set,
): { out: string; counts: unknown } {
  const p = new BatchProcessor(on, opts);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < input.length; i += size) {
    const o = p.pushBytes(input.subarray(i, i + size));
    if (o !== null) parts.push(o.slice()); // copies now: a later slab must not change them anyway
  }
  const last = p.endBytes();
  if (last !== null) parts.push(last);
  return { out: Buffer.concat(parts).toString('utf8'), counts: { ...p.counts } };
}

const encode = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

// `~` rules, and their other spelling once a home is known
const homeDoc = await parsePolicyDocument(
  JSON.stringify({
    name: 'fs',
    rules: [
      {
        name: 'src',
        actions: ['read', 'write'],
        decision: 'allow',
        resources: ['~/src/**', '/src/*.go'],
      },
      {
        name: 'keys',
        actions: ['read'],
        decision: 'deny',
        resources: ['/home/me/.ssh/**', '~/src/.git/**'],
      },
      {
        name: 'logs',
        actions: ['read'],
        decision: 'allow',
        resources: ['/var/log/*.log', '/data/**/x.db'],
      },
      { name: 'home', actions: ['read'], decision: 'allow', resources: ['~', '/home/me', '/', '/a'] },
    ],
  }),
  'home.json',
);
const homeSets = [compilePolicies(homeDoc), compilePolicies(homeDoc, { home: '/home/me' })];

describe('BatchProcessor.pushBytes', () => {
  const text = `${lines.join('\n')}\n`;
  it('writes what the text path writes, line for line, with the same counts', () => {
    const input = encode(text);
    const want = viaText(input);
    const got = viaBytes(input, input.length);
    expect(got.out).toBe(want.out);
    expect(got.counts).toEqual(want.counts);
    // sanity: the fast lines are there and right
    const out = want.out.split('\n');
    expect(out).toHaveLength(lines.length - 3 + 1); // two blank lines and a comment give nothing
    expect(JSON.parse(out[0]!)).toMatchObject({ destination: 'github.com', decision: 'allow' });
    expect(JSON.parse(out[2]!)).toMatchObject({ destination: 'x.github.com:22', decision: 'deny' });
    expect(JSON.parse(out[6]!)).toMatchObject({ destination: 'other.org', decision: 'deny' });
    expect(JSON.parse(out[7]!)).toMatchObject({ destination: '/ü/x', decision: 'allow' });
    expect(JSON.parse(out[11]!)).toMatchObject({ line: 12, error: { code: 'INVALID_INPUT' } });
  });

  it('decides a plain hostname or IPv4 address in place (hostChars), and declines any other form', () => {
    const ev = new Evaluator(set);
    const at = (s: string) => {
      expect(loadHostChars(ev.host.chars, s)).toBe(true);
      const code = decideHostChars(ev, false, s.length);
      return code === NOT_PLAIN ? null : code >= 0 ? set.results[code] : mixedResult(ev);
    };
    expect(at('x.github.com:22')).toMatchObject({
      decision: 'deny',
      reason: expect.stringContaining('deny-ssh'),
    });
    expect(at('GitHub.com')).toBeNull(); // not lower case: the general parser's
    expect(at('10.1.2.3')).toMatchObject({ decision: 'deny', reason: NO_MATCH_REASON }); // an address
    expect(at('[::1]:22')).toBeNull(); // an IPv6 address: the general parser's
  });

  it("keeps the destination in the evaluator's own scratch: another evaluator of the same index, or another index, deciding in between changes nothing", () => {
    const ev = new Evaluator(set);
    const other = compilePolicies(set.policies);
    expect(loadHostChars(ev.host.chars, 'x.github.com:22')).toBe(true);
    // others read destinations of their own, of other lengths, before the first decides
    expect(evaluate(other, 'connect:tcp', '10.9.9.9:53').decision).toBe('deny');
    expect(evaluate(set, 'request:get', 'https://github.com/a/b').decision).toBe('allow');
    const second = new Evaluator(set);
    expect(second.evaluate('connect:tcp', 'github.com:443').decision).toBe('allow');
    expect(second.host.chars).not.toBe(ev.host.chars);
    expect(evaluatorOf(set).host.chars).not.toBe(ev.host.chars);
    const code = decideHostChars(ev, false, 'x.github.com:22'.length);
    expect(code === NOT_PLAIN ? null : code >= 0 ? set.results[code] : mixedResult(ev)).toMatchObject({
      decision: 'deny',
      reason: expect.stringContaining('deny-ssh'),
    });
  });

  it('an index is shared: two evaluators decide alternately, each mixed result read after the other decided', () => {
    const a = new Evaluator(set);
    const b = new Evaluator(set);
    const dests = ['github.com:443', 'x.github.com:22', '10.1.2.3', 'other.org', 'api.github.com'];
    const alone = dests.map((d) => evaluate(compilePolicies(set.policies), 'connect:tcp', d));
    for (let i = 0; i < dests.length; i++) {
      const j = (i + 2) % dests.length;
      const ca = decide(a, 'connect:tcp', dests[i]!);
      const cb = decide(b, 'connect:tcp', dests[j]!);
      // a's hits survive b's decision
      expect(ca >= 0 ? set.results[ca] : mixedResult(a)).toEqual(alone[i]);
      expect(cb >= 0 ? set.results[cb] : mixedResult(b)).toEqual(alone[j]);
    }
  });

  it('decides hostnames read from the bytes as the text path does (generated destinations)', () => {
    const label = fc.constantFrom('github', 'com', 'api', 'x', 'GitHub', 'a-b', '-a', 'a_', '', '10', '0');
    const destination = fc
      .tuple(
        fc.array(label, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('', '.', ':22', ':443', ':0', ':65536', ':', '.:22', ':2a'),
      )
      .map(([labels, tail]) => labels.join('.') + tail);
    const request = fc.tuple(fc.constantFrom('connect:tcp', 'connect:udp'), destination);
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 20 }), (reqs) => {
        const input = encode(
          reqs.map(([action, d]) => `${JSON.stringify({ action, destination: d })}\n`).join(''),
        );
        expect(viaBytes(input, input.length)).toEqual(viaText(input));
      }),
      { numRuns: 2_000 },
    );
  });

  it('decides paths read from the bytes as the text path does, with and without a home (generated paths)', () => {
    const segment = fc.constantFrom(
      'src',
      'a',
      'x.go',
      '.git',
      '.ssh',
      'home',
      'me',
      'meme',
      'var',
      'log',
      'x.log',
      'data',
      'x.db',
      '.',
      '..',
      '',
      '...',
      '.a',
      'ü',
      'a\\b',
      '~',
      '*',
    );
    const path = fc
      .tuple(
        fc.constantFrom('/', '~/', '~', '', '//', '/home/me/'),
        fc.array(segment, { maxLength: 5 }),
        fc.boolean(),
      )
      .map(([root, segs, slash]) => root + segs.join('/') + (slash ? '/' : ''));
    const request = fc.tuple(fc.constantFrom('read', 'write'), path);
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 20 }), fc.constantFrom(0, 1), (reqs, k) => {
        const input = encode(
          reqs.map(([action, d]) => `${JSON.stringify({ action, destination: d })}\n`).join(''),
        );
        expect(viaBytes(input, input.length, undefined, homeSets[k])).toEqual(
          viaText(input, undefined, homeSets[k]),
        );
      }),
      { numRuns: 2_000 },
    );
  });

  it('decides both spellings of a path under home as the text path does', () => {
    const paths = [
      '/home/me',
      '/home/me/src/a',
      '/home/meme/src/a',
      '/home',
      '~',
      '~/src/.git/x',
      '~/.ssh/k',
      '/home/me/.ssh/k',
    ];
    const input = encode(
      paths.map((d) => `${JSON.stringify({ action: 'read', destination: d })}\n`).join(''),
    );
    const want = viaText(input, undefined, homeSets[1]);
    expect(viaBytes(input, input.length, undefined, homeSets[1])).toEqual(want);
    expect(want.out.split('\n').map((l) => (l === '' ? '' : JSON.parse(l).decision))).toEqual([
      'allow',
      'allow',
      'deny',
      'deny',
      'allow',
      'deny',
      'deny',
      'deny',
      '',
    ]);
  });

  it('gives the same output whatever the chunking (lines and UTF-8 characters split across chunks)', () => {
    const input = encode(text);
    const want = viaText(input).out;
    for (const size of [1, 2, 3, 5, 7, 13, 31, 64, 100]) {
      expect(viaBytes(input, size).out, `chunks of ${size}`).toBe(want);
    }
  });

  it('handles a last line without newline, a BOM at the start, CRLF and explain', () => {
    for (const t of [
      '{"action":"connect:tcp","destination":"github.com"}',
      '{"action":"connect:tcp","destination":"github.com"}\r',
      '\ufeff{"action":"connect:tcp","destination":"github.com"}\n{"action":"read","destination":"/x"}',
      '\ufeff',
      'x',
      '\n\n',
      '{"action":"connect:tcp","destination":"github.com"}\r\n{"action":"connect:tcp","destination":"gi',
    ]) {
      const input = encode(t);
      for (const opts of [undefined, { explain: true }]) {
        const want = viaText(input, opts);
        for (const size of [1, 2, 4, input.length || 1]) {
          const got = viaBytes(input, size, opts);
          expect(got.out, JSON.stringify([t, size, opts])).toBe(want.out);
          expect(got.counts).toEqual(want.counts);
        }
      }
    }
  });

  it('returns bytes it never writes again, across many slabs', () => {
    const many = `${Array.from({ length: 30000 }, (_, i) => lines[i % lines.length]).join('\n')}\n`;
    const input = encode(many);
    const p = new BatchProcessor(set);
    const held: Uint8Array[] = [];
    const copies: string[] = [];
    for (let i = 0; i < input.length; i += 65536) {
      const o = p.pushBytes(input.subarray(i, i + 65536));
      if (o !== null) {
        held.push(o);
        copies.push(Buffer.from(o).toString('utf8'));
      }
    }
    const last = p.endBytes();
    if (last !== null) {
      held.push(last);
      copies.push(Buffer.from(last).toString('utf8'));
    }
    // what was handed out earlier is unchanged after later writes
    expect(held.map((h) => Buffer.from(h).toString('utf8'))).toEqual(copies);
    expect(copies.join('')).toBe(viaText(input).out);
  });

  it('works on plain Uint8Arrays as well as Buffers', () => {
    const input = encode(text);
    const plain = new Uint8Array(input.length);
    plain.set(input);
    expect(Object.getPrototypeOf(plain)).toBe(Uint8Array.prototype);
    expect(viaBytes(plain, 17).out).toBe(viaText(input).out);
    expect(viaBytes(Buffer.from(input), 17).out).toBe(viaText(input).out);
  });

  it('keeps an incomplete line safe when the caller reuses its chunk buffer, and joins a long line once', () => {
    const long = `{"action":"read","destination":"/src/${'a'.repeat(300_000)}"}`;
    const input = encode(`${lines[0]}\n${long}\n${lines[4]}`);
    const want = viaText(input);
    const p = new BatchProcessor(set);
    const reused = new Uint8Array(1000);
    const parts: string[] = [];
    for (let i = 0; i < input.length; i += 1000) {
      const n = Math.min(1000, input.length - i);
      reused.set(input.subarray(i, i + n));
      const o = p.pushBytes(reused.subarray(0, n));
      if (o !== null) parts.push(Buffer.from(o).toString('utf8'));
      reused.fill(0x78); // the caller scribbles over its buffer before the next read
    }
    const last = p.endBytes();
    if (last !== null) parts.push(Buffer.from(last).toString('utf8'));
    expect(parts.join('')).toBe(want.out);
    expect(p.counts).toEqual(want.counts);
    expect(want.counts).toEqual({ total: 3, denied: 0, errors: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import { BatchProcessor, evaluateLine, parseRequestLine } from '../../src/policy/batch.js';
import { parsePolicyDocument } from '../../src/policy/document.js';
import { compilePolicies } from '../../src/policy/engine.js';

describe('parseRequestLine', () => {
  it.each([
    ['{"action":"connect:tcp","destination":"a.com"}', { action: 'connect:tcp', destination: 'a.com' }],
    ['  {"destination":"/x","action":"read"}\r', { action: 'read', destination: '/x' }],
    ['connect:tcp a.com:22', { action: 'connect:tcp', destination: 'a.com:22' }],
    ['read\t~/src/x', { action: 'read', destination: '~/src/x' }],
    // not the compact form: JSON.parse reads them
    ['{"action":"read","destination":"/a\\"b"}', { action: 'read', destination: '/a"b' }],
    ['{"action":"read","destination":"/x","extra":1}', { action: 'read', destination: '/x' }],
    ['{"action": "read", "destination": "/x"}', { action: 'read', destination: '/x' }],
    ['{"action":"read","destination":"\u002fx"}', { action: 'read', destination: '/x' }],
    ['', null],
    ['   ', null],
    ['# comment', null],
  ])('%j', (line, want) => {
    expect(parseRequestLine(line)).toEqual(want);
  });
  it.each([
    ['{"action":"connect:tcp"', 'not valid JSON'],
    ['{"action":1,"destination":"x"}', 'string fields'],
    ['connect:tcp', 'action destination'],
    ['read /a /b', 'too many words'],
    ['{"action":"read","destination":"/x"', 'not valid JSON'],
    ['{"action":"read","destination":"/x"}}', 'not valid JSON'],
  ])('refuses %j', (line, fragment) => {
    expect(() => parseRequestLine(line)).toThrow(fragment);
  });
});

describe('evaluateLine', async () => {
  const set = compilePolicies(
    await parsePolicyDocument(
      JSON.stringify({
        name: 'p',
        rules: [{ name: 'gh', actions: ['connect:tcp'], decision: 'allow', resources: ['github.com'] }],
      }),
      'p.json',
    ),
  );
  it('writes one JSON decision per request', () => {
    const r = evaluateLine(set, '{"action":"connect:tcp","destination":"github.com"}', 1);
    expect(r).toMatchObject({ denied: false, error: false });
    expect(JSON.parse(r!.text)).toEqual({
      action: 'connect:tcp',
      destination: 'github.com',
      decision: 'allow',
      reason: 'allowed by rule "gh" of policy "p"',
      matched: [{ policy: 'p', rule: 'gh', resource: 'github.com', decision: 'allow' }],
    });
    // a second time comes from the cached tail, identical
    expect(evaluateLine(set, '{"action":"connect:tcp","destination":"github.com"}', 2)!.text).toBe(r!.text);
    const quoted = evaluateLine(set, '{"action":"connect:tcp","destination":"github.com\\u0000"}', 3);
    expect(JSON.parse(quoted!.text).error.message).toContain('\u0000');
    const d = evaluateLine(set, 'connect:tcp "odd".com', 3);
    expect(d!.error).toBe(true);
    const denied = evaluateLine(set, 'connect:tcp other.com', 4)!;
    expect(denied.denied).toBe(true);
    expect(JSON.parse(denied.text)).toMatchObject({
      decision: 'deny',
      reason: 'no rule matched: denied by default',
      matched: [],
    });
  });
  it('writes no raw DEL, C1 or bidi character: text from the input or the policy file stays escaped', async () => {
    const named = compilePolicies(
      await parsePolicyDocument(
        JSON.stringify({
          name: 'p\u202e',
          rules: [
            { name: 'g\u009bh', actions: ['connect:tcp'], decision: 'allow', resources: ['github.com'] },
          ],
        }),
        'p.json',
      ),
    );
    const decided = evaluateLine(named, 'connect:tcp github.com', 1)!;
    const failed = evaluateLine(set, '{"action":"connect:tcp","destination":"a\u202eb\u007f.com"}', 2)!;
    for (const r of [decided, failed]) expect(r.text).not.toMatch(/[\u007f-\u009f\u202a-\u202e]/);
    expect(decided.text).toContain('\\u202e');
    expect(JSON.parse(decided.text).matched[0]).toMatchObject({ policy: 'p\u202e', rule: 'g\u009bh' });
    expect(JSON.parse(failed.text).input).toContain('a\u202eb\u007f.com');
  });
  it('turns a malformed line into an error record', () => {
    const r = evaluateLine(set, 'connect:tcp https://', 7)!;
    expect(r.error).toBe(true);
    expect(JSON.parse(r.text)).toEqual({
      line: 7,
      input: 'connect:tcp https://',
      error: { code: 'INVALID_INPUT', message: expect.stringContaining('the URL has no host') },
    });
    expect(JSON.parse(evaluateLine(set, 'request:fetch x.com', 8)!.text).error.message).toContain(
      'unknown action',
    );
    expect(evaluateLine(set, '', 9)).toBeNull();
  });
});

describe('BatchProcessor', async () => {
  const set = compilePolicies(
    await parsePolicyDocument(
      JSON.stringify({
        name: 'p',
        rules: [{ name: 'r', actions: ['read'], decision: 'allow', resources: ['/a/**'] }],
      }),
      'p.json',
    ),
  );
  it('gives the same output whatever the chunking, numbering lines across chunks', () => {
    const input = 'read /a/x\n\nread /b\nbad\r\nread /a\n{"action":"read","destination":"/a/y"}';
    const whole = new BatchProcessor(set);
    const expected = whole.push(input) + whole.end();
    expect(expected.split('\n')).toHaveLength(6);
    expect(JSON.parse(expected.split('\n')[2]!)).toMatchObject({ line: 4, input: 'bad' });
    expect(whole.counts).toEqual({ total: 5, denied: 1, errors: 1 });
    for (let size = 1; size <= 7; size++) {
      const b = new BatchProcessor(set);
      let got = '';
      for (let i = 0; i < input.length; i += size) got += b.push(input.slice(i, i + size));
      got += b.end();
      expect(got).toBe(expected);
      expect(b.counts).toEqual(whole.counts);
    }
  });
});

// --jq against a witness: for each document and expression of a corpus, what hubctl's filter prints
// must be what Debian's jq prints for `jq -r EXPR` (the spec: "the output must equal `hubctl … --json
// | jq -r EXPR`"). The expected text comes from the jq program, never from the code under test.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { compileJq, JqRuntimeError } from '../../src/output/jq.js';
import { createOutput } from '../../src/output/output.js';
import { fakeIo } from '../support/fake-io.js';
import { describeWithTools, toolPath } from '../support/tools.js';

/** What `jq -r EXPR` prints for a document: the witness. */
function witness(doc: unknown, expression: string): { stdout: string; status: number | null } {
  const r = spawnSync(toolPath('jq')!, ['-r', expression], { input: JSON.stringify(doc), encoding: 'utf8' });
  return { stdout: r.stdout, status: r.status };
}

// Shapes of hubctl's answers: a list of API objects, one object, a scalar.
const TOKENS = [
  {
    uuid: 'b1a2c3d4-0000-4000-8000-000000000001',
    token_label: 'ci deploy',
    scopes: ['repo:read', 'repo:write'],
    is_active: true,
    created_at: '2026-01-02T03:04:05Z',
    expires_at: null,
    last_used: '2026-02-03T00:00:00Z',
  },
  {
    uuid: 'b1a2c3d4-0000-4000-8000-000000000002',
    token_label: '  spaced, "quoted"\tand tabbed  ',
    scopes: [],
    is_active: false,
    created_at: '2026-03-04T05:06:07Z',
    expires_at: '2027-03-04T05:06:07Z',
    last_used: null,
  },
];
const POLICY = {
  id: 'pol_3f2b8c1e',
  name: 'egress',
  enabled: true,
  allowlist_v0: {
    rules: [
      { name: 'github', decision: 'allow', resources: ['api.github.com:443'], actions: ['connect:tcp'] },
      { name: 'meta', decision: 'deny', resources: ['169.254.169.254'], actions: ['connect:tcp'] },
    ],
  },
  count: 1.5,
  unicode: 'café ☕ \u00e9',
};

const CORPUS: [string, unknown, string][] = [
  ['identity of a list', TOKENS, '.'],
  ['path', TOKENS, '.[0].token_label'],
  ['raw strings of every item', TOKENS, '.[].token_label'],
  ['optional path on null', TOKENS, '.[].expires_at'],
  ['select', TOKENS, '.[] | select(.is_active) | .uuid'],
  ['select not', TOKENS, '.[] | select(.is_active | not) | .token_label'],
  ['map', TOKENS, 'map(.token_label)'],
  ['map compact', TOKENS, 'map(.scopes | length)'],
  ['length of a list', TOKENS, 'length'],
  ['length of a string', TOKENS, '.[1].token_label | length'],
  ['keys', TOKENS, '.[0] | keys'],
  ['keys[]', POLICY, 'keys[]'],
  ['string interpolation', TOKENS, '.[] | "\\(.token_label) expires \\(.expires_at // "never")"'],
  ['@tsv', TOKENS, '.[] | [.uuid, .token_label, (.scopes | join(","))] | @tsv'],
  ['@csv', TOKENS, '.[] | [.uuid, .token_label, .is_active] | @csv'],
  ['nested rules', POLICY, '.allowlist_v0.rules[] | "\\(.decision)\\t\\(.name)"'],
  ['first', POLICY, '.allowlist_v0.rules | first | .resources[0]'],
  ['an object built', POLICY, '{id, n: (.allowlist_v0.rules | length)}'],
  ['numbers', POLICY, '.count, (.count * 2), 10000000000'],
  ['unicode raw', POLICY, '.unicode'],
  ['to_entries', POLICY, 'to_entries[] | select(.value | type == "string") | .key'],
  ['sort_by', TOKENS, 'sort_by(.created_at) | reverse | .[].uuid'],
  ['group_by', TOKENS, 'group_by(.is_active) | map(length)'],
  ['empty output', TOKENS, '.[] | select(.uuid == "none")'],
  ['an empty string and a line', TOKENS, '"", "a"'],
  ['trailing and leading spaces kept', TOKENS, '.[1].token_label'],
  ['embedded newline', TOKENS, '"two\\nlines"'],
  ['empty array and object', TOKENS, '[], {}'],
  ['booleans and null', TOKENS, 'true, false, null'],
  ['def', TOKENS, 'def labels: map(.token_label); labels | length'],
  ['reduce', TOKENS, 'reduce .[] as $t (0; . + ($t.scopes | length))'],
  ['any/all', TOKENS, 'any(.[]; .is_active), all(.[]; .is_active)'],
  ['test regex', TOKENS, '.[] | select(.token_label | test("^ci")) | .uuid'],
  ['ascii_downcase, split', POLICY, '.name | ascii_upcase | split("") | join("-")'],
  ['tojson', POLICY, '.allowlist_v0.rules[0] | tojson'],
  ['@json in a string', POLICY, '"rule: \\(.allowlist_v0.rules[0].resources | @json)"'],
  ['has / in', POLICY, 'has("id"), (.allowlist_v0 | has("x"))'],
];

describeWithTools(['jq'], '--jq equals `jq -r` (Debian jq as the witness)', () => {
  for (const [name, doc, expression] of CORPUS) {
    it(`${name}: ${expression}`, async () => {
      const expected = witness(doc, expression);
      expect(expected.status).toBe(0);
      const filter = await compileJq(expression);
      const { text, error } = filter.apply(doc);
      expect(error).toBeUndefined();
      expect(text).toBe(expected.stdout);
    });
  }

  it('through the output layer, piped: stdout is exactly jq -r', async () => {
    const expression = '.[] | [.uuid, .token_label] | @tsv';
    const { io, out } = fakeIo(false);
    createOutput(io, { json: true, quiet: false, color: false, jq: await compileJq(expression) }).printJson(
      TOKENS,
    );
    expect(out.stdout).toBe(witness(TOKENS, expression).stdout);
  });

  it('a runtime error: what jq printed before it, then the error (jq too stops there)', async () => {
    const expression = '.[] | if .is_active then .uuid else error("inactive token") end';
    const expected = witness(TOKENS, expression);
    expect(expected.status).not.toBe(0);
    const { io, out } = fakeIo(false);
    const output = createOutput(io, {
      json: true,
      quiet: false,
      color: false,
      jq: await compileJq(expression),
    });
    let thrown: unknown;
    try {
      output.printJson(TOKENS);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(JqRuntimeError);
    expect((thrown as Error).message).toBe(`--jq ${JSON.stringify(expression)}: inactive token`);
    expect(out.stdout).toBe(expected.stdout);
  });
});

describe('--jq expressions that do not compile', () => {
  it.each([
    ['.[', 'syntax error'],
    ['map(.a', 'syntax error'],
    ['.a | nosuchfunction', 'nosuchfunction/0 is not defined'],
    ['.a as $x | $y', '$y is not defined'],
    ['"\\(.a"', 'syntax error'],
  ])("%s is a usage error naming the expression and jq's complaint", async (expression, complaint) => {
    const err = await compileJq(expression).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    const message = (err as Error).message;
    expect(message.startsWith(`invalid --jq expression ${JSON.stringify(expression)}: `)).toBe(true);
    expect(message).toContain(complaint);
    // One line, and the line number is the user's own (the expression has one line).
    expect(message).not.toContain('\n');
    expect(message).not.toMatch(/line [02-9]/);
  });

  it('compiling does not run the expression', async () => {
    // range(1e12) would run for hours: compiling must not evaluate it.
    const started = Date.now();
    const filter = await compileJq('[limit(3; range(1e12))] | length, (range(1e12) | empty)');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(filter.expression).toContain('range');
  });

  it('an expression of more than 64 KiB is refused', async () => {
    await expect(compileJq(`.${'a'.repeat(70_000)}`)).rejects.toBeInstanceOf(UsageError);
  });
});

describe('--jq has a deadline', () => {
  it('an expression that never ends is stopped after HUBCTL_JQ_TIMEOUT, and the next one runs clean', async () => {
    for (const expression of ['last(range(1e12))', 'repeat(1)']) {
      const filter = await compileJq(expression, 1);
      const started = Date.now();
      const { text, error } = filter.apply({ a: 1 });
      expect(Date.now() - started).toBeLessThan(4000);
      expect(text).toBe('');
      expect(error).toBeInstanceOf(JqRuntimeError);
      expect(error!.message).toBe(
        `--jq "${expression}": did not finish within 1 s (HUBCTL_JQ_TIMEOUT); for longer work pipe --json to jq`,
      );
    }
    // A fresh engine: nothing of the stopped run's output leaks into the next.
    expect((await compileJq('.a', 1)).apply({ a: 2 })).toEqual({ text: '2\n' });
  });

  it('HUBCTL_JQ_TIMEOUT is whole seconds from 1 to 3600', async () => {
    const { jqSeconds, DEFAULT_JQ_SECONDS } = await import('../../src/output/jq.js');
    expect(jqSeconds(undefined)).toBe(DEFAULT_JQ_SECONDS);
    expect(jqSeconds('5')).toBe(5);
    for (const bad of ['0', '3601', '1.5', 'ten', '-1']) expect(() => jqSeconds(bad)).toThrow(UsageError);
  });
});

describe('--jq on a terminal', () => {
  it('raw strings have their control characters escaped; tabs and lines stay', async () => {
    const { io, out } = fakeIo(true);
    createOutput(io, { json: true, quiet: false, color: false, jq: await compileJq('.[]') }).printJson([
      'a\tb',
      'evil\u001b]0;title\u0007',
    ]);
    expect(out.stdout).toBe('a\tb\nevil\\x1b]0;title\\x07\n');
  });
});

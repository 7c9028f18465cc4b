// `policy eval` has a commander-free path for start-up (src/commands/policy/fast-eval.ts). It must
// answer exactly as commander's reading of the same argv does: same stdout, stderr and exit code,
// for every argv it takes, and it must hand every other argv to commander. Both readings run here
// side by side on a corpus of well-formed, mistaken and odd command lines.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEvalArgv } from '../../src/commands/policy/fast-eval.js';
import { UsageError } from '../../src/errors.js';
import { runCli } from '../support/run-cli.js';

const NET = new URL('../../examples/network.yaml', import.meta.url).pathname;
const MCP = new URL('../../examples/mcp.cedar', import.meta.url).pathname;
const FS = new URL('../../examples/filesystem.yaml', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'hubctl-fast-eval-'));
const HTTP = join(dir, 'http.yaml');
writeFileSync(
  HTTP,
  [
    'name: web',
    'rules:',
    '  - name: net',
    '    decision: allow',
    '    actions: [connect:tcp]',
    '    resources: ["api.github.com:443"]',
    '  - name: no-admin',
    '    decision: deny',
    '    actions: [request:post]',
    '    http_resources:',
    '      - { host: api.github.com, path: /admin/** }',
    '',
  ].join('\n'),
);
const BAD = join(dir, 'bad.yaml');
writeFileSync(BAD, 'name: x\nrules:\n  - name: r\n    decision: maybe\n');
const eval_ = ['policy', 'eval'];

/** Argv the fast path takes (it must, or start-up falls back to commander's cost). */
const TAKEN: string[][] = [
  [...eval_, 'connect:tcp', 'api.github.com:443', '-f', NET],
  [...eval_, 'connect:tcp', 'evil.example:443', '-f', NET],
  [...eval_, 'connect:tcp', 'api.github.com:443', '--file', NET, '--explain'],
  [...eval_, 'connect:tcp', 'api.github.com:443', `--file=${NET}`, '--json'],
  ['--json', ...eval_, 'connect:tcp', '0xa9fea9fe:80', '-f', NET],
  ['--no-color', '-q', ...eval_, 'connect:udp', '8.8.8.8:53', '-f', NET, '--explain'],
  [...eval_, 'read', '~/src/app/main.go', '-f', FS, '--explain', '--json'],
  [...eval_, 'write', '/etc/passwd', '-f', FS, '-f', NET],
  [...eval_, 'request:post', 'https://api.github.com/admin/x', '-f', HTTP, '--explain'],
  [...eval_, 'request:get', 'https://api.github.com/repos/x', '-f', HTTP],
  [...eval_, 'request:get', 'https://api.github.com/a/../b', '-f', HTTP],
  [...eval_, 'teleport', 'x', '-f', NET],
  [...eval_, 'connect:tcp', 'api.github.com:443', '-f', BAD],
  [...eval_, 'connect:tcp', 'api.github.com:443', '-f', join(dir, 'missing.yaml')],
  [...eval_, 'connect:tcp', 'api.github.com:443', '-f', dir],
  [...eval_, 'connect:tcp', '-f', NET],
  [...eval_, '-f', NET],
  [...eval_, 'connect:tcp', 'x', '-f', NET, '--batch'],
  [...eval_, 'connect:tcp', 'x', '-f', NET, '--fail-on-deny'],
  [...eval_, '--batch', '-f', NET, '--fail-on-deny'],
  [...eval_, '--batch', '-f', NET, '--json'],
  ['--org', 'acme', ...eval_, 'connect:tcp', 'x', '-f', NET],
  ['--org=Not An Org', ...eval_, 'connect:tcp', 'x', '-f', NET],
  [...eval_, 'connect:tcp', 'x', '-f', NET, '--profile', '../etc'],
  [...eval_, 'connect:tcp', 'x', '--policy', 'egress'],
  ['--debug', ...eval_, 'connect:tcp', 'x', '-f', NET],
  [...eval_, 'mcp:invokeTool', 'notion/search', '-f', MCP, '--explain'],
  [...eval_, 'mcp:invokeTool', 'stripe/refund', '--args', '{"amount": 500}', '-f', MCP, '--json'],
  [
    ...eval_,
    'mcp:register',
    'linear',
    '--attr',
    'type=remote-dcr',
    '--attr',
    'requiresOAuth=true',
    '-f',
    MCP,
  ],
  [...eval_, 'mcp:readResource', 'file:///docs/a', '--server', 'fs', '-f', MCP],
  [...eval_, 'mcp:invokeTool', 'a/b', '--attr', 'readonly=true', '-f', MCP],
  [...eval_, 'connect:tcp', 'x', '--attr', 'a=b', '-f', NET],
];

/** Argv the fast path must leave to commander. */
const LEFT: string[][] = [
  [...eval_, '--help'],
  [...eval_, '-h'],
  ['--version', ...eval_],
  [...eval_, 'connect:tcp', 'x', '-qf', NET],
  [...eval_, 'connect:tcp', 'x', `-f${NET}`],
  [...eval_, 'connect:tcp', 'x', '-f', NET, '--bogus'],
  [...eval_, 'connect:tcp', 'x', 'y', '-f', NET],
  [...eval_, 'connect:tcp', 'x', '-f'],
  [...eval_, 'connect:tcp', 'x', '-f', '--json'],
  [...eval_, '--', 'connect:tcp', 'x', '-f', NET],
  ['policy', '--json', 'eval', 'connect:tcp', 'x', '-f', NET],
  [...eval_, 'connect:tcp', 'x', '-f', NET, '--json=yes'],
  [...eval_, 'connect:tcp', '-1', '-f', NET],
  ['--org', 'policy', 'policy', 'eval', 'connect:tcp', 'x', '-f', NET],
];

const STDIN =
  'connect:tcp api.github.com:443\nconnect:tcp evil.example:443\n{"action":"read","destination":"/x"}\n';

/** Whether the fast path answers this argv itself (a bad option value it names is an answer). */
function takes(argv: string[]): boolean {
  try {
    return readEvalArgv(argv) !== undefined;
  } catch (err) {
    return err instanceof UsageError;
  }
}

async function both(argv: string[], tty = false) {
  const env = { HOME: dir, HUBCTL_CONFIG_DIR: join(dir, 'config'), NO_COLOR: undefined };
  const options = { env, stdin: STDIN, tty };
  const fast = await runCli(argv, options);
  const commander = await runCli(argv, { ...options, commanderOnly: true });
  return { fast, commander };
}

describe('policy eval without commander', () => {
  it.each(TAKEN)('takes %j and answers as commander does', async (...argv) => {
    expect(takes(argv)).toBe(true);
    const { fast, commander } = await both(argv);
    expect(fast).toEqual(commander);
  });

  it.each(LEFT)('leaves %j to commander', async (...argv) => {
    expect(readEvalArgv(argv)).toBeUndefined();
    const { fast, commander } = await both(argv);
    expect(fast).toEqual(commander);
  });

  it.each([
    [...eval_, 'connect:tcp', 'api.github.com:443', '-f', NET],
    [...eval_, 'connect:tcp', 'api.github.com:443', '-f', NET, '--no-color'],
  ])('colours on a terminal as commander does: %j', async (...argv) => {
    const { fast, commander } = await both(argv, true);
    expect(fast).toEqual(commander);
    expect(fast.stdout.includes('\u001b[')).toBe(!argv.includes('--no-color'));
  });

  it('answers allow, deny and refusals with their exit codes (the corpus is not all errors)', async () => {
    const codes = new Set<number>();
    for (const argv of TAKEN) codes.add((await runCli(argv, { env: { HOME: dir }, stdin: STDIN })).code);
    expect([...codes].sort()).toEqual([0, 2, 3]);
  });

  it('is the path the built command takes: commander is never loaded', () => {
    const trace = join(mkdtempSync(join(tmpdir(), 'hubctl-trace-')), 'modules.txt');
    const bin = new URL('../../bin/hubctl.js', import.meta.url).pathname;
    const hook = new URL('../../bench/trace-modules.mjs', import.meta.url).pathname;
    const r = spawnSync(
      process.execPath,
      ['--import', hook, bin, 'policy', 'eval', 'connect:tcp', 'api.github.com:443', '-f', NET],
      { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir, HUBCTL_TRACE_FILE: trace } },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('allow');
    const loaded = readFileSync(trace, 'utf8');
    expect(loaded).toContain('/dist/chunks/fast-eval-');
    expect(loaded).not.toMatch(/\/dist\/chunks\/program-/);
    expect(loaded).not.toMatch(/node_modules\/commander/);
  });
});

import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/context.js';
import { ApiError, NotFoundError } from '../../src/errors.js';
import { report } from '../../src/report.js';
import { runCli } from '../support/run-cli.js';

describe('the CLI shell', () => {
  it('--version prints the version, exit 0', async () => {
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect(await runCli(['-V'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('--help lists every group with examples and exit codes, exit 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const group of ['policy', 'rule', 'token', 'image', 'auth', 'config', 'completion']) {
      expect(r.stdout).toMatch(new RegExp(`\\n  ${group}\\b`));
    }
    for (const flag of [
      '--json',
      '--org',
      '--profile',
      '--base-url',
      '--governance-url',
      '--debug',
      '--no-color',
      '--quiet',
      '--yes',
    ]) {
      expect(r.stdout).toContain(flag);
    }
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('Exit codes:');
    expect(r.stderr).toBe('');
  });

  it('a group without a verb: its help on stderr, exit 2', async () => {
    const r = await runCli(['token']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Usage: hubctl token');
    expect((await runCli(['help', 'token'])).code).toBe(0);
    expect((await runCli(['token', '--help'])).code).toBe(0);
  });

  it('no arguments: help on stderr (nothing a pipe takes for data), exit 2', async () => {
    const r = await runCli([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Usage: hubctl');
  });

  it.each([
    [['--frobnicate'], "unknown option '--frobnicate'"],
    [['token', 'list', '--nope'], "unknown option '--nope'"],
    [['nosuch'], "unknown command 'nosuch'"],
    [['token', 'list', '--page'], "option '--page <n>' argument missing"],
    [['completion', 'tcsh'], "'tcsh' is invalid"],
    [['--org'], "option '--org <name>' argument missing"],
  ])('%j is a usage error: exit 2, one line and a hint, no stack', async (argv, message) => {
    const r = await runCli(argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain('Run the command with --help for its usage.');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a usage error in --json mode is JSON on stderr', async () => {
    const r = await runCli(['--json', 'token', 'list', '--nope']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'USAGE', message: "unknown option '--nope'" });
  });

  it('every group and verb answers --help with examples', async () => {
    for (const argv of [
      ['auth', 'login'],
      ['auth', 'status'],
      ['auth', 'token'],
      ['auth', 'logout'],
      ['config', 'list'],
      ['config', 'get'],
      ['config', 'set'],
      ['config', 'unset'],
      ['token', 'create'],
      ['token', 'list'],
      ['token', 'get'],
      ['token', 'activate'],
      ['token', 'deactivate'],
      ['token', 'delete'],
      ['completion'],
    ]) {
      const r = await runCli([...argv, '--help']);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.stdout, argv.join(' ')).toContain('Examples:');
    }
  });

  it('colour only on a terminal, and never with --no-color or NO_COLOR', async () => {
    const ansi = /\u001b\[/;
    const env = { FORCE_COLOR: undefined, NO_COLOR: undefined };
    expect((await runCli(['config', 'list'], { tty: true, env })).stdout).toMatch(ansi);
    expect((await runCli(['--no-color', 'config', 'list'], { tty: true, env })).stdout).not.toMatch(ansi);
    expect((await runCli(['config', 'list'], { tty: true, env: { NO_COLOR: '1' } })).stdout).not.toMatch(
      ansi,
    );
    expect((await runCli(['config', 'list'], { tty: false, env })).stdout).not.toMatch(ansi);
  });

  it('the hidden secret flags of auth login are not in its help', async () => {
    const r = await runCli(['auth', 'login', '--help']);
    expect(r.stdout).toContain('--password-stdin');
    expect(r.stdout).not.toMatch(/--password </);
    expect(r.stdout).not.toContain('--token');
  });
});

describe('error reporting', () => {
  const io = () => {
    let stderr = '';
    return {
      io: {
        stdout: { write: () => true },
        stderr: { write: (s: string) => (stderr += s) },
        stdin: process.stdin,
        stdoutIsTTY: false,
        stderrIsTTY: false,
        stdinIsTTY: false,
      },
      err: () => stderr,
    };
  };

  it('maps typed errors to their exit codes with message and hint; a stack only with --debug', () => {
    const a = io();
    const code = report(new NotFoundError('policy x not found', { hint: 'List them.' }), a.io, {
      json: false,
      debug: false,
    });
    expect(code).toBe(5);
    expect(a.err()).toBe('hubctl: policy x not found\nList them.\n');
    const b = io();
    report(
      new ApiError('conflict: in use', { status: 409, apiCode: 'conflict', cause: new Error('inner') }),
      b.io,
      {
        json: false,
        debug: true,
      },
    );
    expect(b.err()).toMatch(/^hubctl: conflict: in use\nApiError: conflict: in use\n\s+at /);
    expect(b.err()).toContain('caused by: Error: inner');
  });

  it('an unexpected error is exit 1 with a hint to use --debug, never a stack without it', () => {
    const a = io();
    expect(report(new TypeError('x is undefined'), a.io, { json: false, debug: false })).toBe(1);
    expect(a.err()).toBe('hubctl: unexpected error: x is undefined\nRun with --debug for details.\n');
  });

  it('an abort is exit 130', () => {
    const a = io();
    const abort = Object.assign(new Error('cancelled'), { name: 'AbortError' });
    expect(report(abort, a.io, { json: true, debug: false })).toBe(130);
    expect(JSON.parse(a.err())).toEqual({ error: { code: 'CANCELLED', message: 'cancelled' } });
  });

  it('exit codes of decisions §7 by HTTP status', () => {
    const cases: [number, string | undefined, number][] = [
      [400, 'invalid_argument', 2],
      [401, undefined, 4],
      [403, 'permission_denied', 4],
      [403, 'limit_exceeded', 6],
      [404, undefined, 5],
      [409, 'conflict', 6],
      [500, 'internal', 7],
      [503, undefined, 7],
      [418, undefined, 1],
    ];
    for (const [status, apiCode, exit] of cases) {
      expect(new ApiError('x', { status, apiCode }).exitCode, `${status} ${apiCode}`).toBe(exit);
    }
  });
});

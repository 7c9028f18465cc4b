// One thin end-to-end layer: the real `bin/hubctl.js` (the built bundle) in a child process, against
// the hub emulator on 127.0.0.1, with a temporary HUBCTL_CONFIG_DIR.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = join(ROOT, 'bin/hubctl.js');
const ANSI = /\u001b\[/;

let hub: HubEmulator;
let dir: string;

beforeAll(async () => {
  // `npm test` builds first; a bare `vitest run` on a fresh clone builds here.
  if (!existsSync(join(ROOT, 'dist/cli.js'))) {
    const b = spawnSync('node', ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
    expect(b.status, b.stderr).toBe(0);
  }
  hub = await startHubEmulator();
  dir = mkdtempSync(join(tmpdir(), 'hubctl-e2e-'));
});
afterAll(() => hub?.close());

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  stdin?: string;
  env?: Record<string, string>;
  /** Flags for node itself, before the script. */
  nodeArgs?: string[];
}

/** Runs the real binary; asynchronous, so the emulator in this process keeps answering. */
async function hubctl(args: string[], opts: RunOptions = {}): Promise<Result> {
  const { exitLagMs: _, ...result } = await hubctlTimed(args, opts);
  return result;
}

/** hubctl(), and the milliseconds from the child's last byte of output to its exit. */
function hubctlTimed(args: string[], opts: RunOptions = {}): Promise<Result & { exitLagMs: number }> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      v !== undefined &&
      !k.startsWith('HUBCTL_') &&
      k !== 'NO_COLOR' &&
      k !== 'FORCE_COLOR' &&
      k !== 'DOCKER_CONFIG'
    ) {
      env[k] = v;
    }
  }
  Object.assign(env, { HUBCTL_CONFIG_DIR: dir, HOME: dir, HUBCTL_BASE_URL: hub.url }, opts.env);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), BIN, ...args], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let lastOutput = performance.now();
    let exitLagMs = Number.NaN;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      lastOutput = performance.now();
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      lastOutput = performance.now();
    });
    child.on('error', reject);
    child.on('exit', () => {
      exitLagMs = performance.now() - lastOutput;
    });
    child.on('close', (code) => resolvePromise({ code, stdout, stderr, exitLagMs }));
    child.stdin.end(opts.stdin ?? '');
  });
}

describe('bin/hubctl.js end to end', () => {
  it('--version and --help', async () => {
    const v = await hubctl(['--version']);
    expect(v).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
    const h = await hubctl(['--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('Usage: hubctl');
    expect(h.stdout).not.toMatch(ANSI);
  });

  it('login with --password-stdin, token create, token list --json, and exit codes', async () => {
    const login = await hubctl(['auth', 'login', '--username', 'alice', '--password-stdin'], {
      stdin: 'alice-password\n',
    });
    expect(login).toEqual({
      code: 0,
      stdout: '',
      stderr: `Logged in as alice (credential stored in ${join(dir, 'credentials.json')}).\n`,
    });
    expect(statSync(join(dir, 'credentials.json')).mode & 0o777).toBe(0o600);

    const created = await hubctl([
      'token',
      'create',
      '--label',
      'e2e',
      '--scope',
      'repo:read',
      '--expires',
      '30d',
    ]);
    expect(created.code).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^hub_pat_[\w-]+$/);
    expect(created.stderr).toContain('This is the only time its secret is shown');

    const list = await hubctl(['token', 'list', '--json']);
    expect(list.code).toBe(0);
    expect(list.stderr).toBe('');
    const page = JSON.parse(list.stdout);
    expect(page).toHaveLength(1);
    expect(page[0]).toMatchObject({ token_label: 'e2e', scopes: ['repo:read'], is_active: true });
    expect(page[0].token).not.toBe(secret);
    expect(list.stdout).not.toContain(secret);

    // Piped table: plain tab-separated text, no colour codes.
    const table = await hubctl(['token', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).not.toMatch(ANSI);
    expect(table.stdout.split('\t')[1]).toBe('e2e');

    // The server saw what a user would cause: exchanges, one create, the lists.
    const calls = hub.requests.map((q) => `${q.method} ${q.path}`);
    expect(calls.filter((c) => c === 'POST /v2/access-tokens')).toHaveLength(1);
    expect(calls.filter((c) => c === 'GET /v2/access-tokens')).toHaveLength(2);
    expect(
      hub.requests.find((q) => q.method === 'POST' && q.path === '/v2/access-tokens')?.json,
    ).toMatchObject({
      token_label: 'e2e',
      scopes: ['repo:read'],
    });

    // Exit codes: usage 2, not found 5, auth 4, network 7.
    expect((await hubctl(['token', 'list', '--bogus'])).code).toBe(2);
    expect((await hubctl(['auth', 'login', '-u', 'alice', '--password', 'x'])).code).toBe(2);
    expect((await hubctl(['token', 'get', '00000000-0000-4000-8000-000000000000'])).code).toBe(5);
    const denied = await hubctl(['auth', 'status'], {
      env: { HUBCTL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'e2e-')) },
    });
    expect(denied.code).toBe(4);
    expect(denied.stderr).toBe(
      'hubctl: you are not logged in\nRun `hubctl auth login`, or set HUBCTL_USERNAME and HUBCTL_TOKEN.\n',
    );
    // The stored credential is for the emulator's origin: another base URL does not get it.
    const elsewhere = await hubctl(['token', 'list'], { env: { HUBCTL_BASE_URL: 'http://127.0.0.1:9' } });
    expect(elsewhere.code).toBe(4);
    expect(elsewhere.stderr.split('\n')[0]).toBe(
      `hubctl: the stored credential of profile "default" is for ${hub.url}; hubctl does not send it to http://127.0.0.1:9`,
    );
    const offline = await hubctl(['token', 'list'], {
      env: {
        HUBCTL_BASE_URL: 'http://127.0.0.1:9',
        HUBCTL_USERNAME: 'alice',
        HUBCTL_TOKEN: 'alice-password',
      },
    });
    expect(offline.code).toBe(7);
    expect(offline.stderr).not.toMatch(/\n\s+at /);
  });

  it('a network command exits as soon as its output is written: nothing left for node to wait on', async () => {
    // Node waits, before exiting, for V8's background compilations: undici's wasm HTTP parser tiered
    // up to TurboFan used to hold every network command ~80-180 ms past its last response. V8's own
    // trace shows which compiler ran; the parser must stay on the baseline one.
    const r = await hubctlTimed(['token', 'list', '--json'], {
      env: { HUBCTL_USERNAME: 'alice', HUBCTL_TOKEN: 'alice-password' },
      nodeArgs: ['--trace-wasm-compilation-times'],
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Compiled function .* using Liftoff/m); // the trace works: the parser ran
    expect(r.stdout).not.toMatch(/using TurboFan/);
    // And no socket, timer or stdin read keeps the process alive (undici's keep-alive is 4 s).
    expect(r.exitLagMs).toBeLessThan(1000);
  });

  it("the README's set-up command answers offline: allow (exit 0), and a denied request exits 3", async () => {
    const allow = await hubctl(
      ['policy', 'eval', 'connect:tcp', 'api.github.com:443', '-f', join(ROOT, 'examples/network.yaml')],
      {
        env: { HUBCTL_BASE_URL: 'http://127.0.0.1:9' },
      },
    );
    expect(allow.code).toBe(0);
    expect(allow.stdout.split('\n')[0]).toBe('allow');
    expect(allow.stdout).not.toMatch(ANSI);
    const deny = await hubctl([
      'policy',
      'eval',
      'connect:tcp',
      '169.254.169.254:80',
      '-f',
      join(ROOT, 'examples/network.yaml'),
    ]);
    expect(deny.code).toBe(3);
    expect(deny.stdout.split('\n')[0]).toBe('deny');
  });

  it.each([
    [['completion', 'fish']],
    [['--help']], // the pre-rendered help, written to descriptor 1 directly
    [['--version']],
  ])('a reader that closes early (| head) ends %j quietly: no EPIPE stack', async (args) => {
    const r = await new Promise<Result>((resolvePromise) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.destroy(); // every write now meets a closed pipe
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('close', (code) => resolvePromise({ code, stdout: '', stderr }));
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('a JSON error on stderr in --json mode, and nothing on stdout', async () => {
    const r = await hubctl(['--json', 'config', 'get', 'org']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({
      error: { code: 'NOT_FOUND', message: 'org is not set in profile "default"' },
    });
  });
});

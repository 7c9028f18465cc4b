// The single executable (`npm run build:sea`): built here, then run with no node on PATH and an
// environment of its own: policy eval on the example, --help, --jq (its inlined jq), and a round
// trip to the hub emulator (login, token create, token list, api).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';

const ROOT = resolve(import.meta.dirname, '../..');
const EXE = join(ROOT, 'dist-sea', 'hubctl');
const dir = mkdtempSync(join(tmpdir(), 'hubctl-sea-'));
// No node anywhere on PATH: an empty directory.
const env = { PATH: join(dir, 'empty'), HOME: dir, HUBCTL_CONFIG_DIR: join(dir, 'config'), LANG: 'C.UTF-8' };
let hub: HubEmulator;

function sea(args: string[], stdin = '', extra: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn(EXE, args, { env: { ...env, ...extra }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

beforeAll(async () => {
  const b = spawnSync(process.execPath, [join(ROOT, 'scripts/build-sea.mjs')], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 240_000,
  });
  expect(b.status, b.stderr).toBe(0);
  expect(existsSync(EXE)).toBe(true);
  hub = await startHubEmulator();
}, 300_000);
afterAll(() => hub?.close());

describe('the single executable, with no node on PATH', () => {
  it('policy eval on the example: allow exits 0, deny 3; --jq works', async () => {
    const example = join(ROOT, 'examples/network.yaml');
    const allow = await sea(['policy', 'eval', 'connect:tcp', 'api.github.com:443', '-f', example]);
    expect(allow.code, allow.stderr).toBe(0);
    expect(allow.stdout.split('\n')[0]).toBe('allow');
    const deny = await sea(['policy', 'eval', 'connect:tcp', '169.254.169.254:80', '-f', example, '--json']);
    expect(deny.code).toBe(3);
    expect(JSON.parse(deny.stdout).decision).toBe('deny');
    const jq = await sea([
      'policy',
      'eval',
      'connect:tcp',
      'api.github.com:443',
      '-f',
      example,
      '--jq',
      '.decision',
    ]);
    expect([jq.code, jq.stdout]).toEqual([0, 'allow\n']);
  });

  it('--help ends with the exit codes; version says the node inside', async () => {
    const help = await sea(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: hubctl');
    expect(help.stdout).toMatch(/10 differs \(policy diff\)/);
    const v = await sea(['version', '--json']);
    expect(JSON.parse(v.stdout).node).toBe(process.version);
  });

  it('a round trip to the hub emulator: login, token create, token list, api', async () => {
    const base = { HUBCTL_BASE_URL: hub.url };
    const login = await sea(
      ['auth', 'login', '--username', 'alice', '--password-stdin'],
      'alice-password\n',
      base,
    );
    expect(login.code, login.stderr).toBe(0);
    const created = await sea(['token', 'create', '--label', 'sea', '--scope', 'repo:read'], '', base);
    expect(created.code, created.stderr).toBe(0);
    const list = await sea(['token', 'list', '--jq', '.[].token_label'], '', base);
    expect([list.code, list.stdout, list.stderr]).toEqual([0, 'sea\n', '']);
    const api = await sea(['api', '/v2/access-tokens', '--jq', '.count'], '', base);
    expect(api.stdout).toBe('1\n');
    expect(hub.requests.some((q) => q.method === 'POST' && q.path === '/v2/access-tokens')).toBe(true);
  });
});

describe('the single executable with a V8 start-up snapshot (npm run build:sea-snapshot)', () => {
  const SNAP = join(ROOT, 'dist-sea-snapshot', 'hubctl');
  beforeAll(() => {
    const b = spawnSync(process.execPath, [join(ROOT, 'scripts/build-sea.mjs'), '--snapshot'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(b.status, b.stderr).toBe(0);
  }, 300_000);

  it('starts from the snapshot: policy eval (allow, deny, --jq), --help, and a hub round trip', async () => {
    const example = join(ROOT, 'examples/network.yaml');
    const run = (args: string[], extra: Record<string, string> = {}) =>
      spawnSync(SNAP, args, { encoding: 'utf8', env: { ...env, ...extra } });
    const allow = run([
      'policy',
      'eval',
      'connect:tcp',
      'api.github.com:443',
      '-f',
      example,
      '--jq',
      '.decision',
    ]);
    expect([allow.status, allow.stdout, allow.stderr]).toEqual([0, 'allow\n', '']);
    expect(run(['policy', 'eval', 'connect:tcp', '169.254.169.254:80', '-f', example]).status).toBe(3);
    expect(run(['--help']).stdout).toMatch(/10 differs \(policy diff\)/);
    // Not logged in against a closed port: the usual exit code 7 through the snapshot's HTTP layer.
    const offline = run(['token', 'list'], {
      HUBCTL_BASE_URL: 'http://127.0.0.1:9',
      HUBCTL_USERNAME: 'a',
      HUBCTL_TOKEN: 'b',
    });
    expect(offline.status).toBe(7);
  });
});

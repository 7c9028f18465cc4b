// What the completion scripts offer where a value goes, driven through bash's own completion
// functions (and zsh's, fish's where installed): file names, fixed sets, nothing where the value is
// free, and live names through `hubctl __complete` against the hub emulator, with its cache.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../../support/hub-emulator.js';
import { ensureBuilt } from '../../support/run-bin.js';
import { fixedClock, runCli } from '../../support/run-cli.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'hubctl-compl-values-'));
const work = join(dir, 'work');
const bin = join(dir, 'bin');
let hub: HubEmulator;
let env: Record<string, string>;

beforeAll(async () => {
  ensureBuilt();
  mkdirSync(join(work, 'examples'), { recursive: true });
  writeFileSync(join(work, 'egress.yaml'), '');
  writeFileSync(join(work, 'egress-old.yaml'), '');
  writeFileSync(join(work, 'notes.txt'), '');
  // `hubctl` on PATH, as an installed one would be: the built bin under this node.
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'hubctl'),
    `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin/hubctl.js')}" "$@"\n`,
  );
  chmodSync(join(bin, 'hubctl'), 0o755);
  hub = await startHubEmulator();
  env = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: dir,
    HUBCTL_CONFIG_DIR: join(dir, 'config'),
    HUBCTL_BASE_URL: hub.url,
    HUBCTL_ORG: 'acme',
    DOCKER_CONFIG: join(dir, 'docker'),
  };
  const run = (argv: string[], stdin?: string) => runCli(argv, { env, stdin });
  expect(
    (await run(['auth', 'login', '--username', 'alice', '--password-stdin'], 'alice-password\n')).code,
  ).toBe(0);
  for (const name of ['egress', 'egress-strict', 'build-cache'])
    expect((await run(['policy', 'create', name])).code).toBe(0);
  for (const label of ['ci deploy', 'laptop']) {
    expect((await run(['token', 'create', '--label', label, '--scope', 'repo:read'])).code).toBe(0);
  }
});
afterAll(() => hub?.close());

const script = (shell: 'bash' | 'zsh' | 'fish') =>
  join(ROOT, 'completions', shell === 'bash' ? 'hubctl.bash' : shell === 'zsh' ? '_hubctl' : 'hubctl.fish');

/** COMPREPLY for a command line whose last word is being completed, in a real bash. */
function bashComplete(words: string[], extraEnv: Record<string, string> = {}): string[] {
  const arr = words.map((w) => `'${w}'`).join(' ');
  const r = spawnSync(
    'bash',
    [
      '-c',
      `source "$1"; COMP_WORDS=(${arr}); COMP_CWORD=${words.length - 1}; _hubctl; printf '%s\\n' "\${COMPREPLY[@]}"`,
      'x',
      script('bash'),
    ],
    { encoding: 'utf8', cwd: work, env: { ...env, ...extraEnv } },
  );
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

describe('bash: values', () => {
  it('file names after -f and --file (policy eval, lint, diff, apply), --input and --ca-file', () => {
    expect(bashComplete(['hubctl', 'policy', 'eval', '-f', 'egr']).sort()).toEqual([
      'egress-old.yaml',
      'egress.yaml',
    ]);
    expect(bashComplete(['hubctl', 'policy', 'apply', '--file', 'no'])).toEqual(['notes.txt']);
    expect(bashComplete(['hubctl', 'api', '/x', '--input', 'e']).sort()).toEqual([
      'egress-old.yaml',
      'egress.yaml',
      'examples',
    ]);
    expect(bashComplete(['hubctl', '--ca-file', 'not'])).toEqual(['notes.txt']);
  });

  it('directories only after policy export -o', () => {
    expect(bashComplete(['hubctl', 'policy', 'export', '-o', 'e'])).toEqual(['examples']);
  });

  it('a fixed set after --decision, --scope, --format, --action, --service, -X', () => {
    expect(bashComplete(['hubctl', 'rule', 'add', 'egress', '--decision', ''])).toEqual(['allow', 'deny']);
    expect(bashComplete(['hubctl', 'token', 'create', '--scope', 'repo:r'])).toEqual(['repo:read']);
    expect(bashComplete(['hubctl', 'policy', 'export', '--format', ''])).toEqual(['yaml', 'json']);
    expect(bashComplete(['hubctl', 'rule', 'update', 'p', 'r', '--action', 'connect:'])).toEqual([
      'connect:tcp',
      'connect:udp',
    ]);
    expect(bashComplete(['hubctl', 'api', '/x', '--service', 'g'])).toEqual(['governance']);
    expect(bashComplete(['hubctl', 'api', '/x', '-X', 'P'])).toEqual(['POST', 'PUT', 'PATCH']);
  });

  it('nothing (no flag names) where a free value goes', () => {
    expect(bashComplete(['hubctl', '--org', ''])).toEqual([]);
    expect(bashComplete(['hubctl', 'token', 'create', '--label', ''])).toEqual([]);
    // api's -f is a field, not a file.
    expect(bashComplete(['hubctl', 'api', '/x', '-f', 'e'])).toEqual([]);
  });

  it("an argument's values: actions for policy eval, setting names for config get", () => {
    expect(bashComplete(['hubctl', 'policy', 'eval', 'req'])).toEqual(
      expect.arrayContaining(['request:get', 'request:post']),
    );
    expect(bashComplete(['hubctl', 'policy', 'eval', 'connect:tcp', 'x', '--'])).toEqual(
      expect.arrayContaining(['--file', '--explain']),
    );
    expect(bashComplete(['hubctl', 'config', 'get', ''])).toEqual(
      expect.arrayContaining(['org', 'base-url', 'credential-store']),
    );
  });

  it('after the value, options again', () => {
    expect(bashComplete(['hubctl', 'rule', 'add', 'egress', '--decision', 'allow', '--na'])).toEqual([
      '--name',
    ]);
  });
});

/** A command run asynchronously: the hub emulator in this process must keep answering. */
function runAsync(cmd: string, args: string[], extraEnv: Record<string, string> = {}) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn(cmd, args, {
      cwd: work,
      env: { ...env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

async function bashLive(words: string[], extraEnv: Record<string, string> = {}): Promise<string[]> {
  const arr = words.map((w) => `'${w}'`).join(' ');
  const r = await runAsync(
    'bash',
    [
      '-c',
      `source "$1"; COMP_WORDS=(${arr}); COMP_CWORD=${words.length - 1}; _hubctl; printf '%s\\n' "\${COMPREPLY[@]}"`,
      'x',
      script('bash'),
    ],
    extraEnv,
  );
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

describe('bash: live names through hubctl __complete', () => {
  it('policy names after --policy and in a <policy> place; token labels in a <token> place', async () => {
    expect(await bashLive(['hubctl', 'policy', 'get', 'egr'])).toEqual(['egress', 'egress-strict']);
    expect(await bashLive(['hubctl', 'rule', 'list', ''])).toEqual([
      'build-cache',
      'egress',
      'egress-strict',
    ]);
    expect(await bashLive(['hubctl', 'policy', 'eval', 'read', '/x', '--policy', 'b'])).toEqual([
      'build-cache',
    ]);
    expect(await bashLive(['hubctl', 'token', 'get', ''])).toEqual(['ci deploy', 'laptop']);
    // Team names (the emulator's acme teams) after --team and in a <team> place.
    expect(await bashLive(['hubctl', 'policy', 'create', 'x', '--team', ''])).toEqual(['developers', 'ops']);
    expect(await bashLive(['hubctl', 'team', 'get', 'd'])).toEqual(['developers']);
  });

  it('answers from the cache while it is fresh, and is silent offline', async () => {
    // Cached by the test above: the hub's answer is no longer needed.
    const offline = { HUBCTL_BASE_URL: 'http://127.0.0.1:9' };
    // Another base URL is another cache entry: offline, nothing, and no error on the terminal.
    expect(await bashLive(['hubctl', 'policy', 'get', ''], offline)).toEqual([]);
    const cache = JSON.parse(readFileSync(join(dir, 'config', 'state', 'completion-cache.json'), 'utf8'));
    expect(Object.values(cache).map((e) => (e as { names: string[] }).names)).toEqual(
      expect.arrayContaining([['build-cache', 'egress', 'egress-strict']]),
    );
    const r = spawnSync('hubctl', ['__complete', 'policies'], {
      encoding: 'utf8',
      env: { ...env, ...offline },
    });
    expect([r.status, r.stdout, r.stderr]).toEqual([0, '', '']);
    const anon = await runAsync('hubctl', ['__complete', 'tokens'], {
      HUBCTL_CONFIG_DIR: join(dir, 'nobody'),
    });
    expect([anon.status, anon.stdout, anon.stderr]).toEqual([0, '', '']);
  });
});

describe('hubctl __complete', () => {
  it('is hidden from the help and the scripts, and reads the hub again after 60 s', async () => {
    const help = await runCli(['--help']);
    expect(help.stdout).not.toContain('__complete');
    expect(readFileSync(script('bash'), 'utf8')).not.toContain('"__complete"');
    const clock = fixedClock();
    const cfg = { ...env, HUBCTL_CONFIG_DIR: join(dir, 'clocked') };
    expect(
      (
        await runCli(['auth', 'login', '--username', 'alice', '--password-stdin'], {
          env: cfg,
          stdin: 'alice-password\n',
        })
      ).code,
    ).toBe(0);
    const first = await runCli(['__complete', 'policies'], { env: cfg, clock });
    expect(first.stdout).toBe('build-cache\negress\negress-strict\n');
    expect((await runCli(['policy', 'create', 'newer'], { env: cfg })).code).toBe(0);
    clock.advance(59_000);
    expect((await runCli(['__complete', 'policies'], { env: cfg, clock })).stdout).toBe(first.stdout);
    clock.advance(2_000);
    expect((await runCli(['__complete', 'policies'], { env: cfg, clock })).stdout).toBe(
      'build-cache\negress\negress-strict\nnewer\n',
    );
  });
});

describe.skipIf(!has('zsh'))('zsh: values and live names', () => {
  async function zshComplete(words: string[]): Promise<string[]> {
    const arr = words.map((w) => `'${w}'`).join(' ');
    const r = await runAsync('zsh', [
      '-c',
      `compdef() { :; }; compadd() { [[ "$1" == -- ]] && shift; print -l -- "$@"; }; source "$1"; words=(${arr}); CURRENT=${words.length}; _hubctl`,
      'x',
      script('zsh'),
    ]);
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter(Boolean);
  }

  it('a fixed set and live names', async () => {
    expect(await zshComplete(['hubctl', 'rule', 'add', 'egress', '--decision', ''])).toEqual([
      'allow',
      'deny',
    ]);
    // (From the cache of the bash tests: fresh for 60 s.)
    expect(await zshComplete(['hubctl', 'policy', 'delete', ''])).toEqual(
      expect.arrayContaining(['build-cache', 'egress', 'egress-strict']),
    );
  });
});

describe.skipIf(!has('fish'))('fish: values and files', () => {
  function fishComplete(line: string): string[] {
    const r = spawnSync('fish', ['-c', `source $argv[1]; complete -C "${line}"`, script('fish')], {
      encoding: 'utf8',
      cwd: work,
      env,
    });
    expect(r.stderr).toBe('');
    return r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[0]!);
  }

  it('--decision values, file names after -f', () => {
    expect(fishComplete('hubctl rule add egress --decision ')).toEqual(['allow', 'deny']);
    expect(fishComplete('hubctl policy eval -f egr').sort()).toEqual(['egress-old.yaml', 'egress.yaml']);
  });
});

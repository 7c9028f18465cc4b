// The package as a user gets it: `npm pack` gives a tarball that `npm install -g --offline` installs
// into a temporary prefix, and the installed `hubctl` runs: --version, policy eval on the example
// shipped inside it, --help; the man pages and completion scripts are there. Offline means from the
// tarball and npm's cache alone: the cache is first given the lockfile's production packages
// (`npm cache add`, from the registry; `npm ci` caches tarballs but not the metadata an install
// resolves ranges with), so the install itself asks no registry for anything.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/run-bin.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'hubctl-pack-'));
const prefix = join(dir, 'prefix');
const npmEnv = {
  ...process.env,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

let tarball: string;

beforeAll(() => {
  ensureBuilt();
  const pack = spawnSync('npm', ['pack', '--pack-destination', dir, '--silent'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: npmEnv,
  });
  expect(pack.status, pack.stderr).toBe(0);
  tarball = join(dir, pack.stdout.trim().split('\n').at(-1)!);
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; dev?: boolean }>;
  };
  const production = Object.entries(lock.packages)
    .filter(([path, p]) => path.startsWith('node_modules/') && !p.dev)
    .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')}@${p.version}`);
  const cache = spawnSync('npm', ['cache', 'add', ...production], {
    encoding: 'utf8',
    env: npmEnv,
    timeout: 120_000,
  });
  expect(cache.status, cache.stderr).toBe(0);
  const install = spawnSync('npm', ['install', '-g', '--offline', '--prefix', prefix, tarball], {
    encoding: 'utf8',
    env: npmEnv,
    timeout: 240_000,
  });
  expect(install.status, install.stderr).toBe(0);
}, 300_000);

describe('npm pack, then npm install -g offline into a temporary prefix', () => {
  const installed = () => join(prefix, 'bin', 'hubctl');
  const pkg = () => join(prefix, 'lib', 'node_modules', 'hubctl');

  it('the installed hubctl runs', () => {
    const v = spawnSync(installed(), ['--version'], { encoding: 'utf8' });
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect([v.status, v.stdout]).toEqual([0, `${version}\n`]);
    const evalRun = spawnSync(
      installed(),
      [
        'policy',
        'eval',
        'connect:tcp',
        'api.github.com:443',
        '-f',
        join(pkg(), 'examples', 'network.yaml'),
        '--jq',
        '.decision',
      ],
      { encoding: 'utf8', env: { ...process.env, HUBCTL_CONFIG_DIR: join(dir, 'config') } },
    );
    expect([evalRun.status, evalRun.stdout, evalRun.stderr]).toEqual([0, 'allow\n', '']);
    const help = spawnSync(installed(), ['--help'], { encoding: 'utf8' });
    expect(help.stdout).toContain('Exit codes:');
  });

  it('ships dist, the completions, the examples and the man pages, and no sources or tests', () => {
    const files = readdirSync(pkg());
    for (const f of ['bin', 'dist', 'completions', 'examples', 'man', 'package.json', 'README.md'])
      expect(files).toContain(f);
    for (const f of ['src', 'test', 'bench']) expect(files).not.toContain(f);
    expect(existsSync(join(pkg(), 'man', 'hubctl.1'))).toBe(true);
    // npm links the man pages under the prefix (package.json "man").
    expect(existsSync(join(prefix, 'share', 'man', 'man1', 'hubctl.1'))).toBe(true);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../support/run-cli.js';

function cli() {
  const dir = tempConfigDir();
  const env = { HUBCTL_CONFIG_DIR: dir };
  return {
    dir,
    run: (argv: string[], extra: Record<string, string> = {}) => runCli(argv, { env: { ...env, ...extra } }),
  };
}

describe('config set / get / unset', () => {
  it('stores a setting in the default profile and reads it back', async () => {
    const c = cli();
    expect(await c.run(['config', 'set', 'org', 'acme'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'Set org to acme in profile "default".\n',
    });
    expect(await c.run(['config', 'get', 'org'])).toEqual({ code: 0, stdout: 'acme\n', stderr: '' });
    expect(JSON.parse((await c.run(['--json', 'config', 'get', 'org'])).stdout)).toEqual({
      profile: 'default',
      key: 'org',
      value: 'acme',
    });
    expect(JSON.parse(readFileSync(join(c.dir, 'config.json'), 'utf8'))).toEqual({
      profiles: { default: { org: 'acme' } },
    });
  });

  it('--profile and HUBCTL_PROFILE pick the profile', async () => {
    const c = cli();
    await c.run(['--profile', 'staging', 'config', 'set', 'base-url', 'https://hub.staging.example/']);
    expect((await c.run(['config', 'get', 'base-url'])).code).toBe(5);
    expect((await c.run(['config', 'get', 'base-url'], { HUBCTL_PROFILE: 'staging' })).stdout).toBe(
      'https://hub.staging.example\n',
    );
  });

  it('unset removes it; getting an unset key is exit 5', async () => {
    const c = cli();
    await c.run(['config', 'set', 'org', 'acme']);
    expect((await c.run(['config', 'unset', 'org'])).stderr).toBe('Removed org from profile "default".\n');
    expect((await c.run(['config', 'unset', 'org'])).stderr).toBe('org was not set in profile "default".\n');
    expect(await c.run(['config', 'get', 'org'])).toEqual({
      code: 5,
      stdout: '',
      stderr: 'hubctl: org is not set in profile "default"\n',
    });
  });

  it.each([
    [['config', 'set', 'colour', 'red'], 'unknown setting "colour"'],
    [['config', 'get', 'password'], 'unknown setting "password"'],
    [['config', 'set', 'base-url', 'ftp://x'], 'base-url "ftp://x" is not an http:// or https:// address'],
    [['config', 'set', 'governance-url', 'not a url'], 'governance-url "not a url" is not a valid URL'],
    [['config', 'set', 'org', '  '], 'org "  " is not an organization name'],
    [['config', 'set', 'org'], "missing required argument 'value'"],
    [['config', 'set', 'org', 'a', 'b'], 'too many arguments'],
    [['config', 'frobnicate'], "unknown command 'frobnicate'"],
    [['config', 'list', '--bogus'], "unknown option '--bogus'"],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const c = cli();
    const r = await c.run(argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
  });
});

describe('config list', () => {
  it('shows effective values and their sources: flag > env > profile > default (piped: TSV)', async () => {
    const c = cli();
    await c.run(['config', 'set', 'org', 'profile-org']);
    await c.run(['config', 'set', 'base-url', 'https://profile.example']);
    await c.run(['config', 'set', 'username', 'alice']);
    const r = await c.run(['--org', 'flag-org', 'config', 'list'], {
      HUBCTL_BASE_URL: 'https://env.example',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'profile\tdefault\t',
        'base-url\thttps://env.example\tenv',
        'governance-url\thttps://env.example/v2\tdefault',
        'org\tflag-org\tflag',
        'username\talice\tprofile',
        'credential-store\t\tunset',
        '',
      ].join('\n'),
    );
  });

  it('credential-store: file or a helper name; HUBCTL_CREDENTIAL_STORE overrides the profile', async () => {
    const c = cli();
    expect((await c.run(['config', 'set', 'credential-store', 'pass'])).code).toBe(0);
    const bad = await c.run(['config', 'set', 'credential-store', '/usr/bin/evil']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('credential-store is file or a credential helper');
    const r = await c.run(['config', 'list', '--json'], { HUBCTL_CREDENTIAL_STORE: 'secretservice' });
    expect(JSON.parse(r.stdout)).toMatchObject({
      'credential-store': 'secretservice',
      sources: { 'credential-store': 'env' },
    });
  });

  it('--json: values, sources, profiles and the config file', async () => {
    const c = cli();
    await c.run(['--profile', 'staging', 'config', 'set', 'org', 'x']);
    const r = await c.run(['config', 'list', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({
      profile: 'default',
      'base-url': 'https://hub.docker.com',
      'governance-url': 'https://hub.docker.com/v2',
      org: null,
      username: null,
      'credential-store': null,
      sources: {
        'base-url': 'default',
        'governance-url': 'default',
        org: 'unset',
        username: 'unset',
        'credential-store': 'unset',
      },
      profiles: ['staging'],
      configFile: join(c.dir, 'config.json'),
    });
  });

  it('on a terminal: a table with a header', async () => {
    const dir = tempConfigDir();
    const r = await runCli(['config', 'list'], { tty: true, env: { HUBCTL_CONFIG_DIR: dir, NO_COLOR: '1' } });
    expect(r.stdout.split('\n')[0]).toMatch(/^\s*KEY\s+VALUE\s+SOURCE\s*$/);
    expect(r.stdout).toMatch(/base-url\s+https:\/\/hub\.docker\.com\s+default/);
    expect(r.stdout).not.toMatch(/\u001b\[/);
  });

  it('HUBCTL_CONFIG_DIR moves the whole directory', async () => {
    const c = cli();
    const r = await c.run(['--json', 'config', 'list']);
    expect(JSON.parse(r.stdout).configFile.startsWith(c.dir)).toBe(true);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeJwt } from '../../../src/auth/jwt.js';
import { type Harness, resetHarness, startHarness } from '../harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.hub.close());
beforeEach(() => resetHarness(h));

describe('auth status', () => {
  it('names the account, the source that won and the JWT expiry (piped: tab-separated)', async () => {
    await h.login();
    const r = await h.run(['auth', 'status']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'Account\talice',
      'Credential\tstored credential of profile "default"',
      'Store\tfile',
      'Profile\tdefault',
      `Hub\t${h.hub.url}`,
    ]);
    expect(lines[5]).toMatch(/^JWT expires\t\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(r.stderr).toBe('');
  });

  it('--json, with the environment as the source', async () => {
    const pat = h.hub.createPat('alice');
    const before = Date.now();
    const r = await h.run(['auth', 'status', '--json'], {
      env: { HUBCTL_USERNAME: 'alice', HUBCTL_TOKEN: pat },
    });
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({
      profile: 'default',
      baseUrl: h.hub.url,
      username: 'alice',
      source: 'environment (HUBCTL_USERNAME, HUBCTL_TOKEN)',
    });
    const exp = Date.parse(s.jwtExpiresAt);
    expect(exp).toBeGreaterThan(before + 590_000);
    expect(exp).toBeLessThan(Date.now() + 610_000);
  });

  it('not logged in: exit 4 with a hint, no request', async () => {
    const r = await h.run(['auth', 'status']);
    expect(r).toEqual({
      code: 4,
      stdout: '',
      stderr:
        'hubctl: you are not logged in\nRun `hubctl auth login`, or set HUBCTL_USERNAME and HUBCTL_TOKEN.\n',
    });
    expect(h.hub.requests).toEqual([]);
  });

  it('not logged in, --json: the error is JSON on stderr', async () => {
    const r = await h.run(['--json', 'auth', 'status']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({
      error: {
        code: 'AUTH',
        message: 'you are not logged in',
        hint: 'Run `hubctl auth login`, or set HUBCTL_USERNAME and HUBCTL_TOKEN.',
      },
    });
  });

  it('a stored secret the hub no longer accepts: exit 4', async () => {
    await h.login();
    const alice = h.hub.state.users.get('alice')!;
    alice.password = 'changed';
    const r = await h.run(['auth', 'status']).finally(() => {
      alice.password = 'alice-password';
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(
      'the hub refused the credential of alice (stored credential of profile "default")',
    );
  });
});

describe('auth token', () => {
  it('prints a fresh JWT for the account on stdout, and nothing else', async () => {
    await h.login();
    const r = await h.run(['auth', 'token']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+\n$/);
    expect(decodeJwt(r.stdout.trim())).toMatchObject({ sub: 'alice', token_source: 'password' });
    const json = await h.run(['--json', 'auth', 'token']);
    expect(Object.keys(JSON.parse(json.stdout))).toEqual(['token']);
  });

  it('fails with exit 4 when not logged in', async () => {
    expect((await h.run(['auth', 'token'])).code).toBe(4);
  });
});

describe('auth logout', () => {
  it('removes what hubctl stored; a second logout says nothing was stored', async () => {
    await h.login();
    const r = await h.run(['auth', 'logout']);
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr: 'Removed the stored credential of profile "default".\n',
    });
    expect((await h.run(['auth', 'status'])).code).toBe(4);
    expect((await h.run(['auth', 'logout'])).stderr).toBe(
      'No credential was stored for profile "default".\n',
    );
    expect(JSON.parse((await h.run(['--json', 'auth', 'logout'])).stdout)).toEqual({
      removed: false,
      profile: 'default',
    });
  });

  it('warns that HUBCTL_TOKEN still applies, and leaves other profiles alone', async () => {
    await h.login();
    await h.run(['--profile', 'b', 'auth', 'login', '-u', 'bob', '--password-stdin'], {
      stdin: 'bob-password',
    });
    const r = await h.run(['--profile', 'b', 'auth', 'logout'], { env: { HUBCTL_TOKEN: 'x' } });
    expect(r.stderr).toBe(
      'Removed the stored credential of profile "b".\nHUBCTL_TOKEN is still set in the environment.\n',
    );
    expect((await h.run(['auth', 'status'])).code).toBe(0);
  });
});

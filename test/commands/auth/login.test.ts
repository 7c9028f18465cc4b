import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scriptedPrompter } from '../../support/run-cli.js';
import { type Harness, resetHarness, startHarness } from '../harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.hub.close());
beforeEach(() => resetHarness(h));

const credentials = () => JSON.parse(readFileSync(join(h.dir, 'credentials.json'), 'utf8'));

describe('auth login (hub account)', () => {
  it('--password-stdin: verifies by exchange, then stores the credential with mode 0600', async () => {
    const r = await h.login();
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr: `Logged in as alice (credential stored in ${join(h.dir, 'credentials.json')}).\n`,
    });
    expect(h.hub.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['POST /v2/auth/token']);
    expect(h.hub.requests[0]!.json).toEqual({
      identifier: 'alice',
      password: 'alice-password',
      secret: 'alice-password',
    });
    expect(credentials().hub.default).toEqual({
      username: 'alice',
      secret: 'alice-password',
      origin: h.hub.url,
      base: h.hub.url,
    });
    expect(statSync(join(h.dir, 'credentials.json')).mode & 0o777).toBe(0o600);
    // The account name is remembered in the profile.
    expect((await h.run(['config', 'get', 'username'])).stdout).toBe('alice\n');
  });

  it('accepts a personal access token, and --json reports what was stored', async () => {
    const pat = h.hub.createPat('alice');
    const r = await h.run(['--json', 'auth', 'login', '-u', 'alice', '--password-stdin'], { stdin: pat });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      loggedIn: true,
      profile: 'default',
      username: 'alice',
      stored: join(h.dir, 'credentials.json'),
      store: 'file',
    });
    expect(r.stderr).toBe('');
    expect(credentials().hub.default.secret).toBe(pat);
  });

  it('a wrong secret: exit 4, and nothing is stored', async () => {
    const r = await h.login('not-her-password');
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^hubctl: the hub refused the credential of alice/);
    const file = join(h.dir, 'credentials.json');
    expect(existsSync(file) ? JSON.stringify(credentials().hub) : '{}').toBe('{}');
  });

  it('a wrong secret does not replace a good stored one', async () => {
    await h.login();
    expect((await h.login('wrong')).code).toBe(4);
    expect(credentials().hub.default.secret).toBe('alice-password');
  });

  it.each([[['--password', 'x']], [['-p', 'x']], [['--token', 'hub_pat_x']]])(
    'refuses a secret given as an argument (%j): exit 2, no request',
    async (flag) => {
      const r = await h.run(['auth', 'login', '-u', 'alice', ...flag]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('a secret is never taken as a command-line argument');
      expect(r.stderr).toContain('--password-stdin');
      expect(h.hub.requests).toEqual([]);
    },
  );

  it('off a terminal without --password-stdin: exit 2, no prompt, no request', async () => {
    const r = await h.run(['auth', 'login', '-u', 'alice']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no secret given');
    expect(h.hub.requests).toEqual([]);
  });

  it('--password-stdin without a username: exit 2', async () => {
    const r = await h.run(['auth', 'login', '--password-stdin'], { stdin: 'alice-password' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--username is required');
  });

  it('an empty secret on stdin: exit 2', async () => {
    const r = await h.run(['auth', 'login', '-u', 'alice', '--password-stdin'], { stdin: '\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the secret is empty');
  });

  it('on a terminal: asks for the account and the secret (without echo), then stores them', async () => {
    const prompter = scriptedPrompter({ text: ['alice'], secret: ['alice-password'] });
    const r = await h.run(['auth', 'login'], { tty: true, prompter });
    expect(r.code).toBe(0);
    expect(prompter.asked).toEqual(['Username: ', 'Password or access token: ']);
    expect(r.stderr).toContain('Logged in as alice');
    expect(credentials().hub.default).toEqual({
      username: 'alice',
      secret: 'alice-password',
      origin: h.hub.url,
      base: h.hub.url,
    });
  });

  it('stores per profile', async () => {
    await h.run(['--profile', 'staging', 'auth', 'login', '-u', 'bob', '--password-stdin'], {
      stdin: 'bob-password',
    });
    expect(credentials().hub).toEqual({
      staging: { username: 'bob', secret: 'bob-password', origin: h.hub.url, base: h.hub.url },
    });
  });
});

describe('auth login <registry-host>', () => {
  // A tiny registry front: /v2/ challenges with the emulator's token service as realm.
  let registry: Server;
  let host: string;
  beforeAll(async () => {
    registry = createServer((_req, res) => {
      res.writeHead(401, {
        'www-authenticate': `Bearer realm="${h.hub.registryAuth.realm}",service="${h.hub.registryAuth.service}"`,
        'content-type': 'application/json',
      });
      res.end('{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}');
    });
    await new Promise<void>((r) => registry.listen(0, '127.0.0.1', () => r()));
    host = `127.0.0.1:${(registry.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    registry.closeAllConnections();
    await new Promise((r) => registry.close(r));
  });

  it('checks the credential at the token service the registry names, then stores it per host', async () => {
    const r = await h.run(['auth', 'login', host, '-u', 'alice', '--password-stdin'], {
      stdin: 'alice-password',
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `Logged in to ${host} as alice (credential stored in ${join(h.dir, 'credentials.json')}).\n`,
    );
    const tokenReq = h.hub.requests.find((q) => q.path === '/registry/token');
    expect(tokenReq?.query.get('service')).toBe(h.hub.registryAuth.service);
    expect(tokenReq?.headers.authorization).toBe(
      `Basic ${Buffer.from('alice:alice-password').toString('base64')}`,
    );
    expect(credentials().registries).toEqual({ [host]: { username: 'alice', secret: 'alice-password' } });
    expect(credentials().hub).toEqual({});
  });

  it('a refused registry credential: exit 4, nothing stored', async () => {
    const r = await h.run(['auth', 'login', host, '-u', 'alice', '--password-stdin'], { stdin: 'wrong' });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('the registry refused the credential of alice');
    expect(existsSync(join(h.dir, 'credentials.json')) ? credentials().registries : {}).toEqual({});
  });

  it('auth logout <host> removes only that registry credential', async () => {
    await h.login();
    await h.run(['auth', 'login', host, '-u', 'alice', '--password-stdin'], { stdin: 'alice-password' });
    const r = await h.run(['auth', 'logout', host]);
    expect(r).toMatchObject({ code: 0, stderr: `Removed the stored credential of ${host}.\n` });
    expect(credentials()).toEqual({
      hub: { default: { username: 'alice', secret: 'alice-password', origin: h.hub.url, base: h.hub.url } },
      registries: {},
    });
  });

  it('a registry host that is not one: exit 2', async () => {
    const r = await h.run(['auth', 'login', 'not a host!', '-u', 'a', '--password-stdin'], { stdin: 'x' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not a registry host');
  });
});

// The hub JWT kept between runs: each runCli call is a new "process" (a new context), the config
// directory is what survives; the emulator's request log counts the exchanges.
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cacheBaseUrl, jwtIsFor } from '../../src/auth/jwt-cache.js';
import { type Harness, resetHarness, startHarness } from '../commands/harness.js';
import { startHubEmulator } from '../support/hub-emulator.js';
import { fakeJwt } from './jwt-fixture.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.hub.close());
beforeEach(() => resetHarness(h));

const exchanges = () => h.hub.requestsTo('/v2/auth/token', 'POST').length;
const cacheFile = () => join(h.dir, 'jwt-cache.json');
type Entry = { jwt: string; account: string; profile: string; baseUrl: string; secretMac: string };
const cacheEntries = () => JSON.parse(readFileSync(cacheFile(), 'utf8')).entries as Record<string, Entry>;

async function loggedIn() {
  expect((await h.login()).code).toBe(0);
  h.hub.clearRequests();
}

describe('JWT cache between runs', () => {
  it('five commands make one exchange; the file is 0600 and keyed by profile, account, base URL and secret', async () => {
    await loggedIn();
    for (let i = 0; i < 5; i++) expect((await h.run(['token', 'list'])).code).toBe(0);
    expect(exchanges()).toBe(1);
    expect(h.hub.requestsTo('/v2/access-tokens', 'GET')).toHaveLength(5);
    expect(statSync(cacheFile()).mode & 0o777).toBe(0o600);
    const baseUrl = new URL(h.hub.url).origin;
    const [key, entry] = Object.entries(cacheEntries())[0]!;
    const [profile, account, url, mac] = JSON.parse(key);
    expect([profile, account, url]).toEqual(['default', 'alice', baseUrl]);
    // The secret's keyed hash: neither the secret nor its plain hash.
    expect(mac).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(cacheFile(), 'utf8')).not.toContain('alice-password');
    expect(mac).not.toBe(createHash('sha256').update('alice-password').digest('base64url'));
    expect(entry).toMatchObject({ profile: 'default', account: 'alice', baseUrl, secretMac: mac });
    expect(statSync(join(h.dir, 'jwt-cache.key')).mode & 0o777).toBe(0o600);
  });

  it('auth status says whether the JWT came from the cache, and when it expires', async () => {
    await loggedIn();
    const first = JSON.parse((await h.run(['auth', 'status', '--json'])).stdout);
    const second = JSON.parse((await h.run(['auth', 'status', '--json'])).stdout);
    expect(first.jwtFromCache).toBe(false);
    expect(second.jwtFromCache).toBe(true);
    expect(second.jwtExpiresAt).toBe(first.jwtExpiresAt);
    const piped = await h.run(['auth', 'status']);
    expect(piped.stdout).toContain('JWT\tfrom the cache (no exchange this run)\n');
    expect(exchanges()).toBe(1);
  });

  it('a JWT within 30 s of its expiry is not reused', async () => {
    await loggedIn();
    h.hub.setJwtLifetime(29);
    try {
      await h.run(['token', 'list']);
      await h.run(['token', 'list']);
      expect(exchanges()).toBe(2);
    } finally {
      h.hub.setJwtLifetime(600);
    }
  });

  it('a refused stored JWT (401) is dropped; the run exchanges again and goes on', async () => {
    await loggedIn();
    await h.run(['token', 'list']);
    const before = Object.values(cacheEntries())[0]?.jwt;
    h.hub.invalidateJwts();
    const r = await h.run(['token', 'list']);
    expect(r.code).toBe(0);
    expect(exchanges()).toBe(2);
    expect(Object.values(cacheEntries())[0]?.jwt).not.toBe(before);
    await h.run(['token', 'list']);
    expect(exchanges()).toBe(2);
  });

  it('never uses one account’s JWT for another, nor one origin’s for another', async () => {
    await loggedIn();
    await h.run(['token', 'list']);
    const bobPat = h.hub.createPat('bob', { label: 'bob-ci' });
    const bob = await h.run(['auth', 'status', '--json'], {
      env: { HUBCTL_USERNAME: 'bob', HUBCTL_TOKEN: bobPat },
    });
    expect(JSON.parse(bob.stdout)).toMatchObject({ username: 'bob', jwtFromCache: false });
    expect(exchanges()).toBe(2);

    // The same account by the same source at another hub: that hub gets an exchange of its own.
    const envAlice = { HUBCTL_USERNAME: 'alice', HUBCTL_TOKEN: 'alice-password' };
    expect((await h.run(['auth', 'status'], { env: envAlice })).code).toBe(0);
    const firstJwt = Object.values(cacheEntries()).find(
      (e) => e.baseUrl === h.hub.url && e.account === 'alice',
    )?.jwt;
    expect(firstJwt).toBeTruthy();
    const other = await startHubEmulator();
    try {
      const r = await h.run(['auth', 'status', '--json'], {
        env: { ...envAlice, HUBCTL_BASE_URL: other.url },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).jwtFromCache).toBe(false);
      expect(other.requestsTo('/v2/auth/token', 'POST')).toHaveLength(1);
      // The first hub's JWT never reached the second one.
      const sent = other.requests.map((q) => String(q.headers.authorization ?? ''));
      expect(sent.some((a) => a.includes(firstJwt as string))).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('an entry filed under another key is dropped with a --debug note, not used', async () => {
    await loggedIn();
    await h.run(['token', 'list']);
    const entries = cacheEntries();
    const [key, entry] = Object.entries(entries)[0]!;
    // The same JWT claimed for another account: it must not be taken for alice's either.
    writeFileSync(cacheFile(), JSON.stringify({ entries: { [key]: { ...entry, account: 'mallory' } } }));
    const r = await h.run(['token', 'list', '--debug']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('dropping the cached JWT of alice');
    expect(r.stderr).toContain('issued for another profile, account, hub or secret');
    expect(exchanges()).toBe(2);
  });

  it.each([
    ['a corrupt file', '{"entries": {'],
    ['a wrong-typed entry', null],
  ])('%s: dropped with a note in --debug, the command goes on with a fresh exchange', async (_, text) => {
    await loggedIn();
    await h.run(['token', 'list']);
    const [key] = Object.keys(cacheEntries());
    writeFileSync(
      cacheFile(),
      text ?? JSON.stringify({ entries: { [key!]: { jwt: 42, expiresAt: 'soon' } } }),
    );
    const r = await h.run(['token', 'list', '--debug']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/JWT cache file cannot be read|dropping the cached JWT of alice/);
    expect(exchanges()).toBe(2);
    // The fresh exchange rewrote the cache: the next run uses it.
    expect(Object.values(cacheEntries())[0]?.account).toBe('alice');
    await h.run(['token', 'list']);
    expect(exchanges()).toBe(2);
    // Without --debug the note stays off stderr.
    writeFileSync(cacheFile(), text ?? '[]');
    const quiet = await h.run(['token', 'list']);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toContain('JWT');
  });

  it('auth logout removes the profile’s JWTs; auth login starts afresh', async () => {
    await loggedIn();
    await h.run(['token', 'list']);
    expect(Object.keys(cacheEntries())).toHaveLength(1);
    expect((await h.run(['auth', 'logout'])).code).toBe(0);
    expect(cacheEntries()).toEqual({});
    await loggedIn();
    await h.run(['token', 'list']);
    expect(exchanges()).toBe(1);
  });
});

// Issue 20 items 1 and 2: a cached JWT is good only for the secret it came from, the account its
// token names, and the one hub (origin and base path) that issued it.
describe('a cached JWT outlives neither its secret nor its hub', () => {
  const asAlice = (secret: string) => ({
    HUBCTL_USERNAME: 'alice',
    HUBCTL_TOKEN: secret,
    HUBCTL_ORG: 'acme',
  });
  const bearers = () => h.hub.requests.map((q) => String(q.headers.authorization ?? ''));

  it('HUBCTL_TOKEN=wrong with a JWT cached: one exchange, refused, exit 4', async () => {
    const pat = h.hub.createPat('alice', { label: 'ci' });
    expect((await h.run(['policy', 'list'], { env: asAlice(pat) })).code).toBe(0);
    expect(exchanges()).toBe(1);
    const r = await h.run(['policy', 'list'], { env: asAlice('wrong') });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/^hubctl: the hub refused the credential of alice/);
    expect(exchanges()).toBe(2);
    expect(h.hub.requestsTo(/\/policies/)).toHaveLength(1);
    // The right secret still finds its JWT.
    expect((await h.run(['policy', 'list'], { env: asAlice(pat) })).code).toBe(0);
    expect(exchanges()).toBe(2);
  });

  it('a changed secret is a fresh exchange (both secrets good): never the other secret’s JWT', async () => {
    const one = h.hub.createPat('alice', { label: 'one' });
    const two = h.hub.createPat('alice', { label: 'two' });
    await h.run(['policy', 'list'], { env: asAlice(one) });
    const status = await h.run(['auth', 'status', '--json'], { env: asAlice(two) });
    expect(JSON.parse(status.stdout).jwtFromCache).toBe(false);
    expect(exchanges()).toBe(2);
    // One entry per account and hub: the newer secret's.
    expect(Object.keys(cacheEntries())).toHaveLength(1);
  });

  it('a deleted access token: the cached JWT is refused, one exchange is refused too, exit 4', async () => {
    const pat = h.hub.createPat('alice', { label: 'ci' });
    expect((await h.run(['policy', 'list'], { env: asAlice(pat) })).code).toBe(0);
    h.hub.state.accessTokens.splice(0);
    h.hub.clearRequests();
    const r = await h.run(['policy', 'list'], { env: asAlice(pat) });
    expect(r.code, r.stderr).toBe(4);
    expect(exchanges()).toBe(1);
    expect(h.hub.requestsTo(/\/policies/)).toHaveLength(1);
    // The refused JWT is gone from the cache.
    expect(cacheEntries()).toEqual({});
  });

  it('a stored password changed on the hub: exit 4 after one exchange; a new login works', async () => {
    await loggedIn();
    expect((await h.run(['token', 'list'])).code).toBe(0);
    h.hub.state.users.get('alice')!.password = 'new-password';
    h.hub.clearRequests();
    const r = await h.run(['token', 'list']);
    expect(r.code, r.stderr).toBe(4);
    expect(exchanges()).toBe(1);
    expect((await h.login('new-password')).code).toBe(0);
    expect((await h.run(['token', 'list'])).code).toBe(0);
    h.hub.state.users.get('alice')!.password = 'alice-password';
  });

  it('another user’s JWT planted under alice’s key (every field right) is not used', async () => {
    await loggedIn();
    await h.run(['token', 'list']);
    const bobJwt = h.hub.issueJwt('bob');
    const [key, entry] = Object.entries(cacheEntries())[0]!;
    writeFileSync(cacheFile(), JSON.stringify({ entries: { [key]: { ...entry, jwt: bobJwt } } }), {
      mode: 0o600,
    });
    h.hub.clearRequests();
    const r = await h.run(['token', 'list', '--debug']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("its token's subject is not alice");
    expect(exchanges()).toBe(1);
    expect(bearers().some((a) => a.includes(bobJwt))).toBe(false);
  });

  it('a cache file readable by others is not used: set to 0600 and emptied', async () => {
    await loggedIn();
    await h.run(['token', 'list']);
    chmodSync(cacheFile(), 0o644);
    h.hub.clearRequests();
    const r = await h.run(['token', 'list', '--debug']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('the JWT cache file was readable by others');
    expect(exchanges()).toBe(1);
    expect(statSync(cacheFile()).mode & 0o777).toBe(0o600);
    // The fresh JWT was cached again; the next run uses it.
    await h.run(['token', 'list']);
    expect(exchanges()).toBe(1);
  });

  it('a hash key readable by others is replaced: the entries hashed under it are not found', async () => {
    await loggedIn();
    await h.run(['token', 'list']);
    const keyFile = join(h.dir, 'jwt-cache.key');
    const before = readFileSync(keyFile, 'utf8');
    chmodSync(keyFile, 0o640);
    h.hub.clearRequests();
    expect((await h.run(['token', 'list'])).code).toBe(0);
    expect(exchanges()).toBe(1);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile, 'utf8')).not.toBe(before);
  });

  it('two hubs on one host and port, at /a and /b, never share a JWT', async () => {
    const other = await startHubEmulator();
    const front = await startPathRouter({ '/a': h.hub.url, '/b': other.url });
    try {
      const env = { ...asAlice('alice-password'), HUBCTL_BASE_URL: `${front}/a` };
      expect((await h.run(['policy', 'list'], { env })).code).toBe(0);
      const aJwt = Object.values(cacheEntries())[0]?.jwt as string;
      expect(Object.values(cacheEntries())[0]?.baseUrl).toBe(`${front}/a`);
      const r = await h.run(['auth', 'status', '--json'], {
        env: { ...env, HUBCTL_BASE_URL: `${front}/b/` },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).jwtFromCache).toBe(false);
      expect(other.requestsTo('/v2/auth/token', 'POST')).toHaveLength(1);
      expect(other.requests.some((q) => String(q.headers.authorization ?? '').includes(aJwt))).toBe(false);
      // Each keeps its own: /a again is served from the cache.
      const again = await h.run(['auth', 'status', '--json'], { env });
      expect(JSON.parse(again.stdout).jwtFromCache).toBe(true);
    } finally {
      await other.close();
      await closeRouter();
    }
  });
});

let routerServer: Server | undefined;
async function closeRouter(): Promise<void> {
  routerServer?.closeAllConnections();
  await new Promise<void>((resolve) => (routerServer ? routerServer.close(() => resolve()) : resolve()));
  routerServer = undefined;
}

/** One origin in front of several hubs: `/a/…` goes to the first as `/…`, `/b/…` to the second. */
async function startPathRouter(routes: Record<string, string>): Promise<string> {
  routerServer = createServer((req, res) => {
    const prefix = Object.keys(routes).find((p) => req.url?.startsWith(`${p}/`));
    if (!prefix) {
      res.writeHead(404).end();
      return;
    }
    const target = new URL(req.url!.slice(prefix.length), routes[prefix]);
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => routerServer!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(routerServer!.address() as AddressInfo).port}`;
}

describe('jwtIsFor and cacheBaseUrl', () => {
  it.each([
    [{ sub: 'alice' }, 'alice', true],
    [{ sub: 'Alice' }, 'alice', true],
    [{ sub: 'uuid-1', username: 'alice' }, 'alice', true],
    [{ sub: 'uuid-1', 'https://hub.docker.com': { username: 'alice' } }, 'alice', true],
    [{ sub: 'bob' }, 'alice', false],
    [{ sub: 'bob', username: 'bob' }, 'alice', false],
    [{}, 'alice', false],
    [{ sub: ['alice'] }, 'alice', false],
  ])('%j names %s: %s', (claims, account, yes) => {
    expect(jwtIsFor(fakeJwt(claims), account)).toBe(yes);
  });

  it('a token that is no JWT names nobody', () => {
    expect(jwtIsFor('opaque-token', 'alice')).toBe(false);
  });

  it.each([
    ['https://hub.example.com', 'https://hub.example.com'],
    ['https://HUB.example.com:443/', 'https://hub.example.com'],
    ['http://h:8080/a/', 'http://h:8080/a'],
    ['http://h:8080/b', 'http://h:8080/b'],
  ])('%s is filed as %s', (url, filed) => {
    expect(cacheBaseUrl(url)).toBe(filed);
  });
});

describe('a secret kept by a credential helper', () => {
  it('is asked once a run; a secret changed in the helper is a fresh exchange, never the old JWT', async () => {
    // docker-credential-counting: answers the secret in secret.txt and counts its `get`s.
    const bin = mkdtempSync(join(tmpdir(), 'hubctl-counting-'));
    const secretFile = join(bin, 'secret.txt');
    const log = join(bin, 'gets.log');
    writeFileSync(secretFile, 'alice-password');
    writeFileSync(
      join(bin, 'docker-credential-counting'),
      `#!/bin/sh\n[ "$1" = get ] || exit 1\nread url\necho get >> '${log}'\nprintf '{"ServerURL":"%s","Username":"alice","Secret":"%s"}' "$url" "$(cat '${secretFile}')"\n`,
      { mode: 0o755 },
    );
    writeFileSync(
      join(h.dir, 'credentials.json'),
      JSON.stringify({
        hub: {
          default: {
            username: 'alice',
            helper: 'counting',
            serverUrl: 'https://x/hubctl',
            origin: h.hub.url,
          },
        },
        registries: {},
      }),
      { mode: 0o600 },
    );
    const env = { PATH: `${bin}:${process.env.PATH}` };
    const gets = () => readFileSync(log, 'utf8').trim().split('\n').length;
    expect((await h.run(['token', 'list'], { env })).code).toBe(0);
    expect((await h.run(['token', 'list'], { env })).code).toBe(0);
    expect(exchanges()).toBe(1);
    expect(gets()).toBe(2);
    // Another secret in the helper (a PAT this time): the cached JWT is not found, one exchange.
    const pat = h.hub.createPat('alice', { label: 'helper' });
    writeFileSync(secretFile, pat);
    const r = await h.run(['auth', 'status', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).jwtFromCache).toBe(false);
    expect(exchanges()).toBe(2);
    expect(gets()).toBe(3);
    // A wrong secret in the helper: exit 4 after one exchange.
    writeFileSync(secretFile, 'wrong');
    expect((await h.run(['token', 'list'], { env })).code).toBe(4);
    expect(exchanges()).toBe(3);
  });
});

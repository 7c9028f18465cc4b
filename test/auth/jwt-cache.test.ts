// The hub JWT kept between runs: each runCli call is a new "process" (a new context), the config
// directory is what survives; the emulator's request log counts the exchanges.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, resetHarness, startHarness } from '../commands/harness.js';
import { startHubEmulator } from '../support/hub-emulator.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.hub.close());
beforeEach(() => resetHarness(h));

const exchanges = () => h.hub.requestsTo('/v2/auth/token', 'POST').length;
const cacheFile = () => join(h.dir, 'jwt-cache.json');
type Entry = { jwt: string; account: string; profile: string; origin: string };
const cacheEntries = () => JSON.parse(readFileSync(cacheFile(), 'utf8')).entries as Record<string, Entry>;

async function loggedIn() {
  expect((await h.login()).code).toBe(0);
  h.hub.clearRequests();
}

describe('JWT cache between runs', () => {
  it('five commands make one exchange; the file is 0600 and keyed by profile, account and origin', async () => {
    await loggedIn();
    for (let i = 0; i < 5; i++) expect((await h.run(['token', 'list'])).code).toBe(0);
    expect(exchanges()).toBe(1);
    expect(h.hub.requestsTo('/v2/access-tokens', 'GET')).toHaveLength(5);
    expect(statSync(cacheFile()).mode & 0o777).toBe(0o600);
    const origin = new URL(h.hub.url).origin;
    const [key, entry] = Object.entries(cacheEntries())[0]!;
    expect(JSON.parse(key)).toEqual(['default', 'alice', origin]);
    expect(entry).toMatchObject({ profile: 'default', account: 'alice', origin });
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
      (e) => e.origin === h.hub.url && e.account === 'alice',
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
    expect(r.stderr).toContain('issued for another profile, account or origin');
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

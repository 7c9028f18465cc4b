// JWT expiry through the CLI with one injected clock shared by hubctl and the emulator: no sleeping.
// A Retry-After of 40 s moves the clock (the HTTP layer sleeps through the clock); a JWT with 60 s
// of life then has 20 s left — under the 30 s margin — so the next call exchanges again.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../../support/hub-emulator.js';
import { fixedClock, runCli } from '../../support/run-cli.js';

const clock = fixedClock(Date.parse('2026-11-22T12:00:00Z'));
let hub: HubEmulator;
beforeAll(async () => {
  hub = await startHubEmulator({ clock: () => clock.now(), jwtLifetime: 60 });
  for (const label of ['a', 'b', 'c']) hub.createPat('alice', { label });
});
afterAll(() => hub.close());

it('re-exchanges when the cached JWT comes within 30 s of exp, and not before', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hubctl-clock-'));
  const env = { HUBCTL_CONFIG_DIR: dir, HOME: dir, HUBCTL_BASE_URL: hub.url };
  expect(
    (
      await runCli(['auth', 'login', '-u', 'alice', '--password-stdin'], {
        env,
        stdin: 'alice-password',
        clock,
      })
    ).code,
  ).toBe(0);
  hub.clearRequests();
  hub.inject({ method: 'GET', path: '/v2/access-tokens' }, [{ delayMs: 0 }]); // page 1 answered normally
  hub.inject({ method: 'GET', path: '/v2/access-tokens' }, [
    { status: 503, headers: { 'retry-after': '40' } },
  ]);
  const started = clock.now();
  const r = await runCli(['--json', 'token', 'list', '--all', '--page-size', '1'], { env, clock });
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).map((t: { token_label: string }) => t.token_label)).toEqual(['a', 'b', 'c']);
  expect(clock.now() - started).toBe(40_000);
  const calls = hub.requests.map(
    (q) => `${q.method} ${q.path}${q.query.size ? `?page=${q.query.get('page')}` : ''}`,
  );
  expect(calls).toEqual([
    'POST /v2/auth/token',
    'GET /v2/access-tokens?page=1',
    'GET /v2/access-tokens?page=2', // 503, Retry-After 40: the clock moves 40 s
    'GET /v2/access-tokens?page=2', // same JWT: 20 s of life left is still valid for the server
    'POST /v2/auth/token', // 20 s left < 30 s margin: a fresh JWT before page 3
    'GET /v2/access-tokens?page=3',
  ]);
  const bearer = (i: number) => hub.requests[i]!.headers.authorization;
  expect(bearer(1)).toBe(bearer(3));
  expect(bearer(5)).not.toBe(bearer(3));
});

// Issue 15's measure, with the built binary: a loop of 20 commands makes one token exchange.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { ensureBuilt, runBin } from '../support/run-bin.js';

let hub: HubEmulator;
beforeAll(async () => {
  ensureBuilt();
  hub = await startHubEmulator();
});
afterAll(() => hub?.close());

describe('bin/hubctl.js: the JWT outlives the process', () => {
  it('20 commands in a row make 1 exchange (HUBCTL_JWT_CACHE=off: 20)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hubctl-e2e-jwt-'));
    const env = { HUBCTL_CONFIG_DIR: dir, HOME: dir, HUBCTL_BASE_URL: hub.url, HUBCTL_ORG: 'acme' };
    const login = await runBin(['auth', 'login', '-u', 'alice', '--password-stdin'], {
      env,
      stdin: 'alice-password\n',
    });
    expect(login.code, login.stderr).toBe(0);
    hub.clearRequests();
    for (let i = 0; i < 20; i++) {
      const r = await runBin(i % 2 ? ['policy', 'list'] : ['token', 'list'], { env });
      expect(r.code, r.stderr).toBe(0);
    }
    expect(hub.requestsTo('/v2/auth/token', 'POST')).toHaveLength(1);
    expect(hub.requests).toHaveLength(21);

    hub.clearRequests();
    for (let i = 0; i < 20; i++) {
      const r = await runBin(['policy', 'list'], { env: { ...env, HUBCTL_JWT_CACHE: 'off' } });
      expect(r.code, r.stderr).toBe(0);
    }
    expect(hub.requestsTo('/v2/auth/token', 'POST')).toHaveLength(20);
  }, 120_000);

  it('HUBCTL_TOKEN=wrong with a JWT cached fails with exit 4 (issue 20 item 1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hubctl-e2e-jwt-'));
    const env = { HUBCTL_CONFIG_DIR: dir, HOME: dir, HUBCTL_BASE_URL: hub.url, HUBCTL_USERNAME: 'alice' };
    const good = await runBin(['token', 'list'], { env: { ...env, HUBCTL_TOKEN: 'alice-password' } });
    expect(good.code, good.stderr).toBe(0);
    hub.clearRequests();
    const wrong = await runBin(['token', 'list'], { env: { ...env, HUBCTL_TOKEN: 'wrong' } });
    expect(wrong.code, wrong.stderr).toBe(4);
    expect(wrong.stdout).toBe('');
    expect(hub.requestsTo('/v2/auth/token', 'POST')).toHaveLength(1);
    expect(hub.requestsTo('/v2/access-tokens', 'GET')).toHaveLength(0);
  }, 60_000);
});

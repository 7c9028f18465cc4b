import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { call, login } from './client.js';

describe('without the openssl CLI', () => {
  let hub: HubEmulator;
  const savedPath = process.env.PATH;
  beforeAll(async () => {
    process.env.PATH = '/nonexistent';
    try {
      hub = await startHubEmulator();
    } finally {
      process.env.PATH = savedPath;
    }
  });
  afterAll(async () => {
    await hub.close();
  });

  it('still issues and checks hub JWTs', async () => {
    const jwt = await login(hub);
    expect((await call(`${hub.governanceUrl}/orgs/acme/governance/policies`, { token: jwt })).status).toBe(
      200,
    );
  });

  it('says why registry auth is unavailable', async () => {
    expect(() => hub.registryAuth).toThrow(/openssl/);
    const r = await call(`${hub.url}/registry/token?scope=repository:a:pull`);
    expect(r.status).toBe(500);
    expect(JSON.stringify(r.json)).toContain('openssl');
  });
});

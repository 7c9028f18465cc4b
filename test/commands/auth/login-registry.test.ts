// `auth login <registry-host>` against a real registry (distribution 2.8) whose token service is the
// hub emulator: the credential is checked by the path every registry client takes (ping /v2/, follow
// the Bearer challenge's realm, ask for a token with Basic credentials) before it is stored.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeWithRegistry, type RunningRegistry, startRegistry } from '../../support/registry.js';
import { type Harness, resetHarness, startHarness } from '../harness.js';

describeWithRegistry('auth login against a real registry', () => {
  let h: Harness;
  let registry: RunningRegistry;
  beforeAll(async () => {
    h = await startHarness();
    registry = await startRegistry(h.hub.registryAuth);
  });
  afterAll(async () => {
    await registry?.stop();
    await h?.hub.close();
  });
  beforeEach(() => resetHarness(h));

  const stored = () =>
    existsSync(join(h.dir, 'credentials.json'))
      ? JSON.parse(readFileSync(join(h.dir, 'credentials.json'), 'utf8')).registries
      : {};

  it('a good password is verified at the realm the registry names, then stored for the host', async () => {
    const r = await h.run(['auth', 'login', registry.host, '-u', 'alice', '--password-stdin'], {
      stdin: 'alice-password\n',
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Logged in to ${registry.host} as alice`);
    const tokenCall = h.hub.requests.find((q) => q.path === '/registry/token');
    expect(tokenCall?.query.get('service')).toBe(h.hub.registryAuth.service);
    expect(stored()).toEqual({ [registry.host]: { username: 'alice', secret: 'alice-password' } });
  });

  it('a personal access token works too', async () => {
    const pat = h.hub.createPat('alice', { scopes: ['repo:read'] });
    const r = await h.run(['auth', 'login', registry.host, '-u', 'alice', '--password-stdin'], {
      stdin: pat,
    });
    expect(r.code).toBe(0);
    expect(stored()[registry.host].secret).toBe(pat);
  });

  it('with --debug the trace shows the exchange but never the secret or its Basic encoding', async () => {
    const r = await h.run(['--debug', 'auth', 'login', registry.host, '-u', 'alice', '--password-stdin'], {
      stdin: 'alice-password',
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('[debug] > GET http://127.0.0.1');
    expect(r.stderr).toContain('authorization: Basic ***');
    const out = r.stdout + r.stderr;
    expect(out).not.toContain('alice-password');
    expect(out).not.toContain(Buffer.from('alice:alice-password').toString('base64'));
  });

  it('a wrong password: exit 4, nothing stored', async () => {
    const r = await h.run(['auth', 'login', registry.host, '-u', 'alice', '--password-stdin'], {
      stdin: 'nope',
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('the registry refused the credential of alice');
    expect(stored()).toEqual({});
  });
});

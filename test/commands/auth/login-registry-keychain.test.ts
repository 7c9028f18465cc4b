// `auth login <registry>` into a real keychain (docker-credential-pass over pass and gpg) against a
// real registry with token auth (distribution 2.8, the hub emulator as its token service): the
// secret lands only in the keychain, every registry command finds it there, `auth status` says
// where it comes from without showing it, and `auth logout` erases it.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeOciImage } from '../../support/oci-images.js';
import { makePassStore, type PassStore, passAvailable } from '../../support/pass-store.js';
import { describeWithRegistry, type RunningRegistry, startRegistry } from '../../support/registry.js';
import { type Harness, resetHarness, startHarness } from '../harness.js';

if (!passAvailable && process.env.CI === 'true') {
  describe('auth login <registry> into docker-credential-pass', () => {
    it('needs golang-docker-credential-helpers, pass and gnupg', () => {
      throw new Error('docker-credential-pass, pass or gpg is missing; .ci/run installs them');
    });
  });
}

(passAvailable ? describeWithRegistry : describe.skip)(
  'auth login <registry> into docker-credential-pass',
  () => {
    let h: Harness;
    let registry: RunningRegistry;
    let store: PassStore;
    beforeAll(async () => {
      h = await startHarness();
      registry = await startRegistry(h.hub.registryAuth);
      store = makePassStore();
    }, 60_000);
    afterAll(async () => {
      store?.stop();
      await registry?.stop();
      await h?.hub.close();
    });
    beforeEach(() => resetHarness(h));

    it('stores only in the keychain; push, status and logout find it there', async () => {
      const env = { ...store.env, HUBCTL_CREDENTIAL_STORE: 'pass' };
      const login = await h.run(['auth', 'login', registry.host, '-u', 'alice', '--password-stdin'], {
        stdin: 'alice-password\n',
        env,
      });
      expect(login.code, login.stderr).toBe(0);
      expect(login.stderr).toContain(`Logged in to ${registry.host} as alice`);
      expect(login.stderr).toContain('docker-credential-pass');
      expect(Object.values(store.list())).toEqual(['alice']);
      for (const f of readdirSync(h.dir)) {
        const path = join(h.dir, f);
        if (existsSync(path) && f.endsWith('.json')) {
          expect(readFileSync(path, 'utf8')).not.toContain('alice-password');
        }
      }

      // A push needs the credential (the registry asks its token service, which asks for Basic).
      const image = await makeOciImage(mkdtempSync(join(tmpdir(), 'hubctl-keychain-img-')), { layers: 1 });
      const push = await h.run(
        ['image', 'push', `oci:${image.dir}:${image.tag}`, `${registry.host}/alice/app:1`],
        { env: store.env },
      );
      expect(push.code, push.stderr).toBe(0);
      const tokenCalls = h.hub.requests.filter((q) => q.path === '/registry/token');
      expect(tokenCalls.length).toBeGreaterThan(0);

      const status = await h.run(['auth', 'status', registry.host, '--json'], { env: store.env });
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).not.toContain('alice-password');
      expect(JSON.parse(status.stdout)).toMatchObject({ registry: registry.host });
      expect(JSON.parse(status.stdout)).toMatchObject({
        username: 'alice',
        source: 'docker-credential-pass (via hubctl)',
        valid: true,
      });
      const all = await h.run(['auth', 'status', '--json'], { env: store.env });
      expect(all.stdout).not.toContain('alice-password');
      expect(all.stdout).toContain('docker-credential-pass (via hubctl)');

      const logout = await h.run(['auth', 'logout', registry.host], { env: store.env });
      expect(logout.code, logout.stderr).toBe(0);
      expect(store.list()).toEqual({});
      const after = await h.run(['auth', 'status', registry.host], { env: store.env });
      expect(after.code).toBe(4);
      expect(after.stderr).toContain(`no credential for ${registry.host}`);
    });
  },
);

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import {
  describeWithRegistry,
  type RunningRegistry,
  registryAvailable,
  requireRegistry,
  startRegistry,
} from '../support/registry.js';

const MANIFEST_V2 = 'application/vnd.docker.distribution.manifest.v2+json';
const sha256 = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

describe('requireRegistry / registryAvailable', () => {
  function withEnv<T>(env: Record<string, string | undefined>, fn: () => T): T {
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
    try {
      return fn();
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }

  it('skips on a laptop and fails in CI when the binary is missing', () => {
    withEnv({ PATH: '/nonexistent', CI: undefined }, () => {
      expect(registryAvailable()).toBe(false);
      expect(requireRegistry()).toBe(false);
    });
    withEnv({ PATH: '/nonexistent', CI: 'true' }, () => {
      expect(() => requireRegistry()).toThrow(/docker-registry/);
    });
  });
});

describeWithRegistry('a real registry with the hub emulator as token service', () => {
  let hub: HubEmulator;
  let registry: RunningRegistry;
  const savedEnv = process.env.REGISTRY_AUTH;

  beforeAll(async () => {
    hub = await startHubEmulator();
    // A REGISTRY_* variable overrides the config file (this one makes the registry panic);
    // the launcher must start it without them.
    process.env.REGISTRY_AUTH = 'token';
    registry = await startRegistry(hub.registryAuth);
  });
  afterAll(async () => {
    if (savedEnv === undefined) delete process.env.REGISTRY_AUTH;
    else process.env.REGISTRY_AUTH = savedEnv;
    await registry?.stop();
    await hub?.close();
  });

  async function registryToken(scope: string, auth?: string): Promise<string> {
    const q = new URLSearchParams({ service: hub.registryAuth.service, scope });
    const res = await fetch(`${hub.registryAuth.realm}?${q}`, {
      headers: auth ? { authorization: auth } : {},
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { token: string }).token;
  }

  async function uploadBlob(token: string, blob: Buffer): Promise<string> {
    const digest = sha256(blob);
    const start = await fetch(`${registry.url}/v2/t/app/blobs/uploads/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(start.status).toBe(202);
    const location = new URL(start.headers.get('location')!, registry.url);
    location.searchParams.set('digest', digest);
    const put = await fetch(location, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: blob,
    });
    expect(put.status).toBe(201);
    expect(put.headers.get('docker-content-digest')).toBe(digest);
    return digest;
  }

  it('challenges with the emulator realm and service', async () => {
    expect(registry.host).toMatch(/^127\.0\.0\.1:\d+$/);
    const res = await fetch(`${registry.url}/v2/`);
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toContain(`realm="${hub.registryAuth.realm}"`);
    expect(challenge).toContain(`service="${hub.registryAuth.service}"`);
  });

  it("pushes blobs and a manifest with alice's token, reads them back; anonymous pulls but cannot push", async () => {
    const token = await registryToken('repository:t/app:pull,push', basic('alice', 'alice-password'));
    const config = Buffer.from(
      JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [] } }),
    );
    const layer = Buffer.from('not really a tarball, but bytes are bytes');
    const configDigest = await uploadBlob(token, config);
    const layerDigest = await uploadBlob(token, layer);
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: MANIFEST_V2,
      config: {
        mediaType: 'application/vnd.docker.container.image.v1+json',
        size: config.length,
        digest: configDigest,
      },
      layers: [
        {
          mediaType: 'application/vnd.docker.image.rootfs.diff.tar.gzip',
          size: layer.length,
          digest: layerDigest,
        },
      ],
    });
    const put = await fetch(`${registry.url}/v2/t/app/manifests/v1`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': MANIFEST_V2 },
      body: manifest,
    });
    expect(put.status).toBe(201);
    expect(put.headers.get('docker-content-digest')).toBe(sha256(manifest));

    const get = await fetch(`${registry.url}/v2/t/app/manifests/v1`, {
      headers: { authorization: `Bearer ${token}`, accept: MANIFEST_V2 },
    });
    expect(get.status).toBe(200);
    expect(await get.text()).toBe(manifest);
    expect(get.headers.get('docker-content-digest')).toBe(sha256(manifest));

    const blob = await fetch(`${registry.url}/v2/t/app/blobs/${layerDigest}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(Buffer.from(await blob.arrayBuffer()).equals(layer)).toBe(true);

    // anonymous: the token service grants pull only
    const anon = await registryToken('repository:t/app:pull,push');
    const anonGet = await fetch(`${registry.url}/v2/t/app/manifests/v1`, {
      headers: { authorization: `Bearer ${anon}`, accept: MANIFEST_V2 },
    });
    expect(anonGet.status).toBe(200);
    const anonPush = await fetch(`${registry.url}/v2/t/app/blobs/uploads/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${anon}` },
    });
    expect(anonPush.status).toBe(401);
    expect(anonPush.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });

  it('accepts a PAT for the token service and refuses an expired token', async () => {
    const pat = hub.createPat('alice', { scopes: ['repo:read'] });
    const viaPat = await registryToken('repository:t/app:pull', basic('alice', pat));
    expect(
      (await fetch(`${registry.url}/v2/`, { headers: { authorization: `Bearer ${viaPat}` } })).status,
    ).toBe(200);

    hub.setRegistryTokenLifetime(-61);
    try {
      const expired = await registryToken('repository:t/app:pull', basic('alice', 'alice-password'));
      const res = await fetch(`${registry.url}/v2/t/app/tags/list`, {
        headers: { authorization: `Bearer ${expired}` },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    } finally {
      hub.setRegistryTokenLifetime(300);
    }
  });
});

describeWithRegistry('a real registry without auth', () => {
  it('answers /v2/ with 200, stops on SIGTERM and removes its directory', async () => {
    const registry = await startRegistry({ auth: 'none' });
    expect((await fetch(`${registry.url}/v2/`)).status).toBe(200);
    expect(existsSync(registry.dataDir)).toBe(true);
    await registry.stop();
    expect(existsSync(registry.dataDir)).toBe(false);
    await expect(fetch(`${registry.url}/v2/`)).rejects.toThrow();
    expect(() => process.kill(registry.pid, 0)).toThrow();
  });
});

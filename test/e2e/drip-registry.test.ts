// The built bin against a registry whose blob drips: undici's gap timeout never fires (a byte
// every 200 ms, HUBCTL_HTTP_TIMEOUT 0.5 s), but less than 1 KiB arrives in each window of two gaps
// (2 s at least), so the read is given up as a cut body is: resumed or sent again a few times,
// then one sentence naming the blob and the registry, exit 7, in bounded time. Real distribution
// 2.8 behind test/support/fault-proxy.ts. Needs a build.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { makeOciImage } from '../support/oci-images.js';
import { describeWithRegistry, type RunningRegistry, startRegistry } from '../support/registry.js';
import { runBin } from '../support/run-bin.js';

describeWithRegistry('a registry whose blob drips', () => {
  let hub: HubEmulator;
  let registry: RunningRegistry;
  let other: RunningRegistry;
  let proxy: FaultProxy;
  let tmp: string;
  let R: string;
  let layer: string;
  const BASIC = `Basic ${Buffer.from('alice:alice-password').toString('base64')}`;

  const env = () => {
    const dir = mkdtempSync(join(tmp, 'env-'));
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ auths: { [R]: { auth: BASIC.slice(6) }, [other.host]: { auth: BASIC.slice(6) } } }),
    );
    return {
      HUBCTL_CONFIG_DIR: join(dir, 'cfg'),
      HOME: dir,
      DOCKER_CONFIG: dir,
      HUBCTL_BASE_URL: hub.url,
      HUBCTL_PLATFORM: 'linux/amd64',
      HUBCTL_HTTP_TIMEOUT: '0.5',
    };
  };
  const hubctl = (args: string[]) => runBin(args, { env: env() });

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'hubctl-drip-'));
    hub = await startHubEmulator();
    registry = await startRegistry(hub.registryAuth);
    other = await startRegistry(hub.registryAuth);
    proxy = await startFaultProxy(registry.url);
    R = proxy.host;
    const image = await makeOciImage(join(tmp, 'img'), { tag: 'v1', layers: 1, layerSize: 32 * 1024 });
    layer = image.images[0]?.layers[0]?.digest ?? '';
    const pushed = await hubctl(['image', 'push', `oci:${image.dir}:v1`, `${R}/team/app:v1`]);
    expect(pushed.code, pushed.stderr).toBe(0);
  });
  afterAll(async () => {
    await proxy?.close();
    await registry?.stop();
    await other?.stop();
    await hub?.close();
  });
  beforeEach(() => proxy.clear());

  const blobGets = () => proxy.seen.filter((s) => s.method === 'GET' && s.path.endsWith(`/blobs/${layer}`));

  it('image pull: a dripped layer is resumed, then given up in one sentence, exit 7', async () => {
    proxy.on('GET', new RegExp(`/blobs/${layer}$`), { kind: 'drip-mid-body', everyMs: 200 });
    const t0 = Date.now();
    const r = await hubctl(['image', 'pull', `${R}/team/app:v1`, `oci:${join(tmp, 'pulled')}`]);
    const took = Date.now() - t0;
    expect(r.code, r.stderr).toBe(7);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('hubctl: '));
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toContain(`pulling blob ${layer} from ${R}/team/app`);
    expect(lines[0]).toContain('less than 1 KiB arrived in 2 s (the answer is too slow)');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // Given up as a cut body is: asked again (with Range), more than once, not for ever.
    expect(blobGets().length).toBeGreaterThan(1);
    expect(took).toBeLessThan(50_000);
  }, 90_000);

  it('image copy to another registry: a dripped layer is given up the same way, exit 7', async () => {
    proxy.on('GET', new RegExp(`/blobs/${layer}$`), { kind: 'drip-mid-body', everyMs: 200 });
    const t0 = Date.now();
    const r = await hubctl(['image', 'copy', `${R}/team/app:v1`, `${other.host}/team/copy:v1`]);
    const took = Date.now() - t0;
    expect(r.code, r.stderr).toBe(7);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('hubctl: '));
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toContain(layer);
    expect(lines[0]).toContain('less than 1 KiB arrived in 2 s (the answer is too slow)');
    expect(blobGets().length).toBeGreaterThan(1);
    expect(took).toBeLessThan(50_000);
  }, 90_000);
});

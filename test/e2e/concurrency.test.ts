// Concurrent runs of the real binary (20 child processes at once) share one config directory or one
// OCI layout, and lose nothing: every write is a read-modify-write under the file's lock.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ImageWorld, startImageWorld } from '../image/helpers.js';
import { makeOciImage } from '../support/oci-images.js';
import { describeWithRegistry } from '../support/registry.js';
import { ensureBuilt, runBin } from '../support/run-bin.js';

const RUNS = 20;

describeWithRegistry('20 concurrent runs of bin/hubctl.js', () => {
  let w: ImageWorld;
  /** Registry fronts that challenge with the emulator's token service (each its own host). */
  const fronts: Server[] = [];

  beforeAll(async () => {
    ensureBuilt();
    w = await startImageWorld();
    for (let i = 0; i < RUNS / 2 - 1; i++) {
      const front = createServer((_req, res) => {
        res.writeHead(401, {
          'www-authenticate': `Bearer realm="${w.hub.registryAuth.realm}",service="${w.hub.registryAuth.service}"`,
          'content-type': 'application/json',
        });
        res.end('{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}');
      });
      await new Promise<void>((r) => front.listen(0, '127.0.0.1', () => r()));
      fronts.push(front);
    }
  }, 60_000);
  afterAll(async () => {
    for (const f of fronts) f.close();
    await w?.stop();
  });

  it('auth login: 10 hub profiles and 10 registries, all stored', async () => {
    const env = { ...w.withCredentialsFor([]) };
    const hosts = [w.registry.host, ...fronts.map((f) => `127.0.0.1:${(f.address() as AddressInfo).port}`)];
    const runs = [
      ...Array.from({ length: RUNS / 2 }, (_, i) =>
        runBin(['--profile', `p${i}`, 'auth', 'login', '-u', 'alice', '--password-stdin'], {
          env,
          stdin: 'alice-password',
        }),
      ),
      ...hosts.map((h) =>
        runBin(['auth', 'login', h, '-u', 'bob', '--password-stdin'], { env, stdin: 'bob-password' }),
      ),
    ];
    const results = await Promise.all(runs);
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0, stdout: '' });

    const dir = env.HUBCTL_CONFIG_DIR!;
    const stored = JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8'));
    expect(Object.keys(stored.hub).sort()).toEqual(
      Array.from({ length: RUNS / 2 }, (_, i) => `p${i}`).sort(),
    );
    expect(Object.keys(stored.registries).sort()).toEqual([...hosts].sort());
    expect(stored.registries[w.registry.host]).toEqual({ username: 'bob', secret: 'bob-password' });
    expect(statSync(join(dir, 'credentials.json')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    // Each hub login also noted its username in its profile (config.json, the other locked file).
    const profiles = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles;
    expect(Object.keys(profiles)).toHaveLength(RUNS / 2);
    expect(profiles.p3).toEqual({ username: 'alice' });
    // No lock or temporary file is left behind.
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'credentials.json']);
  }, 120_000);

  it('image pull: 20 tags (4 images, shared blobs) into one OCI layout, all in index.json', async () => {
    const R = w.registry.host;
    const digests: string[] = [];
    for (let i = 0; i < 4; i++) {
      const src = await makeOciImage(join(w.tmp, `src-${i}`), { tag: 't', layers: 2, layerSize: 64 * 1024 });
      const pushed = await w.run(['image', 'push', `oci:${src.dir}:t`, `${R}/conc/app:img${i}`]);
      expect(pushed.code, pushed.stderr).toBe(0);
      digests.push(src.top.digest);
    }
    const layout = join(w.tmp, 'shared-layout');
    const results = await Promise.all(
      Array.from({ length: RUNS }, (_, n) =>
        runBin(['-q', 'image', 'pull', `${R}/conc/app:img${n % 4}`, `oci:${layout}:tag${n}`], { env: w.env }),
      ),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);

    const index = JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8'));
    const byTag = Object.fromEntries(
      index.manifests.map((d: { digest: string; annotations: Record<string, string> }) => [
        d.annotations['org.opencontainers.image.ref.name'],
        d.digest,
      ]),
    );
    expect(Object.keys(byTag)).toHaveLength(RUNS);
    for (let n = 0; n < RUNS; n++) expect(byTag[`tag${n}`]).toBe(digests[n % 4]);
    // Nothing half-written or locked is left in the layout.
    expect(readdirSync(layout).sort()).toEqual(['blobs', 'index.json', 'oci-layout']);
    expect(readdirSync(join(layout, 'blobs', 'sha256')).filter((f) => f.startsWith('.'))).toEqual([]);
    // Every blob holds its digest's bytes: a second pull skips them all after reading them through.
    const again = await runBin(['--json', 'image', 'pull', `${R}/conc/app:img0`, `oci:${layout}:tag0`], {
      env: w.env,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).blobs.every((b: { action: string }) => b.action === 'skipped')).toBe(
      true,
    );
  }, 180_000);
});

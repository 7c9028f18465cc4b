// image push/pull/copy with docker-daemon: through the CLI, against a real engine API (podman)
// and a real registry, with skopeo as the witness: registry → engine → registry keeps the config
// digest and every layer's diff_id; the engine's uncompressed layers reach the registry as gzip.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MadeLayout, makeOciImage } from '../support/oci-images.js';
import { describeWithPodman, type RunningPodman, startPodman } from '../support/podman.js';
import { type RunningRegistry, requireRegistry, startRegistry } from '../support/registry.js';
import { runCli } from '../support/run-cli.js';

function skopeoJson(args: string[]): Record<string, unknown> {
  const r = spawnSync('skopeo', ['inspect', '--tls-verify=false', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describeWithPodman('docker-daemon: through the CLI', () => {
  let engine: RunningPodman;
  let registry: RunningRegistry;
  let layout: MadeLayout;
  const work = mkdtempSync(join(tmpdir(), 'hubctl-engine-e2e-'));
  const env = () => ({ DOCKER_HOST: engine.host });

  beforeAll(async () => {
    requireRegistry();
    [engine, registry] = await Promise.all([startPodman('unix'), startRegistry({ auth: 'none' })]);
    layout = await makeOciImage(join(work, 'layout'), { tag: '1', layers: 2, layerSize: 2 << 20 });
    const seeded = await runCli(['image', 'copy', `oci:${layout.dir}:1`, `${registry.host}/team/app:1`]);
    expect(seeded.stderr).toMatch(/Copied/);
  }, 60_000);
  afterAll(async () => Promise.all([engine?.stop(), registry?.stop()]));

  it('registry → engine → registry keeps the config digest and the diff_ids', async () => {
    const made = layout.images[0]!;
    const pull = await runCli(
      ['image', 'pull', `${registry.host}/team/app:1`, 'docker-daemon:app:1', '--json'],
      {
        env: env(),
      },
    );
    expect(pull.code).toBe(0);
    expect(JSON.parse(pull.stdout).blobs).toHaveLength(3);

    const push = await runCli(
      ['image', 'push', 'docker-daemon:app:1', `${registry.host}/team/back:1`, '--json'],
      {
        env: env(),
      },
    );
    expect(push.stderr).toBe('');
    expect(push.code).toBe(0);

    const back = `docker://${registry.host}/team/back:1`;
    const raw = skopeoJson(['--raw', back]) as {
      config: { digest: string };
      layers: { mediaType: string }[];
    };
    expect(raw.config.digest).toBe(made.config.digest);
    expect(raw.layers.map((l) => l.mediaType)).toEqual([
      'application/vnd.docker.image.rootfs.diff.tar.gzip',
      'application/vnd.docker.image.rootfs.diff.tar.gzip',
    ]);
    const config = skopeoJson(['--config', back]) as { rootfs: { diff_ids: string[] } };
    expect(config.rootfs.diff_ids).toEqual(made.layers.map((l) => l.diffId));
  }, 120_000);

  it('engine → oci: is readable by skopeo with the same diff_ids', async () => {
    const out = join(work, 'out');
    const r = await runCli(['image', 'copy', 'docker-daemon:app:1', `oci:${out}:1`], { env: env() });
    expect(r.code).toBe(0);
    const config = skopeoJson(['--config', `oci:${out}:1`]) as { rootfs: { diff_ids: string[] } };
    expect(config.rootfs.diff_ids).toEqual(layout.images[0]!.layers.map((l) => l.diffId));
    expect(JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')).manifests).toHaveLength(1);
  }, 120_000);

  it('an image that is not in the engine is exit 5', async () => {
    const r = await runCli(['image', 'push', 'docker-daemon:absent:1', `${registry.host}/team/x:1`], {
      env: env(),
    });
    expect(r.code).toBe(5);
    expect(r.stderr.split('\n')[0]).toMatch(/^hubctl: exporting absent:1 from the engine: .*absent/i);
  }, 60_000);

  it('no engine at the address names it and DOCKER_HOST (exit 7)', async () => {
    const r = await runCli(['image', 'pull', `${registry.host}/team/app:1`, 'docker-daemon:app:1'], {
      env: { DOCKER_HOST: `unix://${work}/none.sock` },
    });
    expect(r.code).toBe(7);
    expect(r.stderr.split('\n')[0]).toBe(
      `hubctl: no container engine answers at unix://${work}/none.sock (from DOCKER_HOST)`,
    );
  }, 60_000);
});

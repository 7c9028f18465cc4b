// The docker-daemon: back end against a real engine API (podman system service): oci → engine →
// docker-archive keeps the config digest and every layer's diff_id, with skopeo as the witness.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EngineDestination } from '../../../src/image/engine/destination.js';
import { EngineSource } from '../../../src/image/engine/source.js';
import { type MadeLayout, makeOciImage } from '../../support/oci-images.js';
import { describeWithPodman, type RunningPodman, startPodman } from '../../support/podman.js';
import { runCli } from '../../support/run-cli.js';
import { copyImage, engineClient, layoutSource } from './helpers.js';

const sha256 = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** What skopeo reads from an archive it wrote: the config digest and the layers' diff_ids. */
function skopeoArchiveView(archive: string) {
  const r = spawnSync('skopeo', ['inspect', '--config', `docker-archive:${archive}`], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  const config = JSON.parse(r.stdout) as { rootfs: { diff_ids: string[] } };
  const raw = spawnSync('skopeo', ['inspect', '--raw', `docker-archive:${archive}`], { encoding: 'utf8' });
  return { configDigest: JSON.parse(raw.stdout).config.digest as string, diffIds: config.rootfs.diff_ids };
}

describeWithPodman('docker-daemon: with podman', () => {
  let engine: RunningPodman;
  let layout: MadeLayout;
  const work = mkdtempSync(join(tmpdir(), 'hubctl-engine-store-'));

  beforeAll(async () => {
    engine = await startPodman('tcp');
    // One layer kept in memory by the reader (under 1 MiB), two spooled and compressed.
    layout = await makeOciImage(join(work, 'layout'), { tag: '1', layers: 3, layerSize: 3 << 20 });
  }, 60_000);
  afterAll(async () => engine?.stop());

  it('oci → engine → docker-archive keeps the config digest and the diff_ids (skopeo)', async () => {
    const made = layout.images[0]!;
    const client = engineClient(engine.host);
    await copyImage(layoutSource(layout.dir, layout.top as never), new EngineDestination(client, 'app:1'));

    const archive = join(work, 'skopeo.tar');
    const copy = spawnSync(
      'skopeo',
      [
        'copy',
        '--src-daemon-host',
        engine.host.replace('tcp://', 'http://'),
        'docker-daemon:app:1',
        `docker-archive:${archive}`,
      ],
      { encoding: 'utf8' },
    );
    expect(copy.stderr).not.toMatch(/FATA/);
    const seen = skopeoArchiveView(archive);
    expect(seen.configDigest).toBe(made.config.digest);
    expect(seen.diffIds).toEqual(made.layers.map((l) => l.diffId));
  }, 120_000);

  it('reads the image back from the engine: same config, gzip layers whose contents are the diff_ids', async () => {
    const made = layout.images[0]!;
    const source = new EngineSource(engineClient(engine.host), 'app:1');
    try {
      const top = await source.getManifest(await source.resolve());
      if (top.parsed.kind !== 'image') throw new Error('expected an image');
      const { config, layers } = top.parsed.manifest;
      expect(config.digest).toBe(made.config.digest);
      expect(layers).toHaveLength(3);
      for (const [i, d] of layers.entries()) {
        const chunks: Buffer[] = [];
        for await (const c of (await source.openBlob(d)).body) chunks.push(c as Buffer);
        const bytes = Buffer.concat(chunks);
        expect(d.mediaType).toBe('application/vnd.docker.image.rootfs.diff.tar.gzip');
        expect(sha256(bytes)).toBe(d.digest);
        expect(bytes.length).toBe(d.size);
        expect(sha256(gunzipSync(bytes))).toBe(made.layers[i]!.diffId);
      }
    } finally {
      await source.close();
    }
  }, 120_000);

  it('an engine → engine round trip under another name keeps the image ID', async () => {
    const client = engineClient(engine.host);
    await copyImage(new EngineSource(client, 'app:1'), new EngineDestination(client, 'copy'));
    const r = await runCli(['image', 'inspect', 'docker-daemon:copy:latest', '--json'], {
      env: { DOCKER_HOST: engine.host },
    });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).Id).toBe(layout.images[0]!.config.digest);
  }, 120_000);

  it('a blob whose bytes do not match is not loaded', async () => {
    const client = engineClient(engine.host);
    const made = layout.images[0]!;
    const source = layoutSource(layout.dir, layout.top as never);
    const broken = {
      ...source,
      async openBlob(d: { digest: string }, start = 0) {
        const read = await source.openBlob(d as never, start);
        if (d.digest !== made.layers[1]!.digest) return read;
        const bytes = await readFile(join(layout.dir, 'blobs', 'sha256', d.digest.slice(7)));
        bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
        const { Readable } = await import('node:stream');
        return { body: Readable.from([bytes]), start };
      },
    };
    await expect(copyImage(broken, new EngineDestination(client, 'broken:1'))).rejects.toThrow(/arrived as/);
    const r = await runCli(['image', 'inspect', 'docker-daemon:broken:1'], {
      env: { DOCKER_HOST: engine.host },
    });
    expect(r.code).toBe(5);
  }, 120_000);

  it('engine version and inspect against podman over a unix socket', async () => {
    const unix = await startPodman('unix');
    try {
      const r = await runCli(['engine', 'version', '--json'], { env: { DOCKER_HOST: unix.host } });
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout).negotiated).toEqual({ apiVersion: '1.41', how: 'negotiated' });
      const missing = await runCli(['image', 'inspect', 'docker-daemon:absent:1'], {
        env: { DOCKER_HOST: unix.host },
      });
      expect(missing.code).toBe(5);
    } finally {
      await unix.stop();
    }
  }, 60_000);
});

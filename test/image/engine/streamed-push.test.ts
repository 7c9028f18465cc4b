// A push from the engine compresses each layer while it uploads it (POST, one streamed PATCH, PUT
// ?digest= once the layer matches the config's diff_id), against a real registry with token auth
// behind a TCP proxy, from the engine emulator's export: the digests are those of the gzip bytes; an
// upload cut mid-way is cancelled and made again from the layer's start; a layer that does not match
// its diff_id, or a large entry that is no layer, is never committed.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { padding, tarHeader } from '../../../src/image/tar.js';
import { type EngineEmulator, startEngineEmulator } from '../../support/engine-emulator.js';
import { describeWithRegistry } from '../../support/registry.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import { type ImageWorld, startImageWorld } from '../helpers.js';

const MiB = 1024 * 1024;
const sha = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** A docker-archive as an engine exports it: layers first, config, manifest.json last. */
function archive(layers: Buffer[], opts: { diffIds?: string[]; extra?: Buffer } = {}) {
  const config = Buffer.from(
    JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      rootfs: { type: 'layers', diff_ids: opts.diffIds ?? layers.map(sha) },
    }),
  );
  const names = layers.map((_, i) => `layer${i}.tar`);
  const manifest = Buffer.from(
    JSON.stringify([{ Config: 'config.json', RepoTags: ['app:1'], Layers: names }]),
  );
  const entries: [string, Buffer][] = [
    ...layers.map((l, i): [string, Buffer] => [names[i]!, l]),
    ...(opts.extra ? [['extra.bin', opts.extra] as [string, Buffer]] : []),
    ['config.json', config],
    ['manifest.json', manifest],
  ];
  const parts = entries.flatMap(([name, bytes]) => [
    tarHeader(name, bytes.length),
    bytes,
    Buffer.alloc(padding(bytes.length)),
  ]);
  return Buffer.concat([...parts, Buffer.alloc(1024)]);
}

/** A layer tar that compresses (text) and one that does not (random bytes, sent as gzip level 0). */
const textLayer = Buffer.concat([
  tarHeader('a.txt', 3 * MiB),
  Buffer.from('hubctl '.repeat((3 * MiB) / 7 + 1)).subarray(0, 3 * MiB),
  Buffer.alloc(1024),
]);
const randomLayer = Buffer.concat([tarHeader('r.bin', 3 * MiB), randomBytes(3 * MiB), Buffer.alloc(1024)]);

describeWithRegistry('a push from the engine, compressed while uploaded', () => {
  let w: ImageWorld;
  let proxy: TcpProxy;
  let engine: EngineEmulator;
  let env: Record<string, string>;
  const image = {
    id: `sha256:${'ab'.repeat(32)}`,
    tags: ['app:1'],
    created: '2026-11-24T00:00:00Z',
    size: 0,
    config: {},
    layers: [],
  };

  beforeAll(async () => {
    w = await startImageWorld();
    proxy = await startTcpProxy('127.0.0.1', Number(w.registry.host.split(':')[1]));
    engine = await startEngineEmulator({
      maxApi: '1.41',
      images: [
        { ...image, archive: archive([textLayer, randomLayer]) },
        {
          ...image,
          tags: ['wrong:1'],
          archive: archive([textLayer, randomLayer], { diffIds: [sha(textLayer), sha(textLayer)] }),
        },
        { ...image, tags: ['extra:1'], archive: archive([textLayer], { extra: randomBytes(2 * MiB) }) },
      ],
    });
    env = { ...w.withCredentialsFor([proxy.host]), DOCKER_HOST: engine.host };
  });
  afterAll(async () => {
    await engine?.close();
    await proxy?.close();
    await w?.stop();
  });
  beforeEach(() => proxy.passthrough());

  it('sends gzip layers (level 1, or 0 for random bytes) whose digests the registry confirms', async () => {
    const r = await w.run(['--json', 'image', 'push', 'docker-daemon:app:1', `${proxy.host}/eng/app:1`], {
      env,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const blobs = JSON.parse(r.stdout).blobs as { digest: string; size: number; action: string }[];
    expect(blobs.map((b) => b.action)).toEqual(['pushed', 'pushed', 'pushed']);
    expect(blobs.map((b) => b.digest)).toContain(sha(gzipSync(textLayer, { level: 1 })));
    // The registry holds what the manifest names: a pull into a layout verifies every digest.
    const dir = join(w.tmp, 'app-back');
    const back = await w.run(['image', 'pull', `${proxy.host}/eng/app:1`, `oci:${dir}`], { env });
    expect(back.code).toBe(0);
    // Random bytes go as stored blocks (level 0): a few bytes more than the layer, not a second pass.
    const stored = blobs.find((b) => b.size > 3 * MiB) as { digest: string; size: number };
    expect(stored.size).toBeLessThan(randomLayer.length * 1.001);
    const bytes = readFileSync(join(dir, 'blobs', 'sha256', stored.digest.slice(7)));
    expect(gunzipSync(bytes).equals(randomLayer)).toBe(true);
  });

  it('an upload cut mid-way is cancelled and made again from the layer’s start', async () => {
    proxy.cutAfterBytes(2 * MiB, 'up');
    const r = await w.run(
      ['--json', '--debug', 'image', 'push', 'docker-daemon:app:1', `${proxy.host}/eng/cut:1`],
      { env },
    );
    expect(proxy.events.at(-1)).toMatchObject({ type: 'cut', direction: 'up' });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /upload of the layer whose diff_id is sha256:[0-9a-f]{64} broke .*; starting it again/,
    );
    expect(r.stderr).toMatch(/> DELETE http:\/\/127\.0\.0\.1:\d+\/v2\/eng\/cut\/blobs\/uploads\//);
    const back = await w.run(['image', 'pull', `${proxy.host}/eng/cut:1`, `oci:${join(w.tmp, 'cut-back')}`], {
      env,
    });
    expect(back.code).toBe(0);
  });

  it('a second push of the same layers sends nothing: the digests an earlier run made are kept', async () => {
    const again = { ...w.withCredentialsFor([proxy.host]), DOCKER_HOST: engine.host };
    const first = await w.run(
      ['--json', 'image', 'push', 'docker-daemon:app:1', `${proxy.host}/eng/again:1`],
      {
        env: again,
      },
    );
    expect(first.code).toBe(0);
    const r = await w.run(
      ['--json', '--debug', 'image', 'push', 'docker-daemon:app:1', `${proxy.host}/eng/again:2`],
      {
        env: again,
      },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).blobs.map((b: { action: string }) => b.action)).toEqual([
      'skipped',
      'skipped',
      'skipped',
    ]);
    expect(JSON.parse(r.stdout).digest).toBe(JSON.parse(first.stdout).digest);
    expect(r.stderr).not.toMatch(/> PATCH /);
    // A repository that lacks them gets them sent, under the same digests.
    const other = await w.run(
      ['--json', 'image', 'push', 'docker-daemon:app:1', `${proxy.host}/eng/other:1`],
      {
        env: again,
      },
    );
    expect(JSON.parse(other.stdout).digest).toBe(JSON.parse(first.stdout).digest);
    expect(JSON.parse(other.stdout).blobs.map((b: { action: string }) => b.action)).toContain('pushed');
  });

  it('a layer that is not its diff_id is never committed', async () => {
    const r = await w.run(
      ['--debug', 'image', 'push', 'docker-daemon:wrong:1', `${proxy.host}/eng/wrong:1`],
      { env },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^hubctl: exporting wrong:1 from the engine: layer 2 is sha256:[0-9a-f]{64}, but the config says/m,
    );
    expect(r.stderr).not.toMatch(/> PUT \S+\/blobs\/uploads\/\S*digest=/);
    expect(r.stderr).not.toMatch(/> PUT \S+\/manifests\//);
    expect(r.stderr).toMatch(/> DELETE \S+\/v2\/eng\/wrong\/blobs\/uploads\//);
  });

  it('a large entry that is no layer is not sent', async () => {
    const r = await w.run(
      ['--json', '--debug', 'image', 'push', 'docker-daemon:extra:1', `${proxy.host}/eng/extra:1`],
      { env },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).blobs).toHaveLength(2);
    // Its upload began as it arrived and was cancelled once manifest.json showed what it was.
    expect(r.stderr.match(/> PUT \S+\/blobs\/uploads\/\S*digest=/g)).toHaveLength(2);
    expect(r.stderr).toMatch(/> DELETE \S+\/v2\/eng\/extra\/blobs\/uploads\//);
  });
});

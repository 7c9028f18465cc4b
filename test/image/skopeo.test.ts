// Interop with skopeo, an independent client, both ways: what hubctl pushes skopeo inspects and
// copies with the same digests; what skopeo pushes (an image and a multi-arch index) hubctl pulls
// and verifies; docker archives go both ways too.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { blobDigests, makeOciImage } from '../support/oci-images.js';
import { describeWithTools, skopeoPullArgs } from '../support/tools.js';
import { type ImageWorld, startImageWorld } from './helpers.js';

const exec = promisify(execFile);
const sha256 = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

const CREDS = 'alice:alice-password';
const skopeo = async (...args: string[]) =>
  (await exec('skopeo', args, { maxBuffer: 16 * 1024 * 1024 })).stdout;

describeWithTools(['docker-registry', 'skopeo'], 'skopeo interop', () => {
  let w: ImageWorld;
  let R: string;

  beforeAll(async () => {
    w = await startImageWorld();
    R = w.registry.host;
  });
  afterAll(async () => {
    await w?.stop();
  });

  it('an image pushed by hubctl is inspected and copied by skopeo with the same digests', async () => {
    const img = await makeOciImage(join(w.tmp, 'h2s'), { layers: 2, layerSize: 200 * 1024 });
    const push = await w.run(['--json', 'image', 'push', `oci:${img.dir}`, `${R}/interop/hubctl:1`]);
    expect(push.code).toBe(0);
    const digest = JSON.parse(push.stdout).digest;
    expect(digest).toBe(img.top.digest);

    const raw = await skopeo(
      'inspect',
      '--raw',
      '--tls-verify=false',
      '--creds',
      CREDS,
      `docker://${R}/interop/hubctl:1`,
    );
    expect(sha256(raw)).toBe(digest);
    const info = JSON.parse(
      await skopeo('inspect', '--tls-verify=false', '--creds', CREDS, `docker://${R}/interop/hubctl:1`),
    );
    expect(info.Digest).toBe(digest);
    expect(info.Layers).toEqual(img.images[0]!.layers.map((l) => l.digest));

    const out = join(w.tmp, 'h2s-out');
    mkdirSync(out);
    await skopeo(...skopeoPullArgs(`${R}/interop/hubctl:1`, `oci:${out}/img:x`));
    const index = JSON.parse(readFileSync(join(out, 'img', 'index.json'), 'utf8'));
    expect(index.manifests[0].digest).toBe(digest);
    const files = readdirSync(join(out, 'img', 'blobs', 'sha256'));
    for (const d of blobDigests(img)) expect(files).toContain(d.slice(7));
  });

  it('an image and a multi-arch index pushed by skopeo are pulled by hubctl and verified', async () => {
    const single = await makeOciImage(join(w.tmp, 's2h'), { tag: 'one', layers: 2, layerSize: 150 * 1024 });
    const multi = await makeOciImage(join(w.tmp, 's2h'), {
      tag: 'multi',
      layers: 1,
      layerSize: 100 * 1024,
      platforms: ['linux/amd64', 'linux/arm64/v8', 'linux/arm/v7'],
    });
    const base = ['copy', '-q', '--dest-tls-verify=false', '--dest-creds', CREDS];
    await skopeo(...base, `oci:${single.dir}:one`, `docker://${R}/interop/skopeo:one`);
    await skopeo(...base, '--all', `oci:${multi.dir}:multi`, `docker://${R}/interop/skopeo:multi`);

    const one = join(w.tmp, 's2h-one');
    const r1 = await w.run(['--json', 'image', 'pull', `${R}/interop/skopeo:one`, `oci:${one}:one`]);
    expect(r1.code).toBe(0);
    // skopeo keeps OCI manifests as they are: the same digest arrives.
    expect(JSON.parse(r1.stdout).digest).toBe(single.top.digest);
    for (const d of blobDigests(single)) {
      expect(sha256(readFileSync(join(one, 'blobs', 'sha256', d.slice(7))))).toBe(d);
    }

    const all = join(w.tmp, 's2h-all');
    const r2 = await w.run([
      '--json',
      'image',
      'pull',
      '--all-platforms',
      `${R}/interop/skopeo:multi`,
      `oci:${all}`,
    ]);
    expect(r2.code).toBe(0);
    expect(JSON.parse(r2.stdout).digest).toBe(multi.top.digest);
    for (const d of blobDigests(multi)) {
      expect(sha256(readFileSync(join(all, 'blobs', 'sha256', d.slice(7))))).toBe(d);
    }

    const arm = join(w.tmp, 's2h-arm');
    const r3 = await w.run([
      '--json',
      'image',
      'pull',
      '--platform',
      'linux/arm/v7',
      `${R}/interop/skopeo:multi`,
      `oci:${arm}`,
    ]);
    expect(r3.code).toBe(0);
    expect(JSON.parse(r3.stdout).digest).toBe(multi.images[2]!.manifest.digest);

    // And the layout hubctl wrote is one skopeo reads back.
    expect(sha256(await skopeo('inspect', '--raw', `oci:${all}:multi`))).toBe(multi.top.digest);
    const armInfo = JSON.parse(await skopeo('inspect', `oci:${arm}:multi`));
    expect(armInfo.Architecture).toBe('arm');
  });

  it('docker archives go both ways', async () => {
    const img = await makeOciImage(join(w.tmp, 'arch'), { layers: 2, layerSize: 120 * 1024, docker: true });
    expect((await w.run(['image', 'push', `oci:${img.dir}`, `${R}/interop/archive:1`])).code).toBe(0);

    // hubctl writes an archive skopeo reads, with the same layers.
    const mine = join(w.tmp, 'hubctl.tar');
    expect((await w.run(['image', 'pull', `${R}/interop/archive:1`, `docker-archive:${mine}`])).code).toBe(0);
    const info = JSON.parse(await skopeo('inspect', `docker-archive:${mine}`));
    expect(info.Layers).toHaveLength(2);

    // skopeo writes a (legacy) archive hubctl pushes; the config and image survive a round trip.
    const theirs = join(w.tmp, 'skopeo.tar');
    await skopeo(...skopeoPullArgs(`${R}/interop/archive:1`, `docker-archive:${theirs}`));
    const push = await w.run([
      '--json',
      'image',
      'push',
      `docker-archive:${theirs}`,
      `${R}/interop/fromskopeo:1`,
    ]);
    expect(push.code).toBe(0);
    const pushed = JSON.parse(push.stdout);
    expect(pushed.blobs.map((b: { digest: string }) => b.digest)).toContain(img.images[0]!.config.digest);
    const check = JSON.parse(
      await skopeo('inspect', '--tls-verify=false', '--creds', CREDS, `docker://${R}/interop/fromskopeo:1`),
    );
    expect(check.Digest).toBe(pushed.digest);
    expect(check.Layers).toHaveLength(2);
  });
});

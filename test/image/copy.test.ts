// image copy between two real registries: blobs stream from one to the other (no disk), digests
// are preserved (one platform, or the index and every child), and a corrupted byte on the way
// fails the copy with nothing tagged at the destination.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { blobDigests, type MadeLayout, makeOciImage } from '../support/oci-images.js';
import { describeWithRegistry, type RunningRegistry, startRegistry } from '../support/registry.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { type ImageWorld, startImageWorld } from './helpers.js';

describeWithRegistry('image copy between registries', () => {
  let w: ImageWorld;
  let second: RunningRegistry;
  let proxy: TcpProxy;
  let env: Record<string, string>;
  let multi: MadeLayout;
  let A: string;
  let B: string;

  beforeAll(async () => {
    w = await startImageWorld();
    second = await startRegistry(w.hub.registryAuth);
    proxy = await startTcpProxy('127.0.0.1', Number(w.registry.host.split(':')[1]));
    A = w.registry.host;
    B = second.host;
    env = w.withCredentialsFor([A, B, proxy.host]);
    multi = await makeOciImage(join(w.tmp, 'multi'), {
      tag: 'm',
      layers: 2,
      layerSize: 300 * 1024,
      platforms: ['linux/amd64', 'linux/arm64'],
    });
    const push = await w.run(['image', 'push', `oci:${multi.dir}:m`, `${A}/src/app:m`], { env });
    expect(push.code).toBe(0);
  });
  afterAll(async () => {
    await proxy?.close();
    await second?.stop();
    await w?.stop();
  });

  it('copies one platform, streaming every blob, with its digest', async () => {
    const r = await w.run(['--json', 'image', 'copy', `${A}/src/app:m`, `${B}/dst/app:amd64`], { env });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.digest).toBe(multi.images[0]!.manifest.digest);
    expect(out.blobs.map((b: { action: string }) => b.action)).toEqual(['pushed', 'pushed', 'pushed']);
    const d = await w.run(['image', 'digest', `${B}/dst/app:amd64`], { env });
    expect(d.stdout.trim()).toBe(multi.images[0]!.manifest.digest);
  });

  it('copies the index and every child with --all-platforms; skips what is there', async () => {
    const r = await w.run(
      ['--json', 'image', 'copy', '--all-platforms', `${A}/src/app:m`, `${B}/dst/app:all`],
      { env },
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.digest).toBe(multi.top.digest);
    expect(out.blobs.map((b: { digest: string }) => b.digest).sort()).toEqual(blobDigests(multi).sort());
    // amd64's blobs were copied by the previous test into the same repository.
    expect(out.blobs.filter((b: { action: string }) => b.action === 'skipped')).toHaveLength(3);
    const i = await w.run(['--json', 'image', 'inspect', `${B}/dst/app:all`], { env });
    expect(JSON.parse(i.stdout).platforms).toEqual(['linux/amd64', 'linux/arm64']);
  });

  it('a corrupted byte on the way fails the copy; nothing is tagged at the destination', async () => {
    // The source is read through the proxy; the byte is deep inside the first layer. A fresh
    // state directory, or hubctl would mount the blobs it knows dst/app holds.
    const fresh = w.withCredentialsFor([A, B, proxy.host]);
    proxy.corruptByteAt(200 * 1024, 'down');
    const r = await w.run(
      ['image', 'copy', '--concurrency', '1', `${proxy.host}/src/app:m`, `${B}/dst/corrupt:1`],
      {
        env: fresh,
      },
    );
    expect(proxy.events.at(-1)).toMatchObject({ type: 'corrupt' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/from the source does not match its digest/);
    const d = await w.run(['image', 'digest', `${B}/dst/corrupt:1`], { env });
    expect(d.code).toBe(5);
  });

  it('probes a small blob at the destination by its upload POST, not a HEAD; the source by its GET alone', async () => {
    // The manifest gives each blob's size: a blob up to 64 KiB is asked for at the destination by a
    // mount from the repository itself. A copy streams each source GET into its upload, whose 404
    // says a blob is missing as a HEAD would (the next test): no HEAD at either end.
    const small = await makeOciImage(join(w.tmp, 'small'), { tag: 's', layers: 1, layerSize: 4096 });
    expect((await w.run(['image', 'push', `oci:${small.dir}:s`, `${A}/src/small:s`], { env })).code).toBe(0);
    const fresh = w.withCredentialsFor([A, B]);
    const r = await w.run(['--debug', 'image', 'copy', `${A}/src/small:s`, `${B}/dst/small:s`], {
      env: fresh,
    });
    expect(r.code).toBe(0);
    // Both ends are remembered for later mounts (one write of the state file for the two).
    const known = JSON.parse(
      readFileSync(join(fresh.HUBCTL_CONFIG_DIR!, 'state', 'known-blobs.json'), 'utf8'),
    );
    for (const digest of blobDigests(small)) {
      expect(known[`${A} ${digest}`]).toEqual(['src/small']);
      expect(known[`${B} ${digest}`]).toEqual(['dst/small']);
    }
    const sent = r.stderr.split('\n').filter((l) => /^\[debug\] > (GET|HEAD|POST|PUT|PATCH) http/.test(l));
    const heads = sent.filter((l) => l.includes('/blobs/sha256:') && l.includes('> HEAD'));
    expect(heads).toEqual([]);
    const gets = sent.filter((l) => l.includes('/blobs/sha256:') && l.includes('> GET'));
    expect(gets).toHaveLength(2);
    expect(gets.every((l) => l.includes(`http://${A}/v2/src/small/blobs/`))).toBe(true);
    expect(sent.filter((l) => l.includes('/blobs/uploads/?mount='))).toHaveLength(2);
    const d = await w.run(['image', 'digest', `${B}/dst/small:s`], { env });
    expect(d.stdout.trim()).toBe(small.top.digest);
  });

  it('a blob missing at the source fails the copy as not found (exit 5), naming it; nothing is tagged', async () => {
    const holed = await makeOciImage(join(w.tmp, 'holed'), { tag: 'h', layers: 2, layerSize: 100 * 1024 });
    expect((await w.run(['image', 'push', `oci:${holed.dir}:h`, `${A}/src/holed:h`], { env })).code).toBe(0);
    // The registry's own DELETE of one layer from the repository (its link, and its cache entry).
    const gone = holed.images[0]!.layers[1]!.digest;
    const q = new URLSearchParams({
      service: w.hub.registryAuth.service,
      scope: 'repository:src/holed:delete',
    });
    const basic = Buffer.from('alice:alice-password').toString('base64');
    const tok = await fetch(`${w.hub.registryAuth.realm}?${q}`, {
      headers: { authorization: `Basic ${basic}` },
    });
    const { token } = (await tok.json()) as { token: string };
    const del = await fetch(`http://${A}/v2/src/holed/blobs/${gone}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(del.status).toBe(202);
    const r = await w.run(['image', 'copy', `${A}/src/holed:h`, `${B}/dst/holed:h`], { env });
    expect(r.code).toBe(5);
    // One sentence after the progress lines of the blobs that were there.
    const lines = r.stderr.trim().split('\n');
    expect(lines.filter((l) => !/^pushed /.test(l))).toEqual([expect.stringContaining(gone)]);
    expect(lines.at(-1)).toMatch(/not found|unknown|missing/i);
    const d = await w.run(['image', 'digest', `${B}/dst/holed:h`], { env });
    expect(d.code).toBe(5);
  });
});

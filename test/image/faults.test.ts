// Faults between hubctl and a real registry, through a loopback TCP proxy: uploads cut mid-way,
// downloads cut mid-way (resumed with Range, in the same run and by the next run), a corrupted
// byte (digest error, nothing left at the destination), HEAD then GET per pulled blob, and --debug
// never showing credentials.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { makeOciImage } from '../support/oci-images.js';
import { describeWithRegistry } from '../support/registry.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { type ImageWorld, startImageWorld } from './helpers.js';

const MiB = 1024 * 1024;

describeWithRegistry('faults through a TCP proxy', () => {
  let w: ImageWorld;
  let proxy: TcpProxy;
  let P: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    w = await startImageWorld();
    proxy = await startTcpProxy('127.0.0.1', Number(w.registry.host.split(':')[1]));
    P = proxy.host;
    env = {
      ...w.withCredentialsFor([P]),
      HUBCTL_MONOLITHIC_MAX: String(MiB),
      HUBCTL_CHUNK_SIZE: String(MiB),
    };
  });
  afterAll(async () => {
    await proxy?.close();
    await w?.stop();
  });
  beforeEach(() => proxy.passthrough());

  it('an upload cut in the middle of a chunk is finished in the same run', async () => {
    const img = await makeOciImage(join(w.tmp, 'cut-up'), { layers: 1, layerSize: 3 * MiB });
    proxy.cutAfterBytes(Math.floor(1.5 * MiB), 'up');
    const r = await w.run(['--json', '--debug', 'image', 'push', `oci:${img.dir}`, `${P}/faults/up:1`], {
      env,
    });
    expect(proxy.events.at(-1)).toMatchObject({ type: 'cut', direction: 'up' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).digest).toBe(img.top.digest);
    // hubctl asked the upload's status. distribution 2.8 drops an upload whose PATCH was cut (the
    // bytes it kept no longer match the offset in the upload URL's state), so hubctl starts anew;
    // a registry that keeps it is continued from its Range (test/api/registry/upload-resume.test.ts).
    expect(r.stderr).toMatch(/upload of sha256:[0-9a-f]{64} broke .*(continuing|starting a new upload)/);
    expect(r.stderr).toMatch(/> GET http:\/\/127\.0\.0\.1:\d+\/v2\/faults\/up\/blobs\/uploads\//);
    // The registry has the right bytes: a pull verifies every digest.
    const back = await w.run(
      ['--json', 'image', 'pull', `${P}/faults/up:1`, `oci:${join(w.tmp, 'cut-up-back')}`],
      { env },
    );
    expect(back.code).toBe(0);
  });

  it('a download cut mid-blob resumes with a Range request in the same run', async () => {
    const img = await makeOciImage(join(w.tmp, 'cut-down'), { layers: 1, layerSize: 4 * MiB });
    const push = await w.run(['image', 'push', `oci:${img.dir}`, `${P}/faults/down:1`], { env });
    expect(push.code).toBe(0);
    proxy.cutAfterBytes(2 * MiB, 'down');
    const dest = join(w.tmp, 'cut-down-out');
    const r = await w.run(['--json', '--debug', 'image', 'pull', `${P}/faults/down:1`, `oci:${dest}`], {
      env,
    });
    expect(proxy.events.at(-1)).toMatchObject({ type: 'cut', direction: 'down' });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/> range: bytes=\d{6,}-/);
    const layer = img.images[0]!.layers[0]!;
    expect(readFileSync(join(dest, 'blobs', 'sha256', layer.digest.slice(7))).length).toBe(layer.size);
  });

  it('a pull that keeps failing leaves a partial blob that the next run continues with Range', async () => {
    const img = await makeOciImage(join(w.tmp, 'cut-twice'), { layers: 1, layerSize: 4 * MiB });
    expect((await w.run(['image', 'push', `oci:${img.dir}`, `${P}/faults/twice:1`], { env })).code).toBe(0);
    const dest = join(w.tmp, 'cut-twice-out');
    // More cuts than the in-run retries: each attempt dies after ~600 KiB.
    for (let i = 1; i <= 6; i++) proxy.cutAfterBytes(i * 600 * 1024, 'down');
    const first = await w.run(['image', 'pull', `${P}/faults/twice:1`, `oci:${dest}`], { env });
    expect(first.code).toBe(7);
    expect(first.stderr).toMatch(/connection/);
    const layer = img.images[0]!.layers[0]!;
    const partial = join(dest, 'blobs', 'sha256', `.${layer.digest.slice(7)}.partial`);
    expect(existsSync(partial)).toBe(true);
    const kept = readFileSync(partial).length;
    expect(kept).toBeGreaterThan(0);
    expect(existsSync(join(dest, 'index.json'))).toBe(false);
    proxy.passthrough();
    const second = await w.run(['--debug', 'image', 'pull', `${P}/faults/twice:1`, `oci:${dest}`], { env });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`> range: bytes=${kept}-`);
    expect(existsSync(partial)).toBe(false);
    expect(JSON.parse(readFileSync(join(dest, 'index.json'), 'utf8')).manifests[0].digest).toBe(
      img.top.digest,
    );
  });

  it('a corrupted byte fails with a digest error and leaves nothing at the destination', async () => {
    const img = await makeOciImage(join(w.tmp, 'corrupt'), { layers: 1, layerSize: 2 * MiB });
    expect((await w.run(['image', 'push', `oci:${img.dir}`, `${P}/faults/corrupt:1`], { env })).code).toBe(0);
    // Past the manifest, config and headers, inside the layer's body.
    proxy.corruptByteAt(MiB, 'down');
    const dest = join(w.tmp, 'corrupt-out');
    const r = await w.run(['image', 'pull', `${P}/faults/corrupt:1`, `oci:${dest}`], { env });
    expect(proxy.events.at(-1)).toMatchObject({ type: 'corrupt', direction: 'down' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/does not match its digest/);
    expect(existsSync(dest)).toBe(false);

    const file = join(w.tmp, 'corrupt.tar');
    proxy.corruptByteAt(MiB, 'down');
    const t = await w.run(['image', 'pull', `${P}/faults/corrupt:1`, `docker-archive:${file}`], { env });
    expect(t.code).toBe(1);
    expect(readdirSync(w.tmp).filter((f) => f.startsWith('corrupt.tar'))).toEqual([]);
  });

  it('a pull sends each blob one HEAD, then one GET (issue 5)', async () => {
    const img = await makeOciImage(join(w.tmp, 'once'), { layers: 2, layerSize: 64 * 1024 });
    expect((await w.run(['image', 'push', `oci:${img.dir}`, `${P}/faults/once:1`], { env })).code).toBe(0);
    const out = join(w.tmp, 'once-out');
    const r = await w.run(['--debug', 'image', 'pull', `${P}/faults/once:1`, `oci:${out}`], { env });
    expect(r.code).toBe(0);
    const blobRequests = r.stderr.match(/> [A-Z]+ http:\/\/\S+\/blobs\/sha256:[0-9a-f]{64}\n/g) ?? [];
    const sent = blobRequests.map((l) => {
      const [, method, url] = l.trim().split(' ');
      return { method, url };
    });
    // config + 2 layers, each HEAD first
    expect(sent).toHaveLength(6);
    for (const url of new Set(sent.map((s) => s.url))) {
      expect(sent.filter((s) => s.url === url).map((s) => s.method)).toEqual(['HEAD', 'GET']);
    }
  });

  it('--debug traces requests without any credential', async () => {
    const img = await makeOciImage(join(w.tmp, 'debug'), { layers: 1, layerSize: 64 * 1024 });
    const r = await w.run(['--debug', 'image', 'push', `oci:${img.dir}`, `${P}/faults/debug:1`], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/authorization: Bearer \*\*\*/);
    expect(r.stderr).toMatch(/authorization: Basic \*\*\*/);
    expect(r.stderr).not.toContain('alice-password');
    expect(r.stderr).not.toContain(Buffer.from('alice:alice-password').toString('base64'));
    expect(r.stderr).not.toMatch(/eyJ[A-Za-z0-9_-]{8,}\./);
  });
});

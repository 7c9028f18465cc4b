// A blob of 4 MiB or more moves on a connection of its own (src/http/layers/h1.ts) when no proxy
// applies, through undici when one does. The built bin with images whose layer is 5 MiB (10 MiB
// where a resumed read must stay that large), between two real registries (distribution 2.8 with
// token auth), each behind test/support/fault-proxy.ts, which records each request's Connection
// field: h1's requests carry none, undici's say keep-alive. skopeo is the independent witness of
// what arrived. Needs a build.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { type MadeLayout, makeOciImage } from '../support/oci-images.js';
import { type RunningRegistry, startRegistry } from '../support/registry.js';
import { ensureBuilt, runBin } from '../support/run-bin.js';
import { type RunningProxy, startTinyproxy, tinyproxyAvailable } from '../support/tinyproxy.js';
import { describeWithTools, SKOPEO_CREDS, skopeoPullArgs } from '../support/tools.js';

const exec = promisify(execFile);
const skopeo = async (...args: string[]) =>
  (await exec('skopeo', args, { maxBuffer: 64 * 1024 * 1024 })).stdout;
const sha256 = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const MiB = 1024 * 1024;

describeWithTools(['docker-registry', 'skopeo'], 'a 5 MiB layer through the built CLI', () => {
  let hub: HubEmulator;
  let a: RunningRegistry;
  let b: RunningRegistry;
  let pa: FaultProxy;
  let pb: FaultProxy;
  let A: string;
  let B: string;
  let tmp: string;
  let big: MadeLayout;
  let bigger: MadeLayout;
  let small: MadeLayout;
  const layerOf = (img: MadeLayout) => img.images[0]?.layers[0] as { digest: string; size: number };

  const env = (more: Record<string, string> = {}) => {
    const dir = mkdtempSync(join(tmp, 'env-'));
    const auth = Buffer.from(SKOPEO_CREDS).toString('base64');
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ auths: Object.fromEntries([A, B, a.host, b.host].map((h) => [h, { auth }])) }),
    );
    return {
      HUBCTL_CONFIG_DIR: join(dir, 'cfg'),
      HOME: dir,
      DOCKER_CONFIG: dir,
      HUBCTL_BASE_URL: hub.url,
      HUBCTL_PLATFORM: 'linux/amd64',
      ...more,
    };
  };
  const hubctl = (args: string[], more: Record<string, string> = {}) => runBin(args, { env: env(more) });
  /** The requests `proxy` saw for `digest` (its GETs, or the upload's PUT that names it). */
  const blobRequests = (proxy: FaultProxy, method: string, digest: string) =>
    proxy.seen.filter(
      (s) =>
        s.method === method &&
        (s.path.endsWith(`/blobs/${digest}`) || s.path.includes(`digest=${encodeURIComponent(digest)}`)),
    );

  beforeAll(async () => {
    ensureBuilt();
    tmp = mkdtempSync(join(tmpdir(), 'hubctl-large-blob-'));
    hub = await startHubEmulator();
    a = await startRegistry(hub.registryAuth);
    b = await startRegistry(hub.registryAuth);
    pa = await startFaultProxy(a.url);
    pb = await startFaultProxy(b.url);
    A = pa.host;
    B = pb.host;
    big = await makeOciImage(join(tmp, 'big'), { tag: 'v1', layers: 1, layerSize: 5 * MiB });
    bigger = await makeOciImage(join(tmp, 'bigger'), { tag: 'v1', layers: 1, layerSize: 10 * MiB });
    small = await makeOciImage(join(tmp, 'small'), { tag: 'v1', layers: 1, layerSize: 64 * 1024 });
    for (const [img, repo] of [
      [bigger, 'src/bigger'],
      [small, 'src/small'],
    ] as const) {
      const r = await hubctl(['image', 'push', `oci:${img.dir}:v1`, `${A}/${repo}:v1`]);
      expect(r.code, r.stderr).toBe(0);
    }
  }, 120_000);
  afterAll(async () => {
    await pa?.close();
    await pb?.close();
    await a?.stop();
    await b?.stop();
    await hub?.close();
  });
  beforeEach(() => {
    pa.clear();
    pb.clear();
  });

  it('image push and pull, of a layout and an archive: the layer goes on h1, every digest holds', async () => {
    const layer = layerOf(big);
    expect(layer.size).toBeGreaterThanOrEqual(5 * MiB);
    const push = await hubctl(['--json', 'image', 'push', `oci:${big.dir}:v1`, `${A}/team/big:v1`]);
    expect(push.code, push.stderr).toBe(0);
    expect(JSON.parse(push.stdout).digest).toBe(big.top.digest);
    // The layer's upload on a connection of its own; the small config blob's through undici.
    expect(blobRequests(pa, 'PUT', layer.digest).map((s) => s.connection)).toEqual([undefined]);
    const config = big.images[0]?.config.digest as string;
    expect(blobRequests(pa, 'PUT', config).map((s) => s.connection)).toEqual(['keep-alive']);

    pa.clear();
    const out = join(tmp, 'pulled-big');
    const pull = await hubctl(['--json', 'image', 'pull', `${A}/team/big:v1`, `oci:${out}:v1`]);
    expect(pull.code, pull.stderr).toBe(0);
    expect(JSON.parse(pull.stdout).digest).toBe(big.top.digest);
    expect(blobRequests(pa, 'GET', layer.digest).map((s) => s.connection)).toEqual([undefined]);
    const bytes = readFileSync(join(out, 'blobs', 'sha256', layer.digest.slice(7)));
    expect(bytes.length).toBe(layer.size);
    expect(sha256(bytes)).toBe(layer.digest);

    // An archive both ways: pulled into one, pushed from it to the other registry; skopeo reads it there.
    const archive = join(tmp, 'big.tar');
    const toArchive = await hubctl(['image', 'pull', `${A}/team/big:v1`, `oci-archive:${archive}`]);
    expect(toArchive.code, toArchive.stderr).toBe(0);
    const fromArchive = await hubctl([
      '--json',
      'image',
      'push',
      `oci-archive:${archive}`,
      `${B}/team/big:v1`,
    ]);
    expect(fromArchive.code, fromArchive.stderr).toBe(0);
    expect(blobRequests(pb, 'PUT', layer.digest).map((s) => s.connection)).toEqual([undefined]);
    const raw = await skopeo(
      'inspect',
      '--raw',
      '--tls-verify=false',
      '--creds',
      SKOPEO_CREDS,
      `docker://${b.host}/team/big:v1`,
    );
    expect(sha256(raw)).toBe(big.top.digest);
  }, 120_000);

  it('image copy between two registries: the layer read and written on h1, and skopeo copies the result', async () => {
    const layer = layerOf(bigger);
    const r = await hubctl(['image', 'copy', `${A}/src/bigger:v1`, `${B}/dst/bigger:v1`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${B}/dst/bigger:v1@${bigger.top.digest}\n`);
    expect(blobRequests(pa, 'GET', layer.digest).map((s) => s.connection)).toEqual([undefined]);
    expect(blobRequests(pb, 'PUT', layer.digest).map((s) => s.connection)).toEqual([undefined]);

    // skopeo, straight from the registry behind B, copies what arrived; every digest is checked.
    const out = join(tmp, 'skopeo-bigger');
    await skopeo(...skopeoPullArgs(`${b.host}/dst/bigger:v1`, `oci:${out}:v1`));
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
    expect(index.manifests[0].digest).toBe(bigger.top.digest);
    const copied = readFileSync(join(out, 'blobs', 'sha256', layer.digest.slice(7)));
    expect(sha256(copied)).toBe(layer.digest);
  }, 120_000);

  it('a layer cut mid-way is resumed with a Range request, on h1 again, in the same run', async () => {
    const layer = layerOf(bigger);
    // Half of 10 MiB arrives, then a reset: the rest (5 MiB, still large) is asked for from there.
    pa.on('GET', new RegExp(`/blobs/${layer.digest}$`), { kind: 'reset-mid-body' }, 1);
    const out = join(tmp, 'resumed');
    const r = await hubctl(['--debug', 'image', 'pull', `${A}/src/bigger:v1`, `oci:${out}:v1`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/> range: bytes=\d{6,}-/);
    const gets = blobRequests(pa, 'GET', layer.digest);
    expect(gets).toHaveLength(2);
    expect(gets.map((s) => s.connection)).toEqual([undefined, undefined]);
    const bytes = readFileSync(join(out, 'blobs', 'sha256', layer.digest.slice(7)));
    expect(sha256(bytes)).toBe(layer.digest);
  }, 120_000);

  it('a layer cut every time: one plain sentence and exit 7, the same as for a small layer on undici', async () => {
    const sentences: string[] = [];
    for (const [img, repo] of [
      [bigger, 'src/bigger'],
      [small, 'src/small'],
    ] as const) {
      pa.clear();
      const layer = layerOf(img);
      pa.on('GET', new RegExp(`/blobs/${layer.digest}$`), { kind: 'reset-mid-body' });
      const t0 = Date.now();
      const r = await hubctl([
        'image',
        'pull',
        `${A}/${repo}:v1`,
        `oci:${join(tmp, `cut-${repo.slice(4)}`)}:v1`,
      ]);
      expect(r.code, r.stderr).toBe(7);
      expect(Date.now() - t0).toBeLessThan(60_000);
      const lines = r.stderr.split('\n').filter((l) => l.startsWith('hubctl: '));
      expect(lines, r.stderr).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(lines[0]).toContain(layer.digest);
      const gets = blobRequests(pa, 'GET', layer.digest);
      expect(gets.length).toBeGreaterThan(1);
      // The big layer's first read on h1 (its resumed reads may be small), the small one's on undici.
      expect(gets[0]?.connection).toBe(img === bigger ? undefined : 'keep-alive');
      sentences.push(
        (lines[0] as string)
          .replaceAll(layer.digest, '<layer>')
          .replaceAll(repo, '<repo>')
          .replace(/\(tried \d+ times\)/, '(tried N times)'),
      );
    }
    expect(sentences[0]).toContain('the connection was cut in the middle of the answer');
    expect(sentences[0]).toBe(sentences[1]);
  }, 180_000);

  it('a layer that drips: given up as undici’s path gives it up (drip-registry.test.ts), exit 7', async () => {
    const layer = layerOf(bigger);
    pa.on('GET', new RegExp(`/blobs/${layer.digest}$`), { kind: 'drip-mid-body', everyMs: 200 });
    const t0 = Date.now();
    const r = await hubctl(['image', 'pull', `${A}/src/bigger:v1`, `oci:${join(tmp, 'dripped')}:v1`], {
      HUBCTL_HTTP_TIMEOUT: '0.5',
    });
    expect(r.code, r.stderr).toBe(7);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('hubctl: '));
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toContain(`pulling blob ${layer.digest} from ${A}/src/bigger`);
    expect(lines[0]).toContain('less than 1 KiB arrived in 2 s (the answer is too slow)');
    const gets = blobRequests(pa, 'GET', layer.digest);
    expect(gets.length).toBeGreaterThan(1);
    // The first read on h1 (the resumed ones are on h1 while what is left is 4 MiB or more).
    expect(gets[0]?.connection).toBeUndefined();
    expect(Date.now() - t0).toBeLessThan(60_000);
  }, 90_000);

  it.skipIf(!tinyproxyAvailable())(
    'through an HTTP proxy the layer goes through undici and the proxy, and the copy holds',
    async () => {
      const proxy: RunningProxy = await startTinyproxy();
      try {
        const layer = layerOf(bigger);
        const r = await hubctl(['image', 'copy', `${A}/src/bigger:v1`, `${B}/dst/proxied:v1`], {
          HTTP_PROXY: proxy.url,
        });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toBe(`${B}/dst/proxied:v1@${bigger.top.digest}\n`);
        await new Promise((res) => setTimeout(res, 100)); // tinyproxy logs after the fact
        expect(proxy.requests()).toContain(`CONNECT ${A}`);
        expect(proxy.requests()).toContain(`CONNECT ${B}`);
        // undici's requests, through the proxy's tunnels: not a connection of their own.
        expect(blobRequests(pa, 'GET', layer.digest).map((s) => s.connection)).toEqual(['keep-alive']);
        expect(blobRequests(pb, 'PUT', layer.digest).map((s) => s.connection)).toEqual(['keep-alive']);
        const raw = await skopeo(
          'inspect',
          '--raw',
          '--tls-verify=false',
          '--creds',
          SKOPEO_CREDS,
          `docker://${b.host}/dst/proxied:v1`,
        );
        expect(sha256(raw)).toBe(bigger.top.digest);
      } finally {
        await proxy.stop();
      }
    },
    120_000,
  );
});

// A registry (anonymous, plain HTTP) whose 5 MiB layer comes as a broken chunked body: README's
// Connections says a malformed answer is a network error (exit 7), in one sentence.
describe('a 5 MiB layer whose chunked body is broken', () => {
  let server: Server;
  let R: string;
  let img: MadeLayout;
  let tmp: string;
  beforeAll(async () => {
    ensureBuilt();
    tmp = mkdtempSync(join(tmpdir(), 'hubctl-broken-chunked-'));
    img = await makeOciImage(join(tmp, 'img'), { tag: 'v1', layers: 1, layerSize: 5 * MiB });
    const image = img.images[0];
    const layer = image?.layers[0]?.digest as string;
    const blob = (d: string) => readFileSync(join(img.dir, 'blobs', 'sha256', d.slice(7)));
    server = createServer((req, res) => {
      const path = req.url ?? '';
      if (path === '/v2/' || path === '/v2')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      if (path === '/v2/team/app/manifests/v1' || path.endsWith(`/manifests/${img.top.digest}`)) {
        const body = blob(img.top.digest);
        res.writeHead(200, {
          'content-type': img.top.mediaType,
          'content-length': String(body.length),
          'docker-content-digest': img.top.digest,
        });
        return void res.end(req.method === 'HEAD' ? undefined : body);
      }
      const m = /^\/v2\/team\/app\/blobs\/(sha256:[0-9a-f]{64})$/.exec(path);
      if (m && m[1] === layer && req.method === 'GET') {
        // 1 MiB announced as a chunk, a byte more sent: the chunk is longer than its size.
        res.socket?.write(
          Buffer.concat([
            Buffer.from(
              'HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ntransfer-encoding: chunked\r\n\r\n100000\r\n',
            ),
            Buffer.alloc(MiB + 1, 0x61),
            Buffer.from('\r\n0\r\n\r\n'),
          ]),
        );
        return;
      }
      if (m) {
        const body = blob(m[1] as string);
        res.writeHead(200, {
          'content-length': String(body.length),
          'docker-content-digest': m[1] as string,
        });
        return void res.end(req.method === 'HEAD' ? undefined : body);
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":[{"code":"NOT_FOUND"}]}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    R = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it('image pull: one plain sentence, exit 7', async () => {
    const layer = img.images[0]?.layers[0]?.digest as string;
    const dir = mkdtempSync(join(tmp, 'env-'));
    const r = await runBin(['image', 'pull', `${R}/team/app:v1`, `oci:${join(tmp, 'out')}:v1`], {
      env: {
        HUBCTL_CONFIG_DIR: join(dir, 'cfg'),
        HOME: dir,
        DOCKER_CONFIG: dir,
        HUBCTL_PLATFORM: 'linux/amd64',
      },
    });
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('hubctl: '));
    expect(lines, r.stderr).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at |unexpected error/);
    expect(lines[0]).toContain(layer);
    expect(lines[0]).toContain('a chunk of the answer is longer than its size');
    expect(r.code, r.stderr).toBe(7);
  }, 60_000);
});

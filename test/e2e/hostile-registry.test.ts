// The built bin against a registry that misbehaves: test/support/fault-proxy.ts in front of a real
// distribution 2.8 with token auth (the hub emulator as token service). Foreign and circular tag
// links, oversized and cut manifests, token services on other origins. Each case checks the exit
// code, the one line on stderr, and where the credentials went.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type FaultProxy, type Recorder, startFaultProxy, startRecorder } from '../support/fault-proxy.js';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { makeOciImage } from '../support/oci-images.js';
import { describeWithRegistry, type RunningRegistry, startRegistry } from '../support/registry.js';
import { runBin as runBinWith } from '../support/run-bin.js';

const runBin = (args: string[], env: Record<string, string>) => runBinWith(args, { env });

describeWithRegistry('a hostile registry', () => {
  let hub: HubEmulator;
  let registry: RunningRegistry;
  let proxy: FaultProxy;
  let elsewhere: Recorder;
  let tmp: string;
  let R: string;
  let layer: string;
  const BASIC = `Basic ${Buffer.from('alice:alice-password').toString('base64')}`;
  const MANIFEST = /^\/v2\/team\/app\/manifests\/v1$/;
  const TAGS = /^\/v2\/team\/app\/tags\/list$/;

  const env = () => {
    const dir = mkdtempSync(join(tmp, 'env-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ auths: { [R]: { auth: BASIC.slice(6) } } }));
    return {
      HUBCTL_CONFIG_DIR: join(dir, 'cfg'),
      HOME: dir,
      DOCKER_CONFIG: dir,
      HUBCTL_BASE_URL: hub.url,
      HUBCTL_PLATFORM: 'linux/amd64',
      HUBCTL_HTTP_TIMEOUT: '2',
    };
  };
  const hubctl = (args: string[]) => runBin(args, env());
  const oneLine = (stderr: string) => {
    const lines = stderr.split('\n').filter(Boolean);
    expect(lines, stderr).toHaveLength(1);
    return lines[0];
  };
  /** The registry's own listener saw Basic credentials nowhere, and only Bearer tokens. */
  const onlyTokensAtRegistry = () => {
    for (const s of proxy.seen) if (s.authorization) expect(s.authorization).toMatch(/^Bearer /);
  };

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'hubctl-hostile-reg-'));
    hub = await startHubEmulator();
    registry = await startRegistry(hub.registryAuth);
    proxy = await startFaultProxy(registry.url);
    elsewhere = await startRecorder();
    R = proxy.host;
    const image = await makeOciImage(join(tmp, 'img'), { tag: 'v1', layers: 1, layerSize: 32 * 1024 });
    layer = image.images[0]?.layers[0]?.digest ?? '';
    const pushed = await hubctl(['image', 'push', `oci:${image.dir}:v1`, `${R}/team/app:v1`]);
    expect(pushed.code, pushed.stderr).toBe(0);
  });
  afterAll(async () => {
    await proxy?.close();
    await elsewhere?.close();
    await registry?.stop();
    await hub?.close();
  });
  beforeEach(() => {
    proxy.clear();
    elsewhere.seen.length = 0;
    hub.clearRequests();
  });

  it('image tags: a Link to another origin is exit 7, never followed', async () => {
    proxy.on('GET', TAGS, {
      kind: 'rewrite-headers',
      edit: (h) => ({ ...h, link: `<${elsewhere.url}/v2/team/app/tags/list?last=v1>; rel="next"` }),
    });
    const r = await hubctl(['image', 'tags', `${R}/team/app`]);
    expect(r.code).toBe(7);
    expect(oneLine(r.stderr)).toBe(
      `hubctl: listing tags of ${R}/team/app: unexpected answer from ${R}: the next page is on another server (${elsewhere.origin})`,
    );
    expect(elsewhere.seen).toEqual([]);
    onlyTokensAtRegistry();
  });

  it('image tags: a Link back to the same page is exit 7', async () => {
    proxy.on('GET', TAGS, {
      kind: 'rewrite-headers',
      edit: (h) => ({ ...h, link: '</v2/team/app/tags/list?n=1>; rel="next"' }),
    });
    const r = await hubctl(['image', 'tags', `${R}/team/app`]);
    expect(r.code).toBe(7);
    expect(oneLine(r.stderr)).toMatch(/a page points back to an earlier page$/);
  });

  it('image inspect: a manifest over 4 MiB is exit 7, read no further', async () => {
    proxy.on('GET', MANIFEST, { kind: 'oversize', bytes: 5 * 1024 * 1024, announce: false });
    const r = await hubctl(['image', 'inspect', `${R}/team/app:v1`]);
    expect(r.code).toBe(7);
    expect(oneLine(r.stderr)).toBe(
      `hubctl: getting manifest v1 of ${R}/team/app: unexpected answer from ${R}: the answer is larger than 4 MiB`,
    );
  });

  it('image inspect: a manifest cut mid-body once is fetched again; every time, exit 7', async () => {
    proxy.on('GET', MANIFEST, { kind: 'reset-mid-body' }, 1);
    const once = await hubctl(['--json', 'image', 'inspect', `${R}/team/app:v1`]);
    expect(once.stderr).toBe('');
    expect(once.code).toBe(0);
    proxy.clear();
    proxy.on('GET', MANIFEST, { kind: 'reset-mid-body' });
    const always = await hubctl(['image', 'inspect', `${R}/team/app:v1`]);
    expect(always.code).toBe(7);
    expect(oneLine(always.stderr)).toMatch(
      /^hubctl: getting manifest v1 of .*: GET .* failed: the connection was cut in the middle of the answer \(tried 4 times\)$/,
    );
    onlyTokensAtRegistry();
  });

  it.each([
    ['the config', /^\/v2\/team\/app\/blobs\//],
    ['a layer (streamed to disk)', /^\/v2\/team\/app\/blobs\/sha256:LAYER$/],
  ])(
    'image pull: %s cut mid-body every time is exit 7 in a plain sentence, no blob left',
    async (_what, path) => {
      proxy.on('GET', new RegExp(path.source.replace('LAYER', layer.slice(7))), { kind: 'reset-mid-body' });
      const dest = join(tmp, `pull-cut-${proxy.seen.length}-${Date.now()}`);
      const r = await hubctl(['image', 'pull', `${R}/team/app:v1`, `oci:${dest}`]);
      expect(r.code).toBe(7);
      expect(r.stderr).not.toMatch(/unexpected error|other side closed|ECONNRESET/);
      const errors = r.stderr.split('\n').filter((l) => l.startsWith('hubctl: '));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/the connection was cut in the middle of the answer/);
      expect(existsSync(join(dest, 'blobs', 'sha256', layer.slice(7)))).toBe(false);
    },
  );

  it('a token service over plain HTTP on another machine never gets the credential: exit 7 before sending', async () => {
    proxy.on('GET', /^\/v2\/$/, {
      kind: 'rewrite-headers',
      edit: (h) => ({ ...h, 'www-authenticate': 'Bearer realm="http://10.255.255.1/token",service="x"' }),
    });
    const r = await hubctl(['image', 'tags', `${R}/team/app`]);
    expect(r.code).toBe(7);
    expect(oneLine(r.stderr)).toBe(
      `hubctl: unexpected answer from ${R}: its token service is plain HTTP on another machine (http://10.255.255.1): hubctl sends credentials to a token service only over HTTPS, or on loopback for a loopback registry`,
    );
    expect(hub.requestsTo('/registry/token')).toEqual([]);
  });

  it('a loopback registry may name a loopback token service: it gets the Basic credential, nothing else does', async () => {
    proxy.on('GET', /^\/v2\/$/, {
      kind: 'rewrite-headers',
      edit: (h) => ({ ...h, 'www-authenticate': `Bearer realm="${elsewhere.url}/token",service="x"` }),
    });
    const r = await hubctl(['image', 'tags', `${R}/team/app`]);
    // The recorder answers no token: the registry then refuses.
    expect(r.code).not.toBe(0);
    expect(elsewhere.seen.map((s) => s.authorization)).toEqual([BASIC]);
    onlyTokensAtRegistry();
  });
});

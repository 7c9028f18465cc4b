// Registry settings kept in a profile (`registry.HOST.plain-http|ca-file|mirror|concurrency`):
// checked when set, shown by `config list` and `auth status HOST`, overridden by flags, and in
// force: a registry on a non-loopback address reached over http:// with plain-http, over HTTPS
// with its own CA with ca-file (that CA trusted for it alone), and pulls tried at a mirror first.
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, request, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeEcCertificate } from '../support/certificate.js';
import { makeOciImage } from '../support/oci-images.js';
import { type ReferrersRegistry, startReferrersRegistry } from '../support/referrers-registry.js';
import { type RunningRegistry, startRegistry } from '../support/registry.js';
import { describeWithTools } from '../support/tools.js';
import { type ImageWorld, startImageWorld } from './helpers.js';

/** An address of this machine that is not loopback (hubctl reaches loopback over http:// always). */
const OUTSIDE = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

/** A reverse proxy on OUTSIDE to a registry, over http or https; Host kept (Locations name it). */
async function front(
  target: string,
  tls?: { key: string; cert: string },
): Promise<{ host: string; server: Server }> {
  const upstream = new URL(target);
  const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    const up = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  };
  const server = tls ? createHttpsServer(tls, handler) : createHttpServer(handler);
  await new Promise<void>((r) => server.listen(0, OUTSIDE, () => r()));
  return { host: `${OUTSIDE}:${(server.address() as AddressInfo).port}`, server };
}

describeWithTools(['docker-registry'], 'registry settings in profiles', () => {
  let w: ImageWorld;
  let mirror: RunningRegistry;
  let origin: ReferrersRegistry;
  let R: string;
  let M: string;
  let O: string;
  /** Without auth: hubctl sends no credential over http:// or to a plain-HTTP token service off loopback. */
  let open: RunningRegistry;
  const servers: Server[] = [];

  beforeAll(async () => {
    w = await startImageWorld();
    mirror = await startRegistry(w.hub.registryAuth);
    origin = await startReferrersRegistry(w.registry.url); // records what the origin is asked
    R = w.registry.host;
    M = mirror.host;
    O = origin.host;
    const env = w.withCredentialsFor([R, M]);
    const img = await makeOciImage(join(w.tmp, 'img'), { tag: '1', layers: 1, layerSize: 2048 });
    for (const to of [`${R}/team/app:1`, `${M}/team/app:1`, `${R}/team/only-origin:1`])
      expect((await w.run(['image', 'push', `oci:${img.dir}:1`, to], { env })).code).toBe(0);
    open = await startRegistry({ auth: 'none' });
    expect(
      (await w.run(['image', 'push', `oci:${img.dir}:1`, `${open.host}/team/app:1`], { env: w.anonEnv }))
        .code,
    ).toBe(0);
  });
  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections?.();
      s.close();
    }
    await origin?.close();
    await open?.stop();
    await mirror?.stop();
    await w?.stop();
  });

  it('config set checks each setting; config list and auth status name them, flags override', async () => {
    const env = w.withCredentialsFor([R]);
    const run = (argv: string[]) => w.run(argv, { env });
    expect((await run(['config', 'set', `registry.${R}.plain-http`, 'true'])).code).toBe(0);
    expect((await run(['config', 'set', `registry.${R}.concurrency`, '2'])).code).toBe(0);
    expect((await run(['config', 'set', `registry.${R}.mirror`, `http://${M}`])).code).toBe(0);
    for (const [key, value, message] of [
      [`registry.${R}.plain-http`, 'yes', /is true or false/],
      [`registry.${R}.concurrency`, '64', /from 1 to 32/],
      [`registry.${R}.mirror`, 'https://user:pw@m.example', /host\[:port\]/],
      [
        `registry.${R}.speed`,
        '1',
        /registry\.HOST\.SETTING, SETTING one of plain-http, ca-file, mirror, concurrency/,
      ],
      ['registry.bad host.plain-http', 'true', /is not a registry host/],
    ] as const) {
      const r = await run(['config', 'set', key, value]);
      expect(r.code, key).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const list = JSON.parse((await run(['--json', 'config', 'list'])).stdout);
    expect(list.registries).toEqual({
      [R]: {
        'plain-http': { value: 'true', source: 'profile' },
        mirror: { value: `http://${M}`, source: 'profile' },
        concurrency: { value: '2', source: 'profile' },
      },
    });
    const flagged = JSON.parse(
      (await run(['--json', '--plain-http', 'other.example:5000', 'config', 'list'])).stdout,
    );
    expect(flagged.registries['other.example:5000']).toEqual({
      'plain-http': { value: 'true', source: 'flag' },
    });
    const text = await run(['config', 'list']);
    expect(text.stdout).toContain(`registry.${R}.concurrency\t2\tprofile\n`);
    const status = JSON.parse((await run(['--json', 'auth', 'status', R])).stdout);
    expect(status.settings).toMatchObject({
      'plain-http': { value: 'true', source: 'profile' },
      concurrency: { value: '2' },
    });
    expect((await run(['config', 'get', `registry.${R}.concurrency`])).stdout).toBe('2\n');
    expect((await run(['config', 'unset', `registry.${R}.concurrency`])).code).toBe(0);
    expect(
      JSON.parse((await run(['--json', 'config', 'list'])).stdout).registries[R].concurrency,
    ).toBeUndefined();
  });

  it('pulls try the mirror first, then the registry; HUBCTL_REGISTRY_MIRRORS=off skips it', async () => {
    const env = w.withCredentialsFor([O, M]);
    const run = (argv: string[], extra: Record<string, string> = {}) =>
      w.run(argv, { env: { ...env, ...extra } });
    expect((await run(['config', 'set', `registry.${O}.mirror`, M])).code).toBe(0);
    origin.seen.length = 0;
    const a = await run(['--debug', 'image', 'pull', `${O}/team/app:1`, `oci:${join(w.tmp, 'm1')}:1`]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toContain(`pulling ${O}/team/app:1 from the mirror ${M}/team/app:1`);
    expect(origin.seen.filter((s) => s.path.includes('/team/'))).toEqual([]);
    // Not at the mirror: the registry itself.
    const b = await run([
      '--debug',
      'image',
      'pull',
      `${O}/team/only-origin:1`,
      `oci:${join(w.tmp, 'm2')}:1`,
    ]);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toMatch(/the mirror .* failed .*: using/);
    expect(origin.seen.some((s) => s.path.includes('/team/only-origin/manifests/1'))).toBe(true);
    origin.seen.length = 0;
    const c = await run(['image', 'pull', `${O}/team/app:1`, `oci:${join(w.tmp, 'm3')}:1`], {
      HUBCTL_REGISTRY_MIRRORS: 'off',
    });
    expect(c.code, c.stderr).toBe(0);
    expect(origin.seen.some((s) => s.path.includes('/team/app/manifests/1'))).toBe(true);
  });

  it.skipIf(!OUTSIDE)('plain-http reaches a registry on a non-loopback address over http://', async () => {
    const plain = await front(open.url);
    servers.push(plain.server);
    const env = { ...w.anonEnv, HUBCTL_CONFIG_DIR: join(w.tmp, 'plain-config') };
    const before = await w.run(['image', 'tags', `${plain.host}/team/app`], { env });
    expect(before.code).toBe(7); // https:// to a plain server
    expect((await w.run(['config', 'set', `registry.${plain.host}.plain-http`, 'true'], { env })).code).toBe(
      0,
    );
    const after = await w.run(['image', 'tags', `${plain.host}/team/app`], { env });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toBe('1\n');
  });

  it.skipIf(!OUTSIDE)('ca-file trusts a registry CA for that registry', async () => {
    const dir = join(w.tmp, 'tls');
    mkdirSync(dir);
    makeEcCertificate(join(dir, 'key.pem'), join(dir, 'cert.pem'), {
      commonName: 'registry',
      days: 2,
      ipAddress: OUTSIDE,
    });
    const tls = {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
    const secure = await front(open.url, tls);
    servers.push(secure.server);
    const env = { ...w.anonEnv, HUBCTL_CONFIG_DIR: join(w.tmp, 'tls-config') };
    const before = await w.run(['image', 'tags', `${secure.host}/team/app`], { env });
    expect(before.code).toBe(7);
    expect(before.stderr).toContain('not trusted');
    expect(
      (await w.run(['config', 'set', `registry.${secure.host}.ca-file`, join(dir, 'cert.pem')], { env }))
        .code,
    ).toBe(0);
    const after = await w.run(['image', 'tags', `${secure.host}/team/app`], { env });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toBe('1\n');
    // The same CA is not trusted for another host (the same server under another port).
    const other = await front(open.url, tls);
    servers.push(other.server);
    const elsewhere = await w.run(['image', 'tags', `${other.host}/team/app`], {
      env,
    });
    expect(elsewhere.code).toBe(7);
  });
});

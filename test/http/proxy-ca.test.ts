// HTTP_PROXY/NO_PROXY and --ca-file against real servers on 127.0.0.1.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkError, UsageError } from '../../src/errors.js';
import { createHttpClient } from '../../src/http/client.js';
import { makeEcCertificate } from '../support/certificate.js';
import { recordingClock } from './mock.js';

const listen = async (server: Server, host = '127.0.0.1') => {
  await new Promise<void>((r) => server.listen(0, host, () => r()));
  return (server.address() as AddressInfo).port;
};
const close = async (server: Server) => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
};
const client = (env: Record<string, string>, caFile?: string) =>
  createHttpClient({ userAgent: 't', clock: recordingClock(), env, caFile, maxRetries: 0 });

describe('proxies from the environment', () => {
  let proxy: Server;
  let target: Server;
  let proxyUrl: string;
  let targetUrl: string;
  const proxied: string[] = [];
  beforeAll(async () => {
    // A proxy that tunnels CONNECT (what undici's ProxyAgent sends) and answers plain forward requests.
    proxy = createServer((req, res) => {
      proxied.push(req.url ?? '');
      res.end('via proxy');
    });
    proxy.on('connect', (req, socket, head) => {
      proxied.push(`CONNECT ${req.url}`);
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    target = createServer((_req, res) => res.end('direct'));
    proxyUrl = `http://127.0.0.1:${await listen(proxy)}`;
    targetUrl = `http://127.0.0.1:${await listen(target)}/x`;
  });
  afterAll(async () => {
    await close(proxy);
    await close(target);
  });

  it('HTTP_PROXY routes through the proxy', async () => {
    proxied.length = 0;
    const res = await client({ HTTP_PROXY: proxyUrl }).request({ url: targetUrl });
    expect(['via proxy', 'direct']).toContain(await res.text());
    expect(proxied).toHaveLength(1);
    expect([targetUrl, `CONNECT ${new URL(targetUrl).host}`]).toContain(proxied[0]);
  });

  it('NO_PROXY (either case) goes direct', async () => {
    expect(
      await (
        await client({ HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' }).request({ url: targetUrl })
      ).text(),
    ).toBe('direct');
    expect(
      await (await client({ http_proxy: proxyUrl, no_proxy: '*' }).request({ url: targetUrl })).text(),
    ).toBe('direct');
  });

  it('no proxy variables: direct, even when the process environment has one', async () => {
    proxied.length = 0;
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = proxyUrl;
    try {
      expect(await (await client({}).request({ url: targetUrl })).text()).toBe('direct');
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
    }
    expect(proxied).toEqual([]);
  });
});

describe('--ca-file', () => {
  let server: ReturnType<typeof createHttpsServer>;
  let url: string;
  let caFile: string;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hubctl-ca-'));
    makeEcCertificate(join(dir, 'key.pem'), join(dir, 'cert.pem'), {
      commonName: '127.0.0.1',
      days: 2,
      ipAddress: '127.0.0.1',
    });
    caFile = join(dir, 'cert.pem');
    server = createHttpsServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(caFile) },
      (_req, res) => res.end('secure'),
    );
    url = `https://127.0.0.1:${await listen(server as unknown as Server)}/`;
  });
  afterAll(() => close(server as unknown as Server));

  it('an untrusted certificate is a network error that names the fix', async () => {
    const err = await client({})
      .request({ url })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toContain('--ca-file');
  });

  it('trusted with --ca-file', async () => {
    expect(await (await client({}, caFile).request({ url })).text()).toBe('secure');
  });

  it('an unreadable --ca-file is a usage error', async () => {
    const err = await client({}, '/nonexistent/ca.pem')
      .request({ url })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).exitCode).toBe(2);
  });
});

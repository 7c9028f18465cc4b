// pushBlob and the source's GET: a blob opened from a source (a registry's streamed GET, held
// paused until the upload reads it) that the upload never takes, because the upload failed before
// its PUT went out (here: the destination's token expired and the token service is down), is
// dropped, so that its connection does not stay open (a paused body has no deadline, and its open
// socket keeps the process from exiting).
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { RegistryClient } from '../../../src/api/registry/client.js';
import { createHttpClient } from '../../../src/http/client.js';
import { type OpenUpload, pushBlob } from '../../../src/image/registry/upload.js';
import type { TransferProgress } from '../../../src/output/progress.js';
import { fixedClock } from '../../support/run-cli.js';
import { startFakeServer } from './fake-server.js';

const silent: TransferProgress = { begin() {}, update() {}, done() {}, stop() {} };
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

it('drops the source read begun for an upload that failed before sending it', async () => {
  const size = 1024 * 1024;
  const blob = Buffer.alloc(size, 7);
  const digest = `sha256:${createHash('sha256').update(blob).digest('hex')}`;
  // The source sends all but the last byte and waits: its answer ends only when the client drops it.
  let sourceDropped = false;
  const source = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': String(size) });
    res.write(blob.subarray(0, size - 1));
    res.socket?.on('close', () => {
      sourceDropped = true;
    });
  });
  await new Promise<void>((r) => source.listen(0, '127.0.0.1', () => r()));
  servers.push(source);
  const sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/blob`;

  const clock = fixedClock();
  const reg = await startFakeServer();
  let tokens = 0;
  reg.handle((req, res) => {
    const u = new URL(req.url ?? '/', reg.url);
    if (u.pathname === '/token') {
      // The first token is issued; by the PUT it has expired, and the service is down.
      if (++tokens > 1) {
        res.writeHead(503);
        return void res.end();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ token: 't1', expires_in: 60 }));
    }
    if (req.headers.authorization !== 'Bearer t1') {
      res.writeHead(401, {
        'www-authenticate': `Bearer realm="${reg.url}/token",service="reg",scope="repository:team/app:pull,push"`,
      });
      return void res.end();
    }
    if (req.method === 'POST') {
      clock.advance(10 * 60_000);
      res.writeHead(202, { location: '/v2/team/app/blobs/uploads/u1' });
      return void res.end();
    }
    res.writeHead(500);
    res.end();
  });
  try {
    const client = new RegistryClient({
      http: createHttpClient({ userAgent: 'test', clock, retryBaseMs: 1 }),
      clock,
      credentials: async () => undefined,
    });
    const http = createHttpClient({ userAgent: 'test', clock, retryBaseMs: 1 });
    const opened: string[] = [];
    const err = await pushBlob(
      {
        client,
        repo: { registry: reg.host, repository: 'team/app' },
        progress: silent,
        signal: new AbortController().signal,
        open: new Set<OpenUpload>(),
        probeByMountMax: 2 * size,
        monolithicMax: 2 * size,
      },
      digest,
      size,
      async () => {
        opened.push('GET');
        return (await http.request({ url: sourceUrl, stream: true })).body;
      },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(opened.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(sourceDropped).toBe(true);
  } finally {
    await reg.close();
  }
});

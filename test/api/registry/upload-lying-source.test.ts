// A registry-to-registry copy from a source that sends more or fewer bytes than the blob's
// descriptor says (chunked, so nothing on the wire says so): the copy fails as a digest mismatch
// (exit 1), the destination never completes the upload, and the lying source is not downloaded
// again and again.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { RegistryClient } from '../../../src/api/registry/client.js';
import { IntegrityError } from '../../../src/errors.js';
import { createHttpClient } from '../../../src/http/client.js';
import { RegistryDestination } from '../../../src/image/registry/destination.js';
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

const size = 256 * 1024;
const blob = Buffer.alloc(size, 3);
const digest = `sha256:${createHash('sha256').update(blob).digest('hex')}`;

const more = Buffer.alloc(64 * 1024, 4);
it.each([
  ['the blob, then more', Buffer.concat([blob, more])],
  ['other bytes of its size, then more', Buffer.concat([Buffer.alloc(size, 5), more])],
  ['fewer bytes, then a clean end', blob.subarray(0, size - 1000)],
])('refuses a source that sends %s as a digest mismatch (exit 1), downloaded once', async (_what, sent) => {
  let gets = 0;
  const source = createServer((_req, res) => {
    gets++;
    res.writeHead(200);
    // In pieces: the upload has most of them before the source's lie shows.
    for (let i = 0; i < sent.length; i += 32 * 1024) res.write(sent.subarray(i, i + 32 * 1024));
    res.end();
  });
  await new Promise<void>((r) => source.listen(0, '127.0.0.1', () => r()));
  servers.push(source);
  const url = `http://127.0.0.1:${(source.address() as AddressInfo).port}/blob`;

  const reg = await startFakeServer();
  // As a registry does: a PUT stores the blob when its bytes hash to its digest; HEAD finds it.
  let completed = 0;
  const stored = new Set<string>();
  reg.handle((req, res, body) => {
    const u = new URL(req.url ?? '/', reg.url);
    if (req.method === 'HEAD') {
      res.writeHead(stored.has(u.pathname.split('/').pop() ?? '') ? 200 : 404);
      return void res.end();
    }
    if (req.method === 'POST') {
      res.writeHead(202, { location: '/v2/team/app/blobs/uploads/u1' });
      return void res.end();
    }
    if (req.method === 'PUT' && u.pathname.endsWith('/u1')) {
      const got = `sha256:${createHash('sha256').update(body).digest('hex')}`;
      if (got !== u.searchParams.get('digest')) {
        res.writeHead(400, { 'content-type': 'application/json' });
        return void res.end(
          JSON.stringify({ errors: [{ code: 'DIGEST_INVALID', message: 'digest invalid' }] }),
        );
      }
      completed++;
      stored.add(got);
      res.writeHead(201, { 'docker-content-digest': got });
      return void res.end();
    }
    if (req.method === 'GET' && u.pathname.endsWith('/u1')) {
      res.writeHead(204, { range: '0-0', location: '/v2/team/app/blobs/uploads/u1' });
      return void res.end();
    }
    res.writeHead(405);
    res.end();
  });
  try {
    const clock = fixedClock();
    const client = new RegistryClient({
      http: createHttpClient({ userAgent: 'test', clock, retryBaseMs: 1 }),
      clock,
      credentials: async () => undefined,
    });
    const http = createHttpClient({ userAgent: 'test', clock, retryBaseMs: 1 });
    const dest = new RegistryDestination(
      client,
      { registry: reg.host, repository: 'team/app', tag: 'v1' } as never,
      { signal: new AbortController().signal },
    );
    const err = await dest
      .putBlob(
        { mediaType: 'application/octet-stream', digest, size },
        {
          open: async () => ({ body: (await http.request({ url, stream: true })).body, start: 0 }),
          rereadable: false,
        },
        silent,
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IntegrityError);
    expect((err as IntegrityError).exitCode).toBe(1);
    expect((err as Error).message).toContain(`blob ${digest} from the source`);
    expect(completed).toBe(0);
    expect(gets).toBe(1);
  } finally {
    await reg.close();
  }
});

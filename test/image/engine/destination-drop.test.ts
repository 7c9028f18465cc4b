// Loading into an engine from a registry's streamed blob: when the engine has stopped reading the
// image (a refused load), the blob's GET, opened before the tar header is written, is dropped with
// the failure: paused and unread, it would hold its connection open with no deadline and keep the
// process from exiting after the error was reported.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import type { EngineClient } from '../../../src/api/engine/client.js';
import { createHttpClient } from '../../../src/http/client.js';
import { EngineDestination } from '../../../src/image/engine/destination.js';
import type { TransferProgress } from '../../../src/output/progress.js';
import { fixedClock } from '../../support/run-cli.js';

const silent: TransferProgress = { begin() {}, update() {}, done() {}, stop() {} };
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

it('drops the blob read when the engine no longer takes the image', async () => {
  const size = 1024 * 1024;
  let gets = 0;
  let dropped = 0;
  const source = createServer((_req, res) => {
    gets++;
    res.writeHead(200, { 'content-length': String(size) });
    res.write(Buffer.alloc(size - 1, 1));
    res.socket?.on('close', () => {
      dropped++;
    });
  });
  await new Promise<void>((r) => source.listen(0, '127.0.0.1', () => r()));
  servers.push(source);
  const url = `http://127.0.0.1:${(source.address() as AddressInfo).port}/blob`;
  const http = createHttpClient({ userAgent: 'test', clock: fixedClock(), retryBaseMs: 1 });
  // The engine refuses the load at once (an engine's answer is not what this test is about).
  const engine = { loadImage: () => Promise.reject(new Error('the engine refused the image')) };
  const dest = new EngineDestination(engine as unknown as EngineClient, 'app:1');
  const feed = {
    open: async () => ({ body: (await http.request({ url, stream: true })).body, start: 0 }),
    rereadable: false,
  };
  const d = { mediaType: 'application/octet-stream', digest: `sha256:${'1'.repeat(64)}`, size };
  // The first blob meets the refusal at its first write (or a later one): either way it fails.
  await dest.putBlob(d, feed, silent).catch(() => undefined);
  const err = await dest.putBlob(d, feed, silent).catch((e: unknown) => e);
  expect((err as Error).message).toMatch(/refused/);
  await new Promise((r) => setTimeout(r, 500));
  expect(gets).toBe(2);
  expect(dropped).toBe(2);
});

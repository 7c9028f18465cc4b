// writeVerifiedBlob and the source's GET: a blob opened from a registry (a streamed GET, paused
// until it is read) for a partial file that cannot be opened (a symbolic link planted there while the GET was on its way) is
// dropped with the refusal: paused and unread, it would hold its connection open with no deadline
// and keep the process from exiting after the error was reported.
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createHttpClient } from '../../src/http/client.js';
import { writeVerifiedBlob } from '../../src/image/verified-write.js';
import { fixedClock } from '../support/run-cli.js';

const servers: Server[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

it('drops the source read when the partial file is refused', async () => {
  const size = 1024 * 1024;
  let sourceDropped = false;
  const source = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': String(size) });
    res.write(Buffer.alloc(size - 1, 1));
    res.socket?.on('close', () => {
      sourceDropped = true;
    });
  });
  await new Promise<void>((r) => source.listen(0, '127.0.0.1', () => r()));
  servers.push(source);
  const dir = await mkdtemp(join(tmpdir(), 'hubctl-vw-'));
  dirs.push(dir);
  const partialPath = join(dir, 'blob.partial');

  const http = createHttpClient({ userAgent: 'test', clock: fixedClock(), retryBaseMs: 1 });
  const url = `http://127.0.0.1:${(source.address() as AddressInfo).port}/blob`;
  const err = await writeVerifiedBlob({
    digest: `sha256:${'0'.repeat(64)}`,
    size,
    finalPath: join(dir, 'blob'),
    partialPath,
    open: async () => {
      const res = await http.request({ url, stream: true });
      // Planted while the GET was on its way (another process, or an attacker).
      await symlink(join(dir, 'elsewhere'), partialPath);
      return { body: res.body, start: 0 };
    },
  }).catch((e: unknown) => e);
  expect((err as Error).message).toMatch(/symbolic link/);
  await new Promise((r) => setTimeout(r, 500));
  expect(sourceDropped).toBe(true);
});

// readSmallBlob (a config read whole for the platform check, or for inspect): from a registry it
// must arrive within the deadline the HTTP layer gives any body it reads into memory (ten gaps),
// however it trickles; a config dripped fast enough to pass the blob body's minimum progress, yet
// slower than that deadline, fails with one sentence (a NetworkError, exit 7). Real HTTP on 127.0.0.1.
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { RegistryClient } from '../../src/api/registry/client.js';
import { exitCodeFor, IntegrityError, NetworkError } from '../../src/errors.js';
import { createHttpClient } from '../../src/http/client.js';
import { PlannedSource } from '../../src/image/planned-source.js';
import { RegistrySource } from '../../src/image/registry/source.js';
import { readSmallBlob } from '../../src/image/select.js';
import { parseReference } from '../../src/ref/reference.js';
import { type FakeServer, startFakeServer } from '../api/registry/fake-server.js';
import { fixedClock } from '../support/run-cli.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const config = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', pad: 'x'.repeat(30_000) }));
const d = {
  mediaType: 'application/vnd.oci.image.config.v1+json',
  digest: `sha256:${createHash('sha256').update(config).digest('hex')}`,
  size: config.length,
};

async function sourceFor(send: (res: ServerResponse) => void, timeoutMs: number) {
  const server = await startFakeServer();
  servers.push(server);
  server.handle((req, res) => {
    if (req.url === '/v2/') return res.writeHead(200).end('{}');
    send(res);
  });
  const clock = fixedClock();
  const client = new RegistryClient({
    http: createHttpClient({ userAgent: 'test', clock, timeoutMs, retryBaseMs: 1 }),
    clock,
    credentials: async () => undefined,
  });
  return new RegistrySource(client, parseReference(`${server.host}/app:1`), undefined, false);
}

/** 600 bytes every 100 ms: above the blob body's minimum progress, never a gap of 200 ms. */
function dripConfig(timers: NodeJS.Timeout[]) {
  return (res: ServerResponse) => {
    res.writeHead(200, { 'content-length': String(config.length) });
    let sent = 0;
    const t = setInterval(() => {
      if (res.destroyed) return clearInterval(t);
      res.write(config.subarray(sent, sent + 600));
      sent += 600;
      if (sent >= config.length) {
        clearInterval(t);
        res.end();
      }
    }, 100);
    timers.push(t);
  };
}

it('fails a config dripped slower than its deadline (ten gaps) in one sentence, exit 7', async () => {
  // 30 KB take 5 s, past the 2 s deadline.
  const timers: NodeJS.Timeout[] = [];
  const source = await sourceFor(dripConfig(timers), 200);
  const t0 = Date.now();
  const err = await readSmallBlob(source, d).catch((e: unknown) => e);
  const took = Date.now() - t0;
  for (const t of timers) clearInterval(t);
  expect(err).toBeInstanceOf(NetworkError);
  expect((err as Error).message).toBe(
    `${source.name}: the blob ${d.digest} (${d.size} bytes) took longer than 2 s to arrive`,
  );
  expect(exitCodeFor(err)).toBe(7);
  expect(took).toBeLessThan(3_500);
});

it('reads a config that arrives in time, and refuses one that runs past its size', async () => {
  const good = await sourceFor((res) => {
    res.writeHead(200, { 'content-length': String(config.length) });
    res.end(config);
  }, 1_000);
  expect((await readSmallBlob(good, d)).equals(config)).toBe(true);

  const long = await sourceFor((res) => {
    res.writeHead(200);
    res.end(Buffer.concat([config, Buffer.from('more')]));
  }, 1_000);
  const err = await readSmallBlob(long, d).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(IntegrityError);
  expect((err as Error).message).toBe(`${long.name}: the blob ${d.digest} does not match its digest`);
});

it("a sync plan's small blob, read whole to be kept, gets the same deadline", async () => {
  const timers: NodeJS.Timeout[] = [];
  const planned = new PlannedSource(await sourceFor(dripConfig(timers), 200), 1024 * 1024);
  const t0 = Date.now();
  const err = await planned.openBlob(d, 0).catch((e: unknown) => e);
  for (const t of timers) clearInterval(t);
  expect(err).toBeInstanceOf(NetworkError);
  expect((err as Error).message).toBe(
    `${planned.name}: the blob ${d.digest} (${d.size} bytes) took longer than 2 s to arrive`,
  );
  expect(Date.now() - t0).toBeLessThan(3_500);
  expect(planned.kept).toBe(0);
});

// An archive written from a registry's streamed blob (pull to oci-archive:/docker-archive:): a GET
// cut mid-way is continued with Range from where it broke, and a source that then ignores Range
// is refused with its answer dropped (paused and unread, it would hold its connection open).
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { IntegrityError } from '../../src/errors.js';
import { createHttpClient } from '../../src/http/client.js';
import { TarImageWriter } from '../../src/image/tar-image.js';
import type { TransferProgress } from '../../src/output/progress.js';
import { fixedClock } from '../support/run-cli.js';

const silent: TransferProgress = { begin() {}, update() {}, done() {}, stop() {} };
const servers: Server[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

const size = 1024 * 1024;
const blob = Buffer.alloc(size);
for (let i = 0; i < size; i++) blob[i] = (i * 13) % 251;
const digest = `sha256:${createHash('sha256').update(blob).digest('hex')}`;

/** The first GET is cut after half the blob; later ones answer a Range (or, `ignoreRange`, hold all but the last byte). */
async function source(ignoreRange: boolean) {
  const state = { gets: 0, ranges: [] as string[], lastDropped: false };
  const server = createServer((req, res) => {
    state.gets++;
    if (state.gets === 1) {
      res.writeHead(200, { 'content-length': String(size) });
      return void res.write(blob.subarray(0, size / 2), () => res.socket?.destroy());
    }
    const m = /bytes=(\d+)-/.exec(req.headers.range ?? '');
    state.ranges.push(req.headers.range ?? '');
    if (m && !ignoreRange) {
      const from = Number(m[1]);
      res.writeHead(206, {
        'content-range': `bytes ${from}-${size - 1}/${size}`,
        'content-length': String(size - from),
      });
      return void res.end(blob.subarray(from));
    }
    res.writeHead(200, { 'content-length': String(size) });
    res.write(blob.subarray(0, size - 1));
    res.socket?.on('close', () => {
      state.lastDropped = true;
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  servers.push(server);
  return { state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/blob` };
}

async function write(ignoreRange: boolean) {
  const src = await source(ignoreRange);
  const dir = await mkdtemp(join(tmpdir(), 'hubctl-tar-'));
  dirs.push(dir);
  const http = createHttpClient({ userAgent: 'test', clock: fixedClock(), retryBaseMs: 1 });
  const writer = new TarImageWriter(join(dir, 'image.tar'), async () => {});
  const result = await writer
    .putBlob(
      { mediaType: 'application/octet-stream', digest, size },
      {
        // As RegistrySource.openBlob answers: where the body really starts.
        open: async (start) => {
          const res = await http.request({
            url: src.url,
            stream: true,
            retry: false,
            headers: start > 0 ? { range: `bytes=${start}-` } : {},
          });
          return { body: res.body, start: res.status === 206 ? start : 0 };
        },
        rereadable: false,
      },
      silent,
      'pulled',
    )
    .catch((e: unknown) => e);
  await writer.abort();
  return { result, state: src.state };
}

it('continues a blob whose GET was cut mid-way with a Range from where it broke', async () => {
  const { result, state } = await write(false);
  expect(result).toBe('pulled');
  expect(state.ranges).toEqual([`bytes=${size / 2}-`]);
});

it('refuses a source that then ignores the Range, and drops its answer', async () => {
  const { result, state } = await write(true);
  expect(result).toBeInstanceOf(Error);
  expect((result as Error).message).toMatch(/could not continue at byte/);
  await new Promise((r) => setTimeout(r, 500));
  expect(state.lastDropped).toBe(true);
});

it('refuses a blob whose source sends fewer or more bytes than its descriptor, as a digest mismatch (exit 1)', async () => {
  for (const sent of [blob.subarray(0, size / 2), Buffer.concat([blob, Buffer.from('more')])]) {
    // Chunked, ended cleanly: nothing on the wire says the answer was cut.
    const server = createServer((_req, res) => {
      res.writeHead(200);
      res.end(sent);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/blob`;
    const dir = await mkdtemp(join(tmpdir(), 'hubctl-tar-'));
    dirs.push(dir);
    const http = createHttpClient({ userAgent: 'test', clock: fixedClock(), retryBaseMs: 1 });
    const writer = new TarImageWriter(join(dir, 'image.tar'), async () => {});
    const err = await writer
      .putBlob(
        { mediaType: 'application/octet-stream', digest, size },
        {
          open: async () => ({ body: (await http.request({ url, stream: true })).body, start: 0 }),
          rereadable: false,
        },
        silent,
        'pulled',
      )
      .catch((e: unknown) => e);
    await writer.abort();
    expect(err).toBeInstanceOf(IntegrityError);
    expect((err as IntegrityError).exitCode).toBe(1);
    expect((err as Error).message).toContain(digest);
  }
});

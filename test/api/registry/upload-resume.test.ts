// Chunked uploads against a registry that keeps what it received when a PATCH is cut (as the OCI
// distribution spec describes): hubctl asks the status (GET, Range) and continues from there, in
// the same run and from state saved by an earlier run. Real HTTP on 127.0.0.1.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RegistryClient } from '../../../src/api/registry/client.js';
import { createHttpClient } from '../../../src/http/client.js';
import { type OpenUpload, pushBlob } from '../../../src/image/registry/upload.js';
import { UploadStateStore } from '../../../src/image/registry/upload-state.js';
import type { TransferProgress } from '../../../src/output/progress.js';
import { fixedClock } from '../../support/run-cli.js';
import { type FakeServer, startFakeServer } from './fake-server.js';

const KiB = 1024;
const silent: TransferProgress = { begin() {}, update() {}, done() {}, stop() {} };

describe('chunked upload resume from the registry Range', () => {
  let reg: FakeServer;
  let stored: Buffer;
  let cutPatchNumber: number;
  let cutAfter: number;
  let patches: Array<{ range: string; received: number }>;
  let committed: boolean;
  let loseCommitAnswer: boolean;
  let uploads: UploadStateStore;
  const blob = randomBytes(300 * KiB);
  const digest = `sha256:${createHash('sha256').update(blob).digest('hex')}`;
  const repo = { registry: '', repository: 'team/app' };

  beforeEach(async () => {
    reg = await startFakeServer({ readBody: false });
    repo.registry = reg.host;
    stored = Buffer.alloc(0);
    patches = [];
    cutPatchNumber = -1;
    cutAfter = 0;
    committed = false;
    loseCommitAnswer = false;
    uploads = new UploadStateStore(mkdtempSync(join(tmpdir(), 'hubctl-uploads-')), () => Date.now());
    reg.handle((req, res) => {
      const u = new URL(req.url!, reg.url);
      const range = () => (stored.length === 0 ? '0-0' : `0-${stored.length - 1}`);
      if (u.pathname === '/v2/') return void res.end('{}');
      if (req.method === 'HEAD') {
        res.writeHead(committed ? 200 : 404, committed ? { 'content-length': String(stored.length) } : {});
        return res.end();
      }
      if (req.method === 'POST') {
        stored = Buffer.alloc(0);
        res.writeHead(202, { location: '/v2/team/app/blobs/uploads/u1?_state=s', range: '0-0' });
        return res.end();
      }
      if (req.method === 'GET' && u.pathname.includes('/uploads/')) {
        res.writeHead(204, { location: '/v2/team/app/blobs/uploads/u1?_state=s2', range: range() });
        return res.end();
      }
      if (req.method === 'PATCH') {
        const n = patches.length;
        const rec = { range: String(req.headers['content-range']), received: 0 };
        patches.push(rec);
        const start = Number(rec.range.split('-')[0]);
        if (start !== stored.length) {
          res.writeHead(416, { range: range() });
          return res.end();
        }
        req.on('data', (c: Buffer) => {
          if (n === cutPatchNumber && rec.received + c.length >= cutAfter) {
            const keep = cutAfter - rec.received;
            stored = Buffer.concat([stored, c.subarray(0, keep)]);
            rec.received += keep;
            req.socket.destroy();
            return;
          }
          rec.received += c.length;
          stored = Buffer.concat([stored, c]);
        });
        req.on('end', () => {
          res.writeHead(202, { location: '/v2/team/app/blobs/uploads/u1?_state=s3', range: range() });
          res.end();
        });
        return;
      }
      if (req.method === 'PUT') {
        // A monolithic PUT brings the bytes itself (the final PUT of a chunked upload none); a PUT
        // cut short keeps none of them.
        const body: Buffer[] = [];
        req.on('data', (c: Buffer) => body.push(c));
        req.on('end', () => {
          stored = Buffer.concat([stored, ...body]);
          if (committed) {
            // As distribution: a finished upload is unknown to a repeated PUT.
            res.writeHead(404, { 'content-type': 'application/json' });
            return res.end(
              JSON.stringify({ errors: [{ code: 'BLOB_UPLOAD_UNKNOWN', message: 'blob upload unknown' }] }),
            );
          }
          const ok =
            `sha256:${createHash('sha256').update(stored).digest('hex')}` === u.searchParams.get('digest');
          committed = ok;
          if (ok && loseCommitAnswer) {
            loseCommitAnswer = false;
            req.socket.destroy();
            return;
          }
          res.writeHead(ok ? 201 : 400, ok ? { 'docker-content-digest': u.searchParams.get('digest')! } : {});
          res.end(ok ? '' : JSON.stringify({ errors: [{ code: 'DIGEST_INVALID', message: 'bad' }] }));
        });
        return;
      }
      res.writeHead(405);
      res.end();
    });
  });
  afterEach(async () => {
    await reg.close();
  });

  const context = (notes: string[]) => {
    const clock = fixedClock();
    const client = new RegistryClient({
      http: createHttpClient({ userAgent: 'test', clock, retryBaseMs: 1 }),
      clock,
      credentials: async () => undefined,
    });
    return {
      client,
      repo,
      progress: silent,
      signal: new AbortController().signal,
      open: new Set<OpenUpload>(),
      uploads,
      monolithicMax: 64 * KiB,
      chunkSize: 100 * KiB,
      note: (l: string) => notes.push(l),
    };
  };
  const open = (start: number, end: number) => Promise.resolve(Readable.from([blob.subarray(start, end)]));

  it('a PATCH cut mid-chunk continues from the offset the registry reports', async () => {
    cutPatchNumber = 1;
    cutAfter = 40 * KiB;
    const notes: string[] = [];
    expect(await pushBlob(context(notes), digest, blob.length, open)).toBe('pushed');
    expect(patches.map((p) => p.range)).toEqual([
      `0-${100 * KiB - 1}`,
      `${100 * KiB}-${200 * KiB - 1}`, // cut after 40 KiB
      `${140 * KiB}-${240 * KiB - 1}`, // continued from Range 0-143359
      `${240 * KiB}-${300 * KiB - 1}`,
    ]);
    expect(stored.equals(blob)).toBe(true);
    expect(notes.join('\n')).toMatch(/the registry holds 143360 bytes, continuing/);
    expect(await uploads.list()).toEqual([]);
  });

  it('a tail under a quarter chunk goes with the chunk before it (one PATCH less)', async () => {
    // 300 KiB in 140 KiB chunks: 140 + 160, not 140 + 140 + 20.
    expect(await pushBlob({ ...context([]), chunkSize: 140 * KiB }, digest, blob.length, open)).toBe(
      'pushed',
    );
    expect(patches.map((p) => p.range)).toEqual([`0-${140 * KiB - 1}`, `${140 * KiB}-${300 * KiB - 1}`]);
    expect(stored.equals(blob)).toBe(true);
  });

  it('continues an upload saved by an earlier run from the status Range', async () => {
    stored = Buffer.from(blob.subarray(0, 123 * KiB));
    await uploads.save({
      registry: repo.registry,
      repository: repo.repository,
      digest,
      location: `${reg.url}/v2/team/app/blobs/uploads/u1?_state=old`,
      offset: 100 * KiB,
    });
    const notes: string[] = [];
    // POST would reset `stored`: a resumed upload must not start a new one.
    expect(await pushBlob(context(notes), digest, blob.length, open)).toBe('pushed');
    expect(reg.requests.some((r) => r.method === 'POST')).toBe(false);
    expect(patches[0]!.range).toBe(`${123 * KiB}-${223 * KiB - 1}`);
    expect(notes[0]).toMatch(/left by an earlier run at byte 125952/);
    expect(stored.equals(blob)).toBe(true);
    expect(await uploads.list()).toEqual([]);
  });

  it('a lost answer to the final PUT: the blob is there (HEAD), nothing is uploaded again', async () => {
    loseCommitAnswer = true;
    const notes: string[] = [];
    expect(await pushBlob(context(notes), digest, blob.length, open)).toBe('pushed');
    expect(patches).toHaveLength(3);
    expect(reg.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    // A write whose answer was lost is never sent again (it reached the server): hubctl finds the
    // blob with HEAD instead of failing or uploading again.
    expect(reg.requests.map((r) => r.method).slice(-3)).toEqual(['PATCH', 'PUT', 'HEAD']);
    expect(reg.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    expect(await uploads.list()).toEqual([]);
  });

  it('a monolithic upload whose source failed mid-way is cancelled before a new one starts', async () => {
    const small = blob.subarray(0, 40 * KiB);
    const smallDigest = `sha256:${createHash('sha256').update(small).digest('hex')}`;
    let reads = 0;
    // The first read of the source breaks after 10 KiB; the second is whole.
    const flaky = (start: number, end: number) =>
      Promise.resolve(
        ++reads === 1
          ? Readable.from(
              (async function* () {
                yield small.subarray(start, start + 10 * KiB);
                throw new Error('the source broke');
              })(),
            )
          : Readable.from([small.subarray(start, end)]),
      );
    const notes: string[] = [];
    expect(await pushBlob(context(notes), smallDigest, small.length, flaky)).toBe('pushed');
    expect(notes.some((n) => n.includes('starting a new upload'))).toBe(true);
    // The registry still held the broken upload (its status answered, at byte 0): it is deleted
    // before the next POST opens another, not left for the registry's purge.
    const methods = reg.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`);
    const deleted = methods.indexOf('DELETE /v2/team/app/blobs/uploads/u1');
    expect(deleted).toBeGreaterThan(-1);
    expect(methods.lastIndexOf('POST /v2/team/app/blobs/uploads/')).toBeGreaterThan(deleted);
  });

  it('a refused upload (DIGEST_INVALID) is cancelled and forgotten, not retried', async () => {
    const notes: string[] = [];
    const wrong = Buffer.from(blob);
    wrong[5] = (wrong[5] ?? 0) ^ 0xff;
    const corrupt = (start: number, end: number) =>
      Promise.resolve(Readable.from([wrong.subarray(start, end)]));
    const err = await pushBlob(context(notes), digest, blob.length, corrupt).catch((e) => e);
    expect(err.message).toMatch(/DIGEST_INVALID/);
    expect(reg.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
    expect(reg.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
    expect(await uploads.list()).toEqual([]);
  });
});

// pushBlob's probe by mount (image sync): a small blob is not HEADed first; the upload's POST asks
// for a mount from the repository itself, which distribution 2.8 answers 201 when the repository
// holds the blob and 202 (an upload) when it does not. Against the real registry behind a recording
// proxy, and against a registry that refuses such a mount.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegistryClient } from '../../../src/api/registry/client.js';
import { systemClock } from '../../../src/clock.js';
import { createHttpClient } from '../../../src/http/client.js';
import { type OpenUpload, pushBlob, type UploadContext } from '../../../src/image/registry/upload.js';
import type { TransferProgress } from '../../../src/output/progress.js';
import { type FaultProxy, startFaultProxy } from '../../support/fault-proxy.js';
import { describeWithRegistry } from '../../support/registry.js';
import { useRegistryWorld } from '../../support/registry-world.js';
import { fixedClock } from '../../support/run-cli.js';
import { json, startFakeServer } from './fake-server.js';

const sha = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const silent: TransferProgress = { begin() {}, update() {}, done() {}, stop() {} };
const feed = (b: Buffer) => (start: number, end: number) =>
  Promise.resolve(Readable.from([b.subarray(start, end)]));

function contextFor(client: RegistryClient, repo: { registry: string; repository: string }): UploadContext {
  return {
    client,
    repo,
    progress: silent,
    signal: new AbortController().signal,
    open: new Set<OpenUpload>(),
    probeByMountMax: 64 * 1024,
  };
}

/** A client of the fake registries below, which ask for no credentials. */
function anonymousClient(): RegistryClient {
  const clock = fixedClock();
  return new RegistryClient({
    http: createHttpClient({ userAgent: 'test', clock, retryBaseMs: 1 }),
    clock,
    credentials: async () => undefined,
  });
}

describeWithRegistry('probe by mount against distribution 2.8', () => {
  const world = useRegistryWorld('probe/app');
  let proxy: FaultProxy;
  let client: RegistryClient;
  const repo = { registry: '', repository: 'probe/app' };
  beforeAll(async () => {
    proxy = await startFaultProxy(world.registry.url);
    repo.registry = proxy.host;
    client = new RegistryClient({
      http: createHttpClient({ userAgent: 'test', clock: systemClock, retryBaseMs: 1 }),
      clock: systemClock,
      credentials: async () => ({ username: 'alice', secret: 'alice-password' }),
    });
  });
  afterAll(async () => {
    await proxy?.close();
  });
  const blobRequests = () =>
    proxy.seen
      .filter((s) => s.path.includes('/blobs/'))
      .map((s) => `${s.method} ${s.path.replace(/uploads\/[^?]+/, 'uploads/ID').replace(/\?.*/, '?')}`);

  it('a new small blob: POST (mount from itself, refused by 202) and PUT, no HEAD', async () => {
    const blob = randomBytes(3000);
    proxy.clear();
    expect(await pushBlob(contextFor(client, repo), sha(blob), blob.length, feed(blob))).toBe('pushed');
    expect(blobRequests()).toEqual([
      'POST /v2/probe/app/blobs/uploads/?',
      'PUT /v2/probe/app/blobs/uploads/ID?',
    ]);
    const post = proxy.seen.find((s) => s.method === 'POST')!;
    expect(new URL(post.path, 'http://x').searchParams.get('from')).toBe('probe/app');
    // (The proxy drops a HEAD's Content-Length: only presence is asked.)
    expect(await client.headBlob(repo, sha(blob))).not.toBeUndefined();

    // Again: the repository holds it, so the one POST answers 201 and nothing is sent (the read
    // begun while the POST was on its way is dropped).
    proxy.clear();
    const action = await pushBlob(contextFor(client, repo), sha(blob), blob.length, feed(blob));
    expect(action).toBe('skipped');
    expect(blobRequests()).toEqual(['POST /v2/probe/app/blobs/uploads/?']);
  });

  it('a blob over the limit is HEADed first, as any push', async () => {
    const blob = randomBytes(65 * 1024);
    proxy.clear();
    expect(await pushBlob(contextFor(client, repo), sha(blob), blob.length, feed(blob))).toBe('pushed');
    expect(blobRequests()[0]).toBe(`HEAD /v2/probe/app/blobs/${sha(blob)}`);
  });

  it('a blob only another repository holds is not mounted across repositories by the probe', async () => {
    const blob = randomBytes(2000);
    const other = { ...repo, repository: 'probe/other' };
    expect(await pushBlob(contextFor(client, other), sha(blob), blob.length, feed(blob))).toBe('pushed');
    // The probe names the repository itself: the blob is uploaded, not taken from probe/other.
    expect(await pushBlob(contextFor(client, repo), sha(blob), blob.length, feed(blob))).toBe('pushed');
  });
});

describe('probe by mount against a registry that refuses a mount from the repository itself', () => {
  it('uploads the blob with a plain POST', async () => {
    const reg = await startFakeServer();
    try {
      const blob = Buffer.from('{"config":true}');
      let stored: string | undefined;
      reg.handle((req, res, body) => {
        const u = new URL(req.url!, reg.url);
        if (u.pathname === '/v2/') return void res.end('{}');
        if (req.method === 'POST' && u.searchParams.has('mount')) {
          res.writeHead(400, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ errors: [{ code: 'UNSUPPORTED', message: 'no mounts' }] }));
        }
        if (req.method === 'POST') {
          res.writeHead(202, { location: '/v2/team/app/blobs/uploads/u1' });
          return void res.end();
        }
        if (req.method === 'PUT') {
          stored = sha(body);
          res.writeHead(201, { 'docker-content-digest': stored });
          return void res.end();
        }
        res.writeHead(405);
        res.end();
      });
      const client = anonymousClient();
      const notes: string[] = [];
      const uc = {
        ...contextFor(client, { registry: reg.host, repository: 'team/app' }),
        note: (l: string) => notes.push(l),
      };
      expect(await pushBlob(uc, sha(blob), blob.length, feed(blob))).toBe('pushed');
      expect(stored).toBe(sha(blob));
      expect(reg.requests.filter((r) => r.url.includes('/blobs/')).map((r) => r.method)).toEqual([
        'POST',
        'POST',
        'PUT',
      ]);
      expect(notes.join('\n')).toMatch(/could not mount .* from team\/app/);
    } finally {
      await reg.close();
    }
  });
});

describe('probe by mount: the small blob is read while the POST is on its way', () => {
  const setup = async (postStatus: 201 | 202) => {
    const reg = await startFakeServer();
    const events: string[] = [];
    reg.handle((req, res) => {
      const u = new URL(req.url!, reg.url);
      if (u.pathname === '/v2/') return void res.end('{}');
      if (req.method === 'POST') {
        // A distant registry: the answer comes 80 ms later.
        setTimeout(() => {
          events.push('POST answered');
          res.writeHead(postStatus, postStatus === 202 ? { location: '/v2/team/app/blobs/uploads/u1' } : {});
          res.end();
        }, 80);
        return;
      }
      if (req.method === 'PUT') {
        events.push('PUT');
        res.writeHead(201);
        return void res.end();
      }
      res.writeHead(405);
      res.end();
    });
    const client = anonymousClient();
    return { reg, events, uc: contextFor(client, { registry: reg.host, repository: 'team/app' }) };
  };
  const blob = Buffer.from('{"config":"early"}');

  it('a blob to send: its read began before the POST was answered', async () => {
    const { reg, events, uc } = await setup(202);
    try {
      const action = await pushBlob(uc, sha(blob), blob.length, async (s, e) => {
        events.push('read');
        return Readable.from([blob.subarray(s, e)]);
      });
      expect(action).toBe('pushed');
      expect(events).toEqual(['read', 'POST answered', 'PUT']);
    } finally {
      await reg.close();
    }
  });

  it('a blob the registry has: the early read is dropped (destroyed), nothing is sent', async () => {
    const { reg, events, uc } = await setup(201);
    try {
      const body = Readable.from([blob]);
      const action = await pushBlob(uc, sha(blob), blob.length, async () => {
        events.push('read');
        return body;
      });
      expect(action).toBe('skipped');
      await new Promise((r) => setImmediate(r));
      expect(body.destroyed).toBe(true);
      expect(events).toEqual(['read', 'POST answered']);
    } finally {
      await reg.close();
    }
  });
});

describe('probe by mount: a hostile registry', () => {
  it("an upload Location on another origin gets the blob's PUT without the registry's token", async () => {
    const reg = await startFakeServer();
    const other = await startFakeServer();
    try {
      const blob = Buffer.from('{"config":"elsewhere"}');
      reg.handle((req, res) => {
        const u = new URL(req.url!, reg.url);
        if (u.pathname === '/token') return json(res, 200, { token: 'tok-secret' });
        if (req.headers.authorization !== 'Bearer tok-secret') {
          res.writeHead(401, { 'www-authenticate': `Bearer realm="${reg.url}/token",service="fake"` });
          return void res.end();
        }
        if (req.method === 'POST') {
          // The probe's mount is not taken (202): the upload is to go on at another origin.
          res.writeHead(202, { location: `http://localhost:${other.port}/uploads/u1` });
          return void res.end();
        }
        res.writeHead(405);
        res.end();
      });
      let put: { digest: string | null; bytes: string } | undefined;
      other.handle((req, res, body) => {
        put = { digest: new URL(req.url!, other.url).searchParams.get('digest'), bytes: sha(body) };
        res.writeHead(201);
        res.end();
      });
      const clock = fixedClock();
      const client = new RegistryClient({
        http: createHttpClient({ userAgent: 'test', clock, retryBaseMs: 1 }),
        clock,
        credentials: async () => ({ username: 'alice', secret: 'alice-password' }),
      });
      const uc = contextFor(client, { registry: reg.host, repository: 'team/app' });
      expect(await pushBlob(uc, sha(blob), blob.length, feed(blob))).toBe('pushed');
      const post = reg.requests.find((r) => r.method === 'POST')!;
      expect(post.headers.authorization).toBe('Bearer tok-secret');
      expect(other.requests.map((r) => r.method)).toEqual(['PUT']);
      expect(other.requests[0]!.headers.authorization).toBeUndefined();
      expect(put).toEqual({ digest: sha(blob), bytes: sha(blob) });
    } finally {
      await reg.close();
      await other.close();
    }
  });
});

// The registry client against scripted registries on 127.0.0.1 (real HTTP): auth challenge and
// token cache (injected clock), refresh on 401, pagination, error bodies, digests, schema 1,
// redirects that never carry Authorization to another host, upload URLs, delete outcomes.
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nextLink, RegistryClient, rangeEnd } from '../../../src/api/registry/client.js';
import { ApiError, AuthError, IntegrityError, NotFoundError } from '../../../src/errors.js';
import { createHttpClient } from '../../../src/http/client.js';
import { type OpenUpload, pushBlob } from '../../../src/image/registry/upload.js';
import type { RepositoryName } from '../../../src/ref/reference.js';
import { fixedClock } from '../../support/run-cli.js';
import { type FakeServer, json, startFakeServer } from './fake-server.js';

const sha = (b: string | Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

describe('RegistryClient', () => {
  let reg: FakeServer;
  let other: FakeServer;
  let clock: ReturnType<typeof fixedClock>;
  let tokenRequests: URL[];
  let repo: RepositoryName;
  let cred: { username: string; secret: string } | undefined;
  let tokenLifetime: number;

  const client = () =>
    new RegistryClient({
      http: createHttpClient({ userAgent: 'test', clock, retryBaseMs: 1 }),
      clock,
      credentials: async () => cred,
    });

  /** A registry that wants Bearer tokens from its own /token. */
  const withAuth = (
    inner: (
      req: import('node:http').IncomingMessage,
      res: import('node:http').ServerResponse,
      body: Buffer,
    ) => void,
  ) =>
    reg.handle((req, res, body) => {
      if (req.url?.startsWith('/token')) {
        const u = new URL(req.url, reg.url);
        tokenRequests.push(u);
        const n = tokenRequests.length;
        return json(res, 200, { token: `tok-${n}`, expires_in: tokenLifetime });
      }
      if (!req.headers.authorization?.startsWith('Bearer tok-')) {
        res.writeHead(401, {
          'www-authenticate': `Bearer realm="${reg.url}/token",service="fake",scope="repository:team/app:pull"`,
          'content-type': 'application/json',
        });
        return res.end(
          JSON.stringify({ errors: [{ code: 'UNAUTHORIZED', message: 'authentication required' }] }),
        );
      }
      inner(req, res, body);
    });

  /** Blob endpoints that hold nothing and take every upload: HEAD 404, POST 202 to `location`, PUT 201. */
  const takesUploads =
    (location: string) =>
    (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      if (req.method === 'HEAD') {
        res.writeHead(404);
        return res.end();
      }
      if (req.method === 'POST') {
        res.writeHead(202, { location });
        return res.end();
      }
      const u = new URL(req.url!, reg.url);
      res.writeHead(201, { 'docker-content-digest': u.searchParams.get('digest') ?? '' });
      res.end();
    };

  /** pushBlob of one small blob to `repo`; `extra` adds to its context (mountFrom, note). */
  const pushSmallBlob = (extra: Partial<Parameters<typeof pushBlob>[0]> = {}) => {
    const data = Buffer.from('layer bytes');
    return pushBlob(
      {
        client: client(),
        repo,
        progress: { begin() {}, update() {}, done() {}, stop() {} },
        signal: new AbortController().signal,
        open: new Set<OpenUpload>(),
        ...extra,
      },
      sha(data),
      data.length,
      async () => (await import('node:stream')).Readable.from([data]),
    );
  };

  beforeEach(async () => {
    reg = await startFakeServer();
    other = await startFakeServer();
    clock = fixedClock();
    tokenRequests = [];
    repo = { registry: reg.host, repository: 'team/app' };
    cred = { username: 'alice', secret: 'alice-password' };
    tokenLifetime = 300;
  });
  afterEach(async () => {
    await reg.close();
    await other.close();
  });

  it('pings, fetches a scoped token with Basic credentials, and caches it until expires_in', async () => {
    withAuth((_req, res) => json(res, 200, { name: 'team/app', tags: ['a'] }));
    const c = client();
    const tags = async () => {
      const out: string[] = [];
      for await (const t of c.listTags(repo)) out.push(t);
      return out;
    };
    expect(await tags()).toEqual(['a']);
    expect(tokenRequests).toHaveLength(1);
    const t = tokenRequests[0]!;
    expect(t.searchParams.get('service')).toBe('fake');
    expect(t.searchParams.getAll('scope')).toEqual(['repository:team/app:pull']);
    const tokenReq = reg.requests.find((r) => r.url.startsWith('/token'))!;
    expect(tokenReq.headers.authorization).toBe(
      `Basic ${Buffer.from('alice:alice-password').toString('base64')}`,
    );

    await tags();
    expect(tokenRequests).toHaveLength(1); // cached
    clock.advance(296_000); // within 5 s of expiry: renewed
    await tags();
    expect(tokenRequests).toHaveLength(2);
    // One ping for the whole client.
    expect(reg.requests.filter((r) => r.url === '/v2/')).toHaveLength(1);
  });

  it('requests that start together share one ping and one token', async () => {
    withAuth((_req, res) => {
      res.writeHead(404);
      res.end();
    });
    const c = client();
    const digests = Array.from({ length: 6 }, (_, i) => sha(`blob ${i}`));
    const sizes = await Promise.all(digests.map((d) => c.headBlob(repo, d)));
    expect(sizes).toEqual(digests.map(() => undefined));
    expect(reg.requests.filter((r) => r.url === '/v2/')).toHaveLength(1);
    expect(tokenRequests).toHaveLength(1);
  });

  it("a push's existence check and its upload use one token with the push scope", async () => {
    withAuth(takesUploads('/v2/team/app/blobs/uploads/u1?_state=s'));
    const action = await pushSmallBlob();
    expect(action).toBe('pushed');
    expect(tokenRequests.map((t) => t.searchParams.getAll('scope'))).toEqual([
      ['repository:team/app:pull,push'],
    ]);
    expect(reg.requests.filter((r) => !r.url.startsWith('/token')).map((r) => r.method)).toEqual([
      'GET',
      'HEAD',
      'POST',
      'PUT',
    ]);
  });

  it('asks for a token without credentials when the chain has none', async () => {
    cred = undefined;
    withAuth((_req, res) => json(res, 200, { tags: [] }));
    for await (const _ of client().listTags(repo)) {
      // none
    }
    expect(reg.requests.find((r) => r.url.startsWith('/token'))!.headers.authorization).toBeUndefined();
  });

  it('refreshes the token once on a 401 with a new challenge, then gives up with an AuthError', async () => {
    let rejectFirst = true;
    withAuth((req, res) => {
      if (rejectFirst && req.headers.authorization === 'Bearer tok-1') {
        rejectFirst = false;
        res.writeHead(401, {
          'www-authenticate': `Bearer realm="${reg.url}/token",service="fake",error="invalid_token"`,
        });
        return res.end();
      }
      json(res, 200, { tags: ['x'] });
    });
    const c = client();
    const out: string[] = [];
    for await (const t of c.listTags(repo)) out.push(t);
    expect(out).toEqual(['x']);
    expect(tokenRequests).toHaveLength(2);

    reg.handle((req, res) => {
      if (req.url?.startsWith('/token')) return json(res, 200, { token: 'tok-9' });
      res.writeHead(401, {
        'www-authenticate': `Bearer realm="${reg.url}/token",service="fake",error="insufficient_scope"`,
      });
      res.end();
    });
    const err = await c.headBlob({ ...repo, repository: 'team/other' }, sha('x')).catch((e) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(err.message).toMatch(/refused access \(insufficient_scope\)/);
    expect(err.exitCode).toBe(4);
  });

  it('a token service refusing the credentials is an AuthError with a login hint', async () => {
    reg.handle((req, res) => {
      if (req.url?.startsWith('/token')) return json(res, 401, { details: 'bad' });
      res.writeHead(401, { 'www-authenticate': `Bearer realm="${reg.url}/token",service="fake"` });
      res.end();
    });
    const err = await client()
      .headManifest(repo, 'v1')
      .catch((e) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(err.message).toMatch(/refused the credentials of alice/);
    expect(err.hint).toContain(`hubctl auth login ${reg.host}`);
  });

  it('follows Link pagination (relative and absolute links)', async () => {
    reg.handle((req, res) => {
      const u = new URL(req.url!, reg.url);
      if (u.pathname === '/v2/') return json(res, 200, {});
      const last = u.searchParams.get('last');
      if (!last)
        return json(
          res,
          200,
          { tags: ['a', 'b'] },
          { link: '</v2/team/app/tags/list?n=2&last=b>; rel="next"' },
        );
      if (last === 'b')
        return json(
          res,
          200,
          { tags: ['c', 'd'] },
          { link: `<${reg.url}/v2/team/app/tags/list?n=2&last=d>; rel="next"` },
        );
      json(res, 200, { tags: ['e'] });
    });
    const out: string[] = [];
    for await (const t of client().listTags(repo)) out.push(t);
    expect(out).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(nextLink('<http://h/x?last=1>; rel="next", <http://h/y>; rel="prev"')).toBe('http://h/x?last=1');
  });

  it('turns registry error bodies into typed errors with the code in the message', async () => {
    reg.handle((req, res) => {
      if (req.url === '/v2/') return json(res, 200, {});
      if (req.url?.includes('/tags/')) {
        return json(res, 404, {
          errors: [
            { code: 'NAME_UNKNOWN', message: 'repository name not known to registry', detail: { name: 'x' } },
          ],
        });
      }
      json(res, 400, {
        errors: [{ code: 'DIGEST_INVALID', message: 'provided digest did not match uploaded content' }],
      });
    });
    const c = client();
    const notFound = await (async () => {
      for await (const _ of c.listTags(repo)) {
        // none
      }
    })().catch((e) => e);
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound.message).toMatch(/NAME_UNKNOWN: repository name not known to registry/);
    const bad = await c.putManifest(repo, 'v1', Buffer.from('{}'), OCI_MANIFEST).catch((e) => e);
    expect(bad).toBeInstanceOf(ApiError);
    expect(bad.message).toBe(
      `pushing manifest v1 to ${reg.host}/team/app: DIGEST_INVALID: provided digest did not match uploaded content`,
    );
    expect(bad.exitCode).toBe(2);
  });

  it('a missing blob is a NotFoundError from its GET, with the registry code', async () => {
    reg.handle((req, res) => {
      if (req.url === '/v2/') return json(res, 200, {});
      json(res, 404, { errors: [{ code: 'BLOB_UNKNOWN', message: 'blob unknown to registry' }] });
    });
    const err = await client()
      .getBlob(repo, sha('gone'))
      .catch((e) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toBe(
      `pulling blob ${sha('gone')} from ${reg.host}/team/app: BLOB_UNKNOWN: blob unknown to registry`,
    );
  });

  it('checks the manifest digest header against the bytes, accepting either header name', async () => {
    const body = JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha('c'), size: 1 },
      layers: [],
    });
    let header: Record<string, string> = { 'registry-content-digest': sha(body) };
    reg.handle((req, res) => {
      if (req.url === '/v2/') return json(res, 200, {});
      expect(req.headers.accept).toContain('application/vnd.oci.image.index.v1+json');
      expect(req.headers.accept).toContain('application/vnd.docker.distribution.manifest.list.v2+json');
      expect(req.headers.accept).toContain('application/vnd.registry.distribution.manifest.v2+json');
      res.writeHead(200, { 'content-type': OCI_MANIFEST, ...header });
      res.end(body);
    });
    const c = client();
    const m = await c.getManifest(repo, 'v1');
    expect(m.digest).toBe(sha(body));
    expect(m.parsed.kind).toBe('image');
    header = { 'docker-content-digest': sha('something else') };
    await expect(c.getManifest(repo, 'v1')).rejects.toBeInstanceOf(IntegrityError);
    header = {};
    await expect(c.getManifest(repo, sha('not this'))).rejects.toThrow(/expected sha256:/);
  });

  it('refuses schema 1 manifests, telling the author to upgrade', async () => {
    reg.handle((req, res) => {
      if (req.url === '/v2/') return json(res, 200, {});
      res.writeHead(200, { 'content-type': 'application/vnd.docker.distribution.manifest.v1+prettyjws' });
      res.end(JSON.stringify({ schemaVersion: 1, name: 'team/app', fsLayers: [] }));
    });
    await expect(client().getManifest(repo, 'old')).rejects.toThrow(
      /schema 1 .*ask the image's author to upgrade it/,
    );
  });

  it('never sends Authorization on a redirect to another host, keeps it on the same origin', async () => {
    other.handle((_req, res) => {
      res.writeHead(200, { 'content-length': '5' });
      res.end('hello');
    });
    withAuth((req, res) => {
      if (req.url?.includes('/blobs/sha256:aa')) {
        // 127.0.0.1 → localhost: another host, same machine.
        res.writeHead(307, { location: `http://localhost:${other.port}/storage/blob?sig=1` });
        return res.end();
      }
      if (req.url?.includes('/blobs/sha256:bb')) {
        res.writeHead(302, { location: '/storage/same-origin' });
        return res.end();
      }
      res.writeHead(200, { 'content-length': '2' });
      res.end('ok');
    });
    const c = client();
    const a = await c.getBlob(repo, `sha256:${'a'.repeat(64)}`);
    expect(await a.body.toArray().then((x) => Buffer.concat(x).toString())).toBe('hello');
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]!.headers.authorization).toBeUndefined();
    expect(reg.requests.find((r) => r.url.includes('sha256:aa'))!.headers.authorization).toMatch(
      /^Bearer tok-/,
    );

    await (await c.getBlob(repo, `sha256:${'b'.repeat(64)}`)).body.resume();
    expect(reg.requests.find((r) => r.url === '/storage/same-origin')!.headers.authorization).toMatch(
      /^Bearer tok-/,
    );
  });

  it('asks a blob from an offset with Range and reads where the 206 starts', async () => {
    withAuth((req, res) => {
      const m = /bytes=(\d+)-/.exec(req.headers.range ?? '');
      const data = Buffer.from('0123456789');
      if (m) {
        const from = Number(m[1]);
        res.writeHead(206, { 'content-range': `bytes ${from}-9/10`, 'content-length': String(10 - from) });
        return res.end(data.subarray(from));
      }
      res.writeHead(200, { 'content-length': '10' });
      res.end(data);
    });
    const blob = await client().getBlob(repo, sha('x'), 4);
    expect(blob.start).toBe(4);
    expect(blob.size).toBe(10);
    expect(Buffer.concat(await blob.body.toArray()).toString()).toBe('456789');
  });

  it('upload URLs: relative Location with a query string, digest appended; mount answers 201', async () => {
    withAuth((req, res) => {
      const u = new URL(req.url!, reg.url);
      if (req.method === 'POST' && u.searchParams.get('mount')) {
        res.writeHead(201, { location: `/v2/team/app/blobs/${u.searchParams.get('mount')}` });
        return res.end();
      }
      if (req.method === 'POST') {
        res.writeHead(202, { location: '/v2/team/app/blobs/uploads/u1?_state=abc', range: '0-0' });
        return res.end();
      }
      if (req.method === 'PUT') {
        res.writeHead(201, { 'docker-content-digest': u.searchParams.get('digest')! });
        return res.end();
      }
      res.writeHead(404);
      res.end();
    });
    const c = client();
    expect(await c.startUpload(repo, { digest: sha('m'), from: 'team/base' })).toEqual({ mounted: true });
    const mountToken = tokenRequests.at(-1)!;
    expect(mountToken.searchParams.getAll('scope')).toEqual([
      'repository:team/app:pull,push',
      'repository:team/base:pull',
    ]);
    const up = await c.startUpload(repo);
    expect(up).toEqual({ mounted: false, location: `${reg.url}/v2/team/app/blobs/uploads/u1?_state=abc` });
    if (up.mounted) throw new Error('unreachable');
    await c.completeUpload(repo, up.location, sha('data'), { data: Buffer.from('data'), length: 4 });
    const put = reg.requests.find((r) => r.method === 'PUT')!;
    const putUrl = new URL(put.url, reg.url);
    expect(putUrl.searchParams.get('_state')).toBe('abc');
    expect(putUrl.searchParams.get('digest')).toBe(sha('data'));
    expect(put.headers['content-type']).toBe('application/octet-stream');
    expect(put.bodyBytes).toBe(4);
  });

  it('delete outcomes: 403 still referenced, 500 in the background (no retry), 405 not allowed', async () => {
    let status = 403;
    withAuth((req, res) => {
      if (req.method === 'DELETE') {
        return json(res, status, {
          errors: [{ code: status === 405 ? 'UNSUPPORTED' : 'DENIED', message: 'no' }],
        });
      }
      res.end();
    });
    const c = client();
    const d = sha('m');
    const referenced = await c.deleteManifest(repo, d).catch((e) => e);
    expect(referenced.message).toMatch(/still referenced by another tag or image/);
    expect(referenced.exitCode).toBe(4);
    expect(tokenRequests.at(-1)!.searchParams.get('scope')).toBe('repository:team/app:delete');
    status = 500;
    const before = reg.requests.filter((r) => r.method === 'DELETE').length;
    expect(await c.deleteManifest(repo, d)).toBe('background');
    expect(reg.requests.filter((r) => r.method === 'DELETE').length).toBe(before + 1);
    status = 405;
    await expect(c.deleteManifest(repo, d)).rejects.toThrow(/the registry does not allow deletes/);
    status = 202;
    expect(await c.deleteManifest(repo, d)).toBe('deleted');
  });

  it('reads the Range of an upload status', () => {
    expect(rangeEnd('0-1023')).toBe(1024);
    expect(rangeEnd('bytes=0-9')).toBe(10);
    expect(rangeEnd('0-0')).toBe(0);
    expect(rangeEnd(undefined)).toBeUndefined();
  });

  it('a token service refusing the mount source scope: the blob is uploaded instead', async () => {
    reg.handle((req, res) => {
      const u = new URL(req.url!, reg.url);
      if (u.pathname === '/token') {
        tokenRequests.push(u);
        if (u.searchParams.getAll('scope').some((sc) => sc.startsWith('repository:team/base:')))
          return json(res, 403, {});
        return json(res, 200, { token: 'tok-1' });
      }
      if (!req.headers.authorization) {
        res.writeHead(401, { 'www-authenticate': `Bearer realm="${reg.url}/token",service="fake"` });
        return res.end();
      }
      takesUploads('/v2/team/app/blobs/uploads/u9?_state=z')(req, res);
    });
    const notes: string[] = [];
    const action = await pushSmallBlob({ mountFrom: 'team/base', note: (l) => notes.push(l) });
    expect(action).toBe('pushed');
    expect(notes.join('\n')).toMatch(/could not mount .* from team\/base/);
    const posts = reg.requests.filter((r) => r.method === 'POST').map((r) => r.url);
    expect(posts).toEqual(['/v2/team/app/blobs/uploads/']);
  });
});

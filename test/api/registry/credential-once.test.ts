// The credential chain is asked once per registry, not once per request: a registry that asks for
// Basic gets it with every request, and the chain may read files or run a credential helper each
// time it is asked (an `image sync` sends thousands of requests).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { RegistryClient } from '../../../src/api/registry/client.js';
import { createHttpClient } from '../../../src/http/client.js';
import { fixedClock } from '../../support/run-cli.js';
import { type FakeServer, json, startFakeServer } from './fake-server.js';

let reg: FakeServer;
let lookups: string[];
const BASIC = `Basic ${Buffer.from('alice:alice-password').toString('base64')}`;

beforeEach(async () => {
  reg = await startFakeServer();
  lookups = [];
});
afterEach(async () => {
  await reg.close();
});

const client = (answer: () => Promise<{ username: string; secret: string } | undefined>) => {
  const clock = fixedClock();
  return new RegistryClient({
    http: createHttpClient({ userAgent: 'test', clock, retryBaseMs: 1 }),
    clock,
    credentials: async (host) => {
      lookups.push(host);
      return answer();
    },
  });
};

it('Basic: ten requests, one lookup, the credential on each request', async () => {
  reg.handle((req, res) => {
    if (req.headers.authorization !== BASIC) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="registry"' });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-length': '4' });
    res.end(req.method === 'HEAD' ? undefined : 'blob');
  });
  const c = client(async () => ({ username: 'alice', secret: 'alice-password' }));
  const repo = { registry: reg.host, repository: 'team/app' };
  for (let i = 0; i < 10; i++) expect(await c.headBlob(repo, `sha256:${String(i).repeat(64)}`)).toBe(4);
  expect(lookups).toEqual([reg.host]);
  const blobRequests = reg.requests.filter((r) => r.url.includes('/blobs/'));
  expect(blobRequests).toHaveLength(10);
  for (const r of blobRequests) expect(r.headers.authorization).toBe(BASIC);
});

it('Bearer: tokens of two scopes, one lookup; a failed lookup is asked again', async () => {
  const realm = `${reg.url}/token`;
  reg.handle((req, res) => {
    const url = new URL(req.url ?? '/', reg.url);
    if (url.pathname === '/token') {
      if (req.headers.authorization !== BASIC) return json(res, 401, {});
      return json(res, 200, { token: `t-${url.searchParams.getAll('scope').join('+')}`, expires_in: 300 });
    }
    if (!req.headers.authorization?.startsWith('Bearer t-')) {
      res.writeHead(401, { 'www-authenticate': `Bearer realm="${realm}",service="reg"` });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-length': '4' });
    res.end();
  });
  let fail = true;
  const c = client(async () => {
    if (fail) {
      fail = false;
      throw new Error('the credential helper failed');
    }
    return { username: 'alice', secret: 'alice-password' };
  });
  const a = { registry: reg.host, repository: 'team/a' };
  const b = { registry: reg.host, repository: 'team/b' };
  await expect(c.headBlob(a, `sha256:${'0'.repeat(64)}`)).rejects.toThrow(/credential helper failed/);
  expect(await c.headBlob(a, `sha256:${'1'.repeat(64)}`)).toBe(4);
  expect(await c.headBlob(b, `sha256:${'2'.repeat(64)}`, ['pull', 'push'])).toBe(4);
  expect(await c.headBlob(a, `sha256:${'3'.repeat(64)}`)).toBe(4);
  // The failed lookup, then one for both scopes' tokens.
  expect(lookups).toEqual([reg.host, reg.host]);
  expect(reg.requests.filter((r) => r.url.startsWith('/token'))).toHaveLength(2);
});

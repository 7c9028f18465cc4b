// The built bin against a hub that misbehaves (test/support/fault-proxy.ts in front of the hub
// emulator): foreign `next` links, endless and circular pages, bodies cut, stalled, truncated and
// oversized. Each case checks the exit code, the one line on stderr, that no credential reached a
// listener it does not belong to, and that no write was sent twice.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FaultProxy, type Recorder, startFaultProxy, startRecorder } from '../support/fault-proxy.js';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { runBin as runBinWith } from '../support/run-bin.js';

const runBin = (args: string[], env: Record<string, string>) => runBinWith(args, { env });

let hub: HubEmulator;
let proxy: FaultProxy;
let elsewhere: Recorder;
let tmp: string;
const TOKENS = /^\/v2\/access-tokens$/;
const POLICIES = /^\/v2\/orgs\/acme\/governance\/policies$/;

const env = (extra: Record<string, string> = {}) => ({
  HUBCTL_CONFIG_DIR: mkdtempSync(join(tmp, 'cfg-')),
  HOME: tmp,
  HUBCTL_BASE_URL: proxy.url,
  HUBCTL_ORG: 'acme',
  HUBCTL_USERNAME: 'alice',
  HUBCTL_TOKEN: 'alice-password',
  HUBCTL_HTTP_TIMEOUT: '1',
  ...extra,
});
const hubctl = (args: string[], extra?: Record<string, string>) => runBin(args, env(extra));

/** stderr is exactly one line, `hubctl: <message>`. */
function oneLine(stderr: string): string {
  const lines = stderr.split('\n').filter(Boolean);
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^hubctl: /);
  return lines[0] as string;
}

/** No credential anywhere but the hub's own origin; the hub JWT only as a Bearer to the hub. */
function noLeaks(): void {
  expect(elsewhere.seen).toEqual([]);
  for (const s of proxy.seen) if (s.authorization) expect(s.authorization).toMatch(/^Bearer ey/);
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'hubctl-hostile-'));
  hub = await startHubEmulator();
  for (let i = 0; i < 5; i++) hub.createPat('alice', { label: `t${i}` });
  proxy = await startFaultProxy(hub.url);
  elsewhere = await startRecorder();
});
afterAll(async () => {
  await proxy?.close();
  await elsewhere?.close();
  await hub?.close();
});
beforeEach(() => {
  proxy.clear();
  elsewhere.seen.length = 0;
  hub.clearRequests();
});

describe('pagination links and tokens', () => {
  it('token list --all: a `next` on another origin is exit 7, never followed, with or without the JWT', async () => {
    proxy.on('GET', TOKENS, {
      kind: 'rewrite-json',
      edit: (page) => ({ ...(page as object), next: `${elsewhere.url}/v2/access-tokens?page=2` }),
    });
    const r = await hubctl(['token', 'list', '--all']);
    expect(r.code).toBe(7);
    expect(oneLine(r.stderr)).toBe(
      `hubctl: listing access tokens: unexpected answer from ${proxy.host}: the next page is on another server (${elsewhere.origin})`,
    );
    expect(r.stdout).toBe('');
    noLeaks();
  });

  it('token list --all: an endless chain of pages stops at 1,000 pages, exit 7', async () => {
    proxy.on('GET', TOKENS, {
      kind: 'answer',
      answer: (req) => {
        const page = Number(new URL(req.url ?? '/', proxy.url).searchParams.get('page') ?? 1);
        return {
          status: 200,
          json: {
            count: 1e9,
            next: `${proxy.url}/v2/access-tokens?page=${page + 1}`,
            previous: null,
            results: [],
          },
        };
      },
    });
    const r = await hubctl(['token', 'list', '--all']);
    expect(r.code).toBe(7);
    expect(oneLine(r.stderr)).toBe(
      `hubctl: listing access tokens: unexpected answer from ${proxy.host}: the list goes on past 1000 pages`,
    );
    expect(proxy.seen.filter((s) => s.method === 'GET')).toHaveLength(1000);
    noLeaks();
  }, 60_000);

  it('token list --all: a page that points back to an earlier one is exit 7', async () => {
    proxy.on('GET', TOKENS, {
      kind: 'answer',
      answer: () => ({
        status: 200,
        json: { count: 2, next: `${proxy.url}/v2/access-tokens?page=2`, previous: null, results: [] },
      }),
    });
    const r = await hubctl(['token', 'list', '--all']);
    expect(r.code).toBe(7);
    expect(oneLine(r.stderr)).toMatch(/unexpected answer from .*: a page points back to an earlier page$/);
    expect(proxy.seen).toHaveLength(3); // exchange, page 1, page 2
  });

  it('policy list: endless fresh page tokens stop at 1,000 pages; a repeated one at once', async () => {
    let n = 0;
    proxy.on('GET', POLICIES, {
      kind: 'answer',
      answer: () => ({ status: 200, json: { data: [], next_page_token: `t${++n}` } }),
    });
    const endless = await hubctl(['policy', 'list']);
    expect(endless.code).toBe(7);
    expect(oneLine(endless.stderr)).toBe(
      `hubctl: listing policies of org acme: unexpected answer from ${proxy.host}: the list goes on past 1000 pages`,
    );
    proxy.clear();
    proxy.on('GET', POLICIES, {
      kind: 'answer',
      answer: () => ({ status: 200, json: { data: [], next_page_token: 'same' } }),
    });
    const circular = await hubctl(['policy', 'list']);
    expect(circular.code).toBe(7);
    expect(oneLine(circular.stderr)).toMatch(/a page points back to an earlier page$/);
    // The token is sent as a query parameter to the governance base, never used as a URL.
    expect(proxy.seen.filter((s) => s.method === 'GET').map((s) => s.path.split('?')[0])).toEqual([
      '/v2/orgs/acme/governance/policies',
      '/v2/orgs/acme/governance/policies',
    ]);
    noLeaks();
  }, 60_000);

  it('a redirect to another origin is followed without the JWT', async () => {
    proxy.on('GET', TOKENS, {
      kind: 'answer',
      answer: () => ({ status: 302, headers: { location: `${elsewhere.url}/v2/access-tokens?page=1` } }),
    });
    const r = await hubctl(['--json', 'token', 'list']);
    expect(elsewhere.seen).toHaveLength(1);
    expect(elsewhere.seen[0]?.authorization).toBeUndefined();
    expect(r.code).toBe(0);
  });
});

describe('bodies cut, stalled, truncated, oversized', () => {
  it('a read cut mid-body once is sent again and succeeds', async () => {
    proxy.on('GET', TOKENS, { kind: 'reset-mid-body' }, 1);
    const r = await hubctl(['--json', 'token', 'list']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(5);
    expect(proxy.seen.filter((s) => s.method === 'GET')).toHaveLength(2);
  });

  it.each([
    ['token', 'list', TOKENS, 'listing access tokens', '/v2/access-tokens?page=1&page_size=10'],
    ['policy', 'list', POLICIES, 'listing policies of org acme', '/v2/orgs/acme/governance/policies'],
  ])(
    '%s %s: a body cut every time is exit 7 in a plain sentence, after 4 tries',
    async (noun, verb, path, what, shown) => {
      proxy.on('GET', path, { kind: 'reset-mid-body' });
      const r = await hubctl([noun, verb]);
      expect(r.code).toBe(7);
      expect(oneLine(r.stderr)).toBe(
        `hubctl: ${what}: GET ${proxy.url}${shown} failed: the connection was cut in the middle of the answer (tried 4 times)`,
      );
      expect(proxy.seen.filter((s) => s.method === 'GET')).toHaveLength(4);
      noLeaks();
    },
  );

  it('a truncated body (Content-Length not met) is retried like a cut, then exit 7', async () => {
    proxy.on('GET', TOKENS, { kind: 'truncate' });
    const r = await hubctl(['token', 'list']);
    expect(r.code).toBe(7);
    expect(oneLine(r.stderr)).toMatch(
      /failed: the connection was cut in the middle of the answer \(tried 4 times\)$/,
    );
  });

  it('a body that stalls times out in a plain sentence, exit 7', async () => {
    proxy.on('GET', TOKENS, { kind: 'stall-mid-body' });
    const r = await hubctl(['token', 'list']);
    expect(r.code).toBe(7);
    expect(oneLine(r.stderr)).toMatch(/failed: the answer stalled \(tried 4 times\)$/);
  }, 30_000);

  it('a write whose answer is cut is never sent twice: exit 7, and a hint that it may have landed', async () => {
    proxy.on('POST', TOKENS, { kind: 'reset-mid-body' });
    const r = await hubctl(['token', 'create', '--label', 'once', '--scope', 'repo:read']);
    expect(r.code).toBe(7);
    const [line, hint] = r.stderr.split('\n');
    expect(line).toMatch(
      /^hubctl: creating an access token: POST .* failed: the connection was cut in the middle of the answer$/,
    );
    expect(hint).toBe('The request was not repeated: it may or may not have taken effect.');
    expect(hub.requestsTo('/v2/access-tokens', 'POST')).toHaveLength(1);
    expect(hub.state.accessTokens.filter((t) => t.token_label === 'once')).toHaveLength(1);
  });

  it.each([true, false])(
    'a 2 GB answer (Content-Length announced: %s) stops at the 16 MiB cap: exit 7, memory bounded',
    async (announce) => {
      proxy.on('GET', TOKENS, { kind: 'oversize', bytes: 2 * 1024 ** 3, announce });
      const r = await hubctl(['token', 'list']);
      expect(r.code).toBe(7);
      expect(oneLine(r.stderr)).toBe(
        `hubctl: listing access tokens: unexpected answer from ${proxy.host}: the answer is larger than 16 MiB`,
      );
      expect(proxy.oversizeBytesSent).toBeLessThan(64 * 1024 * 1024);
      if (r.peakRssKiB > 0) expect(r.peakRssKiB).toBeLessThan(200 * 1024);
      expect(proxy.seen.filter((s) => s.method === 'GET')).toHaveLength(1); // not retried
    },
    60_000,
  );
});

describe('credentials and origins', () => {
  it('a --base-url over plain HTTP to another machine gets no secret: exit 2, nothing sent', async () => {
    const r = await runBin(['auth', 'status'], { ...env(), HUBCTL_BASE_URL: 'http://10.255.255.1:8080' });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'hubctl: refusing to send credentials to http://10.255.255.1:8080 over plain HTTP (only loopback may use plain HTTP)',
    );
  });

  it('a --governance-url on another origin gets the JWT: the user named it', async () => {
    proxy.on('GET', POLICIES, {
      kind: 'answer',
      answer: () => ({ status: 200, json: { data: [], next_page_token: null } }),
    });
    const r = await hubctl(['--json', 'policy', 'list'], { HUBCTL_GOVERNANCE_URL: `${elsewhere.url}/v2` });
    expect(r.code).toBe(0);
    expect(elsewhere.seen).toHaveLength(1);
    expect(elsewhere.seen[0]?.authorization).toMatch(/^Bearer ey/);
  });
});

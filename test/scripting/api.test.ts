// `hubctl api` against real servers on 127.0.0.1: the hub emulator (hub and governance APIs, with
// page tokens), and a real registry (distribution) whose tags/list pages with Link headers.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { describeWithRegistry, type RunningRegistry, startRegistry } from '../support/registry.js';
import { runCli } from '../support/run-cli.js';

let hub: HubEmulator;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  hub = await startHubEmulator({ policyPageSize: 2 });
  dir = mkdtempSync(join(tmpdir(), 'hubctl-api-'));
  env = {
    HUBCTL_CONFIG_DIR: join(dir, 'config'),
    HOME: dir,
    DOCKER_CONFIG: join(dir, 'docker'),
    HUBCTL_BASE_URL: hub.url,
    HUBCTL_ORG: 'acme',
  };
  const login = await hubctl(
    ['auth', 'login', '--username', 'alice', '--password-stdin'],
    'alice-password\n',
  );
  expect(login.code, login.stderr).toBe(0);
  for (const label of ['one', 'two', 'three']) {
    const r = await hubctl(['token', 'create', '--label', label, '--scope', 'repo:read']);
    expect(r.code, r.stderr).toBe(0);
  }
  for (const name of ['p1', 'p2', 'p3', 'p4', 'p5'])
    expect((await hubctl(['policy', 'create', name])).code).toBe(0);
});
afterAll(() => hub?.close());

function hubctl(argv: string[], stdin?: string, extraEnv: Record<string, string> = {}) {
  return runCli(argv, { env: { ...env, ...extraEnv }, stdin });
}

const since = (n: number) => hub.requests.slice(n);

describe('hubctl api: the hub', () => {
  it('GET a path: the answer as JSON, sent with the hub JWT, never the password', async () => {
    const n = hub.requests.length;
    const r = await hubctl(['api', '/v2/access-tokens']);
    expect(r.code, r.stderr).toBe(0);
    const page = JSON.parse(r.stdout);
    expect(page.count).toBe(3);
    expect(page.results.map((t: { token_label: string }) => t.token_label).sort()).toEqual([
      'one',
      'three',
      'two',
    ]);
    const get = since(n).find((q) => q.path === '/v2/access-tokens')!;
    expect(get.method).toBe('GET');
    expect(String(get.headers.authorization)).toMatch(/^Bearer ey/);
    expect(JSON.stringify(since(n).map((q) => q.headers))).not.toContain('alice-password');
  });

  it('--jq on the answer', async () => {
    const r = await hubctl([
      'api',
      '/v2/access-tokens',
      '--jq',
      '.results | map(.token_label) | sort | join(",")',
    ]);
    expect(r).toEqual({ code: 0, stdout: 'one,three,two\n', stderr: '' });
  });

  it('fields without -X mean a POST (as gh)', async () => {
    const r = await hubctl(['api', '/v2/access-tokens', '-f', 'page_size=1', '--paginate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--paginate follows pages of a GET only/);
  });

  it('-f on a GET is the query; --paginate follows `next` and prints every item as one array', async () => {
    const n = hub.requests.length;
    const r = await hubctl([
      'api',
      '-X',
      'GET',
      '/v2/access-tokens',
      '-f',
      'page_size=1',
      '--paginate',
      '--jq',
      'map(.token_label) | sort | @csv',
    ]);
    expect(r).toEqual({ code: 0, stdout: '"one","three","two"\n', stderr: '' });
    const pages = since(n).filter((q) => q.path === '/v2/access-tokens');
    expect(pages.map((q) => q.query.get('page'))).toEqual([null, '2', '3']);
    expect(pages.every((q) => q.query.get('page_size') === '1')).toBe(true);
  });

  it('--input - sends a body (POST by default); -F fields are a typed JSON body', async () => {
    const n = hub.requests.length;
    const body = JSON.stringify({ token_label: 'from-api', scopes: ['repo:read'] });
    const r = await hubctl(['api', '/v2/access-tokens', '--input', '-', '--jq', '.token_label'], body);
    expect(r).toEqual({ code: 0, stdout: 'from-api\n', stderr: '' });
    const post = since(n).find((q) => q.method === 'POST' && q.path === '/v2/access-tokens')!;
    expect(post.json).toEqual({ token_label: 'from-api', scopes: ['repo:read'] });
    expect(post.headers['content-type']).toBe('application/json');

    const uuid = JSON.parse((await hubctl(['api', '/v2/access-tokens'])).stdout).results.find(
      (t: { token_label: string }) => t.token_label === 'from-api',
    ).uuid;
    const m = hub.requests.length;
    const patched = await hubctl([
      'api',
      '-X',
      'PATCH',
      `/v2/access-tokens/${uuid}`,
      '-F',
      'is_active=false',
      '--jq',
      '.is_active',
    ]);
    expect(patched).toEqual({ code: 0, stdout: 'false\n', stderr: '' });
    expect(since(m).find((q) => q.method === 'PATCH')!.json).toEqual({ is_active: false });
    // --input from a file.
    const file = join(dir, 'body.json');
    writeFileSync(file, JSON.stringify({ is_active: true }));
    const back = await hubctl([
      'api',
      '-X',
      'PATCH',
      `/v2/access-tokens/${uuid}`,
      '--input',
      file,
      '--jq',
      '.is_active',
    ]);
    expect(back.stdout).toBe('true\n');
  });

  it('--include prints the status and headers before the body', async () => {
    const r = await hubctl(['api', '/v2/access-tokens', '--include']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^HTTP 200\ncontent-type: application\/json[^\n]*\n/);
    expect(r.stdout).toContain('\n\n{');
  });

  it('exit codes as everywhere: 5 not found, 4 not logged in, 7 a server that does not answer', async () => {
    const missing = await hubctl(['api', '/v2/access-tokens/00000000-0000-4000-8000-000000000000']);
    expect(missing.code).toBe(5);
    const anon = await runCli(['api', '/v2/access-tokens'], { env: { HUBCTL_BASE_URL: hub.url } });
    expect(anon.code).toBe(4);
    const down = await hubctl(['api', '/v2/access-tokens'], undefined, {
      HUBCTL_BASE_URL: 'http://127.0.0.1:9',
      HUBCTL_USERNAME: 'alice',
      HUBCTL_TOKEN: 'alice-password',
    });
    expect(down.code).toBe(7);
    expect(down.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    [['-H', 'Authorization: Bearer x'], /-H Authorization is refused/],
    [['-H', 'cookie: a=b'], /-H cookie is refused/],
    [['-H', 'no-colon'], /-H takes "Name: value"/],
    [['-X', 'TRACE'], /-X must be one of/],
    [['--paginate', '-X', 'DELETE'], /--paginate follows pages of a GET only/],
    [['--input', '-', '-f', 'a=b'], /cannot be used together/],
    [['--service', 'nope'], /--service must be one of/],
    [['--service', 'registry:bad/host'], /registry host/],
  ])('%j is a usage error before any request', async (args, message) => {
    const n = hub.requests.length;
    const r = await hubctl(['api', '/v2/access-tokens', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(hub.requests.length).toBe(n);
  });

  it('an absolute URL to another origin is refused (the credential would go there); its own origin is fine', async () => {
    const n = hub.requests.length;
    const r = await hubctl(['api', 'https://example.com/v2/access-tokens']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^hubctl: refusing https:\/\/example\.com: hubctl api sends the service's credential/,
    );
    expect(hub.requests.length).toBe(n);
    const same = await hubctl(['api', `${hub.url}/v2/access-tokens`, '--jq', '.count > 2']);
    expect(same.stdout).toBe('true\n');
  });

  it('--debug traces the requests with the JWT and the password redacted', async () => {
    const r = await hubctl(['--debug', 'api', '/v2/access-tokens', '--jq', '.count']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('> GET ');
    expect(r.stderr).not.toContain('alice-password');
    expect(r.stderr).not.toMatch(/Bearer ey[\w-]{10,}/);
  });
});

describe('hubctl api --service governance', () => {
  it('{org} in the path; --paginate follows opaque next_page_token pages', async () => {
    const n = hub.requests.length;
    const r = await hubctl([
      'api',
      '--service',
      'governance',
      '/orgs/{org}/governance/policies',
      '--paginate',
      '--jq',
      'map(.name) | sort | join(" ")',
    ]);
    expect(r).toEqual({ code: 0, stdout: 'p1 p2 p3 p4 p5\n', stderr: '' });
    const pages = since(n).filter((q) => q.path === '/v2/orgs/acme/governance/policies');
    expect(pages).toHaveLength(3);
    expect(pages[0]!.query.get('page_token')).toBeNull();
    expect(pages[1]!.query.get('page_token')).toBeTruthy();
    // One page without --paginate: the answer as it is, its token included.
    const one = await hubctl([
      'api',
      '--service',
      'governance',
      '/orgs/acme/governance/policies',
      '--jq',
      '(.data | length), (.next_page_token | type)',
    ]);
    expect(one.stdout).toBe('2\nstring\n');
  });

  it('a path that climbs out of the service base path is refused', async () => {
    const r = await hubctl(['api', '--service', 'governance', '/orgs/%2e%2e/%2e%2e/access-tokens']);
    expect(r.code).toBe(2);
  });
});

describe('hubctl api --service audit', () => {
  it('sends the stored access token itself as the bearer, to the audit base only', async () => {
    const n = hub.requests.length;
    const r = await hubctl(['api', '--service', 'audit', '/v1/audit-logs/acme'], undefined, {
      HUBCTL_AUDIT_URL: hub.url,
      HUBCTL_USERNAME: 'alice',
      HUBCTL_TOKEN: 'alice-password',
    });
    // The emulator has no audit API: a 404, exit 5, after a request that carried the raw secret.
    expect(r.code).toBe(5);
    const sent = since(n).find((q) => q.path === '/v1/audit-logs/acme')!;
    expect(sent.headers.authorization).toBe('Bearer alice-password');
    // No JWT exchange for the audit API.
    expect(since(n).some((q) => q.path === '/v2/auth/token')).toBe(false);
  });
});

describeWithRegistry('hubctl api --service registry:HOST', () => {
  let registry: RunningRegistry;
  let R: string;
  beforeAll(async () => {
    registry = await startRegistry(hub.registryAuth);
    R = registry.host;
    const login = await hubctl(
      ['auth', 'login', R, '--username', 'alice', '--password-stdin'],
      'alice-password\n',
    );
    expect(login.code, login.stderr).toBe(0);
    const { makeOciImage } = await import('../support/oci-images.js');
    const img = await makeOciImage(join(dir, 'img'), { tag: 'v1', layers: 1, layerSize: 512 });
    for (const tag of ['a', 'b', 'c', 'd']) {
      expect((await hubctl(['image', 'push', `oci:${img.dir}:v1`, `${R}/team/app:${tag}`])).code).toBe(0);
    }
    for (const repo of ['team/b', 'team/c']) {
      expect((await hubctl(['image', 'push', `oci:${img.dir}:v1`, `${R}/${repo}:v1`])).code).toBe(0);
    }
  }, 60_000);
  afterAll(() => registry?.stop());

  it('_catalog with n=1: --paginate follows Link rel="next" page by page to every repository', async () => {
    // distribution 2.8 pages the catalog with n and Link (its tags/list answers whole; the same
    // code follows both, and the registry client's tag paging is tested against a Link fake).
    const r = await hubctl(['api', '--service', `registry:${R}`, '/v2/_catalog?n=1', '--paginate']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(['team/app', 'team/b', 'team/c']);
    // One page with --include: the Link header is shown, and the body is the page as it came.
    const one = await hubctl(['api', '--service', `registry:${R}`, '/v2/_catalog?n=2', '--include']);
    expect(one.stdout).toMatch(/^link: <\/v2\/_catalog\?.*>; rel="next"$/m);
    expect(JSON.parse(one.stdout.slice(one.stdout.indexOf('\n\n') + 2))).toEqual({
      repositories: ['team/app', 'team/b'],
    });
  });

  it('tags/list: every tag; --jq on it', async () => {
    const r = await hubctl([
      'api',
      '--service',
      `registry:${R}`,
      '/v2/team/app/tags/list',
      '--paginate',
      '--jq',
      'sort | join(",")',
    ]);
    expect(r).toEqual({ code: 0, stdout: 'a,b,c,d\n', stderr: '' });
  });

  it('a manifest with an Accept header; a missing repository exits 5', async () => {
    const r = await hubctl([
      'api',
      '--service',
      `registry:${R}`,
      '/v2/team/app/manifests/a',
      '-H',
      'Accept: application/vnd.oci.image.manifest.v1+json',
      '--jq',
      '.schemaVersion',
    ]);
    expect(r).toEqual({ code: 0, stdout: '2\n', stderr: '' });
    const missing = await hubctl(['api', '--service', `registry:${R}`, '/v2/team/nope/tags/list']);
    expect(missing.code).toBe(5);
  });
});

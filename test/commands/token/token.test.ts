import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scriptedPrompter } from '../../support/run-cli.js';
import { type Harness, resetHarness, startHarness } from '../harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.hub.close());
beforeEach(async () => {
  resetHarness(h);
  h.hub.state.accessTokens.length = 0;
  expect((await h.login()).code).toBe(0);
  h.hub.clearRequests();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const aliceTokens = () => h.hub.state.accessTokens.filter((t) => t.owner === 'alice');

describe('token create', () => {
  it('prints the secret alone on stdout, once, and warns on stderr that it is shown only once', async () => {
    const r = await h.run([
      'token',
      'create',
      '--label',
      'ci-deploy',
      '--scope',
      'repo:read',
      '--scope',
      'repo:write',
      '--expires',
      '90d',
    ]);
    expect(r.code).toBe(0);
    const stored = aliceTokens()[0]!;
    expect(r.stdout).toBe(`${stored.token}\n`);
    expect(stored.token).toMatch(/^hub_pat_/);
    expect(r.stderr).toBe(
      `Created token "ci-deploy" (${stored.uuid}). This is the only time its secret is shown: store it now.\n`,
    );
    expect(h.hub.requests.at(-1)!.json).toMatchObject({
      token_label: 'ci-deploy',
      scopes: ['repo:read', 'repo:write'],
    });
    const expires = Date.parse((h.hub.requests.at(-1)!.json as { expires_at: string }).expires_at);
    expect(Math.abs(expires - (Date.now() + 90 * 86_400_000))).toBeLessThan(60_000);
  });

  it('--json prints the API object, secret included, and nothing on stderr', async () => {
    const r = await h.run(['--json', 'token', 'create', '--label', 'x', '--scope', 'repo:admin,repo:read']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const t = JSON.parse(r.stdout);
    expect(t).toMatchObject({
      token_label: 'x',
      scopes: ['repo:admin', 'repo:read'],
      is_active: true,
      expires_at: null,
    });
    expect(t.uuid).toMatch(UUID);
    expect(t.token).toBe(aliceTokens()[0]!.token);
  });

  it.each([
    [['--scope', 'repo:read'], "required option '--label <label>' not specified"],
    [['--label', 'x'], 'at least one --scope is required'],
    [['--label', 'x', '--scope', 'repo:fly'], 'unknown scope "repo:fly"'],
    [['--label', 'x'.repeat(101), '--scope', 'repo:read'], '--label must be 1 to 100 characters'],
    [['--label', 'x', '--scope', 'repo:read', '--expires', 'tomorrow'], '--expires takes a duration'],
    [['--label', 'x', '--scope', 'repo:read', '--expires', '2020-01-01'], '--expires must lie in the future'],
  ])('%j: usage error before any request', async (args, message) => {
    const r = await h.run(['token', 'create', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(h.hub.requests).toEqual([]);
  });
});

describe('token list', () => {
  beforeEach(() => {
    for (let i = 1; i <= 12; i++)
      h.hub.createPat('alice', { label: `t${String(i).padStart(2, '0')}`, scopes: ['repo:read'] });
    h.hub.createPat('bob', { label: 'not-alices' });
  });

  it('one page by default (10), masked, tab-separated when piped, with a hint on stderr', async () => {
    const r = await h.run(['token', 'list']);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows).toHaveLength(10);
    expect(rows.map((c) => c[1])).toEqual([
      't01',
      't02',
      't03',
      't04',
      't05',
      't06',
      't07',
      't08',
      't09',
      't10',
    ]);
    expect(rows[0]).toEqual([
      aliceTokens()[0]!.uuid,
      't01',
      'repo:read',
      'yes',
      aliceTokens()[0]!.created_at,
      'never',
      'never',
    ]);
    expect(r.stderr).toBe('Page 1 of 2; --page 2 for more, or --all.\n');
    for (const t of aliceTokens()) expect(r.stdout).not.toContain(t.token);
    const q = h.hub.requests.at(-1)!;
    expect([q.query.get('page'), q.query.get('page_size')]).toEqual(['1', '10']);
  });

  it('no tokens: nothing on stdout, a hint on stderr; --json prints an empty array', async () => {
    h.hub.state.accessTokens.length = 0;
    const r = await h.run(['token', 'list']);
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr: 'No access tokens yet: create one with `hubctl token create --label NAME --scope repo:read`.\n',
    });
    const all = await h.run(['token', 'list', '--all']);
    expect([all.code, all.stdout, all.stderr]).toEqual([0, '', r.stderr]);
    const json = await h.run(['--json', 'token', 'list']);
    expect([json.code, JSON.parse(json.stdout), json.stderr]).toEqual([0, [], '']);
  });

  it('--page and --page-size; --json prints the page as an array of masked tokens', async () => {
    const r = await h.run(['--json', 'token', 'list', '--page', '3', '--page-size', '5']);
    expect(r.code).toBe(0);
    const page = JSON.parse(r.stdout);
    expect(page.map((t: { token_label: string }) => t.token_label)).toEqual(['t11', 't12']);
    for (const t of page) expect(t.token).toMatch(/^hub_pat_\*+.{4}$/);
    // The last page: no paging hint.
    expect(r.stderr).toBe('');
    // A page with more after it says so on stderr, --json or not; --quiet silences it.
    const first = await h.run(['--json', 'token', 'list', '--page-size', '5']);
    expect(JSON.parse(first.stdout)).toHaveLength(5);
    expect(first.stderr).toBe('Page 1 of 3; --page 2 for more, or --all.\n');
    const quiet = await h.run(['--json', '--quiet', 'token', 'list', '--page-size', '5']);
    expect([quiet.stdout, quiet.stderr]).toEqual([first.stdout, '']);
  });

  it('--all follows next until null', async () => {
    const r = await h.run(['--json', 'token', 'list', '--all', '--page-size', '5']);
    expect(r.code).toBe(0);
    const all = JSON.parse(r.stdout);
    expect(all).toHaveLength(12);
    expect(new Set(all.map((t: { uuid: string }) => t.uuid)).size).toBe(12);
    const pages = h.hub.requests
      .filter((q) => q.path === '/v2/access-tokens')
      .map((q) => `${q.query.get('page')}/${q.query.get('page_size')}`);
    expect(pages).toEqual(['1/5', '2/5', '3/5']);
  });

  it('--all without --page-size asks for large pages', async () => {
    const r = await h.run(['token', 'list', '--all']);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(12);
    expect(r.stderr).toBe('');
    expect(h.hub.requests.filter((q) => q.path === '/v2/access-tokens')).toHaveLength(1);
  });

  it.each([
    [['--page', '0'], '--page must be a whole number from 1 to 1000000'],
    [['--page-size', 'ten'], '--page-size must be a whole number'],
    [['--all', '--page', '2'], '--all and --page cannot be used together'],
  ])('%j: usage error', async (args, message) => {
    const r = await h.run(['token', 'list', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(h.hub.requests).toEqual([]);
  });

  it('a page past the end is the server’s 400, shown by its message, exit 2', async () => {
    const r = await h.run(['token', 'list', '--page', '9']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('hubctl: listing access tokens: Invalid page.\n');
  });
});

describe('token get / activate / deactivate / delete', () => {
  let uuid: string;
  beforeEach(() => {
    h.hub.createPat('alice', { label: 'one', scopes: ['repo:write'] });
    uuid = aliceTokens()[0]!.uuid;
  });

  it('get shows one token, masked', async () => {
    const r = await h.run(['token', 'get', uuid]);
    expect(r.code).toBe(0);
    const fields = Object.fromEntries(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split('\t')),
    );
    expect(fields).toMatchObject({
      UUID: uuid,
      Label: 'one',
      Scopes: 'repo:write',
      Active: 'yes',
      Expires: 'never',
    });
    expect(fields.Token).toMatch(/^hub_pat_\*+/);
    expect(r.stdout).not.toContain(aliceTokens()[0]!.token);
    expect(JSON.parse((await h.run(['--json', 'token', 'get', uuid])).stdout).uuid).toBe(uuid);
  });

  it('get of an unknown token: exit 5; of what is neither a UUID nor a label: exit 2 without a request', async () => {
    const missing = await h.run(['token', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('not found');
    h.hub.clearRequests();
    const bad = await h.run(['token', 'get', 'x'.repeat(101)]);
    expect(bad.code).toBe(2);
    expect(h.hub.requests).toEqual([]);
  });

  it('deactivate then activate flip is_active with PATCH', async () => {
    const off = await h.run(['token', 'deactivate', uuid]);
    expect(off.code).toBe(0);
    expect(off.stderr).toBe(`Token ${uuid} is now inactive.\n`);
    expect(aliceTokens()[0]!.is_active).toBe(false);
    expect(h.hub.requests.at(-1)).toMatchObject({ method: 'PATCH', json: { is_active: false } });
    const on = await h.run(['--json', 'token', 'activate', uuid]);
    expect(JSON.parse(on.stdout).is_active).toBe(true);
    expect(on.stderr).toBe('');
    expect(aliceTokens()[0]!.is_active).toBe(true);
  });

  it('delete with --yes deletes without asking', async () => {
    const r = await h.run(['token', 'delete', uuid, '--yes']);
    expect(r).toEqual({ code: 0, stdout: '', stderr: `Deleted access token ${uuid}.\n` });
    expect(aliceTokens()).toEqual([]);
  });

  it('delete on a terminal asks first; yes deletes', async () => {
    const prompter = scriptedPrompter({ confirm: [true] });
    const r = await h.run(['token', 'delete', uuid], { tty: true, prompter });
    expect(r.code).toBe(0);
    expect(prompter.asked).toEqual([`Delete access token ${uuid}? Anything using it stops working.`]);
    expect(aliceTokens()).toEqual([]);
  });

  it('delete on a terminal, answered no: exit 1, nothing deleted, no DELETE sent', async () => {
    const r = await h.run(['token', 'delete', uuid], {
      tty: true,
      prompter: scriptedPrompter({ confirm: [false] }),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('nothing was deleted');
    expect(aliceTokens()).toHaveLength(1);
    expect(h.hub.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
  });

  it('delete off a terminal without --yes is refused: exit 2, nothing sent', async () => {
    const r = await h.run(['token', 'delete', uuid]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'hubctl: refusing to delete without confirmation\nStandard input is not a terminal: pass --yes to confirm.\n',
    );
    expect(aliceTokens()).toHaveLength(1);
    expect(h.hub.requests).toEqual([]);
  });
});

describe('token management with a JWT derived from a personal access token', () => {
  it('is refused by the hub: exit 4, and the message says it needs a password login', async () => {
    const pat = h.hub.createPat('alice');
    await h.login(pat);
    for (const argv of [
      ['token', 'list'],
      ['token', 'create', '--label', 'x', '--scope', 'repo:read'],
    ]) {
      const r = await h.run(argv);
      expect(r.code).toBe(4);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('token issued from personal access token is not allowed');
      expect(r.stderr).toContain('needs a password login');
    }
  });
});

describe('token commands and the session', () => {
  it('a JWT revoked server-side is refreshed once and the call succeeds', async () => {
    h.hub.inject({ method: 'GET', path: '/v2/access-tokens' }, [
      { status: 401, body: { message: 'expired', errinfo: null } },
    ]);
    const r = await h.run(['token', 'list']);
    expect(r.code).toBe(0);
    expect(h.hub.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
      'POST /v2/auth/token',
      'GET /v2/access-tokens',
      'POST /v2/auth/token',
      'GET /v2/access-tokens',
    ]);
  });

  it('a second 401 is exit 4', async () => {
    h.hub.inject({ method: 'GET', path: '/v2/access-tokens', times: 2 }, [
      { status: 401, body: { message: 'no', errinfo: null } },
    ]);
    const r = await h.run(['token', 'list']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('the hub refused a freshly issued token');
  });

  it('a 503 then success on a GET is retried; on POST create it is not', async () => {
    h.hub.inject({ method: 'GET', path: '/v2/access-tokens' }, [{ status: 503 }, { status: 503 }]);
    expect((await h.run(['token', 'list'])).code).toBe(0);
    h.hub.clearRequests();
    h.hub.inject({ method: 'POST', path: '/v2/access-tokens' }, [{ status: 503 }]);
    const r = await h.run(['token', 'create', '--label', 'x', '--scope', 'repo:read']);
    expect(r.code).toBe(7);
    expect(h.hub.requests.filter((q) => q.method === 'POST' && q.path === '/v2/access-tokens')).toHaveLength(
      1,
    );
    expect(aliceTokens()).toEqual([]);
  });

  it('a dropped connection on a GET is retried', async () => {
    h.hub.inject({ method: 'GET', path: '/v2/access-tokens' }, [{ drop: true }]);
    expect((await h.run(['token', 'list'])).code).toBe(0);
  });

  it('an unreachable hub: exit 7', async () => {
    // With credentials of the environment: the stored one is bound to the emulator's origin.
    const r = await h.run(['token', 'list'], {
      env: {
        HUBCTL_BASE_URL: 'http://127.0.0.1:9',
        HUBCTL_USERNAME: 'alice',
        HUBCTL_TOKEN: 'alice-password',
      },
    });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('connection refused');
  });
});

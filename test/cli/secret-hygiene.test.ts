// With --debug, no test secret (password, PAT, JWT) appears anywhere in stdout or stderr — except the
// one secret that `auth token` and `token create` exist to print, on stdout.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, resetHarness, startHarness } from '../commands/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.hub.close());

/** Every secret the run could have leaked: passwords, all PATs, and every JWT that went over the wire. */
function secrets(): string[] {
  const jwts = h.hub.requests.flatMap((q) => {
    const m = /^Bearer (.+)$/.exec(String(q.headers.authorization ?? ''));
    return m ? [m[1]!] : [];
  });
  const basic = h.hub.requests.flatMap((q) => {
    const m = /^Basic (.+)$/.exec(String(q.headers.authorization ?? ''));
    return m ? [m[1]!] : [];
  });
  const pats = h.hub.state.accessTokens.map((t) => t.token);
  const parts = [...jwts, ...pats].flatMap((s) => [s, ...s.split('.').filter((p) => p.length > 20)]);
  return [...new Set(['alice-password', 'bob-password', ...parts, ...basic])];
}

function expectClean(out: string, what: string, allowed: string[] = []) {
  for (const s of secrets()) {
    if (allowed.includes(s)) continue;
    expect(out.includes(s), `${what} leaks ${s.slice(0, 12)}…`).toBe(false);
  }
}

describe('secret hygiene under --debug', () => {
  it('login, status, token list, token get, governance calls and failures print no secret', async () => {
    resetHarness(h);
    const pat = h.hub.createPat('alice', { label: 'seeded' });
    h.hub.seedPolicy('acme', { name: 'egress', rules: [] });
    const outputs: { what: string; out: string }[] = [];
    const run = async (argv: string[], opts: { stdin?: string; env?: Record<string, string> } = {}) => {
      const r = await h.run(['--debug', ...argv], opts);
      outputs.push({ what: argv.join(' '), out: r.stdout + r.stderr });
      return r;
    };

    expect(
      (await run(['auth', 'login', '-u', 'alice', '--password-stdin'], { stdin: 'alice-password' })).code,
    ).toBe(0);
    const status = await run(['auth', 'status']);
    expect(status.code).toBe(0);
    // The trace is there: requests and responses, with credentials shown as redacted.
    expect(status.stderr).toContain('[debug] > POST');
    expect(status.stderr).toContain('[debug] < 200');
    expect(status.stderr).toMatch(/"password":"\*\*\*"/);
    const list = await run(['token', 'list']);
    expect(list.code).toBe(0);
    expect(list.stderr).toContain('authorization: Bearer ***');
    expect((await run(['--json', 'token', 'list', '--all'])).code).toBe(0);
    h.hub.createPat('alice', { label: 'other' });
    const uuid = h.hub.state.accessTokens.at(-1)!.uuid;
    expect((await run(['token', 'get', uuid])).code).toBe(0);
    expect((await run(['token', 'deactivate', uuid])).code).toBe(0);
    // Governance, with a 401 refresh in the middle.
    h.hub.inject({ method: 'GET', path: '/v2/orgs/acme/governance/policies' }, [
      { status: 401, body: { error: { code: 'unauthenticated', message: 'expired' } } },
    ]);
    expect((await run(['--org', 'acme', 'policy', 'list'])).code).toBe(0);
    expect((await run(['--org', 'acme', '--json', 'policy', 'list'])).code).toBe(0);
    // Failures: wrong password, a PAT login refused for token management, an environment credential.
    expect(
      (await run(['auth', 'login', '-u', 'alice', '--password-stdin'], { stdin: 'wrong-secret-xyz' })).code,
    ).toBe(4);
    expect(
      (await run(['token', 'list'], { env: { HUBCTL_USERNAME: 'alice', HUBCTL_TOKEN: pat } })).code,
    ).toBe(4);
    expect(
      (await run(['auth', 'status'], { env: { HUBCTL_USERNAME: 'alice', HUBCTL_TOKEN: pat } })).code,
    ).toBe(0);
    expect((await run(['auth', 'login', '-u', 'alice', '--password', 'alice-password'])).code).toBe(2);

    expect(h.hub.requests.length).toBeGreaterThan(10);
    for (const { what, out } of outputs) {
      expectClean(out, what);
      expect(out.includes('wrong-secret-xyz'), what).toBe(false);
    }
  });

  it('auth token and token create print exactly their one secret, on stdout only', async () => {
    resetHarness(h);
    await h.login();
    const tok = await h.run(['--debug', 'auth', 'token']);
    const jwt = tok.stdout.trim();
    expect(h.hub.requests.some((q) => q.path === '/v2/auth/token')).toBe(true);
    expectClean(tok.stderr, 'auth token stderr');
    expectClean(tok.stdout, 'auth token stdout', [jwt, ...jwt.split('.')]);

    const created = await h.run(['--debug', 'token', 'create', '--label', 'x', '--scope', 'repo:read']);
    const secret = created.stdout.trim();
    expect(secret).toBe(h.hub.state.accessTokens.at(-1)!.token);
    expectClean(created.stderr, 'token create stderr');
    expectClean(created.stdout, 'token create stdout', [secret]);
  });

  it('the stored credential file is mode 0600', async () => {
    resetHarness(h);
    await h.login();
    expect(statSync(join(h.dir, 'credentials.json')).mode & 0o777).toBe(0o600);
  });

  it('a stack trace under --debug carries no secret either', async () => {
    resetHarness(h);
    await h.login();
    h.hub.inject({ method: 'GET', path: '/v2/access-tokens', times: 2 }, [
      { status: 401, body: { message: 'no', errinfo: null } },
    ]);
    const r = await h.run(['--debug', 'token', 'list']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('caused by:');
    expectClean(r.stdout + r.stderr, 'stack trace');
  });
});

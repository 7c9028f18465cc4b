import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openConfigStore } from '../../../src/config/store.js';
import { type AuditEmulator, auditFixture, startAuditEmulator } from '../../support/audit-emulator.js';
import { runCli } from '../../support/run-cli.js';

const ANCHOR = Date.parse('2026-11-20T12:00:00.000Z');
const DAY = 86_400_000;
const fx = auditFixture(ANCHOR, 300, 75, 7);
const OAT = 'hub_oat_acme-audit-0001';
let emu: AuditEmulator;
const clock = { now: () => ANCHOR, sleep: async () => undefined };

beforeAll(async () => {
  emu = await startAuditEmulator({
    events: { acme: fx.events },
    now: () => ANCHOR,
    perMinute: 10_000,
    perHour: 100_000,
    pageSizeCap: 25,
  });
});
afterAll(() => emu.close());
beforeEach(() => emu.clearRequests());

const env = () => ({
  HUBCTL_AUDIT_URL: emu.url,
  HUBCTL_AUDIT_TOKEN: OAT,
  HUBCTL_ORG: 'acme',
  HUBCTL_AUDIT_MAX_RPM: '6000',
});
const audit = (args: string[], extra: Record<string, string> = {}) =>
  runCli(['audit', ...args], { env: { ...env(), ...extra }, clock });

describe('audit list', () => {
  it('reads a 75-day range as three windows, every event once, newest first', async () => {
    const r = await audit([
      'list',
      '--from',
      new Date(ANCHOR - 75 * DAY).toISOString(),
      '--to',
      new Date(ANCHOR).toISOString(),
      '--limit',
      '0',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const events = JSON.parse(r.stdout) as { audit_event_id: string; created_at: string }[];
    expect(events).toHaveLength(fx.events.length);
    expect(new Set(events.map((e) => e.audit_event_id)).size).toBe(fx.events.length);
    const t = events.map((e) => Date.parse(e.created_at));
    expect([...t].sort((a, b) => b - a)).toEqual(t);
    const firsts = emu.requests.filter((q) => !q.query.has('page_token'));
    expect(firsts).toHaveLength(3);
  });
});

describe('audit list: paging and filters', () => {
  it('sends the same filters on every page, from/to only on the first, and stops at --limit', async () => {
    const r = await audit(['list', '--mode', 'enforce', '--limit', '0', '--since', '20d', '--json']);
    expect(r.code).toBe(0);
    const pages = emu.requests;
    expect(pages.length).toBeGreaterThan(1);
    for (const [i, q] of pages.entries()) {
      expect(q.query.get('enforcement_mode')).toBe('enforce');
      expect(q.query.has('from')).toBe(i === 0);
      expect(q.query.has('to')).toBe(i === 0);
      expect(q.headers.authorization).toBe(`Bearer ${OAT}`);
    }
    const events = JSON.parse(r.stdout) as { enforcement_mode: string }[];
    const expected = fx.events.filter(
      (e) => e.enforcement_mode === 'enforce' && Date.parse(e.created_at) >= ANCHOR - 20 * DAY,
    );
    expect(events).toHaveLength(expected.length);

    emu.clearRequests();
    const few = await audit(['list', '--limit', '3', '--json']);
    expect(JSON.parse(few.stdout)).toHaveLength(3);
    expect(emu.requests).toHaveLength(1);
    expect(emu.requests[0]!.query.get('page_size')).toBe('3');
  });

  it('--jq filters the same array --json streams (jq as the witness where installed)', async () => {
    const json = await audit(['list', '--limit', '5', '--json']);
    const events = JSON.parse(json.stdout) as { enforcement_mode: string }[];
    const r = await audit(['list', '--limit', '5', '--jq', '.[].enforcement_mode']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(events.map((e) => `${e.enforcement_mode}\n`).join(''));
    const n = await audit(['list', '--limit', '5', '--jq', 'length']);
    expect(n.stdout).toBe(`${events.length}\n`);
  });

  it('sends from and to itself for --search, and maps every filter to its parameter', async () => {
    const r = await audit([
      'list',
      '--search',
      'deny',
      '--user',
      'carol',
      '--decision',
      'deny',
      '--action',
      'network_egress',
      '--resource',
      'Example.COM',
      '--agent',
      'claude',
      '--session',
      'sess-1',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const q = emu.requests[0]!.query;
    expect(Object.fromEntries(q)).toEqual({
      query: 'deny',
      username: 'carol',
      decision: 'AUDIT_DECISION_DENY',
      action_type: 'network_egress',
      resource_id: 'Example.COM',
      agent: 'claude',
      audit_session_id: 'sess-1',
      page_size: '100',
      from: new Date(ANCHOR - 30 * DAY).toISOString(),
      to: new Date(ANCHOR).toISOString(),
    });
  });

  it('prints a table with server text escaped', async () => {
    const r = await audit(['list', '--user', 'mallory\u001b]0;pwned\u0007', '--limit', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/\u001b/);
    expect(r.stdout).toContain('mallory\\x1b]0;pwned\\x07');
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    expect(r.stdout.split('\n')[0]!.split('\t')).toHaveLength(7);
  });
});

describe('audit list: refusals', () => {
  it.each([
    [
      ['--from', '2026-11-10T00:00:00Z', '--to', '2026-11-01T00:00:00Z'],
      /--from "2026-11-10T00:00:00Z" is not before --to/,
    ],
    [['--from', 'yesterday'], /--from "yesterday" is not a time/],
    [['--to', '2026-02-31T00:00:00Z'], /--to "2026-02-31T00:00:00Z" is not a time/],
    [['--search', 'ab'], /--search "ab" must be 3 to 256 bytes/],
    [['--decision', 'maybe'], /--decision "maybe" is not a decision/],
    [['--mode', 'strict'], /--mode "strict" is not a mode/],
    [['--resource', 'x'.repeat(257)], /--resource ".*" is longer than 256 bytes/],
    [['--limit', '-1'], /--limit/],
  ])('refuses %j with exit 2 before any request', async (args, message) => {
    const r = await audit(['list', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    expect(emu.requests).toHaveLength(0);
  });

  it('refuses a PAT, a JWT or a password before sending (exit 4), and takes an OAT from the chain', async () => {
    for (const token of ['hub_pat_abcdef', 'aaa.bbb.ccc', 'hunter2']) {
      const r = await audit(['list'], { HUBCTL_AUDIT_TOKEN: token });
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/organization access token with the "View audit logs" permission/);
    }
    const chain = await runCli(['audit', 'list', '--limit', '1'], {
      env: {
        HUBCTL_AUDIT_URL: emu.url,
        HUBCTL_ORG: 'acme',
        HUBCTL_TOKEN: 'hub_pat_x',
        HUBCTL_USERNAME: 'alice',
      },
      clock,
    });
    expect(chain.code).toBe(4);
    expect(emu.requests).toHaveLength(0);
    const oat = await runCli(['audit', 'list', '--limit', '1'], {
      env: { HUBCTL_AUDIT_URL: emu.url, HUBCTL_ORG: 'acme', HUBCTL_TOKEN: OAT, HUBCTL_USERNAME: 'acme' },
      clock,
    });
    expect(oat.code, oat.stderr).toBe(0);
  });

  it("sends a stored hub login to Docker's own audit API only, never to another audit address", async () => {
    const config = mkdtempSync(join(tmpdir(), 'hubctl-audit-hub-'));
    const hub = 'http://127.0.0.1:9/hub';
    openConfigStore(config).setHubCredential('default', {
      username: 'acme',
      secret: OAT,
      origin: new URL(hub).origin,
      base: hub,
    });
    const r = await runCli(['audit', 'list', '--limit', '1'], {
      env: { HUBCTL_CONFIG_DIR: config, HUBCTL_BASE_URL: hub, HUBCTL_AUDIT_URL: emu.url, HUBCTL_ORG: 'acme' },
      clock,
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(
      `is for ${hub}; hubctl does not send it to the audit API at ${new URL(emu.url).origin}`,
    );
    expect(r.stderr).not.toContain(OAT);
    expect(emu.requests).toHaveLength(0);
  });

  it('exits 4 on 401 and 403, with the server sentence', async () => {
    const r = await audit(['list'], { HUBCTL_AUDIT_TOKEN: 'hub_oat_unknown' });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/invalid or expired token/);
    const other = await audit(['list'], { HUBCTL_ORG: 'other' });
    expect(other.code).toBe(4);
  });

  it('says what a 400 said, once, without retrying', async () => {
    emu.fail([{ status: 400, body: { error: 'page_token does not match the time range' } }]);
    const r = await audit(['list']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/page_token does not match the time range/);
    expect(emu.requests).toHaveLength(1);
  });

  it('retries 429 (Retry-After, retry_after_seconds, bare), 503 and 408, saying it waits', async () => {
    const slept: number[] = [];
    const c = { now: () => ANCHOR, sleep: async (ms: number) => void slept.push(ms) };
    emu.fail([
      {
        status: 429,
        body: { error: 'rate limit exceeded', code: 'rate_limit_exceeded', retry_after_seconds: 7 },
      },
      { status: 429, headers: { 'retry-after': '3' }, body: { error: 'slow down' } },
      { status: 429, body: 'Too Many Requests' },
      { status: 503, body: { error: 'search timed out' } },
      { status: 408, body: { error: 'deadline exceeded' } },
    ]);
    const r = await runCli(['audit', 'list', '--limit', '1', '--json'], { env: env(), clock: c });
    expect(r.code, r.stderr).toBe(0);
    expect(slept.slice(0, 2)).toEqual([7000, 3000]);
    expect(slept).toHaveLength(5);
    expect(r.stderr).toMatch(/rate limit is reached.*waiting 7 s/);
    expect(r.stderr.match(/waiting/g)).toHaveLength(5);
  });
});

describe('auth login --audit', () => {
  it('stores an OAT for the audit origin after checking it, refuses a PAT before sending, and audit commands use it', async () => {
    const { tempConfigDir } = await import('../../support/run-cli.js');
    const config = tempConfigDir();
    const base = { HUBCTL_CONFIG_DIR: config, HUBCTL_ORG: 'acme', HUBCTL_AUDIT_URL: emu.url };
    const pat = await runCli(['auth', 'login', '--audit', '--password-stdin'], {
      env: base,
      stdin: 'hub_pat_abc\n',
      clock,
    });
    expect(pat.code).toBe(4);
    expect(emu.requests).toHaveLength(0);
    const bad = await runCli(['auth', 'login', '--audit', '--password-stdin'], {
      env: base,
      stdin: 'hub_oat_wrong\n',
      clock,
    });
    expect(bad.code).toBe(4);
    const ok = await runCli(['auth', 'login', '--audit', '--password-stdin'], {
      env: base,
      stdin: `${OAT}\n`,
      clock,
    });
    expect(ok.code, ok.stderr).toBe(0);
    const { readFileSync } = await import('node:fs');
    const creds = JSON.parse(readFileSync(`${config}/credentials.json`, 'utf8'));
    expect(creds.audit.default).toEqual({
      username: 'acme',
      secret: OAT,
      origin: new URL(emu.url).origin,
      base: new URL(emu.url).origin,
    });
    emu.clearRequests();
    const list = await runCli(['audit', 'list', '--limit', '1', '--json'], { env: base, clock });
    expect(list.code, list.stderr).toBe(0);
    expect(emu.requests[0]!.headers.authorization).toBe(`Bearer ${OAT}`);
    // Bound to its origin: another audit address does not get it.
    const elsewhere = await runCli(['audit', 'list', '--audit-url', 'http://localhost:9'], {
      env: base,
      clock,
    });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toMatch(/does not send it to http:\/\/localhost:9/);
    // …and to its base path: the same origin under another path is another service.
    const otherPath = await runCli(['audit', 'list', '--audit-url', `${emu.url}/other/`], {
      env: base,
      clock,
    });
    expect(otherPath.code).toBe(2);
    expect(otherPath.stderr).toContain(`does not send it to ${new URL(emu.url).origin}/other`);
    expect(emu.requests).toHaveLength(1);
    const out = await runCli(['auth', 'logout'], { env: base, clock });
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(/Removed the audit log token of profile "default"/);
    expect(JSON.parse(readFileSync(`${config}/credentials.json`, 'utf8')).audit).toEqual({});
  });
});

describe('audit: pacing and progress', () => {
  it('paces a long read to its share of the minute and says so on stderr', async () => {
    const slept: number[] = [];
    let now = ANCHOR;
    const c = {
      now: () => now,
      sleep: async (ms: number) => {
        slept.push(ms);
        now += ms;
      },
    };
    const r = await runCli(['audit', 'list', '--since', '40d', '--limit', '0', '--json'], {
      env: { ...env(), HUBCTL_AUDIT_MAX_RPM: '2' },
      clock: c,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(emu.requests.length).toBeGreaterThan(2);
    expect(slept.length).toBeGreaterThan(0);
    expect(r.stderr).toMatch(
      /pacing: this run keeps to 2 audit requests a minute \(the organization shares 100\): waiting \d+ s/,
    );
  });

  it('shows progress on a terminal (events, rate, window), escaped, and nothing of it off one', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const file = join(mkdtempSync(join(tmpdir(), 'hubctl-progress-')), 'out.ndjson');
    const r = await runCli(['audit', 'export', '--since', '40d', '-o', file], {
      env: env(),
      clock,
      tty: true,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/exporting: [\d,]+ events, [\d,]+\/s, window \d{4}-/);
    expect(r.stderr).toMatch(/Exported \d+ events to/);
  });
});

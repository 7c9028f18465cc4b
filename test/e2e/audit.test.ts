// The built CLI against the audit emulator on 127.0.0.1: every filter, windows, limits, resume after
// SIGKILL, tail ended by SIGINT, local files with a .tmp beside them, bad input, summary counts.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type AuditEmulator,
  type AuditEvent,
  auditEvent,
  auditFixture,
  startAuditEmulator,
} from '../support/audit-emulator.js';
import { BIN, ensureBuilt, runBin } from '../support/run-bin.js';

const ANCHOR = Date.parse('2026-11-20T12:00:00.000Z');
const DAY = 86_400_000;
const fx = auditFixture(ANCHOR, 400, 75, 7);
const OAT = 'hub_oat_acme-audit-0001';
const FROM = new Date(ANCHOR - 75 * DAY).toISOString();
const TO = new Date(ANCHOR).toISOString();
let emu: AuditEmulator;
let home: string;

beforeAll(async () => {
  ensureBuilt();
  emu = await startAuditEmulator({
    events: { acme: fx.events },
    perMinute: 100_000,
    perHour: 1e6,
    pageSizeCap: 10,
    latencyMs: 5,
  });
  home = mkdtempSync(join(tmpdir(), 'hubctl-e2e-audit-'));
});
afterAll(() => emu?.close());
beforeEach(() => emu.clearRequests());

const env = (extra: Record<string, string> = {}) => ({
  HUBCTL_CONFIG_DIR: join(home, 'config'),
  HOME: home,
  HUBCTL_AUDIT_URL: emu.url,
  HUBCTL_AUDIT_TOKEN: OAT,
  HUBCTL_ORG: 'acme',
  HUBCTL_AUDIT_MAX_RPM: '6000',
  ...extra,
});
const hubctl = (args: string[], extra: Record<string, string> = {}, stdin?: string) =>
  runBin(args, { env: env(extra), stdin });

const inRange = (e: AuditEvent, from = FROM, to = TO) =>
  Date.parse(e.created_at) >= Date.parse(from) && Date.parse(e.created_at) <= Date.parse(to);
const newestFirst = (events: AuditEvent[]) =>
  [...events].sort(
    (a, b) =>
      Date.parse(b.created_at) - Date.parse(a.created_at) || (a.audit_event_id < b.audit_event_id ? -1 : 1),
  );

describe('hubctl audit (built CLI, emulator)', () => {
  it('lists 75 days as three windows: every event once, the edges and the burst included', async () => {
    const r = await hubctl(['audit', 'list', '--from', FROM, '--to', TO, '--limit', '0', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as AuditEvent[];
    expect(got.map((e) => e.audit_event_id)).toEqual(
      newestFirst(fx.events.filter((e) => inRange(e))).map((e) => e.audit_event_id),
    );
    expect(got.filter((e) => e.created_at === fx.burstAt)).toHaveLength(fx.burstSize + 1);
    expect(emu.requests.filter((q) => q.query.has('from'))).toHaveLength(3);
    expect(emu.requests.every((q) => q.query.has('from') !== q.query.has('page_token'))).toBe(true);
  });

  it.each([
    [['--user', 'carol'], (e: AuditEvent) => e.username === 'carol'],
    [
      ['--decision', 'approval-required'],
      (e: AuditEvent) => e.decision === 'AUDIT_DECISION_APPROVAL_REQUIRED',
    ],
    [['--mode', 'warn'], (e: AuditEvent) => e.enforcement_mode === 'warn'],
    [['--action', 'http_request'], (e: AuditEvent) => e.action_type === 'http_request'],
    [
      ['--resource', 'registry.npmjs'],
      (e: AuditEvent) => String(e.payload.resource_id).toLowerCase().startsWith('registry.npmjs'),
    ],
    [['--agent', 'codex'], (e: AuditEvent) => e.payload.agent === 'codex'],
    [['--session', 'sess-3'], (e: AuditEvent) => e.audit_session_id === 'sess-3'],
    [['--search', 'APPROVAL'], (e: AuditEvent) => String(e.decision).includes('APPROVAL')],
  ])('filters with %j across windows', async (args, keep) => {
    const r = await hubctl(['audit', 'list', '--from', FROM, '--to', TO, '--limit', '0', '--json', ...args]);
    expect(r.code, r.stderr).toBe(0);
    const want = fx.events.filter((e) => inRange(e) && keep(e));
    expect((JSON.parse(r.stdout) as AuditEvent[]).map((e) => e.audit_event_id).sort()).toEqual(
      want.map((e) => e.audit_event_id).sort(),
    );
  });

  it('stops paging at --limit, and shows a table with escapes', async () => {
    const r = await hubctl(['audit', 'list', '--from', FROM, '--to', TO, '--limit', '15']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(15);
    // Pages of at most 10 (the emulator's cap): two pages, not the whole range.
    expect(emu.requests.length).toBe(2);
    const evil = await hubctl([
      'audit',
      'list',
      '--from',
      FROM,
      '--to',
      TO,
      '--resource',
      'evil',
      '--limit',
      '1',
    ]);
    expect(evil.stdout).toContain('evil.test\\x1b[2J:80');
    expect(evil.stdout).not.toContain('\u001b');
  });

  it('refuses bad input with exit 2 before any request', async () => {
    for (const args of [
      ['--from', '2026-11-02T00:00:00Z', '--to', '2026-11-01T00:00:00Z'],
      ['--since', 'last week'],
      ['--search', 'x'],
      ['--decision', 'nope'],
      ['--mode', 'loud'],
    ]) {
      const r = await hubctl(['audit', 'list', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    }
    const pat = await hubctl(['audit', 'list'], { HUBCTL_AUDIT_TOKEN: 'dckr_pat_abc' });
    expect(pat.code).toBe(4);
    expect(emu.requests).toHaveLength(0);
  });

  it('resumes an export killed with SIGKILL: no duplicate, no gap', async () => {
    const d = mkdtempSync(join(tmpdir(), 'hubctl-e2e-export-'));
    const file = join(d, 'audit.ndjson');
    const args = [BIN, 'audit', 'export', '--from', FROM, '--to', TO, '-o', file];
    for (let round = 0; round < 3; round++) {
      const child = spawn(process.execPath, args, { env: { ...process.env, ...env() }, stdio: 'ignore' });
      const closed = new Promise((r) => child.once('close', r));
      const threshold = (round + 1) * 30_000;
      await new Promise<void>((resolve) => {
        const t = setInterval(() => {
          if ((existsSync(file) && statSync(file).size > threshold) || child.exitCode !== null) {
            clearInterval(t);
            child.kill('SIGKILL');
            resolve();
          }
        }, 2);
      });
      await closed;
    }
    // Killed before the end: the export is unfinished.
    expect(existsSync(`${file}.hubctl-export`)).toBe(true);
    const done = await runBin(args.slice(1), { env: env() });
    expect(done.code, done.stderr).toBe(0);
    const ids = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as AuditEvent).audit_event_id);
    expect(ids).toEqual(newestFirst(fx.events.filter((e) => inRange(e))).map((e) => e.audit_event_id));
    expect(existsSync(`${file}.hubctl-export`)).toBe(false);
  });

  it('summarizes by decision, matching counts computed here', async () => {
    const r = await hubctl(['audit', 'summary', '--by', 'decision', '--from', FROM, '--to', TO, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const want: Record<string, number> = {};
    for (const e of fx.events.filter((x) => inRange(x))) {
      const name = String(e.decision).replace('AUDIT_DECISION_', '').toLowerCase().replace('_', '-');
      want[name] = (want[name] ?? 0) + 1;
    }
    const got = JSON.parse(r.stdout) as { value: string; count: number }[];
    expect(Object.fromEntries(got.map((g) => [g.value, g.count]))).toEqual(want);
  });

  it('reads local files (.jsonl only, a .tmp beside them)', async () => {
    const state = join(home, 'state');
    const dir = join(state, 'sandboxes', 'sandboxes', 'auditkit');
    mkdirSync(dir, { recursive: true });
    const recs = [1, 2, 3].map((n) => {
      const { payload, created_at, ...rest } = auditEvent(n, new Date(ANCHOR - n * 1000).toISOString());
      return { ...rest, ...payload, timestamp: created_at };
    });
    writeFileSync(
      join(dir, 'audit-20261120T120000Z-u-1.jsonl'),
      `${recs.map((x) => JSON.stringify(x)).join('\n')}\n`,
    );
    writeFileSync(join(dir, 'audit-20261120T120001Z-u-2.jsonl.tmp'), `${JSON.stringify(recs[0])}\n{"trunc`);
    const r = await hubctl(['audit', 'list', '--local', '--json'], { XDG_STATE_HOME: state });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(3);
  });

  it('tails new events until SIGINT, then exits 0 with whole lines', async () => {
    const child = spawn(process.execPath, [BIN, 'audit', 'tail', '--interval', '1s', '--json'], {
      env: { ...process.env, ...env() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const waitFor = async (cond: () => boolean, ms = 10_000) => {
      const end = Date.now() + ms;
      while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    };
    await waitFor(() => emu.requests.length > 0);
    const at = new Date(Date.now()).toISOString();
    emu.addEvents('acme', [auditEvent(9001, at), auditEvent(9002, at)]);
    await waitFor(() => out.split('\n').length > 2);
    emu.addEvents('acme', [auditEvent(9003, new Date(Date.now()).toISOString())]);
    await waitFor(() => out.split('\n').length > 3);
    child.kill('SIGINT');
    const code = await new Promise((r) => child.once('close', r));
    expect(code, err).toBe(0);
    expect(out.endsWith('\n')).toBe(true);
    const got = out
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as AuditEvent).audit_event_id);
    // The first two share an instant (either order); the third came later.
    expect([...got.slice(0, 2)].sort()).toEqual([9001, 9002].map((n) => auditEvent(n, at).audit_event_id));
    expect(got.slice(2)).toEqual([auditEvent(9003, at).audit_event_id]);
  });
});

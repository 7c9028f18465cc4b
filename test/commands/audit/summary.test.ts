import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditEmulator, auditFixture, startAuditEmulator } from '../../support/audit-emulator.js';
import { runCli } from '../../support/run-cli.js';

const ANCHOR = Date.parse('2026-11-20T12:00:00.000Z');
const DAY = 86_400_000;
const fx = auditFixture(ANCHOR, 300, 75, 7);
let emu: AuditEmulator;
const clock = { now: () => ANCHOR, sleep: async () => undefined };

beforeAll(async () => {
  emu = await startAuditEmulator({
    events: { acme: fx.events },
    now: () => ANCHOR,
    perMinute: 100_000,
    perHour: 1e6,
  });
});
afterAll(() => emu.close());

const env = () => ({
  HUBCTL_AUDIT_URL: emu.url,
  HUBCTL_AUDIT_TOKEN: 'hub_oat_acme-audit-0001',
  HUBCTL_ORG: 'acme',
  HUBCTL_AUDIT_MAX_RPM: '6000',
});

/** Counts worked out here from the fixture, not by the code under test. */
function countBy(events: typeof fx.events, key: (e: (typeof fx.events)[number]) => unknown) {
  const m = new Map<unknown, { count: number; allowed: number; denied: number }>();
  for (const e of events) {
    const k = key(e) ?? null;
    const g = m.get(k) ?? { count: 0, allowed: 0, denied: 0 };
    g.count++;
    if (e.decision === 'AUDIT_DECISION_ALLOW' || e.decision === 'AUDIT_DECISION_APPROVAL_ALLOW') g.allowed++;
    if (e.decision === 'AUDIT_DECISION_DENY' || e.decision === 'AUDIT_DECISION_APPROVAL_DENY') g.denied++;
    m.set(k, g);
  }
  return m;
}

describe('audit summary', () => {
  it('counts per resource over the API, across windows, matching counts computed here', async () => {
    const r = await runCli(['audit', 'summary', '--by', 'resource', '--since', '75d', '--json'], {
      env: env(),
      clock,
    });
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as { value: string; count: number; allowed: number; denied: number }[];
    const want = countBy(
      fx.events.filter((e) => Date.parse(e.created_at) >= ANCHOR - 75 * DAY),
      (e) => e.payload.resource_id,
    );
    expect(got).toHaveLength(want.size);
    for (const g of got)
      expect(want.get(g.value)).toEqual({ count: g.count, allowed: g.allowed, denied: g.denied });
    const counts = got.map((g) => g.count);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
  });

  it('summarizes NDJSON files and standard input offline, filters applied', async () => {
    const d = mkdtempSync(join(tmpdir(), 'hubctl-sum-'));
    const a = join(d, 'a.ndjson');
    const half = Math.floor(fx.events.length / 2);
    writeFileSync(
      a,
      fx.events
        .slice(0, half)
        .map((e) => JSON.stringify(e))
        .join('\n'),
    );
    const stdin = `${fx.events
      .slice(half)
      .map((e) => JSON.stringify(e))
      .join('\r\n')}\n\n`;
    const r = await runCli(
      ['audit', 'summary', '--by', 'user', '--input', a, '--input', '-', '--mode', 'enforce', '--json'],
      { stdin, clock },
    );
    expect(r.code, r.stderr).toBe(0);
    const want = countBy(
      fx.events.filter((e) => e.enforcement_mode === 'enforce'),
      (e) => e.username,
    );
    const got = JSON.parse(r.stdout) as { value: string; count: number }[];
    expect(Object.fromEntries(got.map((g) => [g.value, g.count]))).toEqual(
      Object.fromEntries([...want].map(([k, v]) => [k, v.count])),
    );
  });

  it('counts mixed lines of both shapes as the spec reads them: escapes, repeated keys, payload first', async () => {
    const d = mkdtempSync(join(tmpdir(), 'hubctl-sum-'));
    const f = join(d, 'mixed.ndjson');
    writeFileSync(
      f,
      [
        // the API's shape, an escape in the resource
        '{"created_at":"2026-11-20T10:00:00Z","decision":"AUDIT_DECISION_DENY","username":"ann","payload":{"resource_id":"evil\\u001b:80"}}',
        // the local flat shape, not ASCII
        '{"timestamp":"2026-11-20T11:00:00.000Z","decision":"AUDIT_DECISION_ALLOW","user_email":"bé@x","resource_id":"a:443"}',
        // a key given twice: the last counts
        '{"timestamp":"2026-11-20T09:00:00Z","decision":"AUDIT_DECISION_ALLOW","decision":"AUDIT_DECISION_DENY","resource_id":"a:443"}',
        // payload's resource_id wins over the top level's, even when it is no string
        '{"created_at":"2026-11-20T08:00:00Z","decision":"AUDIT_DECISION_ALLOW","resource_id":"top:1","payload":{"resource_id":5}}',
        // a payload without it: the top level's
        '{"created_at":"2026-11-20T07:00:00Z","decision":"AUDIT_DECISION_ALLOW","resource_id":"top:1","payload":{"agent":"x"}}',
        '{"created_at":"2026-11-20T12:00:00Z","decision":"AUDIT_DECISION_APPROVAL_REQUIRED","payload":{"resource_id":"a:443"}}\r',
        '',
      ].join('\n'),
    );
    const r = await runCli(['audit', 'summary', '--by', 'resource', '--input', f, '--json'], { clock });
    expect(r.code, r.stderr).toBe(0);
    const g = (
      value: string | null,
      count: number,
      allowed: number,
      denied: number,
      approvalRequired = 0,
    ) => ({
      value,
      count,
      allowed,
      denied,
      approvalRequired,
      other: 0,
    });
    expect(JSON.parse(r.stdout)).toEqual([
      g('a:443', 3, 1, 1, 1),
      g('evil\u001b:80', 1, 0, 1),
      g('top:1', 1, 1, 0),
      g(null, 1, 1, 0),
    ]);
    const t = await runCli(['audit', 'summary', '--by', 'user', '--input', f], { clock });
    expect(t.code, t.stderr).toBe(0);
    expect(t.stderr).toMatch(/6 events from 2026-11-20T07:00:00Z to 2026-11-20T12:00:00Z/);
    const ann = await runCli(
      ['audit', 'summary', '--by', 'user', '--input', f, '--resource', 'EVIL', '--json'],
      {
        clock,
      },
    );
    expect(JSON.parse(ann.stdout)).toEqual([g('ann', 1, 0, 1)]);
  });

  it('prints a table and the time range covered; bad input names the file and line', async () => {
    const d = mkdtempSync(join(tmpdir(), 'hubctl-sum-'));
    const a = join(d, 'a.ndjson');
    writeFileSync(
      a,
      fx.events
        .slice(0, 5)
        .map((e) => JSON.stringify(e))
        .join('\n'),
    );
    const r = await runCli(['audit', 'summary', '--by', 'decision', '--input', a], { clock });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(`5 events from ${fx.events[4]!.created_at} to ${fx.events[0]!.created_at}`),
    );
    const bad = join(d, 'bad.ndjson');
    writeFileSync(bad, `${JSON.stringify(fx.events[0])}\n[1,2]\n`);
    const b = await runCli(['audit', 'summary', '--by', 'decision', '--input', bad], { clock });
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/bad\.ndjson line 2 is not a JSON object/);
    const huge = join(d, 'huge.ndjson');
    writeFileSync(huge, `{"x":"${'a'.repeat(2 * 1024 * 1024)}"}\n`);
    const h = await runCli(['audit', 'summary', '--by', 'decision', '--input', huge], { clock });
    expect(h.code).toBe(2);
    expect(h.stderr).toMatch(/line 1 is longer than 1024 KiB/);
    const none = await runCli(['audit', 'summary', '--input', a], { clock });
    expect(none.code).toBe(2);
  });
});

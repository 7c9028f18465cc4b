import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localAuditDir } from '../../../src/audit/local.js';
import { auditEvent } from '../../support/audit-emulator.js';
import { runCli } from '../../support/run-cli.js';

const ANCHOR = Date.parse('2026-11-20T12:00:00.000Z');
const clock = { now: () => ANCHOR, sleep: async () => undefined };

/** A local record: flat, `timestamp`, `user_email`, the payload's fields at the top level. */
function localRecord(n: number, at: number): Record<string, unknown> {
  const e = auditEvent(n, new Date(at).toISOString());
  const { payload, created_at, username, ingested_at: _i, ...rest } = e;
  return {
    ...rest,
    ...payload,
    timestamp: created_at,
    user_email: `${String(username)}@example.com`,
    schema_version: '1',
    org_name: 'acme',
    hostname: 'dev-box',
  };
}

function auditkit(): { dir: string; records: Record<string, unknown>[] } {
  const state = mkdtempSync(join(tmpdir(), 'hubctl-local-'));
  const dir = join(state, 'sandboxes', 'sandboxes', 'auditkit');
  mkdirSync(dir, { recursive: true });
  const records: Record<string, unknown>[] = [];
  // Two complete files (not in time order across them) and one being written.
  const a = Array.from({ length: 40 }, (_, i) => localRecord(i + 1, ANCHOR - i * 3_600_000));
  const b = Array.from({ length: 30 }, (_, i) => localRecord(100 + i, ANCHOR - 20 * 3_600_000 - i * 60_000));
  records.push(...a, ...b);
  writeFileSync(join(dir, 'audit-20261120T120000Z-aaaa-1.jsonl'), a.map((r) => JSON.stringify(r)).join('\n'));
  writeFileSync(
    join(dir, 'audit-20261119T000000Z-bbbb-1.jsonl'),
    `${b.map((r) => JSON.stringify(r)).join('\n')}\n`,
  );
  writeFileSync(
    join(dir, 'audit-20261120T130000Z-cccc-2.jsonl.tmp'),
    `${JSON.stringify(localRecord(999, ANCHOR))}\n{"partial`,
  );
  writeFileSync(join(dir, 'notes.txt'), 'not audit');
  return { dir, records };
}

describe('--local', () => {
  it('finds the platform directory, honouring XDG_STATE_HOME', () => {
    expect(localAuditDir({ XDG_STATE_HOME: '/s', HOME: '/h' }, 'linux')).toBe(
      '/s/sandboxes/sandboxes/auditkit',
    );
    expect(localAuditDir({ HOME: '/h' }, 'linux')).toBe('/h/.local/state/sandboxes/sandboxes/auditkit');
    expect(localAuditDir({ HOME: '/h' }, 'darwin')).toBe(
      '/h/Library/Logs/com.docker.sandboxes/sandboxes/auditkit',
    );
    expect(localAuditDir({ HOME: '/h', LOCALAPPDATA: 'C:\\L' }, 'win32')).toMatch(
      /DockerSandboxes.sandboxes.logs.auditkit$/,
    );
  });

  it('lists .jsonl records only, newest first, with every filter, from the default directory', async () => {
    const { dir, records } = auditkit();
    const state = join(dir, '..', '..', '..');
    const r = await runCli(['audit', 'list', '--local', '--limit', '0', '--json'], {
      env: { XDG_STATE_HOME: state },
      clock,
    });
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(got).toHaveLength(records.length);
    const times = got.map((g) => Date.parse(String(g.timestamp)));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(got.some((g) => g.audit_event_id === auditEvent(999, '').audit_event_id)).toBe(false);

    const carol = await runCli(
      [
        'audit',
        'list',
        '--local',
        dir,
        '--user',
        'carol@example.com',
        '--decision',
        'deny',
        '--resource',
        'EXAMPLE',
        '--since',
        '10h',
        '--json',
      ],
      { clock },
    );
    const want = records.filter(
      (x) =>
        x.user_email === 'carol@example.com' &&
        x.decision === 'AUDIT_DECISION_DENY' &&
        String(x.resource_id).toLowerCase().startsWith('example') &&
        Date.parse(String(x.timestamp)) >= ANCHOR - 10 * 3_600_000,
    );
    expect((JSON.parse(carol.stdout) as unknown[]).length).toBe(want.length);

    const few = await runCli(['audit', 'list', '--local', dir, '--limit', '3', '--json'], { clock });
    expect((JSON.parse(few.stdout) as { timestamp: string }[]).map((g) => g.timestamp)).toEqual(
      records
        .map((x) => String(x.timestamp))
        .sort()
        .reverse()
        .slice(0, 3),
    );
  });

  it('summarizes and exports local records', async () => {
    const { dir, records } = auditkit();
    const s = await runCli(['audit', 'summary', '--local', dir, '--by', 'agent', '--json'], { clock });
    const got = JSON.parse(s.stdout) as { value: string; count: number }[];
    const want: Record<string, number> = {};
    for (const x of records) want[String(x.agent)] = (want[String(x.agent)] ?? 0) + 1;
    expect(Object.fromEntries(got.map((g) => [g.value, g.count]))).toEqual(want);

    const out = join(dir, '..', 'export.ndjson');
    const e = await runCli(['audit', 'export', '--local', dir, '--action', 'session', '-o', out], { clock });
    expect(e.code, e.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(records.filter((x) => x.action_type === 'session').length);
    const again = await runCli(['audit', 'export', '--local', dir, '-o', out], { clock });
    expect(again.code).toBe(6);
  });

  it('says plainly when there is no local directory', async () => {
    const r = await runCli(['audit', 'list', '--local', '/nonexistent/auditkit'], { clock });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/there is no local audit directory at \/nonexistent\/auditkit/);
  });
});

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AuditEmulator, auditFixture, startAuditEmulator } from '../../support/audit-emulator.js';
import { runCli } from '../../support/run-cli.js';

const ANCHOR = Date.parse('2026-11-20T12:00:00.000Z');
const DAY = 86_400_000;
const fx = auditFixture(ANCHOR, 300, 75, 7);
const OAT = 'hub_oat_acme-audit-0001';
let emu: AuditEmulator;
const clock = { now: () => ANCHOR, sleep: async () => undefined };
const FROM = new Date(ANCHOR - 70 * DAY).toISOString();
const TO = new Date(ANCHOR).toISOString();

beforeAll(async () => {
  emu = await startAuditEmulator({
    events: { acme: fx.events },
    now: () => ANCHOR,
    perMinute: 100_000,
    perHour: 1_000_000,
    pageSizeCap: 20,
  });
});
afterAll(() => emu.close());
beforeEach(() => emu.clearRequests());

const env = {
  HUBCTL_AUDIT_TOKEN: OAT,
  HUBCTL_ORG: 'acme',
  HUBCTL_AUDIT_MAX_RPM: '6000',
};
const exportTo = (file: string, extra: string[] = []) =>
  runCli(['audit', 'export', '--from', FROM, '--to', TO, '-o', file, ...extra], {
    env: { ...env, HUBCTL_AUDIT_URL: emu.url },
    clock,
  });

/** What the range holds, newest first, as the emulator orders it. */
function expected(): string[] {
  const lo = Date.parse(FROM);
  return fx.events
    .filter((e) => Date.parse(e.created_at) >= lo && Date.parse(e.created_at) <= ANCHOR)
    .sort(
      (a, b) =>
        Date.parse(b.created_at) - Date.parse(a.created_at) || (a.audit_event_id < b.audit_event_id ? -1 : 1),
    )
    .map((e) => e.audit_event_id);
}
const ids = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { audit_event_id: string }).audit_event_id);

const dir = () => mkdtempSync(join(tmpdir(), 'hubctl-export-'));

describe('audit export -o FILE', () => {
  it('writes every event of the range once, newest first, as NDJSON exactly as given, and removes its state', async () => {
    const file = join(dir(), 'out.ndjson');
    const r = await exportTo(file);
    expect(r.code, r.stderr).toBe(0);
    expect(ids(file)).toEqual(expected());
    const first = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!);
    expect(first).toEqual(fx.events.find((e) => e.audit_event_id === first.audit_event_id));
    expect(existsSync(`${file}.hubctl-export`)).toBe(false);
  });

  it.each([3, 5, 6, 10])(
    'resumes after a stop with %i events of the edge burst written and a partial line',
    async (inBurst) => {
      const file = join(dir(), 'out.ndjson');
      // A first run that fails leaves its state beside the file.
      emu.fail([{ status: 400, body: { error: 'stop here' } }]);
      emu.clearRequests();
      const failing = await runCli(['audit', 'export', '--from', FROM, '--to', TO, '-o', file], {
        env: { ...env, HUBCTL_AUDIT_URL: emu.url },
        clock,
      });
      expect(failing.code).not.toBe(0);
      expect(existsSync(`${file}.hubctl-export`)).toBe(true);
      // As if killed inside the burst on the 30-day edge: a prefix of the right output, then half a line.
      const all = expected();
      const burstStart = all.findIndex(
        (id) => fx.events.find((e) => e.audit_event_id === id)?.created_at === fx.burstAt,
      );
      const keep = burstStart + inBurst;
      const full = join(dir(), 'full.ndjson');
      expect((await exportTo(full)).code).toBe(0);
      const lines = readFileSync(full, 'utf8').split('\n');
      writeFileSync(file, `${lines.slice(0, keep).join('\n')}\n${lines[keep]!.slice(0, 40)}`);
      const again = await exportTo(file);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(/Resuming the export/);
      expect(ids(file)).toEqual(all);
      expect(existsSync(`${file}.hubctl-export`)).toBe(false);
    },
  );

  it("never touches a file that is not this export (exit 6), nor another command's unfinished export", async () => {
    const d = dir();
    const file = join(d, 'notes.txt');
    writeFileSync(file, 'my notes\n');
    const r = await exportTo(file);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/already exists and is not an unfinished export/);
    expect(readFileSync(file, 'utf8')).toBe('my notes\n');
    expect(emu.requests).toHaveLength(0);

    const other = join(d, 'other.ndjson');
    emu.fail([{ status: 400, body: { error: 'stop here' } }]);
    expect((await exportTo(other)).code).toBe(2);
    const mismatch = await exportTo(other, ['--user', 'carol']);
    expect(mismatch.code).toBe(6);
    expect(mismatch.stderr).toMatch(/unfinished export of another command/);
  });

  it('refuses a second run to the same file while the first holds it', async () => {
    const file = join(dir(), 'busy.ndjson');
    writeFileSync(
      `${file}.hubctl-export.lock`,
      `${process.pid} ${(await import('node:os')).hostname()} ${Date.now()} x`,
    );
    const r = await exportTo(file);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/another hubctl is exporting to/);
  });

  it('writes to standard output without -o', async () => {
    const r = await runCli(['audit', 'export', '--user', 'carol', '--since', '70d'], {
      env: { ...env, HUBCTL_AUDIT_URL: emu.url },
      clock,
    });
    expect(r.code).toBe(0);
    const got = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { username: string });
    expect(got.length).toBe(
      fx.events.filter((e) => e.username === 'carol' && Date.parse(e.created_at) >= ANCHOR - 70 * DAY).length,
    );
    for (const e of got) expect(e.username).toBe('carol');
  });

  describe('pages as the server wrote them', () => {
    const DAY_FROM = new Date(ANCHOR - DAY).toISOString();
    const one = (file: string) =>
      runCli(['audit', 'export', '--from', DAY_FROM, '--to', TO, '-o', file], {
        env: { ...env, HUBCTL_AUDIT_URL: emu.url },
        clock,
      });
    const at = '2026-11-20T11:00:00Z';

    it("writes each event's own text, escapes and number forms kept, terminal-unsafe characters escaped", async () => {
      const events = [
        `{"audit_event_id":"r-1","created_at":"${at}","username":"caf\\u00e9","path":"a\\/b","n":12345678901234567890,"f":1.50}`,
        `{"audit_event_id":"r-2","created_at":"${at}","username":"eve\u202e","payload":{"deny_reason":["\u0085x"]}}`,
      ];
      emu.fail([{ status: 200, body: `{"events":[${events.join(',')}],"next_page_token":""}\n` }]);
      const file = join(dir(), 'raw.ndjson');
      const r = await one(file);
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(
        `${events[0]}\n${events[1]!.replace('\u202e', '\\u202e').replace('\u0085', '\\u0085')}\n`,
      );
    });

    it('reads a pretty-printed page too, one event a line', async () => {
      const page = {
        events: [{ audit_event_id: 'p-1', created_at: at, payload: { agent: 'x' } }],
        next_page_token: '',
      };
      emu.fail([{ status: 200, body: JSON.stringify(page, null, 2) }]);
      const file = join(dir(), 'pretty.ndjson');
      const r = await one(file);
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(page.events[0])}\n`);
    });

    it.each([
      ['is not JSON', '{"events":[{"audit_event_id":"x"}', /the body is not valid JSON/],
      [
        'holds an event that is not an object',
        '{"events":[1],"next_page_token":""}',
        /an event is not a JSON object/,
      ],
      ['has no cursor', '{"events":[{"a":1}]}', /no "next_page_token" string/],
    ])('refuses a page that %s (exit 7) and writes none of it', async (_what, body, message) => {
      emu.fail([{ status: 200, body }]);
      const file = join(dir(), 'bad.ndjson');
      const r = await one(file);
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(message);
      expect(readFileSync(file, 'utf8')).toBe('');
    });
  });
});

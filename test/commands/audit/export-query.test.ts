// Every page of an export sends the same filters, written as URLSearchParams writes them, and the
// server's cursor byte for byte, whatever characters they hold (issue 22: "Send the same filters
// on every page, and from/to only as the cursor requires").
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIT_PATH,
  type AuditEmulator,
  auditEvent,
  startAuditEmulator,
} from '../../support/audit-emulator.js';
import { runCli } from '../../support/run-cli.js';

const ANCHOR = Date.parse('2026-11-20T12:00:00.000Z');
const USER = 'a+b c&d=é%2F/x';
const SUFFIX = ' +/&=%é%20==';
let emu: AuditEmulator;

beforeAll(async () => {
  const events = Array.from({ length: 45 }, (_, i) => ({
    ...auditEvent(i + 1, new Date(ANCHOR - 60_000 * (i + 1)).toISOString()),
    username: i % 3 === 2 ? 'bob' : USER,
  }));
  emu = await startAuditEmulator({
    events: { acme: events },
    now: () => ANCHOR,
    perMinute: 100_000,
    perHour: 1_000_000,
    pageSizeCap: 5,
    cursorSuffix: SUFFIX,
  });
});
afterAll(() => emu.close());

describe('audit export: the query of every page', () => {
  it('sends the filters on every page and the cursor as given, with characters a query encodes', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hubctl-export-')), 'out.ndjson');
    const from = new Date(ANCHOR - 86_400_000).toISOString();
    const to = new Date(ANCHOR).toISOString();
    const r = await runCli(
      ['audit', 'export', '--from', from, '--to', to, '--user', USER, '--search', 'c&d=é%', '-o', file],
      {
        env: {
          HUBCTL_AUDIT_TOKEN: 'hub_oat_acme-audit-0001',
          HUBCTL_ORG: 'acme',
          HUBCTL_AUDIT_MAX_RPM: '6000',
          HUBCTL_AUDIT_URL: emu.url,
        },
        clock: { now: () => ANCHOR, sleep: async () => undefined },
      },
    );
    expect(r.code).toBe(0);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(30);
    for (const l of lines) expect((JSON.parse(l) as { username: string }).username).toBe(USER);
    const pages = emu.requests.filter((q) => q.path.startsWith(AUDIT_PATH));
    expect(pages).toHaveLength(6);
    pages.forEach((p, n) => {
      expect(p.query.get('username')).toBe(USER);
      expect(p.query.get('query')).toBe('c&d=é%');
      if (n === 0) {
        expect(p.query.get('from')).toBe(from);
        expect(p.query.get('to')).toBe(to);
        expect(p.query.get('page_token')).toBeNull();
      } else {
        expect(p.query.get('page_token')?.endsWith(SUFFIX)).toBe(true);
      }
    });
  });
});

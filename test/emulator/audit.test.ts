// The audit emulator holds the rules of audit-and-mcp.md §1; these tests check it does, with plain
// fetch (not hubctl's client), so the client's tests can trust it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuditEmulator,
  auditFixture,
  matchesFilters,
  startAuditEmulator,
} from '../support/audit-emulator.js';

const ANCHOR = Date.parse('2026-11-20T12:00:00.000Z');
const fx = auditFixture(ANCHOR, 120, 75, 7);
const OAT = 'hub_oat_acme-audit-0001';
let emu: AuditEmulator;

beforeAll(async () => {
  emu = await startAuditEmulator({ events: { acme: fx.events }, now: () => ANCHOR, perMinute: 1000 });
});
afterAll(() => emu.close());

async function get(query: Record<string, string>, token = OAT, org = 'acme') {
  const url = `${emu.url}/v2/auditlogs/governance/${org}?${new URLSearchParams(query)}`;
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}

const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 86_400_000;

describe('audit emulator', () => {
  it('takes the raw OAT only: PATs, JWTs and unknown tokens 401, another organization 403', async () => {
    expect((await get({}, 'hub_pat_xyz')).status).toBe(401);
    expect((await get({}, 'aaa.bbb.ccc')).status).toBe(401);
    expect((await get({}, 'hub_oat_unknown')).status).toBe(401);
    const other = await get({}, 'hub_oat_other-audit-0002');
    expect(other.status).toBe(403);
    expect(other.json).toEqual({ error: expect.any(String) });
  });

  it('defaults to the last 30 days, both bounds inclusive, newest first', async () => {
    const all: { created_at: string }[] = [];
    let token = '';
    do {
      const r = await get({ page_size: '50', ...(token ? { page_token: token } : {}) });
      expect(r.status).toBe(200);
      all.push(...(r.json.events as { created_at: string }[]));
      token = r.json.next_page_token as string;
    } while (token !== '');
    const expected = fx.events.filter(
      (e) => Date.parse(e.created_at) >= ANCHOR - 30 * DAY && Date.parse(e.created_at) <= ANCHOR,
    );
    expect(all).toHaveLength(expected.length);
    // The edge and the burst on it are inside.
    expect(all.filter((e) => e.created_at === fx.burstAt)).toHaveLength(fx.burstSize + 1);
    const times = all.map((e) => Date.parse(e.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('refuses more than 30 days, from after to, bad times, short searches, search without a range', async () => {
    expect((await get({ from: iso(ANCHOR - 31 * DAY), to: iso(ANCHOR) })).status).toBe(400);
    expect((await get({ from: iso(ANCHOR - 30 * DAY), to: iso(ANCHOR) })).status).toBe(200);
    expect((await get({ from: iso(ANCHOR), to: iso(ANCHOR - DAY) })).status).toBe(400);
    expect((await get({ from: 'yesterday' })).status).toBe(400);
    expect((await get({ from: iso(ANCHOR - DAY), to: iso(ANCHOR), query: 'ab' })).status).toBe(400);
    expect((await get({ query: 'carol' })).status).toBe(400);
    expect((await get({ page_size: '-1' })).status).toBe(400);
    expect((await get({ resource_id: 'x'.repeat(257) })).status).toBe(400);
  });

  it('caps the page size and binds the cursor to its range and filters', async () => {
    const first = await get({ page_size: '1000', username: 'alice' });
    expect((first.json.events as unknown[]).length).toBeLessThanOrEqual(100);
    const token = first.json.next_page_token as string;
    const q = { page_size: '1000', username: 'alice', page_token: token };
    if (token) {
      expect((await get(q)).status).toBe(200);
      expect((await get({ ...q, username: 'bob' })).status).toBe(400);
      expect((await get({ ...q, from: iso(ANCHOR - DAY) })).status).toBe(400);
    }
  });

  it('filters as the reference says', async () => {
    const r = await get({ resource_id: 'registry.npm', page_size: '100' });
    const events = r.json.events as { payload: { resource_id: string } }[];
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(e.payload.resource_id.toLowerCase()).toMatch(/^registry\.npm/);
    expect(matchesFilters(fx.events[0]!, { query: '  ALLOW ' })).toBe(
      String(fx.events[0]!.decision).includes('ALLOW'),
    );
  });

  it("answers the application's 429 with retry_after_seconds and Retry-After, and injected faults", async () => {
    const tight = await startAuditEmulator({ events: { acme: fx.events }, now: () => ANCHOR, perMinute: 2 });
    try {
      const url = `${tight.url}/v2/auditlogs/governance/acme`;
      const h = { authorization: `Bearer ${OAT}` };
      await fetch(url, { headers: h });
      await fetch(url, { headers: h });
      const third = await fetch(url, { headers: h });
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await third.json()).toMatchObject({
        code: 'rate_limit_exceeded',
        retry_after_seconds: expect.any(Number),
      });
      tight.fail([{ status: 429 }]);
      expect((await fetch(url, { headers: h })).status).toBe(429);
    } finally {
      await tight.close();
    }
  });
});

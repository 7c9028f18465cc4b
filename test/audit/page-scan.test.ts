// The page scanner of `audit export` against JSON.parse and the page's schema: whatever it returns
// agrees with them (each span parses to the event JSON.parse gives, the ids, times and cursor are
// JSON.parse's), on pages written every way JSON allows and on pages broken every way; anything it
// does not vouch for is undefined (the caller reads that with JSON.parse).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ScannedPage, scanAuditPage } from '../../src/audit/page-scan.js';

const MAX = 50;

/** What JSON.parse and the page's schema make of a body, or undefined when they refuse it. */
function reference(body: Buffer): { events: Record<string, unknown>[]; next: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const p = parsed as { events?: unknown; next_page_token?: unknown };
  if (!Array.isArray(p.events) || typeof p.next_page_token !== 'string' || p.events.length > MAX)
    return undefined;
  for (const e of p.events) if (typeof e !== 'object' || e === null || Array.isArray(e)) return undefined;
  return { events: p.events as Record<string, unknown>[], next: p.next_page_token };
}

/** The scanner's answer, held to the reference: it may refuse, but never disagree. */
function agrees(body: Buffer, got: ScannedPage | undefined): void {
  if (got === undefined) return;
  const want = reference(body);
  expect(
    want,
    `accepted what JSON.parse or the schema refuses: ${body.toString('utf8').slice(0, 200)}`,
  ).toBeDefined();
  if (!want) return;
  expect(got.next).toBe(want.next);
  expect(got.spans.length).toBe(2 * want.events.length);
  want.events.forEach((e, i) => {
    const text = body.toString('utf8', got.spans[2 * i], got.spans[2 * i + 1]);
    expect(text).not.toMatch(/[\r\n]/);
    expect(JSON.parse(text)).toEqual(e);
    expect(got.ids[i]).toBe(typeof e.audit_event_id === 'string' ? e.audit_event_id : undefined);
    expect(got.times[i]).toBe(typeof e.created_at === 'string' ? e.created_at : undefined);
  });
}

/** JSON text of a value, written in one of the many ways JSON allows (escapes, number forms). */
function write(value: unknown, pick: () => number, spaced: boolean): string {
  const sp = () => (spaced ? [' ', '', '\n', '\t', '\r\n  '][pick() % 5] : '');
  if (typeof value === 'string') return str(value, pick);
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && pick() % 4 === 0) return `${value}.0`;
    if (pick() % 5 === 0) return value.toExponential();
    return JSON.stringify(value);
  }
  if (Array.isArray(value))
    return `[${sp()}${value.map((v) => write(v, pick, spaced)).join(`${sp()},${sp()}`)}${sp()}]`;
  if (value && typeof value === 'object')
    return `{${sp()}${Object.entries(value)
      .map(([k, v]) => `${str(k, pick)}${sp()}:${sp()}${write(v, pick, spaced)}`)
      .join(`${sp()},${sp()}`)}${sp()}}`;
  return JSON.stringify(value);
}

function str(s: string, pick: () => number): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    const r = pick() % 6;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c < 0x20) out += JSON.stringify(ch).slice(1, -1);
    else if (ch === '/' && r === 0) out += '\\/';
    else if (c <= 0xffff && r === 1) out += `\\u${c.toString(16).padStart(4, '0').toUpperCase()}`;
    else if (c <= 0xffff && r === 2) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('2026-11-20T12:00:00Z', 'a/b', 'é\u2028\u007f\u0085', '\\"', ''),
);
const event = fc.record(
  {
    audit_event_id: fc.oneof(text, fc.integer(), fc.constant(null)),
    created_at: fc.oneof(text, fc.boolean()),
    payload: fc.jsonValue({ maxDepth: 4 }),
    other: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);
const page = fc.record({
  events: fc.array(event, { maxLength: 8 }),
  next: text,
  extra: fc.option(fc.jsonValue({ maxDepth: 3 })),
});
const seed = fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 64 });
const picker = (xs: number[]) => {
  let i = 0;
  return () => xs[i++ % xs.length] as number;
};

/** A page body: the events under `events` (keys in either order, maybe another key). */
function body(p: { events: unknown[]; next: string; extra: unknown }, pick: () => number, spaced: boolean) {
  const entries: [string, string][] = [
    ['events', `[${p.events.map((e) => write(e, pick, false)).join(spaced ? ',\n ' : ',')}]`],
    ['next_page_token', str(p.next, pick)],
  ];
  if (p.extra !== null) entries.push(['extra', write(p.extra, pick, spaced)]);
  if (pick() % 2) entries.reverse();
  const sep = spaced ? ' ' : '';
  return `${sep}{${entries.map(([k, v]) => `${str(k, pick)}:${sep}${v}`).join(`,${sep}`)}}${spaced ? '\n' : ''}`;
}

describe('audit page scanner', () => {
  it('reads every compact page JSON.parse reads, and agrees with it', () => {
    fc.assert(
      fc.property(page, seed, (p, xs) => {
        const b = Buffer.from(body(p, picker(xs), false));
        const got = scanAuditPage(b, MAX);
        expect(got, b.toString()).toBeDefined();
        agrees(b, got);
      }),
      { numRuns: 400 },
    );
  });

  it('agrees with JSON.parse on pages with whitespace between the events and around the page', () => {
    fc.assert(
      fc.property(page, seed, (p, xs) => {
        const b = Buffer.from(body(p, picker(xs), true));
        agrees(b, scanAuditPage(b, MAX));
      }),
      { numRuns: 300 },
    );
  });

  it('never vouches for a broken page: bytes cut, changed, inserted or dropped', () => {
    const edit = fc.record({
      at: fc.nat(),
      kind: fc.constantFrom('cut', 'set', 'insert', 'drop'),
      byte: fc.oneof(
        fc.integer({ min: 0, max: 255 }),
        fc.constantFrom(...Buffer.from('"\\{}[],:0-.eE+tfnu \n\t\r')),
      ),
    });
    fc.assert(
      fc.property(page, seed, fc.array(edit, { minLength: 1, maxLength: 3 }), (p, xs, edits) => {
        let b = Buffer.from(body(p, picker(xs), false));
        for (const e of edits) {
          const at = e.at % (b.length + 1);
          if (e.kind === 'cut') b = b.subarray(0, at);
          else if (e.kind === 'set' && at < b.length) b = Buffer.from(b).fill(e.byte, at, at + 1);
          else if (e.kind === 'insert')
            b = Buffer.concat([b.subarray(0, at), Buffer.from([e.byte]), b.subarray(at)]);
          else if (e.kind === 'drop') b = Buffer.concat([b.subarray(0, at), b.subarray(at + 1)]);
        }
        agrees(b, scanAuditPage(b, MAX));
      }),
      { numRuns: 2000 },
    );
  });

  it('never vouches for arbitrary text', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.json(), fc.string({ unit: 'binary' }), fc.uint8Array().map(Buffer.from)),
        (t) => {
          const b = typeof t === 'string' ? Buffer.from(t) : (t as Buffer);
          agrees(b, scanAuditPage(b, MAX));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('reads the fields as JSON.parse does: escapes decoded, the last of a repeated key, non-strings as absent', () => {
    const b = Buffer.from(
      '{"events":[{"audit_event_id":"a","audit_event_id":"b","created\\u005fat":"2026-11-20T12:00:00\\u005A","x":[1,{"y":null}]},{"audit_event_id":7,"created_at":"t"},{}],"next_page_token":"n\\/1"}\n',
    );
    const got = scanAuditPage(b, MAX);
    expect(got).toMatchObject({
      ids: ['b', undefined, undefined],
      times: ['2026-11-20T12:00:00Z', 't', undefined],
      next: 'n/1',
    });
    agrees(b, got);
    // The text of each event as it stands, escapes and all.
    expect(b.toString('utf8', got?.spans[0], got?.spans[1])).toContain('"created\\u005fat"');
  });

  it.each([
    ['a page that is not an object', '[{"events":[],"next_page_token":""}]'],
    ['no events', '{"next_page_token":""}'],
    ['no cursor', '{"events":[]}'],
    ['a cursor that is not a string', '{"events":[],"next_page_token":null}'],
    ['an event that is not an object', '{"events":[1],"next_page_token":""}'],
    ['events twice (JSON.parse keeps the last)', '{"events":[{"a":1}],"events":[],"next_page_token":""}'],
    ['a cursor twice', '{"events":[],"next_page_token":"a","next_page_token":""}'],
    ['whitespace inside an event', '{"events":[{"a": 1}],"next_page_token":""}'],
    ['a newline inside the page', '{"events":[],\n"next_page_token":""}'],
    ['a byte-order mark', '\ufeff{"events":[],"next_page_token":""}'],
    ['more events than the cap', `{"events":[${'{},'.repeat(MAX)}{}],"next_page_token":""}`],
    ['a raw tab in a string', '{"events":[{"a":"x\ty"}],"next_page_token":""}'],
    ['a bad escape', '{"events":[{"a":"\\x"}],"next_page_token":""}'],
    ['a number JSON does not allow', '{"events":[{"a":01}],"next_page_token":""}'],
    ['text after the page', '{"events":[],"next_page_token":""}x'],
    [
      'nesting past the scanner’s depth',
      `{"events":[{"a":${'['.repeat(70)}${']'.repeat(70)}}],"next_page_token":""}`,
    ],
  ])('leaves %s to JSON.parse', (_what, t) => {
    expect(scanAuditPage(Buffer.from(t), MAX)).toBeUndefined();
  });

  it('leaves bytes that are not UTF-8 to JSON.parse', () => {
    const b = Buffer.concat([
      Buffer.from('{"events":[{"a":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}],"next_page_token":""}'),
    ]);
    expect(scanAuditPage(b, MAX)).toBeUndefined();
  });
});

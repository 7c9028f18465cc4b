// audit summary over NDJSON files read in place (summary-input.ts) gives what the full path gives
// (readNdjson + readFileBatches + SummaryCounter.add): the same groups, counts, split and time range
// for every --by and every filter, or the same error, however the bytes are cut into chunks.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { readFileBatches } from '../../src/audit/local.js';
import type { AuditFilters, AuditQuery } from '../../src/audit/query.js';
import { SUMMARY_KEYS, SummaryCounter, type SummaryKey } from '../../src/audit/summary.js';
import { summarizeFiles } from '../../src/audit/summary-input.js';

const MAX = 1000;

const users = ['ann@example.com', 'bob@example.com', 'Ann@Example.com'];
const resources = ['api.github.com:443', 'API.GitHub.com:80', 'registry.npmjs.org:443', 'x'];
const decisions = [
  'AUDIT_DECISION_ALLOW',
  'AUDIT_DECISION_DENY',
  'AUDIT_DECISION_APPROVAL_REQUIRED',
  'AUDIT_DECISION_APPROVAL_ALLOW',
  'AUDIT_DECISION_APPROVAL_DENY',
  'AUDIT_DECISION_UNSPECIFIED',
];
const times = [
  '2026-11-20T10:00:00Z',
  '2026-11-20T10:00:00.500Z',
  '2026-11-19T23:59:59.999Z',
  '2026-11-21T00:00:00+02:00',
  '2026-11-18T08:00:00Z',
  'not a time',
];
/** Mostly the usual strings; sometimes escapes, other characters, or another type. */
const odd = fc.oneof(
  fc.constantFrom('a"b', 'a\\b', 'é', '日本', '😀', 'a\tb', '', 'deny'),
  fc.constantFrom(1, null, true, [], {}, ['x']),
  fc.string({ maxLength: 6 }),
);
const pick = (pool: string[]) => fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...pool) }, odd);
const fields = {
  username: pick(users),
  user_email: pick(users),
  decision: pick(decisions),
  action_type: pick(['network_egress', 'http_request', 'session']),
  event_type: pick(['network_egress', 'tool_invocation', 'DENY-ish']),
  enforcement_mode: pick(['audit', 'warn', 'enforce']),
  audit_session_id: pick(['s-1', 's-2']),
  category: pick(['AUDIT_CATEGORY_EVALUATION']),
  extra: fc.oneof(odd, fc.dictionary(fc.constantFrom('a', 'agent', 'resource_id'), odd, { maxKeys: 2 })),
};
const inner = {
  resource_id: pick(resources),
  agent: pick(['claude', 'codex', 'Claude']),
  network_egress: fc.oneof(fc.record({ protocol: pick(['tcp']) }), odd),
  deny_reason: fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
};
const api = fc.record(
  { ...fields, created_at: pick(times), payload: fc.oneof(fc.record(inner, { requiredKeys: [] }), odd) },
  { requiredKeys: [] },
);
const flat = fc.record({ ...fields, ...inner, timestamp: pick(times) }, { requiredKeys: [] });

/** The same JSON with one character of a usual value written as an escape (the same value). */
function respell(json: string, seed: number): string {
  const usual = [...users, ...resources, ...decisions, 'claude', 'codex'].map((v) => JSON.stringify(v));
  const spots = usual.flatMap((v) => {
    const at = json.indexOf(v);
    return at < 0 ? [] : [{ at, length: v.length - 2 }];
  });
  if (spots.length === 0) return json;
  const spot = spots[seed % spots.length]!;
  const at = spot.at + 1 + (seed % spot.length);
  return `${json.slice(0, at)}\\u${json.charCodeAt(at).toString(16).padStart(4, '0')}${json.slice(at + 1)}`;
}

/** An event line, or an adversarial one. */
const line = fc.oneof(
  { weight: 12, arbitrary: fc.oneof(api, flat).map((r) => JSON.stringify(r)) },
  // a usual value spelled otherwise: one value, two spellings
  {
    weight: 4,
    arbitrary: fc.tuple(fc.oneof(api, flat), fc.nat()).map(([r, n]) => respell(JSON.stringify(r), n)),
  },
  // a key given twice (JSON.parse keeps the last)
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.oneof(api, flat),
        fc.constantFrom('decision', 'username', 'resource_id', 'created_at'),
        pick(users),
      )
      .map(([r, k, v]) => {
        const json = JSON.stringify(r);
        const member = `${JSON.stringify(k)}:${JSON.stringify(v)}`;
        return json === '{}' ? `{${member}}` : json.replace(/^\{/, `{${member},`);
      }),
  },
  // spaces, CR, blank lines
  { weight: 2, arbitrary: fc.oneof(api, flat).map((r) => JSON.stringify(r, null, 1).replace(/\n/g, ' ')) },
  { weight: 1, arbitrary: fc.oneof(api, flat).map((r) => `${JSON.stringify(r)}\r`) },
  { weight: 1, arbitrary: fc.constantFrom('', '\r', '{}', ' {}', '{} ', '{}\t', '{}\r') },
);
/** No JSON object (the run stops there), or a line over the cap: put in some files. */
const badLine = fc.constantFrom(
  '[]',
  'null',
  '{"a":1}x',
  '{',
  'x'.repeat(MAX + 1),
  ' ',
  `"${'x'.repeat(MAX)}"`,
);

const filters: fc.Arbitrary<AuditFilters> = fc.record(
  {
    user: fc.constantFrom(...users),
    decision: fc.constantFrom(...decisions),
    mode: fc.constantFrom('audit', 'warn', 'enforce'),
    action: fc.constantFrom('network_egress', 'session'),
    resource: fc.constantFrom('api.', 'API.GITHUB', 'registry', 'x'),
    agent: fc.constantFrom('claude', 'codex'),
    session: fc.constantFrom('s-1', 's-2'),
    search: fc.constantFrom('ann', 'deny', 'network', 'ISH'),
  },
  { requiredKeys: [] },
);
const point = (text: string) => ({ text, ms: Date.parse(text) });
const query: fc.Arbitrary<AuditQuery> = fc.record(
  {
    filters: fc.oneof(fc.constant({}), filters),
    from: fc.constantFrom('2026-11-19T23:59:59.999Z', '2026-11-20T10:00:00Z').map(point),
    to: fc.constantFrom('2026-11-20T10:00:00Z', '2026-11-21T00:00:00Z').map(point),
  },
  { requiredKeys: ['filters'] },
);

/** Files: their lines, how they are cut into chunks, whether they end with a newline. */
const file = fc.record({
  lines: fc
    .tuple(
      fc.array(line, { maxLength: 40, size: 'max' }),
      fc.oneof(
        { weight: 5, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.tuple(badLine, fc.nat()) },
      ),
    )
    .map(([ls, bad]) => {
      if (bad === null) return ls;
      const at = bad[1] % (ls.length + 1);
      return [...ls.slice(0, at), bad[0], ...ls.slice(at)];
    }),
  cuts: fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 8 }),
  strings: fc.boolean(),
  newlineAtEnd: fc.boolean(),
});

function chunks(f: { lines: string[]; cuts: number[]; strings: boolean; newlineAtEnd: boolean }) {
  const text = f.lines.join('\n') + (f.newlineAtEnd && f.lines.length > 0 ? '\n' : '');
  const bytes = Buffer.from(text, 'utf8');
  const out: (Buffer | string)[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = f.cuts[i % f.cuts.length]!;
    const piece = bytes.subarray(at, at + n);
    // a string chunk only where it is whole characters (stdin in text mode)
    out.push(f.strings && Buffer.from(piece.toString('utf8')).equals(piece) ? piece.toString('utf8') : piece);
    at += n;
  }
  return out;
}

type Files = { name: string; open: () => AsyncIterable<Buffer | string> }[];
const asFiles = (fs: (Buffer | string)[][]): Files =>
  fs.map((c, i) => ({
    name: `f${i}.ndjson`,
    open: async function* () {
      // a copy of each chunk: the stream may reuse its memory
      for (const x of c) yield typeof x === 'string' ? x : Buffer.from(x);
    },
  }));

async function outcome(run: () => Promise<SummaryCounter>) {
  try {
    return { summary: (await run()).result() };
  } catch (err) {
    return { error: `${(err as Error).constructor.name}: ${(err as Error).message}` };
  }
}

const fullPath = (files: Files, q: AuditQuery, by: SummaryKey) =>
  outcome(async () => {
    const counter = new SummaryCounter(by);
    for await (const batch of readFileBatches(files, q, MAX)) for (const e of batch) counter.add(e);
    return counter;
  });

const fastPath = (files: Files, q: AuditQuery, by: SummaryKey) =>
  outcome(async () => {
    const counter = new SummaryCounter(by);
    await summarizeFiles(files, q, counter, by, undefined, MAX);
    return counter;
  });

describe('summary over NDJSON files read in place', () => {
  it('gives the full path’s groups, split and range, or its error, for every --by and filter (property)', async () => {
    let counted = 0;
    let errors = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(file, { minLength: 1, maxLength: 3 }),
        query,
        fc.constantFrom(...SUMMARY_KEYS),
        async (fs, q, by) => {
          const cut = fs.map(chunks);
          const want = await fullPath(asFiles(cut), q, by);
          const got = await fastPath(asFiles(cut), q, by);
          expect(got).toEqual(want);
          if (want.summary) counted += want.summary.events;
          else {
            errors++;
          }
        },
      ),
      { numRuns: 600 },
    );
    // not vacuous: events are counted, and some runs end in an error
    expect(counted).toBeGreaterThan(200);
    expect(errors).toBeGreaterThan(10);
  });

  it('counts plain lines of both shapes, with the full path’s errors naming file and line', async () => {
    const lines = [
      '{"created_at":"2026-11-20T10:00:00Z","decision":"AUDIT_DECISION_DENY","username":"ann","payload":{"resource_id":"a:443"}}',
      '{"timestamp":"2026-11-20T11:00:00Z","decision":"AUDIT_DECISION_ALLOW","user_email":"bob","resource_id":"a:443"}',
      '{"timestamp":"2026-11-20T09:00:00Z","decision":"AUDIT_DECISION_ALLOW","user_email":"b\\u00e9","resource_id":"b:443"}',
    ];
    const files = asFiles([[`${lines.join('\n')}\n`]]);
    // the two plain lines are read in place; the one with an escape is parsed whole
    const parse = vi.spyOn(JSON, 'parse');
    const got = await fastPath(files, { filters: {} }, 'resource');
    expect(parse).toHaveBeenCalledTimes(1);
    parse.mockRestore();
    expect(got.summary).toEqual({
      groups: [
        { value: 'a:443', count: 2, allowed: 1, denied: 1, approvalRequired: 0, other: 0 },
        { value: 'b:443', count: 1, allowed: 1, denied: 0, approvalRequired: 0, other: 0 },
      ],
      events: 3,
      oldest: '2026-11-20T09:00:00Z',
      newest: '2026-11-20T11:00:00Z',
      overflowed: false,
    });
    const bad = await fastPath(asFiles([[`${lines[0]}\n\n[1]\n`]]), { filters: {} }, 'user');
    expect(bad.error).toBe('ValidationError: f0.ndjson line 3 is not a JSON object');
    // a line over the cap later in the same chunk is the error given, as readNdjson gives it
    const long = await fastPath(
      asFiles([[`{\n${lines[1]}\n${'x'.repeat(MAX + 1)}\n`]]),
      { filters: {} },
      'user',
    );
    expect(long.error).toBe('LineTooLongError: f0.ndjson line 3 is longer than 1 KiB: not an audit record');
  });
});

// The in-place reader of audit event lines: whatever line it answers for, its fields are those of
// JSON.parse + readAuditRecord, and it answers for the plain lines audit logs are made of (both shapes).
import { isAscii } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventFieldReader, type EventFields } from '../../src/audit/event-fields.js';
import { readAuditRecord } from '../../src/audit/record.js';

/** The fields replay and summary read, as plain data. */
function fieldsOf(e: EventFields) {
  return {
    category: e.category,
    actionType: e.actionType,
    eventType: e.eventType,
    decision: e.decision,
    user: e.user,
    agent: e.agent,
    time: e.time,
    resource: e.resource,
    session: e.session,
    mode: e.mode,
    networkEgress: e.networkEgress === undefined ? undefined : { protocol: e.networkEgress.protocol },
    httpRequest:
      e.httpRequest === undefined
        ? undefined
        : {
            method: e.httpRequest.method,
            host: e.httpRequest.host,
            port: e.httpRequest.port,
            path: e.httpRequest.path,
          },
  };
}

/** What the full path makes of a line: its fields, or why it is no record. */
function parsed(line: string) {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  const r = readAuditRecord(value);
  return 'invalid' in r ? r.invalid : fieldsOf(r);
}

/** The bytes of an ASCII text (one a character), or null. */
function ascii(text: string): Uint8Array | null {
  const b = Buffer.from(text, 'utf8');
  return isAscii(b) ? b : null;
}

/** Reads `text` whole with a new reader. */
function readLine(text: string) {
  return new EventFieldReader().read(text, 0, text.length, ascii(text));
}

/** Reads the line alone, and as one line of a block of lines around it: the same answer. */
function readBoth(line: string, before: string, after: string) {
  const reader = new EventFieldReader();
  const alone = reader.read(line, 0, line.length, ascii(line));
  const aloneFields = alone === undefined ? undefined : fieldsOf(alone);
  if (line.includes('\n')) return aloneFields;
  const text = `${before}\n${line}\n${after}`;
  const inBlock = reader.read(text, before.length + 1, before.length + 1 + line.length, ascii(text));
  expect(inBlock === undefined ? undefined : fieldsOf(inBlock)).toEqual(aloneFields);
  return aloneFields;
}

const unicode = fc.string({ unit: 'binary', maxLength: 12 });
const text = fc.oneof(
  fc.constantFrom('', 'tcp', 'UDP', 'api.github.com:443', '/a/b', '2001:db8::1', 'é', '日本', '😀'),
  fc.string({ maxLength: 12 }),
  unicode,
  // characters JSON.stringify escapes, and the ones that end or open things
  fc.constantFrom('a"b', 'a\\b', 'a\nb', 'a\tb', '\u0000', '\u001f', '\u2028', '{', '}', '[', ']', ':', ','),
  fc.constantFrom('evil.test\u001b[2J:80', '\ud800', 'x\udc00y', '/\\u0041', 'a/b'),
);
/** Values of any type, at any depth, with the key names replay reads among the keys. */
const KEYS = [
  'category',
  'action_type',
  'event_type',
  'decision',
  'username',
  'user_email',
  'created_at',
  'timestamp',
  'payload',
  'resource_id',
  'agent',
  'network_egress',
  'http_request',
  'protocol',
  'method',
  'host',
  'port',
  'path',
  'audit_session_id',
  'enforcement_mode',
];
const key = fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 6 }), unicode);
const { value: anyValue } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.double(),
    fc.constantFrom(0, -0, 1e300, 5e-324, 2 ** 53 + 1),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
}));
const egress = fc.record({ protocol: fc.oneof(text, anyValue) }, { requiredKeys: [] });
const http = fc.record(
  {
    method: fc.oneof(fc.constantFrom('HTTP_METHOD_GET', 'HTTP_METHOD_DELETE'), text, anyValue),
    host: fc.oneof(text, anyValue),
    port: fc.oneof(fc.constantFrom('443', 8443), text, anyValue),
    path: fc.oneof(text, anyValue),
  },
  { requiredKeys: [] },
);
const payloadFields = {
  resource_id: fc.oneof(text, anyValue),
  agent: fc.oneof(text, anyValue),
  network_egress: fc.oneof(egress, anyValue),
  http_request: fc.oneof(http, anyValue),
  deny_reason: fc.array(text, { maxLength: 2 }),
  approval: fc.dictionary(key, anyValue, { maxKeys: 3 }),
};
const top = {
  audit_event_id: text,
  category: fc.oneof(fc.constantFrom('AUDIT_CATEGORY_EVALUATION', 'AUDIT_CATEGORY_MANAGEMENT'), anyValue),
  action_type: fc.oneof(fc.constantFrom('network_egress', 'http_request', 'session'), text, anyValue),
  event_type: fc.oneof(text, anyValue),
  decision: fc.oneof(fc.constantFrom('AUDIT_DECISION_ALLOW', 'AUDIT_DECISION_DENY'), text, anyValue),
  username: fc.oneof(text, anyValue),
  user_email: fc.oneof(text, anyValue),
  created_at: fc.oneof(fc.constantFrom('2026-11-20T10:00:00Z'), text, anyValue),
  timestamp: fc.oneof(fc.constantFrom('2026-11-20T10:00:00.123Z'), text, anyValue),
  audit_session_id: fc.oneof(text, anyValue),
  enforcement_mode: fc.oneof(fc.constantFrom('audit', 'warn', 'enforce'), text, anyValue),
  extra: anyValue,
};
/** Records of both shapes, their fields of the usual types or of any. */
const record = fc.oneof(
  fc.record(
    { ...top, payload: fc.oneof(fc.record(payloadFields, { requiredKeys: [] }), anyValue) },
    { requiredKeys: [] },
  ),
  fc.record({ ...top, ...payloadFields }, { requiredKeys: [] }),
);

/** Records whose fields have the usual types (strings, objects): most are read in place. */
const plainText = fc.oneof(
  fc.constantFrom('tcp', 'api.github.com:443', '/a/b', 'HTTP_METHOD_GET', '443', '\u007f'),
  fc.string({ maxLength: 10 }),
);
const plainPayload = fc.record(
  {
    resource_id: plainText,
    agent: plainText,
    network_egress: fc.record({ protocol: plainText, other: anyValue }, { requiredKeys: [] }),
    http_request: fc.record(
      { method: plainText, host: plainText, port: plainText, path: plainText },
      { requiredKeys: [] },
    ),
    extra: anyValue,
  },
  { requiredKeys: [] },
);
const plainTop = {
  category: plainText,
  action_type: plainText,
  event_type: plainText,
  decision: plainText,
  username: plainText,
  user_email: plainText,
  created_at: plainText,
  timestamp: plainText,
  audit_session_id: plainText,
  enforcement_mode: plainText,
  n: fc.oneof(fc.double(), fc.integer(), fc.constant(1e300)),
  list: fc.array(anyValue, { maxLength: 3 }),
};
const plainRecord = fc.oneof(
  fc.record({ ...plainTop, payload: plainPayload }, { requiredKeys: [] }),
  fc.record({ ...plainTop }, { requiredKeys: [] }).chain((t) => plainPayload.map((p) => ({ ...t, ...p }))),
);

/** A record as JSON, members in any order, some given twice, with or without spaces. */
function spelled(members: [string, unknown][], spaced: boolean): string {
  const sep = spaced ? ', ' : ',';
  const colon = spaced ? ': ' : ':';
  return `{${members.map(([k, v]) => `${JSON.stringify(k)}${colon}${JSON.stringify(v)}`).join(sep)}}`;
}

const line = fc.oneof(
  { weight: 4, arbitrary: record.map((r) => JSON.stringify(r)) },
  { weight: 4, arbitrary: plainRecord.map((r) => JSON.stringify(r)) },
  fc.tuple(plainRecord, fc.boolean()).map(([r, spaced]) => spelled(Object.entries(r), spaced)),
  // duplicate keys, at the top level or in payload
  fc.oneof(record, plainRecord).chain((r) =>
    fc
      .tuple(fc.constantFrom(...KEYS), anyValue, fc.boolean(), fc.boolean())
      .map(([k, v, inPayload, spaced]) => {
        const members: [string, unknown][] = Object.entries(r);
        const p = (r as Record<string, unknown>).payload;
        if (inPayload && typeof p === 'object' && p !== null && !Array.isArray(p)) {
          const inner = `{${Object.entries(p)
            .map(([a, b]) => `${JSON.stringify(a)}:${JSON.stringify(b)}`)
            .concat(`${JSON.stringify(k)}:${JSON.stringify(v)}`)
            .join(',')}}`;
          return spelled(
            members.filter(([a]) => a !== 'payload'),
            spaced,
          ).replace(/}$/, `${members.length > 1 ? ',' : ''}"payload":${inner}}`);
        }
        return spelled([...members, [k, v]], spaced);
      }),
  ),
  // mangled: a cut, a character put in or taken out, whitespace
  fc
    .tuple(
      fc.oneof(record, plainRecord),
      fc.nat(),
      fc.constantFrom(
        '',
        ' ',
        '\t',
        '\r',
        '"',
        '\\',
        '\u0001',
        ',',
        '}',
        '{',
        '0',
        'é',
        '\\x',
        '\\u12',
        '\\u00e9',
      ),
      fc.nat(3),
    )
    .map(([r, at, c, drop]) => {
      const s = JSON.stringify(r);
      const i = at % (s.length + 1);
      return s.slice(0, i) + c + s.slice(i + drop);
    }),
  fc.constantFrom(
    '',
    ' ',
    '{}',
    '[]',
    '{"a":1}x',
    ' {"a":1}',
    '{"a":1} ',
    '{"a" :1}',
    'null',
    '{"a":01}',
    '{"a":1.}',
    '{"a":-}',
    '{"a":1e}',
    '{"a":tru}',
    '\ufeff{}',
  ),
  fc.string({ maxLength: 20 }),
);

describe('EventFieldReader', () => {
  it('agrees with JSON.parse + readAuditRecord on every line it reads, alone or in a block (property)', () => {
    let readInPlace = 0;
    fc.assert(
      fc.property(line, fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (l, before, after) => {
        const got = readBoth(l, before.replace(/\n/g, ''), after.replace(/\n/g, ''));
        if (got === undefined) return;
        readInPlace++;
        expect(got).toEqual(parsed(l));
      }),
      { numRuns: 3000 },
    );
    // not vacuous: plain records are read in place
    expect(readInPlace).toBeGreaterThan(400);
  });

  it('reads plain lines of both shapes in place, escapes decoded, and leaves escaped keys, duplicates and odd types to JSON.parse', () => {
    const api = {
      audit_event_id: '0b9f3f0e-0000-4000-8000-000000000002',
      event_type: 'http_request',
      category: 'AUDIT_CATEGORY_EVALUATION',
      decision: 'AUDIT_DECISION_DENY',
      action_type: 'http_request',
      username: 'ann@example.com',
      created_at: '2026-11-20T10:00:00Z',
      audit_session_id: 's-1',
      enforcement_mode: 'enforce',
      payload: {
        resource_id: 'api.github.com:443',
        agent: 'claude',
        deny_reason: ['no rule'],
        http_request: { method: 'HTTP_METHOD_DELETE', host: 'api.github.com', port: '443', path: '/repos/x' },
      },
    };
    const local = {
      timestamp: '2026-11-20T10:00:00.000Z',
      schema_version: '1',
      category: 'AUDIT_CATEGORY_EVALUATION',
      decision: 'AUDIT_DECISION_ALLOW',
      action_type: 'network_egress',
      user_email: 'bob@example.com',
      resource_id: 'registry.npmjs.org:443',
      agent: 'codex',
      network_egress: { protocol: 'tcp' },
      os: 'linux',
    };
    for (const r of [api, local]) {
      const l = JSON.stringify(r);
      const got = readLine(l);
      expect(got).toBeDefined();
      expect(fieldsOf(got!)).toEqual(parsed(l));
    }
    const apiLine = JSON.stringify(api);
    expect(fieldsOf(readLine(apiLine)!)).toMatchObject({
      user: 'ann@example.com',
      resource: 'api.github.com:443',
      session: 's-1',
      mode: 'enforce',
      httpRequest: { method: 'HTTP_METHOD_DELETE', port: '443', path: '/repos/x' },
    });
    // escapes in values, read or passed over: decoded as JSON.parse decodes them
    for (const l of [
      JSON.stringify({ ...local, agent: 'co"dex' }),
      JSON.stringify({ ...local, hostname: 'a\u0001b' }),
      JSON.stringify({ ...api, payload: { ...api.payload, resource_id: 'evil.test\u001b[2J:80' } }),
      JSON.stringify({ ...local, user_email: 'U' }).replace('"U"', '"b\\u00E9\\ud83d@x"'),
      JSON.stringify({ ...local, resource_id: 'a\\b/c\t"' }).replace('/c', '\\/c'),
    ]) {
      const got = readLine(l);
      expect(got, l).toBeDefined();
      expect(fieldsOf(got!)).toEqual(parsed(l));
    }
    expect(readLine(JSON.stringify({ ...local, agent: 'co"dex' }))?.agent).toBe('co"dex');
    for (const l of [
      // an escaped key may spell a field's name
      JSON.stringify(local).replace('"user_email"', '"user\\u005femail"'),
      JSON.stringify(local).replace('"agent"', '"ag\\u0065nt"'),
      // escapes JSON does not have
      JSON.stringify({ ...local, agent: 'co' }).replace('"co"', '"c\\xo"'),
      JSON.stringify({ ...local, agent: 'co' }).replace('"co"', '"c\\u00g1"'),
      JSON.stringify({ ...local, agent: 'co' }).replace('"co"', '"co\\u00"'),
      JSON.stringify({ ...local, os: 'co' }).replace('"co"', '"c\\xo"'),
      JSON.stringify({ ...local, os: ['co'] }).replace('"co"', '"c\\u0G00"'),
      JSON.stringify({ ...local, resource_id: 'x' }).replace('"agent"', '"resource_id":"y","agent"'),
      JSON.stringify({ ...local, network_egress: null }),
      JSON.stringify({ ...local, enforcement_mode: 1 }),
      JSON.stringify(api).replace('"audit_session_id"', '"audit_session_id":"s-0","audit_session_id"'),
      JSON.stringify({
        ...api,
        payload: { ...api.payload, http_request: { ...api.payload.http_request, port: 443 } },
      }),
      `${JSON.stringify(local)}\n`,
      '{"category":"a\nb"}',
      JSON.stringify({ ...local, user_email: 'bé@example.com' }),
    ])
      expect(readLine(l)).toBeUndefined();
    // strings are scanned four bytes at a time: a quote, a backslash or a control character at every
    // offset of a word, in a field read and in one passed over, the line at every offset of a word
    for (let at = 0; at < 9; at++)
      for (const c of ['"', '\\', '\u0001', '\u001f', '\t', ' ', '~', 'A'])
        for (const field of ['agent', 'hostname', 'user_email'])
          for (let shift = 0; shift < 4; shift++) {
            const value = `${'abcdefghij'.slice(0, at)}${c}xyz`;
            const l = JSON.stringify({ ...local, [field]: value });
            const raw = l.replace(JSON.stringify(value), `"${value}"`);
            for (const candidate of [l, raw]) {
              const got = readBoth(candidate, 'x'.repeat(shift), '');
              // these lines are read in place exactly when they are JSON (escapes decoded)
              expect(got, candidate).toEqual(
                parsed(candidate) === 'not JSON' ? undefined : parsed(candidate),
              );
            }
          }
    // bytes that are not the text's ASCII: nothing is read
    const l = JSON.stringify(local);
    expect(new EventFieldReader().read(l, 0, l.length, null)).toBeUndefined();
  });
});

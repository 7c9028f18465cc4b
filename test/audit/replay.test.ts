// policy replay's core: which events become which request (audit-and-mcp.md §1), the reasons for the
// others, and counts that agree with deciding each event on its own.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/audit/lines.js';
import { readAuditRecord } from '../../src/audit/record.js';
import { Replayer, requestOf, SKIP } from '../../src/audit/replay.js';
import { compilePolicies, evaluate, parsePolicyDocument } from '../../src/policy/index.js';

const rec = (v: Record<string, unknown>) => {
  const r = readAuditRecord(v);
  if ('invalid' in r) throw new Error('not a record');
  return r;
};

describe('requestOf', () => {
  it('maps network_egress to connect:<protocol> <resource_id>, in both shapes', () => {
    expect(
      requestOf(
        rec({
          action_type: 'network_egress',
          created_at: '2026-11-20T10:00:00Z',
          payload: { resource_id: 'api.github.com:443', network_egress: { protocol: 'tcp' } },
        }),
      ),
    ).toEqual({ action: 'connect:tcp', destination: 'api.github.com:443' });
    expect(
      requestOf(
        rec({
          action_type: 'network_egress',
          resource_id: '8.8.8.8:53',
          network_egress: { protocol: 'UDP' },
        }),
      ),
    ).toEqual({ action: 'connect:udp', destination: '8.8.8.8:53' });
  });

  it('maps http_request to request:<method> https://host:port/path, an IPv6 host in brackets', () => {
    expect(
      requestOf(
        rec({
          action_type: 'http_request',
          payload: {
            http_request: {
              method: 'HTTP_METHOD_DELETE',
              host: 'api.github.com',
              port: '443',
              path: '/repos/x',
            },
          },
        }),
      ),
    ).toEqual({ action: 'request:delete', destination: 'https://api.github.com:443/repos/x' });
    expect(
      requestOf(
        rec({
          action_type: 'http_request',
          http_request: { method: 'HTTP_METHOD_GET', host: '2001:db8::1', port: 8443, path: '/' },
        }),
      ),
    ).toEqual({ action: 'request:get', destination: 'https://[2001:db8::1]:8443/' });
  });

  it.each([
    [{ category: 'AUDIT_CATEGORY_MANAGEMENT', action_type: 'network_egress' }, SKIP.management],
    [{ action_type: 'session' }, SKIP.management],
    [{ action_type: 'policy_sync' }, SKIP.management],
    [{ action_type: 'network_egress_execution' }, SKIP.execution],
    [{ category: 'AUDIT_CATEGORY_EXECUTION' }, SKIP.execution],
    [{ action_type: 'tool_invocation', payload: { resource_id: 'notion/search' } }, SKIP.mcp],
    [{ action_type: 'server_registration' }, SKIP.mcp],
    [{ action_type: 'filesystem_mount', payload: { resource_id: '/data' } }, SKIP.filesystem],
    [{ action_type: 'pii_detection' }, SKIP.other],
    [{ action_type: 'something_new' }, SKIP.unknownType],
    [{}, SKIP.unknownType],
    [{ action_type: 'network_egress', payload: { resource_id: 'x.com:443' } }, SKIP.egressFields],
    [
      {
        action_type: 'network_egress',
        payload: { resource_id: 'x.com', network_egress: { protocol: 'icmp' } },
      },
      SKIP.egressProtocol,
    ],
    [
      {
        action_type: 'http_request',
        payload: { http_request: { method: 'HTTP_METHOD_GET', host: 'x.com', path: '/' } },
      },
      SKIP.httpFields,
    ],
    [
      {
        action_type: 'http_request',
        http_request: { method: 'HTTP_METHOD_FETCH', host: 'x.com', port: '443', path: '/' },
      },
      SKIP.httpMethod,
    ],
  ])('does not replay %j: %s', (v, reason) => {
    expect(requestOf(rec(v))).toBe(reason);
  });
});

const BASE = `name: egress
rules:
  - {name: gh, actions: [connect:tcp], decision: allow, resources: ["**.github.com"]}
  - {name: npm, actions: [connect:tcp], decision: allow, resources: [registry.npmjs.org]}
`;
const CAND = `name: egress
rules:
  - {name: gh, actions: [connect:tcp], decision: allow, resources: ["**.github.com"]}
  - {name: pypi, actions: [connect:tcp], decision: allow, resources: [pypi.org]}
  - {name: no-delete, actions: [request:delete], decision: deny, http_resources: [{host: api.github.com, path: "/**"}]}
`;

async function sets() {
  return {
    base: compilePolicies(await parsePolicyDocument(BASE, 'b.yaml')),
    cand: compilePolicies(await parsePolicyDocument(CAND, 'c.yaml')),
  };
}

describe('Replayer', () => {
  it('groups changes by request, newly denied first, with users, agents, first and last, and rules', async () => {
    const { base, cand } = await sets();
    const r = new Replayer(base, cand);
    const ev = (resource: string, user: string, time: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        action_type: 'network_egress',
        decision: 'AUDIT_DECISION_ALLOW',
        username: user,
        created_at: time,
        payload: { resource_id: resource, agent: 'claude', network_egress: { protocol: 'tcp' } },
        ...extra,
      });
    r.line(ev('registry.npmjs.org:443', 'bob', '2026-11-20T10:00:00Z'), 'e', 1);
    r.line(ev('registry.npmjs.org:443', 'ann', '2026-11-19T10:00:00Z'), 'e', 2);
    r.line(ev('registry.npmjs.org:443', 'bob', '2026-11-21T10:00:00Z'), 'e', 3);
    r.line(ev('pypi.org:443', 'ann', '2026-11-20T10:00:00Z', { decision: 'AUDIT_DECISION_DENY' }), 'e', 4);
    r.line(ev('api.github.com:443', 'ann', '2026-11-20T10:00:00Z'), 'e', 5);
    r.line('not json', 'e', 6);
    r.line('', 'e', 7);
    r.line('[1,2]', 'e', 8);
    r.line(JSON.stringify({ action_type: 'session', username: 'ann' }), 'e', 9);
    const out = r.report();
    expect(out.read).toBe(8);
    expect(out.replayed).toBe(5);
    expect(out.skipped).toEqual({ [SKIP.notJson]: 1, [SKIP.notObject]: 1, [SKIP.management]: 1 });
    expect(out.firstBadLine).toEqual({ input: 'e', line: 6 });
    expect(out.changes).toEqual([
      {
        resource: 'registry.npmjs.org:443',
        action: 'connect:tcp',
        before: 'allow',
        after: 'deny',
        count: 3,
        users: ['ann', 'bob'],
        agents: ['claude'],
        first: '2026-11-19T10:00:00Z',
        last: '2026-11-21T10:00:00Z',
        rules: { before: [{ policy: 'egress', rule: 'npm' }], after: [] },
        reasons: {
          before: 'allowed by rule "npm" of policy "egress"',
          after: 'no rule matched: denied by default',
        },
      },
      expect.objectContaining({
        resource: 'pypi.org:443',
        before: 'deny',
        after: 'allow',
        count: 1,
        users: ['ann'],
      }),
    ]);
    // recorded deny where the baseline denies too: no drift; the recorded allow of pypi is none either
    expect(out.drift.count).toBe(0);
  });

  it('counts drift: the recorded decision differs from the baseline', async () => {
    const { base, cand } = await sets();
    const r = new Replayer(base, cand);
    r.line(
      JSON.stringify({
        action_type: 'network_egress',
        decision: 'AUDIT_DECISION_ALLOW',
        resource_id: 'evil.example:443',
        network_egress: { protocol: 'tcp' },
      }),
      'e',
      1,
    );
    r.line(
      JSON.stringify({
        action_type: 'network_egress',
        decision: 'AUDIT_DECISION_APPROVAL_ALLOW',
        resource_id: 'evil.example:443',
        network_egress: { protocol: 'tcp' },
      }),
      'e',
      2,
    );
    const out = r.report();
    expect(out.changes).toEqual([]);
    expect(out.drift).toEqual({
      count: 1,
      groups: [
        expect.objectContaining({
          resource: 'evil.example:443',
          recorded: 'allow',
          baseline: 'deny',
          count: 1,
        }),
      ],
    });
  });

  it('counts as the sum of deciding each event singly (property)', async () => {
    const { base, cand } = await sets();
    const hosts = [
      'api.github.com',
      'registry.npmjs.org',
      'pypi.org',
      'example.org',
      '10.0.0.1',
      'a..b',
      '[::1]',
    ];
    const event = fc.record({
      type: fc.constantFrom('network_egress', 'http_request', 'session', 'tool_invocation'),
      host: fc.constantFrom(...hosts),
      method: fc.constantFrom('HTTP_METHOD_GET', 'HTTP_METHOD_DELETE'),
      user: fc.constantFrom('ann', 'bob', 'cy'),
      api: fc.boolean(),
      decision: fc.constantFrom('AUDIT_DECISION_ALLOW', 'AUDIT_DECISION_DENY'),
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), (events) => {
        const r = new Replayer(base, cand);
        const fields = (e: (typeof events)[number]) => ({
          resource_id: `${e.host}:443`,
          network_egress: { protocol: 'tcp' },
          http_request: { method: e.method, host: e.host, port: '443', path: '/repos/x' },
        });
        let replayed = 0;
        let changed = 0;
        let drift = 0;
        for (const e of events) {
          const v = e.api
            ? { action_type: e.type, decision: e.decision, username: e.user, payload: fields(e) }
            : { action_type: e.type, decision: e.decision, user_email: e.user, ...fields(e) };
          r.line(JSON.stringify(v), 'e', 1);
          const req = requestOf(rec(v));
          if (typeof req === 'string') continue;
          let b: string;
          let c: string;
          try {
            b = evaluate(base, req.action, req.destination).decision;
            c = evaluate(cand, req.action, req.destination).decision;
          } catch {
            continue;
          }
          replayed++;
          if (b !== c) changed++;
          if ((e.decision === 'AUDIT_DECISION_ALLOW' ? 'allow' : 'deny') !== b) drift++;
        }
        const out = r.report();
        expect(out.replayed).toBe(replayed);
        expect(out.changes.reduce((a, g) => a + g.count, 0)).toBe(changed);
        expect(out.drift.count).toBe(drift);
        expect(out.replayed + Object.values(out.skipped).reduce((a, n) => a + n, 0)).toBe(events.length);
      }),
      { numRuns: 200 },
    );
  });
});

describe('Replayer, lines read in place', () => {
  it('reports as when every line is parsed whole (property)', async () => {
    const { base, cand } = await sets();
    const str = fc.oneof(
      fc.constantFrom('api.github.com', 'registry.npmjs.org', 'pypi.org', '::1', 'a"b', 'a\\b', 'é'),
      fc.string({ maxLength: 6 }),
    );
    const fieldShapes = {
      resource_id: fc.oneof(
        str.map((h) => `${h}:443`),
        fc.jsonValue(),
      ),
      agent: fc.oneof(str, fc.jsonValue()),
      network_egress: fc.oneof(
        fc.record({ protocol: fc.constantFrom('tcp', 'udp', 'TCP', 'icmp') }),
        fc.jsonValue(),
      ),
      http_request: fc.oneof(
        {
          weight: 3,
          arbitrary: fc.constantFrom(
            { method: 'HTTP_METHOD_DELETE', host: 'api.github.com', port: '443', path: '/repos/x' },
            { method: 'HTTP_METHOD_GET', host: 'pypi.org', port: '443', path: 'x' },
          ),
        },
        fc.record(
          {
            method: fc.constantFrom('HTTP_METHOD_GET', 'HTTP_METHOD_DELETE', 'HTTP_METHOD_X'),
            host: str,
            port: fc.constantFrom('443', '8443', 443),
            path: fc.constantFrom('/repos/x', 'x', '/'),
          },
          { requiredKeys: [] },
        ),
      ),
    };
    // every field, or some
    const fields = fc.oneof(fc.record(fieldShapes), fc.record(fieldShapes, { requiredKeys: [] }));
    const event = fc.tuple(
      fc.record(
        {
          action_type: fc.constantFrom('network_egress', 'http_request', 'session', 'tool_invocation'),
          category: fc.constantFrom('AUDIT_CATEGORY_EVALUATION', 'AUDIT_CATEGORY_MANAGEMENT'),
          decision: fc.constantFrom(
            'AUDIT_DECISION_ALLOW',
            'AUDIT_DECISION_DENY',
            'AUDIT_DECISION_APPROVAL_ALLOW',
          ),
          username: str,
          user_email: str,
          created_at: fc.constantFrom('2026-11-20T10:00:00Z', '2026-11-19T10:00:00Z', 'not a time'),
          timestamp: fc.constantFrom('2026-11-21T10:00:00.000Z', '2026-11-18T23:00:00+01:00'),
        },
        { requiredKeys: ['action_type'] },
      ),
      fields,
      fc.boolean(),
    );
    const line = fc.oneof(
      {
        weight: 5,
        arbitrary: event.map(([top, f, api]) =>
          JSON.stringify(api ? { ...top, payload: f } : { ...top, ...f }),
        ),
      },
      fc.constantFrom('', 'not json', '[1]', '{"action_type":"network_egress"', '{"a":1}'),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (lines) => {
        const inPlace = new Replayer(base, cand);
        const parsedWhole = new Replayer(base, cand);
        // in blocks of lines, as `policy replay` reads them
        const splitter = new LineSplitter(
          {
            line: (t, n) => inPlace.line(t, 'e', n),
            lineIn: (t, a, b, n, ascii) => inPlace.lineIn(t, a, b, 'e', n, ascii),
            tooLong: () => inPlace.tooLong(),
          },
          1 << 20,
        );
        splitter.push(Buffer.from(`${lines.join('\n')}\n`));
        splitter.end();
        // a space before a line: the same JSON, never read in place
        lines.forEach((l, i) => {
          parsedWhole.line(l === '' ? '' : ` ${l}`, 'e', i + 1);
        });
        expect(inPlace.report()).toEqual(parsedWhole.report());
      }),
      { numRuns: 300 },
    );
  });
});

describe('Replayer and Suggester on any input', () => {
  it('never throw, and count every line they read (property)', async () => {
    const { base, cand } = await sets();
    const { Suggester } = await import('../../src/audit/suggest.js');
    const eventLike = fc.record(
      {
        action_type: fc.constantFrom('network_egress', 'http_request', 'session', 'x', 1),
        decision: fc.constantFrom('AUDIT_DECISION_ALLOW', 'AUDIT_DECISION_DENY', null),
        category: fc.constantFrom('AUDIT_CATEGORY_EVALUATION', 'AUDIT_CATEGORY_MANAGEMENT', 7),
        resource_id: fc.oneof(fc.string(), fc.constantFrom('a.com:443', '[::1]:1', 'x:99999', '')),
        network_egress: fc.oneof(
          fc.record({ protocol: fc.oneof(fc.string(), fc.constantFrom('tcp', 'udp')) }),
          fc.jsonValue(),
        ),
        http_request: fc.oneof(
          fc.record({
            method: fc.constantFrom('HTTP_METHOD_GET', 'HTTP_METHOD_X', ''),
            host: fc.oneof(fc.string(), fc.constantFrom('a.com', '::1', 'a b')),
            port: fc.oneof(fc.string(), fc.integer()),
            path: fc.oneof(fc.string(), fc.constantFrom('/', '/a/../b', 'x')),
          }),
          fc.jsonValue(),
        ),
        payload: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            eventLike.map((e) => JSON.stringify(e)),
            fc.string(),
            fc.jsonValue().map((v) => JSON.stringify(v)),
          ),
          { maxLength: 20 },
        ),
        (lines) => {
          const r = new Replayer(base, cand);
          const s = new Suggester();
          for (const l of lines) {
            r.line(l, 'e', 1);
            s.line(l);
          }
          const out = r.report();
          const counted = out.replayed + Object.values(out.skipped).reduce((a, n) => a + n, 0);
          expect(counted).toBe(out.read);
          s.suggest();
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('Replayer, requests found by their bytes', () => {
  it('reports as when every line is parsed whole: requests repeated, spelled with escapes, CRLF, a last line without its end (property)', async () => {
    const { base, cand } = await sets();
    // a few requests, so that most events find their request's decisions by its bytes; some of one
    // length, decided otherwise
    const egress = fc.record({
      resource_id: fc.constantFrom(
        'api.github.com:443',
        'pypi.org:443',
        'pypj.org:443',
        'registry.npmjs.org:443',
        '',
      ),
      network_egress: fc.constantFrom({ protocol: 'tcp' }, { protocol: 'TCP' }, { protocol: 'udp' }, {}),
    });
    const http = fc.record({
      http_request: fc.record(
        {
          method: fc.constantFrom('HTTP_METHOD_GET', 'HTTP_METHOD_DELETE', 'HTTP_METHOD_POST', ''),
          host: fc.constantFrom('api.github.com', 'api.gitlab.com', 'pypi.org', ''),
          port: fc.constantFrom('443', '8443'),
          path: fc.constantFrom('/repos/x', 'x', '', '/'),
        },
        { requiredKeys: ['method', 'host', 'port'] },
      ),
    });
    const event = fc.tuple(
      fc.constantFrom('network_egress', 'http_request'),
      fc.oneof(
        egress,
        http,
        fc.tuple(egress, http).map(([a, b]) => ({ ...a, ...b })),
      ),
      fc.constantFrom('AUDIT_DECISION_ALLOW', 'AUDIT_DECISION_DENY', 'AUDIT_DECISION_APPROVAL_ALLOW'),
      fc.constantFrom('ann', 'bob'),
      fc.boolean(),
      fc.boolean(),
      fc.nat(),
    );
    // the same value spelled otherwise: an escape for one of its characters
    const respell = (json: string, seed: number) => {
      const spots = [
        ...json.matchAll(
          /"(api\.github\.com|pypi\.org|tcp|443|HTTP_METHOD_DELETE|HTTP_METHOD_GET|\/repos\/x|network_egress|http_request|AUDIT_CATEGORY_EVALUATION|AUDIT_DECISION_ALLOW|AUDIT_DECISION_DENY)"/g,
        ),
      ];
      if (spots.length === 0) return json;
      const m = spots[seed % spots.length]!;
      const at = m.index! + 1 + (seed % m[1]!.length);
      return `${json.slice(0, at)}\\u${json.charCodeAt(at).toString(16).padStart(4, '0')}${json.slice(at + 1)}`;
    };
    const line = event.map(([type, f, decision, user, api, escaped, seed]) => {
      const top = { action_type: type, category: 'AUDIT_CATEGORY_EVALUATION', decision, username: user };
      const json = JSON.stringify(api ? { ...top, payload: f } : { ...top, ...f });
      return escaped ? respell(json, seed) : json;
    });
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 60, size: 'max' }),
        fc.boolean(),
        fc.boolean(),
        (lines, crlf, ended) => {
          const inPlace = new Replayer(base, cand);
          const parsedWhole = new Replayer(base, cand);
          const splitter = new LineSplitter(
            {
              line: (t, n) => inPlace.line(t, 'e', n),
              lineIn: (t, a, b, n, ascii) => inPlace.lineIn(t, a, b, 'e', n, ascii),
              tooLong: () => inPlace.tooLong(),
            },
            1 << 20,
          );
          const text = lines.join(crlf ? '\r\n' : '\n') + (ended ? '\n' : '');
          // in two chunks, cut anywhere
          const bytes = Buffer.from(text);
          const cut = Math.floor(bytes.length / 2);
          splitter.push(bytes.subarray(0, cut));
          splitter.push(bytes.subarray(cut));
          splitter.end();
          lines.forEach((l, i) => {
            parsedWhole.line(` ${l}`, 'e', i + 1);
          });
          expect(inPlace.report()).toEqual(parsedWhole.report());
        },
      ),
      { numRuns: 300 },
    );
  });

  it('still decides as parsed whole once its table of requests is emptied, again and again', async () => {
    const { base, cand } = await sets();
    // 300 distinct requests with 1,000-byte paths (300 KB of keys, the table emptied past 64 KiB), then
    // the first ones again
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) {
      const n = i < 300 ? i : i - 300;
      lines.push(
        JSON.stringify({
          action_type: 'http_request',
          category: 'AUDIT_CATEGORY_EVALUATION',
          decision: 'AUDIT_DECISION_ALLOW',
          username: 'ann',
          http_request: {
            method: n % 2 === 0 ? 'HTTP_METHOD_DELETE' : 'HTTP_METHOD_GET',
            host: n % 3 === 0 ? 'api.github.com' : 'pypi.org',
            port: '443',
            // and some past MAX_KEY_BYTES: found by their strings
            path: `/${String(n).padStart(n % 50 === 0 ? 5000 : 1000, 'p')}`,
          },
        }),
      );
    }
    const inPlace = new Replayer(base, cand, 64 * 1024);
    const parsedWhole = new Replayer(base, cand);
    const splitter = new LineSplitter(
      {
        line: (t, n) => inPlace.line(t, 'e', n),
        lineIn: (t, a, b, n, ascii) => inPlace.lineIn(t, a, b, 'e', n, ascii),
        tooLong: () => inPlace.tooLong(),
      },
      1 << 20,
    );
    const bytes = Buffer.from(`${lines.join('\n')}\n`);
    for (let o = 0; o < bytes.length; o += 1 << 16) splitter.push(bytes.subarray(o, o + (1 << 16)));
    splitter.end();
    lines.forEach((l, i) => {
      parsedWhole.line(` ${l}`, 'e', i + 1);
    });
    const report = inPlace.report();
    expect(report.replayed).toBe(400);
    expect(report).toEqual(parsedWhole.report());
  });
});

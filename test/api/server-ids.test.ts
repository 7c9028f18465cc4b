// Issue 20 item 16: ids from a server (policy ids, rule ids, token UUIDs) go into URL paths, so they
// are checked before use: `..`, `/`, `%`, control characters and the like are an unexpected answer
// (exit 7, one sentence), and no request is sent to the path they would make.
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ID_TEXT, pathSegment } from '../../src/api/answer.js';
import { type Harness, resetHarness, startHarness } from '../commands/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.hub.close());
beforeEach(async () => {
  resetHarness(h);
  h.hub.state.policies.length = 0;
  h.hub.state.accessTokens.length = 0;
  h.env.HUBCTL_ORG = 'acme';
  expect((await h.login()).code).toBe(0);
  h.hub.clearRequests();
});

const BAD_IDS = [
  '..',
  '.',
  'a/b',
  '../../orgs/other',
  '%2e%2e',
  'a%2fb',
  'x\ny',
  'x\u001b[2Jy',
  'a b',
  'a?b',
  'a#b',
  'a\\b',
  'x'.repeat(257),
];

function expectRefused(r: { code: number; stdout: string; stderr: string }): void {
  expect(r.code, r.stderr).toBe(7);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/unexpected answer from 127\.0\.0\.1:\d+: .*an id must be 1 to 256 letters/);
  expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
  expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
}

describe('ids from the server are checked before they reach a URL', () => {
  it.each(BAD_IDS)('a rule id %j: rule delete sends no DELETE', async (bad) => {
    const p = h.hub.seedPolicy('acme', {
      name: 'egress',
      rules: [{ id: bad, name: 'r1', actions: ['connect:tcp'], decision: 'allow', resources: ['a.example'] }],
    });
    const r = await h.run(['rule', 'delete', p.id, 'r1', '--yes']);
    expectRefused(r);
    expect(h.hub.requests.filter((q) => q.method === 'DELETE')).toHaveLength(0);
    expect(h.hub.state.policies[0]?.rules).toHaveLength(1);
  });

  it.each(BAD_IDS)('a policy id %j in the list: policy delete by name sends no DELETE', async (bad) => {
    const p = h.hub.seedPolicy('acme', { name: 'egress' });
    p.id = bad;
    const r = await h.run(['policy', 'delete', 'egress', '--yes']);
    expectRefused(r);
    expect(h.hub.requests.filter((q) => q.method === 'DELETE')).toHaveLength(0);
  });

  it.each(BAD_IDS)('a token UUID %j: token deactivate by label sends no PATCH', async (bad) => {
    h.hub.createPat('alice', { label: 'ci' });
    h.hub.state.accessTokens[0]!.uuid = bad;
    const r = await h.run(['token', 'deactivate', 'ci']);
    expectRefused(r);
    expect(h.hub.requests.filter((q) => q.method === 'PATCH')).toHaveLength(0);
  });

  it('good ids pass, and the last guard refuses "." and ".." wherever they come from', () => {
    for (const good of ['pol_3f2b8c1e', 'rule_0001', '3f2b8c1e-6d4a-4e0b-9a57-1c2d3e4f5a6b', 'a.b', '...']) {
      expect(pathSegment(good)).toBe(good);
    }
    for (const bad of ['', '.', '..']) expect(() => pathSegment(bad)).toThrow(/cannot go into a URL path/);
    expect(pathSegment('pol_a/b')).toBe('pol_a%2Fb');
  });
});

it('property: an id the schema lets through is one path segment, exactly as written', () => {
  const base = 'https://hub.example.com/v2/access-tokens';
  fc.assert(
    fc.property(
      fc.oneof(fc.string({ maxLength: 12 }), fc.stringMatching(/^[A-Za-z0-9._~:%/-]{1,12}$/)),
      (id) => {
        if (!ID_TEXT.test(id)) return;
        const url = new URL(`${base}/${pathSegment(id)}`);
        const segments = url.pathname.split('/');
        expect(segments.slice(0, 3)).toEqual(['', 'v2', 'access-tokens']);
        expect(segments).toHaveLength(4);
        expect(decodeURIComponent(segments[3]!)).toBe(id);
        expect(url.search + url.hash).toBe('');
      },
    ),
    { numRuns: 2000 },
  );
});

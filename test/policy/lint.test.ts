import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePolicyDocument } from '../../src/policy/document.js';
import { lintPolicies } from '../../src/policy/lint.js';

type R = [string, string[], 'allow' | 'deny', string[]];
async function lint(...rules: R[]) {
  const text = JSON.stringify({
    name: 'p',
    rules: rules.map(([name, actions, decision, resources]) => ({ name, actions, decision, resources })),
  });
  return lintPolicies(await parsePolicyDocument(text, 'p.json'));
}
const TCP = ['connect:tcp'];

describe('lintPolicies', () => {
  it('is quiet on a clean policy and on the shipped examples', async () => {
    expect(await lint(['gh', TCP, 'allow', ['github.com', '*.github.com']])).toEqual([]);
    for (const f of ['examples/network.yaml', 'examples/filesystem.yaml']) {
      expect(lintPolicies(await parsePolicyDocument(readFileSync(f, 'utf8'), f))).toEqual([]);
    }
  });

  it('warns when the apex of *. or **. is not covered', async () => {
    const w = await lint(['gh', TCP, 'allow', ['*.github.com', '**.npmjs.org']]);
    expect(w.map((x) => [x.code, x.resource])).toEqual([
      ['APEX_NOT_COVERED', '*.github.com'],
      ['APEX_NOT_COVERED', '**.npmjs.org'],
    ]);
    expect(w[0]!.message).toBe(
      '"*.github.com" in rule "gh" of policy "p" does not match github.com itself, and no rule allows it; add "github.com" if it should be allowed too',
    );
    // covered by an exact host, by a broader wildcard, or a deny apex by a deny
    expect(
      await lint(
        ['a', TCP, 'allow', ['*.a.example.com', '*.example.com']],
        ['b', TCP, 'allow', ['example.com']],
      ),
    ).toEqual([]);
    expect((await lint(['d', TCP, 'deny', ['**.evil.com']])).map((x) => x.code)).toEqual([
      'APEX_NOT_COVERED',
    ]);
    expect(await lint(['d', TCP, 'deny', ['**.evil.com', 'evil.com']])).toEqual([]);
    // the apex on another port only is not covered
    expect((await lint(['a', TCP, 'allow', ['*.x.com', 'x.com:22']])).map((x) => x.code)).toEqual([
      'APEX_NOT_COVERED',
    ]);
  });

  it('warns about an allow made dead by a broader deny of the same action', async () => {
    const w = await lint(
      ['ok', TCP, 'allow', ['api.corp.com:443']],
      ['block', TCP, 'deny', ['**.corp.com', 'corp.com']],
    );
    expect(w.map((x) => x.code)).toEqual(['DEAD_ALLOW']);
    expect(w[0]!.message).toBe(
      'allow "api.corp.com:443" in rule "ok" of policy "p" never takes effect for connect:tcp: deny "**.corp.com" in rule "block" of policy "p" covers it',
    );
    // another action, a narrower deny, or a deny on another port: not dead
    expect(
      await lint(
        ['ok', TCP, 'allow', ['a.corp.com']],
        ['block', ['connect:udp'], 'deny', ['**.corp.com', 'corp.com']],
      ),
    ).toEqual([]);
    expect(
      await lint(['ok', TCP, 'allow', ['**.corp.com', 'corp.com']], ['block', TCP, 'deny', ['a.corp.com']]),
    ).toEqual([]);
    expect(
      await lint(['ok', TCP, 'allow', ['a.corp.com']], ['block', TCP, 'deny', ['a.corp.com:22']]),
    ).toEqual([]);
    expect(
      (await lint(['ok', TCP, 'allow', ['10.1.2.0/24']], ['block', TCP, 'deny', ['10.0.0.0/8']])).map(
        (x) => x.code,
      ),
    ).toEqual(['DEAD_ALLOW']);
    expect(
      (await lint(['ok', ['read'], 'allow', ['/data/x/*.txt']], ['no', ['read'], 'deny', ['/data/**']])).map(
        (x) => x.code,
      ),
    ).toEqual(['DEAD_ALLOW']);
  });

  it('warns about duplicate and overlapping resources', async () => {
    const dup = await lint(['a', TCP, 'allow', ['example.com', 'EXAMPLE.com.']]);
    expect(dup.map((x) => [x.code, x.message])).toEqual([
      ['DUPLICATE_RESOURCE', '"EXAMPLE.com." appears twice in rule "a" of policy "p"'],
    ]);
    const across = await lint(['a', TCP, 'allow', ['example.com']], ['b', TCP, 'allow', ['example.com']]);
    expect(across.map((x) => x.code)).toEqual(['DUPLICATE_RESOURCE']);
    const over = await lint(['a', TCP, 'allow', ['api.example.com', '**.example.com', 'example.com']]);
    expect(over.map((x) => [x.code, x.resource])).toEqual([['OVERLAPPING_RESOURCE', 'api.example.com']]);
    expect((await lint(['a', TCP, 'allow', ['10.0.0.0/8', '10.1.0.0/16']])).map((x) => x.code)).toEqual([
      'OVERLAPPING_RESOURCE',
    ]);
    expect((await lint(['a', ['read'], 'allow', ['/data/**', '/data/a/b']])).map((x) => x.code)).toEqual([
      'OVERLAPPING_RESOURCE',
    ]);
    // same resource for different actions: fine
    expect(await lint(['a', TCP, 'allow', ['x.com']], ['b', ['connect:udp'], 'allow', ['x.com']])).toEqual(
      [],
    );
  });

  it('warns about ** allowing every host', async () => {
    const w = await lint(['all', TCP, 'allow', ['**']]);
    expect(w.map((x) => x.code)).toEqual(['ALLOW_ALL_HOSTS']);
    expect((await lint(['all', TCP, 'allow', ['**:443']]))[0]!.message).toContain(
      'allows every host on port 443',
    );
    expect(await lint(['all', TCP, 'deny', ['**']])).toEqual([]);
  });

  it('warns about write without read', async () => {
    const w = await lint(['w', ['write'], 'allow', ['/data/out/**']]);
    expect(w.map((x) => [x.code, x.message])).toEqual([
      [
        'WRITE_WITHOUT_READ',
        'rule "w" of policy "p" allows write on "/data/out/**" but no rule allows read there; writes usually need reads',
      ],
    ]);
    expect(await lint(['rw', ['read', 'write'], 'allow', ['/data/out/**']])).toEqual([]);
    expect(
      await lint(['w', ['write'], 'allow', ['/data/out/x']], ['r', ['read'], 'allow', ['/data/**']]),
    ).toEqual([]);
  });

  it('warns about duplicate rule names in a policy, and HTTP rules a network deny makes unreachable', async () => {
    const text = JSON.stringify({
      name: 'p',
      rules: [
        { name: 'block', actions: ['connect:tcp'], decision: 'deny', resources: ['**.evil.test'] },
        { name: 'gh', actions: ['connect:tcp'], decision: 'allow', resources: ['api.github.com'] },
        { name: 'gh', actions: ['connect:udp'], decision: 'allow', resources: ['api.github.com'] },
        {
          name: 'read-evil',
          actions: ['request:get'],
          decision: 'allow',
          http_resources: [
            { host: 'a.evil.test', port: 443, path: '/**' },
            { host: 'api.github.com', path: '/x' },
          ],
        },
      ],
    });
    const w = lintPolicies(await parsePolicyDocument(text, 'p.json'));
    expect(w.map((x) => [x.code, x.rule, x.resource])).toEqual([
      ['DUPLICATE_RULE_NAME', 'gh', ''],
      ['UNREACHABLE_HTTP_RULE', 'read-evil', 'a.evil.test:443/**'],
      ['APEX_NOT_COVERED', 'block', '**.evil.test'],
    ]);
    expect(w[1]!.message).toBe(
      'HTTP rule "read-evil" of policy "p" never decides "a.evil.test:443/**": deny "**.evil.test" in rule "block" of policy "p" blocks every connection it matches, and no HTTP allow reopens a network deny',
    );
  });
});

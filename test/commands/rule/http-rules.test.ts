// HTTP (L7) rules through rule add / update / get / list against the emulator, and cedar_v1
// policies refused by rule commands.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GovHarness, NET_RULE, startGovHarness } from './gov-harness.js';

let h: GovHarness;
beforeEach(async () => {
  h = await startGovHarness();
});
afterEach(() => h.close());

const GH = { host: 'api.github.com', path: '/repos/**' };

describe('HTTP rules', () => {
  it('rule add sends http_resources in place of resources, and get/list show them', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    let r = await h.run([
      'rule',
      'add',
      'egress',
      '--name',
      'gh-read',
      '--action',
      'request:get,request:head',
      '--http-resource',
      'api.github.com/repos/**',
      '--http-resource',
      '*.example.com:8443/v1/*',
      '--decision',
      'allow',
    ]);
    expect(r.stderr).toContain('Added rule "gh-read"');
    expect(r.code).toBe(0);
    const post = h.gov().find((q) => q.method === 'POST')!;
    expect(post.json).toEqual({
      name: 'gh-read',
      actions: ['request:get', 'request:head'],
      decision: 'allow',
      http_resources: [GH, { host: '*.example.com', port: 8443, path: '/v1/*' }],
    });
    r = await h.run(['rule', 'list', 'egress']);
    expect(r.stdout).toContain(
      'rule_0002\tgh-read\tallow\trequest:get,request:head\tapi.github.com/repos/**,*.example.com:8443/v1/*\n',
    );
    r = await h.run(['policy', 'get', 'egress']);
    expect(r.stdout).toContain(
      'gh-read\tallow\trequest:get,request:head\tapi.github.com/repos/**,*.example.com:8443/v1/*',
    );
  });

  it.each([
    [['--http-resource', 'https://api.github.com/x'], 'without a scheme'],
    [['--http-resource', 'api.github.com'], 'it needs a path'],
    [['--http-resource', 'api.github.com/a/'], 'no trailing "/"'],
    [['--http-resource', 'api.github.com:0/a'], '"port" must be a number from 1 to 65535'],
    [['--resource', 'api.github.com'], 'has http_resources in place of resources'],
  ])('rule add refuses %j before any request (exit 2)', async (extra, message) => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    const r = await h.run([
      'rule',
      'add',
      'egress',
      '--name',
      'x',
      '--action',
      'request:get',
      '--decision',
      'allow',
      ...extra,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(h.gov().filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('rule update switches a rule between resources and http_resources in one update', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    let r = await h.run([
      'rule',
      'update',
      'egress',
      'github',
      '--action',
      'request:get',
      '--http-resource',
      'api.github.com/repos/**',
    ]);
    expect(r.code).toBe(0);
    const patches = () => h.gov().filter((q) => q.method === 'PATCH');
    // exactly the field the new form needs: the API refuses the other one, even as null
    expect(patches()[0]!.json).toEqual({ actions: ['request:get'], http_resources: [GH] });
    const stored = () => h.hub.state.policies[0]!.rules[0]!;
    expect(stored()).toEqual({
      id: 'rule_0001',
      name: 'github',
      actions: ['request:get'],
      decision: 'allow',
      http_resources: [GH],
    });
    // HTTP resources alone, on an HTTP rule
    r = await h.run(['rule', 'update', 'egress', 'github', '--http-resource', 'api.github.com/**']);
    expect(r.code).toBe(0);
    expect(stored().http_resources).toEqual([{ host: 'api.github.com', path: '/**' }]);
    // a switch without the new list is refused, naming what to give
    r = await h.run(['rule', 'update', 'egress', 'github', '--action', 'connect:tcp']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Give --resource with the new actions');
    // and back
    r = await h.run([
      'rule',
      'update',
      'egress',
      'github',
      '--action',
      'connect:tcp',
      '--resource',
      'github.com',
    ]);
    expect(r.code).toBe(0);
    expect(patches().at(-1)!.json).toEqual({ actions: ['connect:tcp'], resources: ['github.com'] });
    expect(stored()).toEqual({
      id: 'rule_0001',
      name: 'github',
      actions: ['connect:tcp'],
      decision: 'allow',
      resources: ['github.com'],
    });
  });

  it('rule commands refuse a cedar_v1 policy with one sentence, sending no write', async () => {
    h.seed({ name: 'cedar', type: 'cedar_v1', ruleSet: { text: 'permit(principal, action, resource);' } });
    for (const argv of [
      [
        'rule',
        'add',
        'cedar',
        '--name',
        'x',
        '--action',
        'connect:tcp',
        '--resource',
        'x.test',
        '--decision',
        'allow',
      ],
      ['rule', 'list', 'cedar'],
      ['rule', 'delete', 'cedar', 'x', '--yes'],
    ]) {
      const r = await h.run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')[0]).toMatch(
        /^hubctl: policy "cedar" \(pol_0001\) is a cedar_v1 policy; hubctl manages rules of allowlist_v0 policies only$/,
      );
    }
    expect(h.gov().filter((q) => q.method !== 'GET')).toEqual([]);
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LintOptions, register as registerLint } from '../../../src/commands/policy/lint.js';
import { runCli } from '../../support/run-cli.js';
import { type GovHarness, parseWith, startGovHarness } from '../rule/gov-harness.js';

const register = registerLint as unknown as Parameters<typeof parseWith<[LintOptions]>>[0];

function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'hubctl-lint-')), name);
  writeFileSync(path, text);
  return path;
}

const NOISY = `name: noisy
rules:
  - name: wide
    actions: [connect:tcp]
    decision: allow
    resources: ["*.github.com", "**:443"]
`;

describe('policy lint: parsing', () => {
  it('takes files and live policies', async () => {
    expect(await parseWith(register, ['lint', '-f', 'a.yaml', 'egress'])).toEqual([
      [{ files: ['a.yaml'], policies: ['egress'] }],
    ]);
    await expect(parseWith(register, ['lint'])).rejects.toThrow('name a policy file with --file');
  });
});

describe('policy lint', () => {
  it('exits 0 on a clean file', async () => {
    expect(
      await runCli(['policy', 'lint', '-f', 'examples/network.yaml', '-f', 'examples/filesystem.yaml']),
    ).toEqual({
      code: 0,
      stdout: '',
      stderr: 'no problems found (2 policies, 12 rules)\n',
    });
  });

  it('exits 1 with one line per warning', async () => {
    const r = await runCli(['policy', 'lint', '-f', tempFile('noisy.yaml', NOISY)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        'warning: "*.github.com" in rule "wide" of policy "noisy" does not match github.com itself, and no rule allows it; add "github.com" if it should be allowed too [APEX_NOT_COVERED]',
        'warning: "**:443" in rule "wide" of policy "noisy" allows every host on port 443: the allowlist allows everything [ALLOW_ALL_HOSTS]',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe('2 warnings (1 policy, 1 rule)\n');
    const j = await runCli(['policy', 'lint', '-f', tempFile('noisy.yaml', NOISY), '--json']);
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout).warnings.map((w: { code: string }) => w.code)).toEqual([
      'APEX_NOT_COVERED',
      'ALLOW_ALL_HOSTS',
    ]);
  });

  it('exits 2 on an invalid file', async () => {
    const r = await runCli([
      'policy',
      'lint',
      '-f',
      tempFile(
        'bad.json',
        '{"name":"x","rules":[{"name":"r","actions":["connect:tcp"],"decision":"allow","resources":["a.*.com"]}]}',
      ),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('rules[0].resources[0]: invalid network resource "a.*.com"');
  });

  it('reports a rule it cannot evaluate (exit 1), and a numeric or URL form in a rule (exit 2)', async () => {
    const unknown = tempFile(
      'u.yaml',
      'name: egress\nrules:\n  - {name: block, actions: [connect:tcp, connect:icmp], decision: deny, resources: [evil.test]}\n',
    );
    expect(await runCli(['policy', 'lint', '-f', unknown])).toEqual({
      code: 1,
      stdout:
        'warning: rule "block" of policy "egress" cannot be evaluated: its action connect:icmp is not known to hubctl; `policy eval` refuses to decide while it is there [NOT_EVALUATED]\n',
      stderr: '1 warning (1 policy, 1 rule)\n',
    });
    for (const [resource, problem] of [
      [
        '0xa9fea9fe',
        'URL parsers and resolvers read it as 169.254.169.254, a service may read it as a name; write 169.254.169.254',
      ],
      ['https://evil.test/', 'a resource names a host, not a URL'],
    ]) {
      const f = tempFile(
        'n.yaml',
        `name: egress\nrules:\n  - {name: block, actions: [connect:tcp], decision: deny, resources: ["${resource}"]}\n`,
      );
      const r = await runCli(['policy', 'lint', '-f', f]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`rules[0].resources[0]: invalid network resource "${resource}"`);
      expect(r.stderr).toContain(problem);
    }
  });

  describe('live', () => {
    let h: GovHarness;
    beforeEach(async () => {
      h = await startGovHarness();
    });
    afterEach(() => h.close());
    it('lints a fetched policy by name', async () => {
      h.seed({
        name: 'egress',
        rules: [{ name: 'w', actions: ['write'], decision: 'allow', resources: ['/out/**'] }],
      });
      const r = await runCli(['policy', 'lint', 'egress'], { env: h.env });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('[WRITE_WITHOUT_READ]');
    });
  });
});

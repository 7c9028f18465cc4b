// Authored policy files are read strictly, and whatever is wrong with them is found before the
// first request (issue 20, items 4 and 7): exit 2, one sentence naming the file and the line with a
// "did you mean", and the hub emulator's request log stays empty (not even the token exchange).
// Before, `rulez` read as a policy with no rules, and apply deleted every live rule.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GovHarness, NET_RULE, startGovHarness } from '../rule/gov-harness.js';

let h: GovHarness;
let dir: string;
beforeEach(async () => {
  h = await startGovHarness();
  dir = mkdtempSync(join(tmpdir(), 'hubctl-strict-'));
});
afterEach(() => h.close());

const ruleLine = (n: number) =>
  `  - {name: r${n}, actions: [connect:tcp], decision: allow, resources: [h${n}.test]}\n`;

const DENY = { name: 'no-meta', actions: ['connect:tcp'], decision: 'deny', resources: ['169.254.169.254'] };
const DENY_YAML =
  '  - {name: no-meta, actions: [connect:tcp], decision: deny, resources: [169.254.169.254]}\n';

const CASES: [string, string | Buffer, string][] = [
  [
    'rulez.yaml',
    `name: egress\nrulez:\n${DENY_YAML}`,
    'rulez.yaml:2:1: unknown key "rulez" in a policy; did you mean "rules"?',
  ],
  [
    'teems.yaml',
    `name: egress\nscope:\n  teems: [6f1c2a3e-8d4b-4e5f-9a0b-1c2d3e4f5a6b]\nrules:\n${DENY_YAML}`,
    'teems.yaml:3:3: unknown key "teems" in a scope; did you mean "teams"?',
  ],
  [
    'twice.json',
    `{\n  "name": "egress",\n  "rules": [${JSON.stringify(DENY)}],\n  "rules": []\n}\n`,
    'twice.json:4:3: key "rules" is given twice in one object (first at line 3); did you mean to merge the two into one?',
  ],
  [
    'twice.yaml',
    `name: egress\nrules:\n${DENY_YAML}rules: []\n`,
    'twice.yaml:4:1: key "rules" is given twice in one mapping (first at line 2); did you mean to merge the two into one?',
  ],
  [
    'tag.yaml',
    `name: egress\nrules:\n  - !foo {name: no-meta, actions: [connect:tcp], decision: deny, resources: [169.254.169.254]}\n`,
    'tag.yaml:3:5: "!foo" is a YAML tag, which policy files do not use; did you mean the plain value without it, or a quoted string?',
  ],
  [
    'bomb.yaml',
    'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nname: egress\nrules: *c\n',
    'bomb.yaml:2:8: the alias *a is inside an anchored node (an alias bomb?); did you mean to write the values out?',
  ],
  [
    'aliases.yaml',
    `r: &r [x.test]\nname: egress\nrules:\n${'  - {name: a, actions: [connect:tcp], decision: deny, resources: *r}\n'.repeat(9)}`,
    'aliases.yaml:11:66: more than 8 YAML anchors and aliases; did you mean to write the values out?',
  ],
  [
    'latin1.yaml',
    Buffer.concat([
      Buffer.from(`name: egress\nrules:\n${DENY_YAML}# caf`),
      Buffer.from([0xe9]),
      Buffer.from('\n'),
    ]),
    'latin1.yaml:4: not valid UTF-8 (byte 0xe9, byte 6 of the line); did you mean to save the file as UTF-8?',
  ],
];

describe('strict authored files', () => {
  it.each(CASES)(
    '%s: exit 2 with the file, the line and a "did you mean", before any request',
    async (name, text, message) => {
      // the live policy holds a deny that a lenient reading of the file would delete
      h.seed({ name: 'egress', rules: [NET_RULE, DENY] });
      const f = join(dir, name);
      writeFileSync(f, text);
      for (const argv of [
        ['policy', 'apply', '-f', f, '--yes'],
        ['policy', 'diff', '-f', f],
        ['policy', 'lint', '-f', f],
        ['policy', 'eval', 'connect:tcp', '169.254.169.254:80', '-f', f],
      ]) {
        h.hub.clearRequests();
        const r = await h.run(argv);
        expect([argv[1], r.code, r.stdout, r.stderr]).toEqual([
          argv[1],
          2,
          '',
          `hubctl: ${f.replace(/[^/]*$/, '')}${message}\n`,
        ]);
        expect(h.hub.requests).toEqual([]);
      }
      expect(h.hub.state.policies[0]!.rules.map((r) => r.name)).toEqual(['github', 'no-meta']);
    },
  );

  it('reads the files `policy export` writes and `policy get --json` prints', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE, DENY] });
    let r = await h.run(['policy', 'export', '--all', '-o', dir]);
    expect(r.code, r.stderr).toBe(0);
    r = await h.run(['policy', 'export', '--all', '-o', join(dir, 'json'), '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    for (const f of [join(dir, 'egress.yaml'), join(dir, 'json', 'egress.json')]) {
      r = await h.run(['policy', 'diff', '-f', f]);
      expect([r.code, r.stderr]).toEqual([0, 'No changes: the organization matches the files.\n']);
    }
    r = await h.run(['policy', 'get', 'egress', '--json']);
    writeFileSync(join(dir, 'api.json'), r.stdout);
    r = await h.run(['policy', 'eval', 'connect:tcp', '169.254.169.254:80', '-f', join(dir, 'api.json')]);
    expect(r.code, r.stderr).toBe(3);
  });
});

describe('policy limits the files alone pass', () => {
  it('refuses a policy of 251 rules before any request: exit 2, not 6', async () => {
    h.seed({ name: 'egress', rules: [NET_RULE] });
    const f = join(dir, 'big.yaml');
    writeFileSync(f, `name: egress\nrules:\n${Array.from({ length: 251 }, (_, i) => ruleLine(i)).join('')}`);
    for (const argv of [
      ['policy', 'diff', '-f', f],
      ['policy', 'apply', '-f', f, '--yes'],
    ]) {
      h.hub.clearRequests();
      const r = await h.run(argv);
      expect([r.code, r.stderr]).toEqual([
        2,
        `hubctl: ${f}: policy "egress" has 251 rules; a policy holds at most 250\n`,
      ]);
      expect(h.hub.requests).toEqual([]);
    }
    // 250 is allowed
    writeFileSync(f, `name: egress\nrules:\n${Array.from({ length: 250 }, (_, i) => ruleLine(i)).join('')}`);
    const r = await h.run(['policy', 'diff', '-f', f]);
    expect(r.code, r.stderr).toBe(10);
  });

  it('refuses files holding over 100 policies before any request', async () => {
    const f = join(dir, 'many.yaml');
    writeFileSync(f, Array.from({ length: 101 }, (_, i) => `- {name: p${i}, rules: []}\n`).join(''));
    const r = await h.run(['policy', 'apply', '-f', f]);
    expect([r.code, r.stderr]).toEqual([
      2,
      'hubctl: the files hold 101 policies; an organization holds at most 100\n',
    ]);
    expect(h.hub.requests).toEqual([]);
  });
});

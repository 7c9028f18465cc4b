// Authored policy files are read strictly, and whatever is wrong with them is found before the
// first request (issue 20, items 4 and 7): exit 2, one sentence naming the file and the line, and
// the hub emulator's request log stays empty (not even the token exchange).
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

// Governance as code with the built bin/hubctl.js against the hub emulator (policy list in pages):
// export, apply with no change, edit, diff, apply, and diff shows nothing, with HTTP rules and a
// Cedar policy in the organization.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = join(ROOT, 'bin/hubctl.js');

let hub: HubEmulator;
let dir: string;
beforeAll(async () => {
  expect(existsSync(join(ROOT, 'dist/cli.js')), 'npm run build first').toBe(true);
  hub = await startHubEmulator({ policyPageSize: 2 });
  dir = mkdtempSync(join(tmpdir(), 'hubctl-gac-'));
});
afterAll(() => hub?.close());

function hubctl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    HUBCTL_CONFIG_DIR: dir,
    HUBCTL_BASE_URL: hub.url,
    HUBCTL_USERNAME: 'alice',
    HUBCTL_TOKEN: 'alice-password',
    HUBCTL_ORG: 'acme',
  };
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { env, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

const writes = () => hub.requests.filter((r) => r.path.includes('/governance/') && r.method !== 'GET');

it('round-trips an organization with HTTP rules and a Cedar policy', async () => {
  hub.seedPolicy('acme', {
    name: 'egress',
    rules: [
      { name: 'github', actions: ['connect:tcp'], decision: 'allow', resources: ['github.com:443'] },
      {
        name: 'gh-api',
        actions: ['request:get', 'request:head'],
        decision: 'allow',
        http_resources: [{ host: 'api.github.com', path: '/repos/**' }],
      },
      {
        name: 'no-admin',
        actions: ['request:delete'],
        decision: 'deny',
        http_resources: [{ host: 'api.github.com', port: 443, path: '/admin/**' }],
      },
    ],
  });
  hub.seedPolicy('acme', {
    name: 'cedar',
    type: 'cedar_v1',
    ruleSet: { text: 'forbid(principal, action, resource);' },
  });
  hub.seedPolicy('acme', {
    name: 'workspace',
    rules: [{ name: 'data', actions: ['read'], decision: 'allow', resources: ['/data/**'] }],
  });
  const out = join(dir, 'policies');
  let r = await hubctl(['policy', 'export', '--all', '-o', out]);
  expect(r.code, r.stderr).toBe(0);
  expect(readFileSync(join(out, 'cedar.yaml'), 'utf8')).toContain('forbid(principal, action, resource);');

  hub.clearRequests();
  r = await hubctl(['policy', 'apply', '-f', out]);
  expect([r.code, r.stderr]).toEqual([0, 'No changes: the organization matches the files.\n']);
  expect(writes()).toEqual([]);
  // the list came in pages
  expect(hub.requests.filter((q) => q.query.get('page_token')).length).toBeGreaterThan(0);

  const egress = join(out, 'egress.yaml');
  writeFileSync(egress, readFileSync(egress, 'utf8').replace('/repos/**', '/repos/*/issues'));
  writeFileSync(
    join(out, 'cedar.yaml'),
    readFileSync(join(out, 'cedar.yaml'), 'utf8').replace('forbid', 'permit'),
  );
  r = await hubctl(['policy', 'diff', '-f', out]);
  expect(r.code).toBe(10);
  expect(r.stdout).toBe(
    '~ policy "cedar": Cedar text changes [PATCH]\n' +
      '~   rule "gh-api" of policy "egress": http_resources: allow request:get,request:head "api.github.com/repos/**" → allow request:get,request:head "api.github.com/repos/*/issues" [PATCH]\n',
  );
  r = await hubctl(['policy', 'apply', '-f', out, '--json']);
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).applied).toHaveLength(2);
  r = await hubctl(['policy', 'diff', '-f', out]);
  expect([r.code, r.stdout]).toEqual([0, '']);
  hub.clearRequests();
  r = await hubctl(['policy', 'apply', '-f', out]);
  expect(r.code).toBe(0);
  expect(writes()).toEqual([]);
});

it('refuses a typo before any request: the live deny stays', async () => {
  hub.seedPolicy('acme', {
    name: 'guard',
    rules: [{ name: 'no-meta', actions: ['connect:tcp'], decision: 'deny', resources: ['169.254.169.254'] }],
  });
  const f = join(dir, 'guard.yaml');
  writeFileSync(
    f,
    'name: guard\nrulez:\n  - {name: no-meta, actions: [connect:tcp], decision: deny, resources: [169.254.169.254]}\n',
  );
  hub.clearRequests();
  const r = await hubctl(['policy', 'apply', '-f', f, '--yes']);
  expect([r.code, r.stdout, r.stderr]).toEqual([
    2,
    '',
    `hubctl: ${f}:2:1: unknown key "rulez" in a policy; did you mean "rules"?\n`,
  ]);
  expect(hub.requests).toEqual([]);
});

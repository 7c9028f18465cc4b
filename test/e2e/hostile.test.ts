// The built bin/hubctl.js in front of a hostile hub: what the in-process tests of
// test/cli/hostile-answers.test.ts check, once more through the real bundle and real pipes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVIL, EVIL_SHOWN, expectCleanFailure, expectNoRawControl } from '../support/hostile.js';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import type { RunResult } from '../support/run-cli.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = join(ROOT, 'bin/hubctl.js');
let hub: HubEmulator;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/cli.js'))) {
    const b = spawnSync('node', ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
    expect(b.status, b.stderr).toBe(0);
  }
  hub = await startHubEmulator();
});
afterAll(() => hub?.close());

function hubctl(args: string[]): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'hubctl-hostile-'));
  const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
  Object.assign(env, {
    HUBCTL_CONFIG_DIR: dir,
    HOME: dir,
    HUBCTL_BASE_URL: hub.url,
    HUBCTL_ORG: 'acme',
    HUBCTL_USERNAME: 'alice',
    HUBCTL_TOKEN: 'alice-password',
  });
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

describe('bin/hubctl.js in front of a hostile hub', () => {
  it('names with escape sequences are escaped in a pipe; a forged error line stays one line', async () => {
    hub.seedPolicy('acme', { name: EVIL, rules: [] });
    const list = await hubctl(['policy', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(EVIL_SHOWN);
    expectNoRawControl(list);
    hub.inject({ method: 'GET', path: '/v2/orgs/acme/governance/policies' }, [
      { status: 500, body: { error: { code: 'internal', message: EVIL } } },
      { status: 500, body: { error: { code: 'internal', message: EVIL } } },
      { status: 500, body: { error: { code: 'internal', message: EVIL } } },
      { status: 500, body: { error: { code: 'internal', message: EVIL } } },
    ]);
    const failed = await hubctl(['policy', 'list']);
    expectCleanFailure(failed, 7, /^hubctl: listing policies of org acme: the governance service failed/);
    expect(failed.stderr).toContain(EVIL_SHOWN);
  });

  it('token create answering {uuid: null, token: 12}: exit 7 and no "secret" on stdout', async () => {
    hub.inject({ method: 'POST', path: '/v2/access-tokens' }, [
      { status: 201, body: { uuid: null, token: 12 } },
    ]);
    const r = await hubctl(['token', 'create', '--label', 'ci', '--scope', 'repo:read']);
    expectCleanFailure(
      r,
      7,
      /^hubctl: creating an access token: unexpected answer from 127\.0\.0\.1:\d+: uuid/,
    );
  });

  it('a policy list of {data: "abc"}: exit 7, not three empty rows', async () => {
    hub.inject({ method: 'GET', path: '/v2/orgs/acme/governance/policies' }, [
      { status: 200, body: { data: 'abc' } },
    ]);
    const r = await hubctl(['policy', 'list']);
    expectCleanFailure(r, 7, /data: expected Array, got a string/);
  });
});

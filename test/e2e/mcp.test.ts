// MCP policies with the built bin/hubctl.js against the hub emulator: a Cedar policy created after
// its check, one refused with nothing sent, the organization's policy evaluated live, lint, and a
// batch mixing MCP and network requests.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = join(ROOT, 'bin/hubctl.js');
const EXAMPLE = join(ROOT, 'examples/mcp.cedar');

let hub: HubEmulator;
let dir: string;
beforeAll(async () => {
  expect(existsSync(join(ROOT, 'dist/cli.js')), 'npm run build first').toBe(true);
  hub = await startHubEmulator();
  dir = mkdtempSync(join(tmpdir(), 'hubctl-mcp-e2e-'));
});
afterAll(() => hub?.close());

function hubctl(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
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
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { env, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
    child.stdin?.end(input ?? '');
  });
}

it('refuses a Cedar text with a misspelt attribute, sending nothing; creates a good one; evaluates it live', async () => {
  const bad = join(dir, 'bad.cedar');
  writeFileSync(
    bad,
    'permit (principal, action == MCP::Action::"invokeTool", resource)\n  when { resource.readonly };\n',
  );
  const refused = await hubctl(['policy', 'create', 'mcp-tools', '--cedar', bad]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toBe(
    `hubctl: ${bad}:2: does not validate against the MCP schema: attribute \`readonly\` on entity type \`MCP::Tool\` not found; nothing was sent\n`,
  );
  expect(hub.requests).toEqual([]);

  const created = await hubctl(['policy', 'create', 'mcp-tools', '--cedar', EXAMPLE, '--json']);
  expect(created.code).toBe(0);
  expect(JSON.parse(created.stdout)).toMatchObject({
    name: 'mcp-tools',
    cedar_v1: { schema_url: 'https://schemas.docker.com/policy/cedar/v1/mcp/v0' },
  });

  const live = await hubctl([
    'policy',
    'eval',
    'mcp:invokeTool',
    'stripe/refund',
    '--policy',
    'mcp-tools',
    '--json',
  ]);
  expect(live.code).toBe(3);
  expect(JSON.parse(live.stdout)).toMatchObject({
    decision: 'approval-required',
    reason: 'payments move money',
  });

  const lint = await hubctl(['policy', 'lint', 'mcp-tools']);
  expect(lint).toMatchObject({ code: 0, stdout: '' });
});

it('decides a batch mixing MCP and network requests, in order', async () => {
  const input = [
    'mcp:invokeTool notion/search',
    'connect:tcp api.github.com:443',
    '{"action":"mcp:invokeTool","destination":"stripe/refund","args":{"amount":500}}',
    '{"action":"mcp:invokePrimordial","destination":"code-mode"}',
  ].join('\n');
  const r = await hubctl(
    ['policy', 'eval', '--batch', '-f', EXAMPLE, '-f', join(ROOT, 'examples/network.yaml')],
    input,
  );
  expect(r.code).toBe(0);
  expect(
    r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).decision),
  ).toEqual(['allow', 'allow', 'deny', 'allow']);
  expect(r.stderr).toBe('4 requests: 3 allowed, 1 denied, 0 malformed\n');
});

it('loads the Cedar engine for MCP work only (a network eval stays as light as it was)', async () => {
  const run = (args: string[]): string[] => {
    const trace = join(dir, `trace-${args[2]}.txt`);
    writeFileSync(trace, '');
    spawnSync(process.execPath, ['--import', join(ROOT, 'bench/trace-modules.mjs'), BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, HUBCTL_CONFIG_DIR: dir, HUBCTL_TRACE_FILE: trace },
    });
    return readFileSync(trace, 'utf8').split('\n');
  };
  const cedar = (lines: string[]) => lines.some((l) => l.includes('/node_modules/@cedar-policy/cedar-wasm/'));
  expect(
    cedar(
      run(['policy', 'eval', 'connect:tcp', 'api.github.com:443', '-f', join(ROOT, 'examples/network.yaml')]),
    ),
  ).toBe(false);
  expect(cedar(run(['policy', 'eval', 'mcp:invokeTool', 'notion/search', '-f', EXAMPLE]))).toBe(true);
});

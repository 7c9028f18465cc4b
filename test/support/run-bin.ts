// The real `bin/hubctl.js` in a child process (asynchronous, so servers in the test process keep
// answering), with an environment cleaned of the caller's HUBCTL_* and DOCKER_CONFIG.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = join(ROOT, 'bin/hubctl.js');

export interface BinResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm test` builds first; a bare `vitest run` on a fresh clone builds here. */
export function ensureBuilt(): void {
  if (existsSync(join(ROOT, 'dist/cli.js'))) return;
  const b = spawnSync('node', ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
}

export function runBin(args: string[], opts: { env?: Record<string, string>; stdin?: string } = {}) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('HUBCTL_') && k !== 'DOCKER_CONFIG') env[k] = v;
  Object.assign(env, opts.env);
  return new Promise<BinResult>((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(opts.stdin ?? '');
  });
}

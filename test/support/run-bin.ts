// The real `bin/hubctl.js` in a child process (asynchronous, so servers in the test process keep
// answering), with an environment cleaned of what the caller's own could change: HUBCTL_*,
// DOCKER_CONFIG, colours and proxies. Its peak memory is sampled from /proc while it runs.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = join(ROOT, 'bin/hubctl.js');

export interface BinResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident memory of the child (VmHWM, KiB), sampled until it exits; 0 where /proc is absent. */
  peakRssKiB: number;
}

/** `npm test` builds first; a bare `vitest run` on a fresh clone builds here. */
export function ensureBuilt(): void {
  if (existsSync(join(ROOT, 'dist/cli.js'))) return;
  const b = spawnSync('node', ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
}

const DROPPED = /^(HUBCTL_|DOCKER_CONFIG$|NO_COLOR$|FORCE_COLOR$|(HTTPS?|NO|ALL)_PROXY$)/i;

export function runBin(args: string[], opts: { env?: Record<string, string>; stdin?: string } = {}) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !DROPPED.test(k)) env[k] = v;
  Object.assign(env, opts.env);
  return new Promise<BinResult>((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peak = 0;
    const sample = () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peak = Math.max(peak, Number(m[1]));
      } catch {
        // exited, or no /proc
      }
    };
    const timer = setInterval(sample, 20);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('exit', sample);
    child.on('close', (code) => {
      clearInterval(timer);
      resolvePromise({ code, stdout, stderr, peakRssKiB: peak });
    });
    child.stdin.end(opts.stdin ?? '');
  });
}

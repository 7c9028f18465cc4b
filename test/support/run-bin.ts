// Runs the built bin/hubctl.js in a child process, with the environment a test gives and nothing
// of the runner's own that could change the outcome (HUBCTL_*, proxies, DOCKER_CONFIG, colours).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../bin/hubctl.js');

export interface BinResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Peak resident memory of the child (VmHWM, KiB), sampled until it exits; 0 where /proc is absent. */
  peakRssKiB: number;
}

const DROPPED = /^(HUBCTL_|DOCKER_CONFIG$|NO_COLOR$|FORCE_COLOR$|(HTTPS?|NO|ALL)_PROXY$)/i;

export function runBin(args: string[], env: Record<string, string>, stdin?: string): Promise<BinResult> {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !DROPPED.test(k)) childEnv[k] = v;
  Object.assign(childEnv, env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: childEnv, stdio: 'pipe' });
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
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
    });
    child.on('error', reject);
    child.on('exit', () => sample());
    child.on('close', (code) => {
      clearInterval(timer);
      resolve({ code: code ?? -1, stdout, stderr, peakRssKiB: peak });
    });
    child.stdin.end(stdin ?? '');
  });
}

// A real forward proxy for tests: Debian's tinyproxy on a free loopback port, its config and log in
// a temporary directory. No ConnectPort line, so CONNECT reaches any port (its packaged config
// allows only 443 and 563); Allow 127.0.0.1 only.
//
//   const proxy = await startTinyproxy();
//   proxy.url           // http://127.0.0.1:PORT
//   proxy.requests()    // ['CONNECT 127.0.0.1:4431', 'GET http://127.0.0.1:5000/v2/', …]
//   await proxy.stop();
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { reapDirectory, reapProcess } from './reaper.js';

export interface RunningProxy {
  url: string;
  port: number;
  /** Every request line the proxy received ("METHOD target"), in order. */
  requests(): string[];
  stop(): Promise<void>;
}

/** True when tinyproxy is on PATH; in CI (CI=true) its absence is an error, never a skip. */
export function tinyproxyAvailable(): boolean {
  const found = spawnSync('sh', ['-c', 'command -v tinyproxy'], { encoding: 'utf8' }).status === 0;
  if (!found && process.env.CI === 'true') {
    throw new Error('tinyproxy is not installed (apt-get install -y tinyproxy); it is required when CI=true');
  }
  return found;
}

export async function startTinyproxy(): Promise<RunningProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'hubctl-tinyproxy-'));
  const log = join(dir, 'tinyproxy.log');
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const conf = join(dir, 'tinyproxy.conf');
    writeFileSync(
      conf,
      [
        `Port ${port}`,
        'Listen 127.0.0.1',
        'Timeout 60',
        `LogFile "${log}"`,
        'LogLevel Connect',
        'MaxClients 50',
        'Allow 127.0.0.1',
        'DisableViaHeader Yes',
        '',
      ].join('\n'),
    );
    const child: ChildProcess = spawn('tinyproxy', ['-d', '-c', conf], { stdio: 'ignore' });
    const releaseProcess = reapProcess(child.pid ?? 0);
    if (await listening(port, child)) {
      const releaseDir = reapDirectory(dir);
      return {
        url: `http://127.0.0.1:${port}`,
        port,
        requests: () => {
          let text = '';
          try {
            text = readFileSync(log, 'utf8');
          } catch {
            return [];
          }
          return [...text.matchAll(/Request \(file descriptor \d+\): (\S+ \S+)/g)].map((m) => m[1] as string);
        },
        async stop() {
          if (child.exitCode === null) {
            const exited = new Promise((r) => child.once('exit', r));
            child.kill('SIGTERM');
            await exited;
          }
          releaseProcess();
          rmSync(dir, { recursive: true, force: true });
          releaseDir();
        },
      };
    }
    child.kill('SIGKILL');
    releaseProcess();
    if (attempt >= 3) throw new Error(`tinyproxy did not start (see ${log})`);
  }
}

async function listening(port: number, child: ChildProcess): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (child.exitCode !== null) return false;
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
